#!/usr/bin/env bash
# The library's cold start (dev.toolcalls.cli.FirstParse), one fresh JVM per run: for each
# format, the median over the runs of
#   jvm->main   the JVM's start to main (the time stamp of FirstParse's line in -Xlog:class+load),
#   main->out   main to the first parsed output: Formats.get(format) + one batch parse of the
#               format's first regression case that is a message (tests-data/FORMAT/),
#   get, parse  the two parts of main->out,
#   cpu         the processor time of the whole process (every thread) from its start to just
#               after the first output (a loaded machine disturbs it less than the times above),
#   classes     classes loaded from main to the first output (-Xlog:class+load), of which
#   from-jar    were read from the class path (the others come from a class-data archive).
# The first row, "-", is the baseline in the same run: a JVM that prints at once, without the
# library.
#
#   src/tests/bench/first-parse.sh [--runs N] [--formats a,b,...] [--cp CLASS_PATH] [-- JVM options]
#   src/tests/bench/first-parse.sh --runs 11 --formats hermes,mistral,deepseek_v3,qwen3_coder,pythonic
#   src/tests/bench/first-parse.sh -- -XX:TieredStopAtLevel=1
#   src/tests/bench/first-parse.sh -- -XX:SharedArchiveFile=target/toolcalls.jsa   # with the CLI's archive
#
# Needs only java: the class path is target/toolcalls.jar (mvn -B -q package -DskipTests; the
# library, antlr4-runtime and gson are in it, and a run loads only what the parse needs), or
# --cp (or TOOLCALLS_FIRST_PARSE_CP) naming one that holds the library and FirstParse. Without
# either, it builds the modules (mvn -pl src/cli -am compile) and runs the library alone on the
# class path: its classes, antlr4-runtime, gson and the CLI's classes for FirstParse.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
base=$(cd "$here/../../.." && pwd)
runs=7
formats=hermes,mistral,deepseek_v3,qwen3_coder,pythonic
while [ $# -gt 0 ]; do
    case "$1" in
        --runs) runs=$2; shift 2 ;;
        --formats) formats=$2; shift 2 ;;
        --cp) TOOLCALLS_FIRST_PARSE_CP=$2; shift 2 ;;
        --) shift; break ;;
        *) echo "unknown option $1" >&2; exit 2 ;;
    esac
done
if [ -n "${TOOLCALLS_FIRST_PARSE_CP:-}" ]; then
    cp=$TOOLCALLS_FIRST_PARSE_CP
elif [ -f "$base/target/toolcalls.jar" ]; then
    cp=$base/target/toolcalls.jar
else
    mkdir -p "$base/target"
    (cd "$base" && mvn -B -q -o -DskipTests -pl src/cli -am compile \
        org.apache.maven.plugins:maven-dependency-plugin:3.8.1:build-classpath \
        -Dmdep.outputFile="$base/target/first-parse.cp" -Dmdep.includeScope=compile) >&2
    libs=$(tr ':' '\n' < "$base/target/first-parse.cp" | grep -E '/(antlr4-runtime|gson)-[0-9.]+\.jar$' | sort -u | paste -sd: -)
    cp="$base/src/core/target/classes:$libs:$base/src/cli/target/classes"
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
        "${JAVA:-java}" "$@" -Xlog:class+load:stdout:uptimenanos,tags -cp "$cp" dev.toolcalls.cli.FirstParse "$f" "$text" > "$log"
        line=$(grep '^first-parse ' "$log")
        main=$(grep -m1 ' dev.toolcalls.cli.FirstParse ' "$log" | sed 's/^\[\([0-9]*\)ns\].*/\1/' | awk '{print int($1 / 1000000)}')
        classes=$(awk '/ dev.toolcalls.cli.FirstParse /{on=1; next} /^first-output$/{exit} on && /class,load/' "$log" | wc -l)
        jar=$(awk '/ dev.toolcalls.cli.FirstParse /{on=1; next} /^first-output$/{exit} on && /class,load/ && /source: (file|jar):/' "$log" | wc -l)
        line="$line jvm_to_main_ms=$main"
        echo "$line classes=$classes jar=$jar" >> "$log.rows"
    done
    col() { sed -n "s/.* $1=\([0-9.]*\).*/\1/p" "$log.rows" | median; }
    printf '| %s | %s | %s | %s | %s | %s | %s | %s |\n' "$f" "$(col jvm_to_main_ms)" "$(col main_ms)" \
        "$(col get_ms)" "$(col parse_ms)" "$(col cpu_ms)" "$(col classes)" "$(col jar)"
    rm -f "$log.rows"
done
