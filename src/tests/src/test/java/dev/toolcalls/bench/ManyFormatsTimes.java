package dev.toolcalls.bench;

import dev.toolcalls.Formats;

import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * Where the time goes when one JVM parses several formats: each format's corpus ({@link
 * Corpora#corpus}, 200 000 characters) parsed in batch in turn with the others, then alone in the
 * same JVM, in the parsing thread's processor time per character. Run with one format to have its
 * time in a JVM of its own.
 *
 * <pre>
 * java -Dturn=60 -Dalone=4 -cp CLASSPATH dev.toolcalls.bench.ManyFormatsTimes hermes,qwen3_coder,mistral
 * </pre>
 *
 * {@code -Dturn} is the seconds of parsing the corpora in turn (the last 60 % measured; default
 * 60), {@code -Dalone} the seconds each is then parsed alone (default 4). One line per format:
 * {@code FORMAT IN_TURN_NS ALONE_NS} (ns per character). A format parsed alone after the others
 * runs the code compiled for all of them with its own data alone in the caches: between its time in
 * turn and in a JVM of its own, it tells the two apart.
 */
public final class ManyFormatsTimes {
    private ManyFormatsTimes() {}

    public static void main(String[] args) {
        if (args.length != 1) throw new IllegalArgumentException("usage: ManyFormatsTimes a,b,...");
        String[] names = args[0].split(",");
        long turn = Long.getLong("turn", 60) * 1_000_000_000L;
        long alone = Long.getLong("alone", 4) * 1_000_000_000L;
        List<Corpora.Output> outputs = new ArrayList<>();
        for (String n : names) outputs.add(Corpora.corpus(Formats.get(n), 200_000));
        ThreadMXBean threads = ManagementFactory.getThreadMXBean();
        long[] inTurn = new long[names.length];
        long[] turnChars = new long[names.length];
        long began = System.nanoTime();
        long measureFrom = began + turn * 2 / 5;
        while (System.nanoTime() - began < turn) {
            boolean measured = System.nanoTime() >= measureFrom;
            for (int i = 0; i < outputs.size(); i++) {
                long t = threads.getCurrentThreadCpuTime();
                outputs.get(i).parse();
                if (measured) {
                    inTurn[i] += threads.getCurrentThreadCpuTime() - t;
                    turnChars[i] += outputs.get(i).length();
                }
            }
        }
        for (int i = 0; i < outputs.size(); i++) {
            Corpora.Output o = outputs.get(i);
            long cpu = 0;
            long chars = 0;
            for (long end = System.nanoTime() + alone; System.nanoTime() < end; ) {
                long t = threads.getCurrentThreadCpuTime();
                o.parse();
                cpu += threads.getCurrentThreadCpuTime() - t;
                chars += o.length();
            }
            System.out.printf(
                    Locale.ROOT,
                    "%s %.2f %.2f%n",
                    names[i],
                    inTurn[i] / (double) Math.max(1, turnChars[i]),
                    cpu / (double) Math.max(1, chars));
        }
    }
}
