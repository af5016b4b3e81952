package dev.toolcalls.bench;

import dev.toolcalls.ChatMessage;
import dev.toolcalls.Format;
import dev.toolcalls.Formats;
import dev.toolcalls.StreamParser;

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
 * Time to parse about 1 MB of a format's output, streamed in small chunks and in one piece. The
 * output is the format's own valid regression cases from {@code tests-data/<format>/}, joined by
 * newlines and repeated ({@link Corpora#corpus}), so any format can be measured without writing a
 * generator for it. Benchmarks: {@code streamInChunks} ({@code feed}, OpenAI deltas), {@code
 * streamEvents} ({@code feed}, what the matrix reports), {@code batch} ({@code Format.parse}).
 * Secondary results: {@code ·chars} ns per character, {@code ·chunks} ns per chunk.
 *
 * <p>Allocation: everything the benchmark does not measure (the corpus, its chunks, the options) is
 * built in setup, so with {@code -prof gc} the {@code gc.alloc.rate.norm} of {@code streamEvents}
 * is what parsing allocates per operation; divide it by the chunks (printed at setup) for bytes per
 * chunk.
 *
 * <pre>
 * mvn -B -q -Pbench -DskipTests test-compile exec:exec -Dbench.args="StreamingBenchmark -p format=hermes -p chunk=4 -prof gc"
 * </pre>
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Fork(1)
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 2)
public class StreamingBenchmark {
    @Param({"hermes"})
    public String format;

    /** Code points per chunk. */
    @Param({"1", "4", "64"})
    public int chunk;

    @Param({"1000000"})
    public int size;

    private Format f;
    private Corpora.Output corpus;
    private String text;
    private List<String> chunks;

    @Setup
    public void setUp() {
        f = Formats.get(format);
        corpus = Corpora.corpus(f, size);
        text = corpus.text();
        chunks = Corpora.chunks(text, chunk);
        System.out.printf(
                "%n%s corpus: %d chars, %d tool calls, %d chunks of %d%n",
                format, text.length(), corpus.expected().toolCalls().size(), chunks.size(), chunk);
    }

    @Benchmark
    public int streamInChunks(Counters.Chunks n) {
        n.chars += text.length();
        n.chunks += chunks.size();
        StreamParser s = f.newStream(corpus.tools(), corpus.options());
        int deltas = 0;
        for (String c : chunks) deltas += s.feed(c).size();
        return deltas + s.finish().size();
    }

    @Benchmark
    public int streamEvents(Counters.Chunks n) {
        n.chars += text.length();
        n.chunks += chunks.size();
        return corpus.stream(chunks);
    }

    @Benchmark
    public ChatMessage batch(Counters.Chars n) {
        n.chars += text.length();
        return corpus.parse();
    }
}
