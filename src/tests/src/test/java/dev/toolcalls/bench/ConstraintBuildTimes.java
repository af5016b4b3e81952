package dev.toolcalls.bench;

import dev.toolcalls.ConstraintOptions;
import dev.toolcalls.Format;
import dev.toolcalls.Formats;
import dev.toolcalls.Tools;

import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * The time to build a constraint with 20 tools ({@link ConstraintBenchmark#tools(int)}), default
 * options, for every format (or the formats named): per format, builds for a warm-up window, then
 * for a measured window, both in the building thread's processor time, and one line {@code FORMAT
 * MEDIAN_MS GRAMMAR_CHARS}.
 *
 * <pre>
 * java -Dw=1500 -cp "src/tests/target/test-classes:$(cat /tmp/cp.txt)" \
 *   dev.toolcalls.bench.ConstraintBuildTimes [format ...]
 * </pre>
 *
 * {@code -Dw} is each window in milliseconds (default 700).
 */
public final class ConstraintBuildTimes {
    private ConstraintBuildTimes() {}

    public static void main(String[] args) {
        Tools tools = Tools.parse(ConstraintBenchmark.tools(20));
        ThreadMXBean threads = ManagementFactory.getThreadMXBean();
        long window = Long.getLong("w", 700) * 1_000_000L;
        Set<String> only = new HashSet<>(Arrays.asList(args));
        List<Format> formats = new ArrayList<>(Formats.all());
        formats.sort(Comparator.comparing(Format::name));
        for (Format format : formats) {
            if (!only.isEmpty() && !only.contains(format.name())) continue;
            ConstraintOptions options = ConstraintOptions.defaults();
            long warm = threads.getCurrentThreadCpuTime() + window;
            while (threads.getCurrentThreadCpuTime() < warm) format.constraint(tools, options);
            List<Long> times = new ArrayList<>();
            long end = threads.getCurrentThreadCpuTime() + window;
            for (long t = threads.getCurrentThreadCpuTime(); t < end; ) {
                format.constraint(tools, options);
                long next = threads.getCurrentThreadCpuTime();
                times.add(next - t);
                t = next;
            }
            times.sort(null);
            System.out.printf(
                    "%s %.2f %d%n",
                    format.name(),
                    times.get(times.size() / 2) / 1e6,
                    format.constraint(tools, options).length());
        }
    }
}
