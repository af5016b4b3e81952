package dev.toolcalls.bench;

import dev.toolcalls.Format;
import dev.toolcalls.Formats;
import dev.toolcalls.IdGenerator;
import dev.toolcalls.ParseEvent;
import dev.toolcalls.ParseOptions;
import dev.toolcalls.StreamParser;
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

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * Degenerate outputs: one call whose name, argument key or number is a single token of {@code size}
 * code points (a model repeating itself), streamed in 4-character chunks and parsed in batch.
 * Linear streaming shows as stream/batch staying constant as the size grows 10x.
 *
 * <pre>mvn -B -q -Pbench -DskipTests test-compile exec:exec -Dbench.args="DegenerateBenchmark"
 * </pre>
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
@Fork(1)
@Warmup(iterations = 2, time = 2)
@Measurement(iterations = 3, time = 2)
public class DegenerateBenchmark {
    /** format:role */
    @Param({
        "hermes:name",
        "hermes:number",
        "glm47:name",
        "glm47:key",
        "qwen3_coder:key",
        "pythonic:number"
    })
    public String shape;

    @Param({"1000000", "10000000"})
    public int size;

    private Format f;
    private String text;
    private List<String> chunks;
    private final ParseOptions options =
            ParseOptions.defaults()
                    .withIds(() -> IdGenerator.seeded(0))
                    .withThinking(false)
                    .withMaxNameLength(Integer.MAX_VALUE)
                    .withMaxTokenLength(Integer.MAX_VALUE);

    static String output(String format, String role, int n) {
        String run = (role.equals("number") ? "7" : "f").repeat(n);
        switch (format + ":" + role) {
            case "hermes:name":
                return "<tool_call>{\"name\": \"" + run + "\", \"arguments\": {}}</tool_call>";
            case "hermes:number":
                return "<tool_call>{\"name\": \"f\", \"arguments\": {\"n\": "
                        + run
                        + "}}</tool_call>";
            case "glm47:name":
                return "<tool_call>"
                        + run
                        + "<arg_key>a</arg_key><arg_value>1</arg_value></tool_call>";
            case "glm47:key":
                return "<tool_call>f<arg_key>"
                        + run
                        + "</arg_key><arg_value>1</arg_value></tool_call>";
            case "qwen3_coder:key":
                return "<tool_call>\n<function=f>\n<parameter="
                        + run
                        + ">\n1\n</parameter>\n</function>\n</tool_call>";
            case "pythonic:number":
                return "[f(n=" + run + ")]";
            default:
                throw new IllegalArgumentException(format + ":" + role);
        }
    }

    @Setup
    public void setUp() {
        String[] fr = shape.split(":");
        f = Formats.get(fr[0]);
        text = output(fr[0], fr[1], size);
        chunks = new ArrayList<>();
        for (int i = 0; i < text.length(); i += 4)
            chunks.add(text.substring(i, Math.min(text.length(), i + 4)));
    }

    @Benchmark
    public int stream4() {
        StreamParser s = f.newStream(Tools.none(), options);
        int events = 0;
        for (String c : chunks) events += s.feed(c).size();
        List<ParseEvent> last = s.finish();
        return events + last.size();
    }

    @Benchmark
    public int batch() {
        return f.parseEvents(text, Tools.none(), options).size();
    }
}
