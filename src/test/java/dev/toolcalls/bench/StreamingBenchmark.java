package dev.toolcalls.bench;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

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

import dev.toolcalls.ChatMessage;
import dev.toolcalls.Format;
import dev.toolcalls.Formats;
import dev.toolcalls.IdGenerator;
import dev.toolcalls.ParseOptions;
import dev.toolcalls.StreamParser;
import dev.toolcalls.Tools;
import dev.toolcalls.suite.SuiteCase;

/**
 * Time to parse about 1 MB of a format's output, streamed in small chunks and in one piece. The
 * output is the format's own valid regression cases from {@code tests-data/<format>/}, joined by
 * newlines and repeated, so any format can be measured without writing a generator for it.
 * Divide the corpus size (printed at setup) by the time per operation for characters per second.
 *
 * <pre>mvn -B -q -Pbench -DskipTests test-compile exec:exec -Dbench.args="StreamingBenchmark -p format=hermes"</pre>
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
@Fork(1)
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 2)
public class StreamingBenchmark {
    @Param({"hermes"})
    public String format;

    @Param({"4"})
    public int chunk;

    @Param({"1000000"})
    public int size;

    private Format f;
    private String text;
    private List<String> chunks;
    private final ParseOptions options = ParseOptions.defaults().withIds(() -> IdGenerator.seeded(0));

    @Setup
    public void setUp() {
        f = Formats.get(format);
        List<String> valid = new ArrayList<>();
        for (SuiteCase c : SuiteCase.load(Path.of("tests-data")).getOrDefault(f.name(), List.of())) {
            if (c.expected().has("error") || c.expected().has("lenient") || c.expected().has("tools")) continue;
            try {
                f.parse(c.input() + "\n", Tools.none(), options);
                valid.add(c.input() + "\n");
            } catch (RuntimeException e) {
                // a case that only parses at the very end of an output (e.g. a false alarm tag prefix) is left out
            }
        }
        if (valid.isEmpty()) throw new IllegalStateException("no valid cases for " + format + " in tests-data");
        StringBuilder b = new StringBuilder();
        for (int i = 0; b.length() < size; i++) b.append(valid.get(i % valid.size()));
        text = b.toString();
        ChatMessage m = f.parse(text, Tools.none(), options);
        chunks = new ArrayList<>();
        for (int i = 0; i < text.length(); i += chunk) chunks.add(text.substring(i, Math.min(text.length(), i + chunk)));
        System.out.printf("%n%s corpus: %d chars, %d tool calls, %d chunks of %d%n", format, text.length(), m.toolCalls().size(), chunks.size(), chunk);
    }

    @Benchmark
    public int streamInChunks() {
        StreamParser s = f.newStream(Tools.none(), options);
        int deltas = 0;
        for (String c : chunks) deltas += s.feed(c).size();
        return deltas + s.finish().size();
    }

    @Benchmark
    public ChatMessage batch() {
        return f.parse(text, Tools.none(), options);
    }
}
