package dev.toolcalls.bench;

import dev.toolcalls.ChatMessage;
import dev.toolcalls.Format;
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
import org.openjdk.jmh.annotations.Threads;
import org.openjdk.jmh.annotations.Warmup;

import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * Throughput of threads that share one {@link Format} (as a server's request threads do), each
 * streaming its own copy of the format's corpus ({@link Corpora#corpus}) in {@code chunk}-sized
 * pieces, or parsing it in one piece. Throughput mode: {@code ·chars} is millions of characters per
 * second, summed over the threads. Set the thread count with JMH's {@code -t}: {@code -t 1} (the
 * default), {@code -t 2} (both cores of the development machine), {@code -t 16} (a larger machine;
 * use a smaller {@code size}, each thread holds its own chunks). Linear scaling means {@code
 * ·chars} at {@code -t N} is N times that at {@code -t 1} while there are cores.
 *
 * <pre>
 * mvn -B -q -Pbench -DskipTests test-compile exec:exec -Dbench.args="SharedFormatBenchmark -t 2 -p format=hermes"
 * </pre>
 */
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Fork(1)
@Threads(1)
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 2)
public class SharedFormatBenchmark {
    /** The format and corpus every thread uses. */
    @State(Scope.Benchmark)
    public static class Shared {
        @Param({"hermes"})
        public String format;

        @Param({"1000000"})
        public int size;

        @Param({"4"})
        public int chunk;

        Format f;
        Corpora.Output corpus;

        @Setup
        public void setUp() {
            f = Formats.get(format);
            corpus = Corpora.corpus(f, size);
            System.out.printf("%n%s, shared by the threads%n", corpus);
        }
    }

    /** A thread's own copy of the corpus and its chunks. */
    @State(Scope.Thread)
    public static class Own {
        Corpora.Output output;
        List<String> chunks;

        @Setup
        public void setUp(Shared s) {
            Corpora.Output c = s.corpus;
            String copy = new String(c.text().toCharArray()); // its own array, not the shared one
            output =
                    new Corpora.Output(
                            s.f, c.kind(), copy, c.tools(), c.options(), c.expected(), c.opener());
            chunks = Corpora.chunks(copy, s.chunk);
        }
    }

    @Benchmark
    public int stream(Own o, Counters.Chunks n) {
        n.chars += o.output.length();
        n.chunks += o.chunks.size();
        return o.output.stream(o.chunks);
    }

    @Benchmark
    public ChatMessage batch(Own o, Counters.Chars n) {
        n.chars += o.output.length();
        return o.output.parse();
    }
}
