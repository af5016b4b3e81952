#!/usr/bin/env bash
# Packs the benchmarks to run on another machine that has only a Java 17+ runtime (no Maven, no
# network): target/toolcalls-bench.tar.gz holds lib/ (the library's classes, the benchmark
# classes with JMH's generated code, antlr4-runtime, gson, JMH and its two dependencies),
# tests-data/ (the corpora are built from the cases) and matrix.sh.
#
#   src/tests/bench/bundle.sh
#   scp target/toolcalls-bench.tar.gz big-machine:
#   ssh big-machine 'tar xzf toolcalls-bench.tar.gz && toolcalls-bench/matrix.sh -- -f 1 -wi 3 -i 5'
#   ssh big-machine 'java -cp "toolcalls-bench/lib/*" -Dtoolcalls.tests=toolcalls-bench/tests-data org.openjdk.jmh.Main SharedFormatBenchmark -t 16'
#
# With --runtime, target/toolcalls-bench/jre also holds a Java runtime made with jlink from the
# JDK that runs this script (the modules the benchmarks use: about 35 MB), for a machine with no
# Java at all; the bundle is then run with toolcalls-bench/jre/bin/java.
#
#   src/tests/bench/bundle.sh --runtime
#   toolcalls-bench/jre/bin/java -Dsettled=true -Dforks=3 -Dfresh=64 -cp "toolcalls-bench/lib/*" \
#       dev.toolcalls.bench.ConstraintBuildTimes dots deepseek_v4 functiongemma mimo
set -euo pipefail
runtime=false
case "${1:-}" in
    --runtime) runtime=true ;;
    "") ;;
    *) echo "unknown option $1 (--runtime adds a Java runtime)" >&2; exit 2 ;;
esac
root=$(cd "$(dirname "$0")/../../.." && pwd)
cd "$root"
out=target/toolcalls-bench
rm -rf "$out" target/toolcalls-bench.tar.gz
mkdir -p "$out/lib"
mvn -B -q -Pbench -DskipTests -pl src/tests -am test-compile \
    org.apache.maven.plugins:maven-dependency-plugin:3.8.1:copy-dependencies \
    -DincludeScope=test -DincludeArtifactIds=antlr4-runtime,gson,jmh-core,jopt-simple,commons-math3 \
    -DoutputDirectory="$PWD/$out/lib"
jar --create --file "$out/lib/toolcalls.jar" -C src/core/target/classes .
# the benchmark package and JMH's list of benchmarks only (not the other tests, nor their test formats)
jar --create --file "$out/lib/toolcalls-bench.jar" -C src/tests/target/test-classes dev/toolcalls/bench \
    -C src/tests/target/test-classes META-INF/BenchmarkList -C src/tests/target/test-classes META-INF/CompilerHints
cp -r tests-data "$out/"
cp src/tests/bench/matrix.sh "$out/"
if $runtime; then
    # JMH and the benchmarks: logging, management (the threads' CPU time and allocated bytes),
    # sun.misc.Unsafe
    jlink --add-modules java.base,java.logging,java.management,jdk.management,jdk.unsupported \
        --strip-debug --no-header-files --no-man-pages --compress=2 --output "$out/jre"
fi
tar -czf target/toolcalls-bench.tar.gz -C target toolcalls-bench
echo "target/toolcalls-bench.tar.gz ($(du -h target/toolcalls-bench.tar.gz | cut -f1)): tar xzf it, then toolcalls-bench/matrix.sh [options] [-- JMH options]"
