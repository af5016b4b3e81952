package dev.toolcalls.bench;

import dev.toolcalls.ChatMessage;
import dev.toolcalls.Format;
import dev.toolcalls.Formats;

import java.lang.management.ManagementFactory;

/**
 * The cold start of the library, one format in a fresh JVM: the time from {@code main} to the first
 * parsed output ({@code Formats.get} of the format, then one batch parse of a short output), and
 * the time from the JVM's start to {@code main}. Run by {@code src/tests/bench/first-parse.sh},
 * which starts one JVM per run and counts the classes loaded before the output.
 *
 * <p>{@code java -cp CLASSES dev.toolcalls.bench.FirstParse FORMAT TEXT} prints, on one line,
 * {@code first-parse FORMAT main_ms=… get_ms=… parse_ms=… jvm_to_main_ms=… calls=N} after the line
 * {@code first-output}; nothing else is loaded before that line (the management classes that give
 * the JVM's start time are loaded after it).
 */
public final class FirstParse {
    private FirstParse() {}

    public static void main(String[] args) {
        long mainMillis = System.currentTimeMillis();
        long start = System.nanoTime();
        if (args[0].equals("-")) {
            // the baseline: a JVM that starts, prints and stops, with nothing of the library
            System.out.println("first-output");
            report("-", mainMillis, start, start, start, 0);
            return;
        }
        Format f = Formats.get(args[0]);
        long got = System.nanoTime();
        ChatMessage m = f.parse(args[1]);
        long parsed = System.nanoTime();
        System.out.println("first-output");
        report(args[0], mainMillis, start, got, parsed, m.toolCalls().size());
    }

    private static void report(
            String format, long mainMillis, long start, long got, long parsed, int calls) {
        // the process's processor time (every thread: the JVM's start, the compilers, the
        // collector) up to here, which a loaded machine disturbs less than wall time
        long cpu =
                ProcessHandle.current()
                        .info()
                        .totalCpuDuration()
                        .map(d -> d.toMillis())
                        .orElse(-1L);
        long jvmStart = ManagementFactory.getRuntimeMXBean().getStartTime();
        // formatted first, printed whole: classes loaded while formatting are logged before it
        String line =
                String.format(
                        "first-parse %s main_ms=%.2f get_ms=%.2f parse_ms=%.2f jvm_to_main_ms=%d cpu_ms=%d calls=%d",
                        format,
                        (parsed - start) / 1e6,
                        (got - start) / 1e6,
                        (parsed - got) / 1e6,
                        mainMillis - jvmStart,
                        cpu,
                        calls);
        System.out.println(line);
    }
}
