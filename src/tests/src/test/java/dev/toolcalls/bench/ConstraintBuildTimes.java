package dev.toolcalls.bench;

import dev.toolcalls.ConstraintOptions;
import dev.toolcalls.Format;
import dev.toolcalls.Formats;
import dev.toolcalls.Tools;

import java.io.IOException;
import java.lang.management.CompilationMXBean;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
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
 * {@code -Dw} is each window in milliseconds (default 700), {@code -Dwarm} the warm-up window alone
 * (default {@code w}). With {@code -Dprewarm=MS} every format named is built in turn for that many
 * milliseconds first, so that the first formats measured do not pay the builder's compilation. With
 * {@code -Dforks=N} each format is built in N JVMs of its own, one after the other, each warmed up
 * and measured as above (as JMH forks a JVM per benchmark), and its line gives the median of their
 * medians, then the least and the most: {@code FORMAT MEDIAN_MS GRAMMAR_CHARS MIN_MS MAX_MS}. With
 * {@code -Dfresh=N} the builds take N sets of 20 tools in turn, no two sharing a schema ({@link
 * ConstraintBenchmark#tools(int, int)}): the time to build for a tool set the library has not seen,
 * where a cache kept across builds cannot help (N = 64 passes any such cache's bound). With {@code
 * -Dsettled=true} a format's warm-up goes on past its window until the JIT compilers have spent
 * less than a hundredth of a second-long window compiling (at most two minutes): the builder's
 * methods that run once per build reach the optimizing compiler only after a few thousand builds,
 * so a fixed window of a few seconds measures partly compiled code. The line of the JVM that
 * measures then ends with the builds and the seconds the warm-up took: {@code FORMAT MEDIAN_MS
 * GRAMMAR_CHARS BUILDS SECONDS} (with {@code -Dforks}, each fork's).
 */
public final class ConstraintBuildTimes {
    private ConstraintBuildTimes() {}

    public static void main(String[] args) throws IOException, InterruptedException {
        Tools tools = Tools.parse(ConstraintBenchmark.tools(20));
        ThreadMXBean threads = ManagementFactory.getThreadMXBean();
        long window = Long.getLong("w", 700) * 1_000_000L;
        long warmup = Long.getLong("warm", window / 1_000_000L) * 1_000_000L;
        int forks = Integer.getInteger("forks", 0);
        int fresh = Integer.getInteger("fresh", 0);
        List<Tools> sets = new ArrayList<>();
        for (int r = 0; r < fresh; r++) sets.add(Tools.parse(ConstraintBenchmark.tools(20, r)));
        Set<String> only = new HashSet<>(Arrays.asList(args));
        List<Format> formats = new ArrayList<>(Formats.all());
        formats.sort(Comparator.comparing(Format::name));
        formats.removeIf(f -> !only.isEmpty() && !only.contains(f.name()));
        // the whole builder compiled first, over every format in turn
        long prewarm = threads.getCurrentThreadCpuTime() + Long.getLong("prewarm", 0) * 1_000_000L;
        for (int i = 0; forks == 0 && threads.getCurrentThreadCpuTime() < prewarm; i++)
            formats.get(i % formats.size())
                    .constraint(
                            fresh > 0 ? sets.get(i % fresh) : tools, ConstraintOptions.defaults());
        for (Format format : formats) {
            if (forks > 0) {
                forked(format.name(), forks);
                continue;
            }
            ConstraintOptions options = ConstraintOptions.defaults();
            long warm = threads.getCurrentThreadCpuTime() + warmup;
            int built = 0;
            long began = System.nanoTime();
            while (threads.getCurrentThreadCpuTime() < warm)
                format.constraint(fresh > 0 ? sets.get(built++ % fresh) : tools, options);
            if (Boolean.getBoolean("settled"))
                built = settle(format, options, fresh > 0 ? sets : List.of(tools), built);
            String settled =
                    Boolean.getBoolean("settled")
                            ? String.format(
                                    Locale.ROOT,
                                    " %d %.0f",
                                    built,
                                    (System.nanoTime() - began) / 1e9)
                            : "";
            List<Long> times = new ArrayList<>();
            long end = threads.getCurrentThreadCpuTime() + window;
            for (long t = threads.getCurrentThreadCpuTime(); t < end; ) {
                format.constraint(fresh > 0 ? sets.get(built++ % fresh) : tools, options);
                long next = threads.getCurrentThreadCpuTime();
                times.add(next - t);
                t = next;
            }
            times.sort(null);
            System.out.printf(
                    Locale.ROOT,
                    "%s %.2f %d%s%n",
                    format.name(),
                    times.get(times.size() / 2) / 1e6,
                    format.constraint(tools, options).length(),
                    settled);
        }
    }

    /**
     * Builds on, a second at a time, until the JIT compilers spent under 10 ms of one second
     * compiling, or two minutes have passed; returns the builds made so far.
     */
    private static int settle(
            Format format, ConstraintOptions options, List<Tools> sets, int built) {
        CompilationMXBean jit = ManagementFactory.getCompilationMXBean();
        long until = System.nanoTime() + 120_000_000_000L;
        while (System.nanoTime() < until) {
            long compiled = jit.getTotalCompilationTime();
            long second = System.nanoTime() + 1_000_000_000L;
            while (System.nanoTime() < second)
                format.constraint(sets.get(built++ % sets.size()), options);
            if (jit.getTotalCompilationTime() - compiled < 10) break;
        }
        return built;
    }

    /**
     * Builds {@code format} in {@code forks} JVMs of its own; prints the median, least and most.
     */
    private static void forked(String format, int forks) throws IOException, InterruptedException {
        List<Double> medians = new ArrayList<>();
        String chars = "";
        for (int f = 0; f < forks; f++) {
            List<String> command = new ArrayList<>();
            command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
            for (String p : List.of("w", "warm", "fresh", "settled"))
                if (System.getProperty(p) != null)
                    command.add("-D" + p + "=" + System.getProperty(p));
            command.addAll(
                    List.of(
                            "-cp",
                            System.getProperty("java.class.path"),
                            ConstraintBuildTimes.class.getName(),
                            format));
            Process p = new ProcessBuilder(command).redirectErrorStream(true).start();
            String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            if (p.waitFor() != 0) throw new IllegalStateException(format + ": " + out);
            String[] line = out.trim().split(" ");
            medians.add(Double.parseDouble(line[1]));
            chars = line[2];
        }
        medians.sort(null);
        System.out.printf(
                Locale.ROOT,
                "%s %.2f %s %.2f %.2f%n",
                format,
                medians.get(medians.size() / 2),
                chars,
                medians.get(0),
                medians.get(medians.size() - 1));
    }
}
