package dev.toolcalls.bench;

import dev.toolcalls.Formats;
import dev.toolcalls.StreamParser;

import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;
import java.util.Locale;

/**
 * Every format's time per character against hermes', for a machine too loaded for JMH's error bars:
 * the formats' outputs of one kind ({@link Corpora#corpus}, or a {@link Corpora#shape}) are parsed
 * in turn, one each per round, in one thread of one JVM, in batch or streamed in chunks of {@code
 * -Dchunk=N} code points; each parse is timed by the thread's processor time, the first three
 * rounds are warm-up, and each format's figure is the tenth percentile of its parses (the least
 * disturbed). Prints the formats slowest first: ns per character, M characters per second, ns per
 * chunk, and the multiple of hermes' time per character (so a load that slows every format alike
 * leaves the multiples as they are). A format without such an output (a shape it cannot take) is
 * named and left out.
 *
 * <p>System properties: {@code shape} ({@code corpus} by default, or a shape name), {@code size}
 * (characters, 100 000), {@code chunk} (0: batch), {@code seconds} (60 in all). Arguments: the
 * formats, comma-separated (every bundled one by default; hermes is added when missing).
 *
 * <pre>
 * java -Dchunk=4 -cp "src/tests/target/test-classes:$(cat /tmp/cp.txt)" dev.toolcalls.bench.FormatRatios
 * </pre>
 */
public final class FormatRatios {
    private FormatRatios() {}

    public static void main(String[] args) {
        String shape = System.getProperty("shape", "corpus");
        int size = Integer.getInteger("size", 100_000);
        int chunk = Integer.getInteger("chunk", 0);
        double seconds = Double.parseDouble(System.getProperty("seconds", "60"));
        List<String> names =
                new ArrayList<>(
                        args.length > 0
                                ? Arrays.asList(args[0].split(","))
                                : Corpora.formatNames());
        if (!names.contains("hermes")) names.add(0, "hermes");
        List<Corpora.Output> outputs = new ArrayList<>();
        List<List<String>> chunks = new ArrayList<>();
        for (String name : names) {
            try {
                Corpora.Output o =
                        shape.equals("corpus")
                                ? Corpora.corpus(Formats.get(name), size)
                                : Corpora.shape(Formats.get(name), shape, size);
                outputs.add(o);
                chunks.add(chunk > 0 ? Corpora.chunks(o.text(), chunk) : null);
            } catch (RuntimeException e) {
                System.err.println(name + ": left out: " + e.getMessage());
            }
        }
        ThreadMXBean mx = ManagementFactory.getThreadMXBean();
        List<List<Long>> times = new ArrayList<>();
        for (int i = 0; i < outputs.size(); i++) times.add(new ArrayList<>());
        long end = System.nanoTime() + (long) (seconds * 1e9);
        long sink = 0;
        for (int round = 0; System.nanoTime() < end; round++) {
            for (int i = 0; i < outputs.size(); i++) {
                Corpora.Output o = outputs.get(i);
                long t0 = mx.getCurrentThreadCpuTime();
                if (chunk == 0) sink += o.parse().toolCalls().size();
                else {
                    StreamParser s = o.format().newStream(o.tools(), o.options());
                    for (String c : chunks.get(i)) sink += s.feed(c).size();
                    sink += s.finish().size();
                }
                long t1 = mx.getCurrentThreadCpuTime();
                if (round >= 3) times.get(i).add(t1 - t0);
            }
        }
        double[] perChar = new double[outputs.size()];
        double hermes = Double.NaN;
        for (int i = 0; i < outputs.size(); i++) {
            List<Long> t = times.get(i);
            Collections.sort(t);
            perChar[i] =
                    t.isEmpty()
                            ? Double.NaN
                            : t.get(t.size() / 10) / (double) outputs.get(i).text().length();
            if (outputs.get(i).format().name().equals("hermes")) hermes = perChar[i];
        }
        Integer[] order = new Integer[outputs.size()];
        for (int i = 0; i < order.length; i++) order[i] = i;
        Arrays.sort(order, (a, b) -> Double.compare(perChar[b], perChar[a]));
        System.out.printf(
                Locale.ROOT,
                "%s, %d characters, %s, %d parses of each (tenth percentile of thread CPU)%n",
                shape,
                size,
                chunk == 0 ? "batch" : chunk + "-code-point chunks",
                times.isEmpty() ? 0 : times.get(0).size());
        System.out.println("| format | ns/char | M chars/s | ns/chunk | × hermes |");
        System.out.println("|---|---|---|---|---|");
        for (int i : order)
            System.out.printf(
                    Locale.ROOT,
                    "| %s | %.2f | %.1f | %s | %.2f× |%n",
                    outputs.get(i).format().name(),
                    perChar[i],
                    1e3 / perChar[i],
                    chunk == 0 ? "—" : String.format(Locale.ROOT, "%.1f", perChar[i] * chunk),
                    perChar[i] / hermes);
        if (sink == 42) System.out.println();
    }
}
