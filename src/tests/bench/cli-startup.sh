#!/usr/bin/env bash
# Whole-process start-up of the CLI against a Hello World, in the same run: the median wall time
# (milliseconds) over N runs of each, interleaved, of
#   hello        a Hello World: java -cp DIR Hello (compiled into a temporary folder when javac is
#                there; with a JRE alone, java -cp target/toolcalls.jar dev.toolcalls.cli.FirstParse,
#                whose main without arguments prints hello and nothing else),
#   parse        java -jar target/toolcalls.jar parse --format F CASE,
#   parse+cds    target/toolcalls parse --format F CASE (the launcher: the class-data archive
#                target/toolcalls.jsa the build writes), when the archive is there,
#   stream+cds   the same with --stream,
#   old+cds      with --old DIR: DIR/target/toolcalls parse --format F CASE (another build, e.g. of
#                another commit, in the same loop),
# for each format (CASE: the format's first regression case that is a message), and the median
# processor time (user + system, all of the JVM's threads) of each, which a loaded machine
# disturbs less than wall time. Needs java, the jar (mvn -B -q package -DskipTests, or a copy of
# target/ with toolcalls.jar, toolcalls.jsa and the launcher toolcalls) and /usr/bin/time; no Maven.
# JAVA (and JAVA_HOME for the launcher) chooses the java. --write-archive first writes the
# class-data archive with this java, as the build does (a dynamic archive holds only for the JDK
# and the jar path that wrote it: a copied target/ on another machine or JRE needs its own; the
# JRE needs its base archive, lib/server/classes.jsa, which java -Xshare:dump writes).
#
#   src/tests/bench/cli-startup.sh [--runs N] [--formats a,b,...] [--old DIR] [--write-archive]
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
base=$(cd "$here/../../.." && pwd)
runs=20
formats=hermes,mistral,qwen3_coder
old=""
write=no
while [ $# -gt 0 ]; do
    case "$1" in
        --runs) runs=$2; shift 2 ;;
        --formats) formats=$2; shift 2 ;;
        --old) old=$(cd "$2" && pwd); shift 2 ;;
        --write-archive) write=yes; shift ;;
        *) echo "unknown option $1" >&2; exit 2 ;;
    esac
done
java=${JAVA:-java}
jar=$base/target/toolcalls.jar
[ -f "$jar" ] || { echo "no $jar: run mvn -B -q package -DskipTests" >&2; exit 2; }
if [ $write = yes ]; then
    # what src/build/WriteClassArchive.java runs after the build's shade step
    rm -f "$base/target/toolcalls.jsa"
    "$java" -XX:ArchiveClassesAtExit="$base/target/toolcalls.jsa" -Xlog:cds=warning,cds+dynamic=warning \
        -cp "$jar" dev.toolcalls.cli.ClassArchiveTraining "$base/tests-data" >&2
    [ -x "$base/target/toolcalls" ] || { echo "no launcher $base/target/toolcalls" >&2; exit 2; }
fi
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
hello=("$java" -cp "$jar" dev.toolcalls.cli.FirstParse)
if command -v "${JAVAC:-javac}" > /dev/null; then
    printf 'public class Hello { public static void main(String[] a) { System.out.println("hello"); } }\n' > "$tmp/Hello.java"
    "${JAVAC:-javac}" -d "$tmp" "$tmp/Hello.java" && hello=("$java" -cp "$tmp" Hello)
fi
# one run: "wall_ms cpu_ms"
ms() {
    /usr/bin/time -f '%e %U %S' -o "$tmp/t" "$@" > /dev/null 2>&1 || true
    awk '{printf "%d %d\n", $1 * 1000, ($2 + $3) * 1000}' "$tmp/t"
}
median() { sort -n | awk '{a[NR]=$1} END {if (NR==0) print "-"; else if (NR%2) print a[(NR+1)/2]; else print (a[NR/2]+a[NR/2+1])/2}'; }
cds=no
[ -f "$base/target/toolcalls.jsa" ] && [ -x "$base/target/toolcalls" ] && cds=yes
printf '| format | time | hello | parse | parse+cds | stream+cds | old+cds | parse ÷ hello | parse+cds ÷ hello | old+cds ÷ hello |\n|---|---|---|---|---|---|---|---|---|---|\n'
for f in ${formats//,/ }; do
    input=""
    for t in $(ls "$base/tests-data/$f"/*.txt | sort); do
        if ! grep -q '"error"' "${t%.txt}.json" 2>/dev/null; then input=$t; break; fi
    done
    [ -n "$input" ] || { echo "no case for $f" >&2; continue; }
    : > "$tmp/h"; : > "$tmp/p"; : > "$tmp/c"; : > "$tmp/s"; : > "$tmp/o"
    for _ in $(seq "$runs"); do
        ms "${hello[@]}" >> "$tmp/h"
        ms "$java" -jar "$jar" parse --format "$f" "$input" >> "$tmp/p"
        if [ $cds = yes ]; then
            ms "$base/target/toolcalls" parse --format "$f" "$input" >> "$tmp/c"
            ms "$base/target/toolcalls" parse --format "$f" --stream "$input" >> "$tmp/s"
        fi
        [ -z "$old" ] || ms "$old/target/toolcalls" parse --format "$f" "$input" >> "$tmp/o"
    done
    ratio() { [ "$2" = - ] && echo - || awk -v a="$2" -v b="$1" 'BEGIN {printf "%.1f×", a / b}'; }
    for col in 1 2; do
        name=$([ $col = 1 ] && echo "wall ms" || echo "cpu ms")
        h=$(cut -d' ' -f$col "$tmp/h" | median); p=$(cut -d' ' -f$col "$tmp/p" | median)
        c=$(cut -d' ' -f$col "$tmp/c" | { grep . || true; } | median); s=$(cut -d' ' -f$col "$tmp/s" | { grep . || true; } | median)
        o=$(cut -d' ' -f$col "$tmp/o" | { grep . || true; } | median)
        printf '| %s | %s | %s | %s | %s | %s | %s | %s | %s | %s |\n' "$f" "$name" "$h" "$p" "$c" "$s" "$o" \
            "$(ratio "$h" "$p")" "$(ratio "$h" "$c")" "$(ratio "$h" "$o")"
    done
done
