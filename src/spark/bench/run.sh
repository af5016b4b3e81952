#!/usr/bin/env bash
# Rows per second of parse_tool_calls on Spark (local[1] and local[2]) against the regexp_extract_all + from_json a
# user writes for Hermes, and how many rows that regular expression gets wrong. Runs the shaded jar
# (target/toolcalls-spark-*.jar, ANTLR and Gson relocated) on Spark's own class path, with the antlr4-runtime that
# Spark's distribution ships (4.13.1) in place of the build's. Usage, from the repository root:
#   bash src/spark/bench/run.sh [ROWS]        (ROWS default 1000000)
set -euo pipefail
cd "$(dirname "$0")/../../.."
mvn=(mvn -B -q ${MVN_FLAGS:-})
# the test class path of the module: Spark (provided), the suite reader (toolcalls-tools), Gson, JUnit
"${mvn[@]}" -pl src/spark -am package -DskipTests dependency:build-classpath \
  -Dmdep.outputFile='${project.build.directory}/bench.classpath' >/dev/null
jar=$(ls src/spark/target/toolcalls-spark-*.jar | grep -v original)
antlr=$(tr ':' '\n' < src/spark/target/bench.classpath | grep 'antlr4-runtime-4.13.2.jar')
repo=${antlr%/org/antlr/*}
[ -f "$repo/org/antlr/antlr4-runtime/4.13.1/antlr4-runtime-4.13.1.jar" ] \
  || "${mvn[@]}" dependency:get -Dartifact=org.antlr:antlr4-runtime:4.13.1 >/dev/null
# the library only from the shaded jar (not core's classes), and Spark's own antlr4-runtime
cp="$jar:src/spark/target/test-classes:$(tr ':' '\n' < src/spark/target/bench.classpath \
  | grep -v '/src/core/target/classes$' \
  | sed "s#.*antlr4-runtime-4.13.2.jar#$repo/org/antlr/antlr4-runtime/4.13.1/antlr4-runtime-4.13.1.jar#" | paste -sd:)"
exec java -Xmx6g -XX:+IgnoreUnrecognizedVMOptions --add-modules=jdk.incubator.vector \
  --add-opens=java.base/java.lang=ALL-UNNAMED --add-opens=java.base/java.lang.invoke=ALL-UNNAMED \
  --add-opens=java.base/java.lang.reflect=ALL-UNNAMED --add-opens=java.base/java.io=ALL-UNNAMED \
  --add-opens=java.base/java.net=ALL-UNNAMED --add-opens=java.base/java.nio=ALL-UNNAMED \
  --add-opens=java.base/java.util=ALL-UNNAMED --add-opens=java.base/java.util.concurrent=ALL-UNNAMED \
  --add-opens=java.base/java.util.concurrent.atomic=ALL-UNNAMED --add-opens=java.base/jdk.internal.ref=ALL-UNNAMED \
  --add-opens=java.base/sun.nio.ch=ALL-UNNAMED --add-opens=java.base/sun.nio.cs=ALL-UNNAMED \
  --add-opens=java.base/sun.security.action=ALL-UNNAMED --add-opens=java.base/sun.util.calendar=ALL-UNNAMED \
  -Dio.netty.tryReflectionSetAccessible=true \
  -cp "$cp" dev.toolcalls.spark.SparkBench "$@"
