#!/usr/bin/env bash
# The README's benchmark matrix (dev.toolcalls.bench.BenchMatrix), printed as Markdown tables:
# every format x streaming its corpus in 1-, 4- and 64-character chunks and batch, and the
# synthetic shapes with their floors; on request many formats in one JVM, threads sharing a
# format, degenerate outputs.
#
#   src/tests/bench/matrix.sh [--formats a,b,...] [--parts corpus,shapes,many,threads,degenerate]
#       [--shapes prose,prose_cjk,longcall,longcall_cjk] [--corpus-size N] [--shape-size N]
#       [--threads 1,2] [--out FILE] [--table FILE] [--inputs DIR] [-- JMH options]
#   src/tests/bench/matrix.sh --merge FILE...
#
# Short settings, as on the shared 2-core machine:
#   src/tests/bench/matrix.sh --formats hermes,mistral -- -f 1 -wi 1 -w 1s -i 1 -r 1s -o /tmp/jmh.log
# Subsets of formats in parallel processes (one per core pair; each writes its rows), then one table:
#   src/tests/bench/matrix.sh --formats hermes,mistral --out /tmp/m1.tsv -- -o /tmp/m1.log &
#   src/tests/bench/matrix.sh --formats glm45,pythonic --out /tmp/m2.tsv -- -o /tmp/m2.log &
#   wait; src/tests/bench/matrix.sh --merge /tmp/m1.tsv /tmp/m2.tsv
#
# Class path, the first that applies:
#   - $TOOLCALLS_BENCH_CP;
#   - lib/*.jar beside this script: the bundle src/tests/bench/bundle.sh makes
#     (target/toolcalls-bench.tar.gz; another machine needs only a Java 17+ runtime);
#   - the Maven build of the repository this script lies in (compiles the tests first).
# The cases are read from tests-data/ beside the bundle's script, or of the repository.
# JAVA (default: java) and JAVA_OPTS choose the JVM that runs JMH; its forks use the same java.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
if [ -d "$here/lib" ]; then
    base=$here
    cp=${TOOLCALLS_BENCH_CP:-"$here/lib/*"}
else
    base=$(cd "$here/../../.." && pwd)
    if [ -z "${TOOLCALLS_BENCH_CP:-}" ]; then
        mkdir -p "$base/target"
        (cd "$base" && mvn -B -q -Pbench -DskipTests -pl src/tests -am test-compile \
            org.apache.maven.plugins:maven-dependency-plugin:3.8.1:build-classpath \
            -Dmdep.outputFile="$base/target/bench.cp" -Dmdep.includeScope=test) >&2
        cp="$base/src/tests/target/test-classes:$(cat "$base/target/bench.cp")"
    else
        cp=$TOOLCALLS_BENCH_CP
    fi
fi
# JMH forks inherit the -D options of this JVM
exec "${JAVA:-java}" ${JAVA_OPTS:-} -Dtoolcalls.tests="$base/tests-data" -cp "$cp" dev.toolcalls.bench.BenchMatrix "$@"
