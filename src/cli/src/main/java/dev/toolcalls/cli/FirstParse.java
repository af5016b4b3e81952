package dev.toolcalls.cli;

import dev.toolcalls.ChatMessage;
import dev.toolcalls.Format;
import dev.toolcalls.Formats;

/**
 * The cold start of the library, one format in a fresh JVM: the time from {@code main} to the first
 * parsed output ({@code Formats.get} of the format, then one batch parse of a short output). Run by
 * {@code src/tests/bench/first-parse.sh}, which starts one JVM per run, counts the classes loaded
 * before the output and takes the JVM's start to {@code main} from the class-load log; in the jar
 * so that a plain {@code java} runs it: {@code java -cp target/toolcalls.jar
 * dev.toolcalls.cli.FirstParse FORMAT TEXT}.
 *
 * <p>It prints, on one line, {@code first-parse FORMAT main_ms=… get_ms=… parse_ms=… cpu_ms=…
 * calls=N} after the line {@code first-output}; nothing else is loaded before that line. {@code
 * FirstParse -} is the baseline, a JVM that prints at once without the library; {@code FirstParse}
 * alone prints {@code hello} and nothing else (a Hello World for {@code cli-startup.sh}).
 */
public final class FirstParse {
    private FirstParse() {}

    public static void main(String[] args) {
        long start = System.nanoTime();
        if (args.length == 0) {
            System.out.println("hello");
            return;
        }
        if (args[0].equals("-")) {
            System.out.println("first-output");
            report("-", start, start, start, 0);
            return;
        }
        Format f = Formats.get(args[0]);
        long got = System.nanoTime();
        ChatMessage m = f.parse(args[1]);
        long parsed = System.nanoTime();
        System.out.println("first-output");
        report(args[0], start, got, parsed, m.toolCalls().size());
    }

    private static void report(String format, long start, long got, long parsed, int calls) {
        // the process's processor time (every thread: the JVM's start, the compilers, the
        // collector) up to here, which a loaded machine disturbs less than wall time
        long cpu = ProcessHandle.current().info().totalCpuDuration().orElseThrow().toMillis();
        // formatted first, printed whole: classes loaded while formatting are logged before it
        String line =
                String.format(
                        "first-parse %s main_ms=%.2f get_ms=%.2f parse_ms=%.2f cpu_ms=%d calls=%d",
                        format,
                        (parsed - start) / 1e6,
                        (got - start) / 1e6,
                        (parsed - got) / 1e6,
                        cpu,
                        calls);
        System.out.println(line);
    }
}
