package dev.toolcalls.bench;

import dev.toolcalls.ChatMessage;
import dev.toolcalls.Formats;

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
 * The synthetic shapes of any format (see {@link Corpora}), with the floors they are held to,
 * measured in the same run:
 *
 * <ul>
 *   <li>{@code prose}, {@code prose_cjk}: plain sentences with no marker (ASCII; Han characters
 *       with full-width punctuation and a few emoji), which come back as content;
 *   <li>{@code longcall}, {@code longcall_cjk}: one of the format's own cases with one call, its
 *       string argument replaced by a filler that makes the output {@code size} characters;
 *   <li>{@code calls}: short calls (the format's own one-call cases) with a sentence of prose
 *       between them, to {@code size} characters.
 * </ul>
 *
 * Benchmarks: {@code batch} ({@code Format.parse}), {@code stream4} ({@code feed} over chunks of 4
 * code points, then {@code finish}), {@code floorIndexOfOpener} (an {@code indexOf} loop over every
 * occurrence of the format's call opener, {@link Corpora#opener}, in the same text) and {@code
 * floorQuoteScan} (an {@code indexOf} loop over every {@code "} and {@code \}, the floor of the
 * long call). Secondary results: {@code ·chars} is ns per character, {@code ·chunks} ns per
 * 4-character chunk. Setup fails, naming the format, when a shape cannot be built for it or does
 * not parse as it must (a format that cannot take plain prose, one with no case for the long call):
 * JMH reports it and goes on with the other parameters.
 *
 * <pre>
 * mvn -B -q -Pbench -DskipTests test-compile exec:exec -Dbench.args="ShapeBenchmark -p format=hermes,mistral -p shape=prose,longcall -p size=1000000"
 * </pre>
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Fork(1)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
public class ShapeBenchmark {
    /** Any bundled format; these by default. */
    @Param({
        "hermes",
        "qwen3_coder",
        "mistral",
        "deepseek_v3",
        "glm45",
        "kimi_k2",
        "pythonic",
        "llama3_json"
    })
    public String format;

    @Param({"prose", "prose_cjk", "longcall", "longcall_cjk", "calls"})
    public String shape;

    /** Characters of the output ({@code String.length()}). */
    @Param({"1000", "100000", "1000000"})
    public int size;

    private Corpora.Output output;
    private String text;
    private String probe;
    private List<String> chunks;

    @Setup
    public void setUp() {
        output = Corpora.shape(Formats.get(format), shape, size);
        text = output.text();
        probe = output.probe();
        chunks = Corpora.chunks(text, 4);
        System.out.printf(
                "%n%s %s: %d chars, %d chunks of 4 code points, %d calls, opener %s (searched as %s), %d quotes and backslashes%n",
                format,
                shape,
                text.length(),
                chunks.size(),
                output.expected().toolCalls().size(),
                output.opener(),
                probe,
                Corpora.quoteScan(text));
    }

    @Benchmark
    public ChatMessage batch(Counters.Chars n) {
        n.chars += text.length();
        return output.parse();
    }

    @Benchmark
    public int stream4(Counters.Chunks n) {
        n.chars += text.length();
        n.chunks += chunks.size();
        return output.stream(chunks);
    }

    @Benchmark
    public int floorIndexOfOpener(Counters.Chars n) {
        n.chars += text.length();
        return Corpora.indexOfAll(text, probe);
    }

    @Benchmark
    public int floorQuoteScan(Counters.Chars n) {
        n.chars += text.length();
        return Corpora.quoteScan(text);
    }
}
