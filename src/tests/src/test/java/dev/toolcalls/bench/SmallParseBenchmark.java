package dev.toolcalls.bench;

import com.google.gson.JsonObject;

import dev.toolcalls.ChatMessage;
import dev.toolcalls.Format;
import dev.toolcalls.Formats;
import dev.toolcalls.ParseOptions;
import dev.toolcalls.StreamParser;
import dev.toolcalls.Tools;
import dev.toolcalls.suite.SuiteCase;

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

import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * The fixed cost of a parse: a short output (one sentence of prose, {@code -p text=prose}, or the
 * format's shortest valid case with one call, {@code -p text=call}) parsed whole ({@code batch}) or
 * fed as one chunk and finished ({@code stream}), with the default options (ids from the shared
 * strong source). With {@code -prof gc}, {@code gc.alloc.rate.norm} is what one parse allocates,
 * the result included.
 *
 * <pre>
 * mvn -B -q -Pbench -DskipTests test-compile exec:exec -Dbench.args="SmallParseBenchmark -p format=hermes -prof gc"
 * </pre>
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Fork(1)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
public class SmallParseBenchmark {
    @Param({"hermes"})
    public String format;

    @Param({"prose", "call"})
    public String text;

    private Format f;
    private String output;
    private Tools tools;
    private final ParseOptions options = ParseOptions.defaults();

    @Setup
    public void setUp() {
        f = Formats.get(format);
        if (text.equals("prose")) {
            output = "Hello! How can I help you today?";
            tools = Tools.none();
        } else {
            String shortest = null;
            for (SuiteCase c : Corpora.cases(f)) {
                JsonObject e = c.expected();
                if (e.has("error") || e.has("_problem") || e.has("tools") || c.lenient()) continue;
                if (shortest != null && c.input().length() >= shortest.length()) continue;
                try {
                    if (f.parse(c.input(), Tools.none(), options).toolCalls().size() == 1)
                        shortest = c.input();
                } catch (RuntimeException ex) {
                    // needs its own options: not this benchmark's input
                }
            }
            if (shortest == null)
                throw new IllegalStateException(format + " has no valid case with one call");
            output = shortest;
            tools = Tools.none();
        }
        ChatMessage m = f.parse(output, tools, options);
        System.out.printf(
                "%n%s %s: %d chars, %d tool calls%n",
                format, text, output.length(), m.toolCalls().size());
    }

    @Benchmark
    public ChatMessage batch() {
        return f.parse(output, tools, options);
    }

    @Benchmark
    public int stream() {
        StreamParser s = f.newStream(tools, options);
        List<?> a = s.feed(output);
        return a.size() + s.finish().size();
    }
}
