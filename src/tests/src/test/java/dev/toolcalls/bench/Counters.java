package dev.toolcalls.bench;

import org.openjdk.jmh.annotations.AuxCounters;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;

/**
 * JMH secondary results that make runs of different sizes compare: a benchmark adds the characters
 * (and chunks) it parsed in each operation, and JMH reports time per character ({@code ·chars}, ns)
 * and per chunk ({@code ·chunks}, ns) in average-time mode, or characters per microsecond, i.e.
 * millions per second, in throughput mode.
 */
public final class Counters {
    private Counters() {}

    /** Characters parsed. */
    @State(Scope.Thread)
    @AuxCounters(AuxCounters.Type.OPERATIONS)
    public static class Chars {
        public long chars;

        @Setup(Level.Iteration)
        public void reset() {
            chars = 0;
        }
    }

    /** Characters and chunks streamed. */
    @State(Scope.Thread)
    @AuxCounters(AuxCounters.Type.OPERATIONS)
    public static class Chunks {
        public long chars;
        public long chunks;

        @Setup(Level.Iteration)
        public void reset() {
            chars = 0;
            chunks = 0;
        }
    }
}
