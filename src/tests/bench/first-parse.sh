#!/usr/bin/env bash
# The library's cold start (dev.toolcalls.bench.FirstParse), one fresh JVM per run: for each
# format, the median over the runs of
#   jvm->main   the JVM's start to main (RuntimeMXBean's start time, whole milliseconds),
#   main->out   main to the first parsed output: Formats.get(format) + one batch parse of the
#               format's first regression case that is a message (tests-data/FORMAT/),
#   get, parse  the two parts of main->out,
#   cpu         the processor time of the whole process (every thread) from its start to just
#               after the first output (a loaded machine disturbs it less than the times above),
#   classes     classes loaded from main to the first output (-Xlog:class+load), of which
#   from-jar    were read from the class path (the others come from the JDK's class-data archive).
# The class path is the library alone: its classes, antlr4-runtime and gson. The first row, "-",
# is the baseline in the same run: a JVM that prints at once, without the library.
#
#   src/tests/bench/first-parse.sh [--runs N] [--formats a,b,...] [-- JVM options]
#   src/tests/bench/first-parse.sh --runs 11 --formats hermes,mistral,deepseek_v3,qwen3_coder,pythonic
#   src/tests/bench/first-parse.sh -- -XX:TieredStopAtLevel=1
#
# Builds the library and the tests first (mvn -pl src/tests -am test-compile); set
# TOOLCALLS_FIRST_PARSE_CP to a class path holding the library and this class to skip that.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
base=$(cd "$here/../../.." && pwd)
runs=7
formats=hermes,mistral,deepseek_v3,qwen3_coder,pythonic
while [ $# -gt 0 ]; do
    case "$1" in
        --runs) runs=$2; shift 2 ;;
        --formats) formats=$2; shift 2 ;;
        --) shift; break ;;
        *) echo "unknown option $1" >&2; exit 2 ;;
    esac
done
if [ -z "${TOOLCALLS_FIRST_PARSE_CP:-}" ]; then
    mkdir -p "$base/target"
    (cd "$base" && mvn -B -q -o -DskipTests -pl src/tests -am test-compile \
        org.apache.maven.plugins:maven-dependency-plugin:3.8.1:build-classpath \
        -Dmdep.outputFile="$base/target/first-parse.cp" -Dmdep.includeScope=test) >&2
    libs=$(tr ':' '\n' < "$base/target/first-parse.cp" | grep -E '/(antlr4-runtime|gson)-[0-9.]+\.jar$' | paste -sd: -)
    cp="$base/src/core/target/classes:$libs:$base/src/tests/target/test-classes"
else
    cp=$TOOLCALLS_FIRST_PARSE_CP
fi
median() { sort -n | awk '{a[NR]=$1} END {if (NR==0) print "-"; else if (NR%2) print a[(NR+1)/2]; else printf "%.2f\n", (a[NR/2]+a[NR/2+1])/2}'; }
log=$(mktemp)
trap 'rm -f "$log"' EXIT
printf '| format | jvm->main ms | main->out ms | get ms | parse ms | cpu ms | classes | from-jar |\n|---|---|---|---|---|---|---|---|\n'
for f in - ${formats//,/ }; do
    text=""
    if [ "$f" != - ]; then
        input=""
        for t in $(ls "$base/tests-data/$f"/*.txt | sort); do
            if ! grep -q '"error"' "${t%.txt}.json" 2>/dev/null; then input=$t; break; fi
        done
        [ -n "$input" ] || { echo "no case for $f" >&2; continue; }
        text=$(cat "$input")
    fi
    : > "$log.rows"
    for _ in $(seq "$runs"); do
        "${JAVA:-java}" "$@" -Xlog:class+load:stdout -cp "$cp" dev.toolcalls.bench.FirstParse "$f" "$text" > "$log"
        line=$(grep '^first-parse ' "$log")
        classes=$(awk '/dev.toolcalls.bench.FirstParse /{on=1; next} /^first-output$/{exit} on && /class,load/' "$log" | wc -l)
        jar=$(awk '/dev.toolcalls.bench.FirstParse /{on=1; next} /^first-output$/{exit} on && /class,load/ && /source: (file|jar):/' "$log" | wc -l)
        echo "$line classes=$classes jar=$jar" >> "$log.rows"
    done
    col() { sed -n "s/.* $1=\([0-9.]*\).*/\1/p" "$log.rows" | median; }
    printf '| %s | %s | %s | %s | %s | %s | %s | %s |\n' "$f" "$(col jvm_to_main_ms)" "$(col main_ms)" \
        "$(col get_ms)" "$(col parse_ms)" "$(col cpu_ms)" "$(col classes)" "$(col jar)"
    rm -f "$log.rows"
done
