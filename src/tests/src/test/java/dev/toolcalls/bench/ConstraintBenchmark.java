package dev.toolcalls.bench;

import dev.toolcalls.ConstraintOptions;
import dev.toolcalls.Format;
import dev.toolcalls.Formats;
import dev.toolcalls.Tools;

import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

import java.util.concurrent.TimeUnit;

/**
 * Building a format's GBNF constraint for a set of tools (the one-time cost per request set): 20
 * tools, each with a string, an integer, an enum, a boolean and a nested object parameter, two of
 * them required. Average time per build.
 *
 * <pre>
 * mvn -B -q -Pbench -DskipTests test-compile exec:exec -Dbench.args="ConstraintBenchmark -f 1 -wi 2 -w 1s -i 3 -r 1s"
 * </pre>
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
@Fork(1)
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 2)
@State(Scope.Benchmark)
public class ConstraintBenchmark {
    @Param({"hermes", "qwen3_coder", "glm47", "kimi_k2", "pythonic"})
    public String format;

    @Param({"20"})
    public int tools;

    Format f;
    Tools set;

    @Setup
    public void setUp() {
        f = Formats.get(format);
        set = Tools.parse(tools(tools));
        System.out.printf(
                "%n%s, %d tools: %d characters of GBNF%n",
                format, tools, f.constraint(set, ConstraintOptions.defaults()).length());
    }

    /** {@code n} tools of the same shape, different names. */
    static String tools(int n) {
        StringBuilder b = new StringBuilder("[");
        for (int i = 0; i < n; i++) {
            if (i > 0) b.append(',');
            b.append("{\"type\":\"function\",\"function\":{\"name\":\"tool_")
                    .append(i)
                    .append(
                            "\",\"parameters\":{\"type\":\"object\",\"properties\":{"
                                    + "\"query\":{\"type\":\"string\"},\"limit\":{\"type\":\"integer\"},"
                                    + "\"unit\":{\"type\":\"string\",\"enum\":[\"c\",\"f\"]},\"exact\":{\"type\":\"boolean\"},"
                                    + "\"filter\":{\"type\":\"object\",\"properties\":{\"from\":{\"type\":\"string\"},\"to\":{\"type\":\"string\"}}}},"
                                    + "\"required\":[\"query\",\"limit\"]}}}");
        }
        return b.append(']').toString();
    }

    @Benchmark
    public String build() {
        return f.constraint(set, ConstraintOptions.defaults());
    }
}
