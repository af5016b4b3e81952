package dev.toolcalls.bench;

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
import org.openjdk.jmh.infra.Blackhole;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * Many formats in one JVM, as a server loads several: {@code batchEach} / {@code stream4Each} parse
 * the corpora ({@link Corpora#corpus}) of the {@code formats} in turn, one each per operation;
 * {@code batchAlone} / {@code stream4Alone} parse only the corpus of {@code alone}, as many times.
 * JMH forks a JVM per benchmark and parameter set, and each setup builds (and so loads and runs)
 * only the formats its benchmark parses, so the "alone" runs see one format. The {@code ·chars}
 * results (ns per character) compare: with {@code -p alone=} each of the formats, the time of one
 * {@code Each} operation should be the sum of the {@code Alone} times divided by the number of
 * formats; more means a slowdown from sharing the JVM (profile pollution, megamorphic calls,
 * caches). {@code BenchMatrix --parts many} does this sum.
 *
 * <pre>
 * mvn -B -q -Pbench -DskipTests test-compile exec:exec -Dbench.args="ManyFormatsBenchmark -p size=100000 -p alone=hermes,mistral"
 * </pre>
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Fork(1)
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 2)
public class ManyFormatsBenchmark {
    /** The parameters, shared by both states. */
    @State(Scope.Benchmark)
    public static class Config {
        /**
         * The formats parsed in turn, separated by {@code +} (JMH splits parameter lists at
         * commas).
         */
        @Param({"hermes+qwen3_coder+mistral+deepseek_v3+glm45+kimi_k2+pythonic+llama3_json"})
        public String formats;

        /** The format parsed alone, as many times as there are {@code formats}. */
        @Param({"hermes"})
        public String alone;

        /** Characters of each corpus (at least). */
        @Param({"1000000"})
        public int size;

        List<String> names() {
            return List.of(formats.split("\\+"));
        }
    }

    /** The corpora of all the formats. */
    @State(Scope.Benchmark)
    public static class Mixed {
        final List<Corpora.Output> outputs = new ArrayList<>();
        final List<List<String>> chunks = new ArrayList<>();

        @Setup
        public void setUp(Config c) {
            for (String name : c.names()) {
                Corpora.Output o = Corpora.corpus(Formats.get(name), c.size);
                outputs.add(o);
                chunks.add(Corpora.chunks(o.text(), 4));
            }
            System.out.printf("%n%d corpora in turn: %s%n", outputs.size(), outputs);
        }
    }

    /** The corpus of one format, parsed as many times as there are formats. */
    @State(Scope.Benchmark)
    public static class Alone {
        Corpora.Output output;
        List<String> chunks;
        int times;

        @Setup
        public void setUp(Config c) {
            output = Corpora.corpus(Formats.get(c.alone), c.size);
            chunks = Corpora.chunks(output.text(), 4);
            times = c.names().size();
            System.out.printf("%n%s alone, %d times per operation%n", output, times);
        }
    }

    @Benchmark
    public void batchEach(Mixed m, Counters.Chars n, Blackhole bh) {
        for (Corpora.Output o : m.outputs) {
            n.chars += o.length();
            bh.consume(o.parse());
        }
    }

    @Benchmark
    public void batchAlone(Alone a, Counters.Chars n, Blackhole bh) {
        for (int i = 0; i < a.times; i++) {
            n.chars += a.output.length();
            bh.consume(a.output.parse());
        }
    }

    @Benchmark
    public void stream4Each(Mixed m, Counters.Chunks n, Blackhole bh) {
        for (int i = 0; i < m.outputs.size(); i++) {
            n.chars += m.outputs.get(i).length();
            n.chunks += m.chunks.get(i).size();
            bh.consume(m.outputs.get(i).stream(m.chunks.get(i)));
        }
    }

    @Benchmark
    public void stream4Alone(Alone a, Counters.Chunks n, Blackhole bh) {
        for (int i = 0; i < a.times; i++) {
            n.chars += a.output.length();
            n.chunks += a.chunks.size();
            bh.consume(a.output.stream(a.chunks));
        }
    }
}
