package dev.toolcalls.bench;

import dev.toolcalls.ConstraintOptions;
import dev.toolcalls.Format;
import dev.toolcalls.Formats;
import dev.toolcalls.Tools;

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
import org.openjdk.jmh.results.Result;
import org.openjdk.jmh.results.RunResult;
import org.openjdk.jmh.runner.Runner;
import org.openjdk.jmh.runner.RunnerException;
import org.openjdk.jmh.runner.options.CommandLineOptionException;
import org.openjdk.jmh.runner.options.CommandLineOptions;
import org.openjdk.jmh.runner.options.OptionsBuilder;

import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Collections;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.TimeUnit;

/**
 * Building a format's GBNF constraint for a set of tools (the one-time cost per request set): 10
 * and 20 tools, each with a string, an integer, an enum, a boolean and a nested object parameter,
 * two of them required, for a set of formats that covers JSON arguments, key/value arguments (typed
 * and untyped), Python calls, call ids and lists of calls. Average time per build, after warm-up.
 * With {@code -p sets=64} each build is of a tool set the library has not built before (64 sets in
 * turn, no two sharing a parameter name); by default the same set is built again and again.
 *
 * <p>Through JMH's own runner, as the other benchmarks:
 *
 * <pre>
 * mvn -B -q -o -Pbench -DskipTests test-compile exec:exec -Dbench.args="ConstraintBenchmark -f 1 -wi 2 -w 1s -i 3 -r 1s"
 * </pre>
 *
 * <p>or through {@link #main}, which takes the same JMH options (the formats and tool counts with
 * {@code -p format=a,b -p tools=20 -p sets=1,64}) and prints a Markdown table of build time and
 * grammar size per format, tool count and number of sets, also written to {@code
 * target/constraint-benchmark.md}. The table adds the median CPU time of the building thread per
 * build (after two seconds of it spent warming up), which a machine loaded by other work inflates
 * far less than JMH's wall time:
 *
 * <pre>
 * mvn -B -q -o -Pbench -DskipTests test-compile exec:exec -Dbench.main=dev.toolcalls.bench.ConstraintBenchmark -Dbench.args="-f 1 -wi 2 -w 1s -i 3 -r 1s"
 * </pre>
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
@Fork(1)
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 2)
@State(Scope.Benchmark)
public class ConstraintBenchmark {
    @Param({
        "hermes",
        "kimi_k2",
        "glm47",
        "qwen3_coder",
        "pythonic",
        "mistral",
        "deepseek_v3",
        "gpt_oss",
        "muse_glimmer"
    })
    public String format;

    @Param({"10", "20"})
    public int tools;

    /**
     * The tool sets built in turn: 1, the same set every time; more, sets no two of which share a
     * parameter name ({@link #tools(int, int)}), so that with 64 each build is of a set the library
     * has not seen (more sets than the caches kept across builds hold).
     */
    @Param({"1"})
    public int sets;

    Format f;
    Tools[] all;
    int next;

    @Setup
    public void setUp() {
        f = Formats.get(format);
        all = toolSets(tools, sets);
        System.out.printf(
                "%n%s, %d tools: %d characters of GBNF%n",
                format, tools, f.constraint(all[0], ConstraintOptions.defaults()).length());
    }

    /** {@code sets} tool sets of {@code n} tools each, as {@link #sets} describes. */
    static Tools[] toolSets(int n, int sets) {
        Tools[] out = new Tools[sets];
        for (int r = 0; r < sets; r++) out[r] = Tools.parse(sets == 1 ? tools(n) : tools(n, r));
        return out;
    }

    /**
     * {@code n} tools of the same shape, each with its own name and parameter names (tools of equal
     * schemas share their rules, so a set of one schema would measure less than a real one).
     */
    public static String tools(int n) {
        return tools(n, -1);
    }

    /**
     * The {@link #tools(int)} of set {@code round} (none where negative): every parameter's name
     * ends in the set's number too, so that no two sets share a schema and a build of one set can
     * take nothing over from a build of another.
     */
    public static String tools(int n, int round) {
        StringBuilder b = new StringBuilder("[");
        for (int i = 0; i < n; i++) {
            if (i > 0) b.append(',');
            String s = "_" + i + (round < 0 ? "" : "r" + round);
            b.append("{\"type\":\"function\",\"function\":{\"name\":\"tool_")
                    .append(i)
                    .append("\",\"parameters\":{\"type\":\"object\",\"properties\":{")
                    .append("\"query" + s + "\":{\"type\":\"string\"},")
                    .append("\"limit" + s + "\":{\"type\":\"integer\"},")
                    .append("\"unit" + s + "\":{\"type\":\"string\",\"enum\":[\"c\",\"f\"]},")
                    .append("\"exact" + s + "\":{\"type\":\"boolean\"},")
                    .append("\"filter" + s + "\":{\"type\":\"object\",\"properties\":{")
                    .append("\"from" + s + "\":{\"type\":\"string\"},")
                    .append("\"to" + s + "\":{\"type\":\"string\"}}}},")
                    .append("\"required\":[\"query" + s + "\",\"limit" + s + "\"]}}}");
        }
        return b.append(']').toString();
    }

    @Benchmark
    public String build() {
        Tools set = all[next];
        next = next + 1 == all.length ? 0 : next + 1;
        return f.constraint(set, ConstraintOptions.defaults());
    }

    /**
     * Runs this benchmark with the given JMH options and prints the table: per format and tool
     * count, the time per build and the grammar's size.
     */
    public static void main(String[] args)
            throws RunnerException, CommandLineOptionException, IOException {
        CommandLineOptions cli = new CommandLineOptions(args);
        Collection<RunResult> results =
                new Runner(
                                new OptionsBuilder()
                                        .parent(cli)
                                        .include(ConstraintBenchmark.class.getName() + ".build")
                                        .build())
                        .run();
        List<String> rows = new ArrayList<>();
        rows.add(
                "| format | tools | sets | ms per build | ± (99.9%) | CPU ms per build | GBNF characters | per tool |");
        rows.add("|---|---|---|---|---|---|---|---|");
        for (RunResult r : results) {
            String format = r.getParams().getParam("format");
            int n = Integer.parseInt(r.getParams().getParam("tools"));
            int sets = Integer.parseInt(r.getParams().getParam("sets"));
            Result<?> p = r.getPrimaryResult();
            Format f = Formats.get(format);
            Tools[] all = toolSets(n, sets);
            int size = f.constraint(all[0], ConstraintOptions.defaults()).length();
            rows.add(
                    String.format(
                            Locale.ROOT,
                            "| %s | %d | %d | %.3f | %.3f | %.3f | %d | %d |",
                            format,
                            n,
                            sets,
                            p.getScore(),
                            p.getScoreError(),
                            cpuMillis(f, all),
                            size,
                            size / n));
        }
        String table = String.join("\n", rows) + "\n";
        System.out.print(table);
        Path out = Path.of("target", "constraint-benchmark.md");
        Files.createDirectories(out.getParent());
        Files.writeString(out, table, StandardCharsets.UTF_8);
    }

    /**
     * The median CPU time of this thread per build, in milliseconds, over two seconds of it after
     * two seconds of warm-up.
     */
    static double cpuMillis(Format f, Tools[] sets) {
        ThreadMXBean threads = ManagementFactory.getThreadMXBean();
        long warm = threads.getCurrentThreadCpuTime() + 2_000_000_000L;
        int i = 0;
        while (threads.getCurrentThreadCpuTime() < warm)
            f.constraint(sets[i++ % sets.length], ConstraintOptions.defaults());
        List<Long> times = new ArrayList<>();
        long end = threads.getCurrentThreadCpuTime() + 2_000_000_000L;
        for (long t = threads.getCurrentThreadCpuTime(); t < end; ) {
            f.constraint(sets[i++ % sets.length], ConstraintOptions.defaults());
            long next = threads.getCurrentThreadCpuTime();
            times.add(next - t);
            t = next;
        }
        Collections.sort(times);
        return times.get(times.size() / 2) / 1e6;
    }
}
