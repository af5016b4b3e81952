package dev.toolcalls.bench;

import com.google.gson.Gson;
import com.google.gson.GsonBuilder;
import com.google.gson.JsonArray;
import com.google.gson.JsonObject;
import com.google.gson.JsonParser;

import dev.toolcalls.Format;
import dev.toolcalls.Formats;
import dev.toolcalls.ToolCall;

import org.openjdk.jmh.results.Result;
import org.openjdk.jmh.results.RunResult;
import org.openjdk.jmh.runner.Runner;
import org.openjdk.jmh.runner.RunnerException;
import org.openjdk.jmh.runner.options.ChainedOptionsBuilder;
import org.openjdk.jmh.runner.options.CommandLineOptionException;
import org.openjdk.jmh.runner.options.CommandLineOptions;
import org.openjdk.jmh.runner.options.OptionsBuilder;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.function.UnaryOperator;
import java.util.regex.Pattern;

/**
 * Runs the benchmark matrix of the README and prints it as Markdown tables: every format ×
 * streaming its corpus in 1-, 4- and 64-character chunks and batch ({@link StreamingBenchmark}),
 * the synthetic shapes with their floors ({@link ShapeBenchmark}), and on request many formats in
 * one JVM ({@link ManyFormatsBenchmark}), threads sharing a format ({@link SharedFormatBenchmark})
 * and the degenerate outputs ({@link DegenerateBenchmark}).
 *
 * <pre>
 * java -cp CLASSPATH dev.toolcalls.bench.BenchMatrix [--formats a,b,...] [--parts corpus,shapes,many,threads,degenerate]
 *      [--shapes prose,prose_cjk,longcall,longcall_cjk] [--corpus-size N] [--shape-size N] [--threads 1,2]
 *      [--out FILE] [--table FILE] [-- JMH options, e.g. -f 1 -wi 1 -w 1s -i 3 -r 1s -prof gc -o jmh.log]
 * java -cp CLASSPATH dev.toolcalls.bench.BenchMatrix --merge FILE...
 * </pre>
 *
 * Formats default to every bundled one; parts to {@code corpus,shapes}; {@code many} takes the
 * given formats when there are at most 8, else 8 common ones, and {@code threads} the given formats
 * when there are at most 8, else hermes. {@code --out} writes the measured rows (tab-separated) so
 * that subsets of formats run in separate processes, or on separate machines, can be merged into
 * one table with {@code --merge}. JMH options after {@code --} apply to every run ({@code -o FILE}
 * sends JMH's own progress there; the setup lines of its forks still come on standard output,
 * before the tables; {@code --table FILE} writes the tables alone to a file). {@code
 * src/tests/bench/matrix.sh} wraps this with the class path.
 */
public final class BenchMatrix {
    private BenchMatrix() {}

    /** One measured figure: part, row (a format), column, value, and its unit. */
    record Row(String part, String row, String column, double value, String unit) {
        String tsv() {
            return String.join("\t", part, row, column, Double.toString(value), unit);
        }

        static Row parse(String line) {
            String[] f = line.split("\t");
            if (f.length != 5) throw new IllegalArgumentException("not a matrix row: " + line);
            return new Row(f[0], f[1], f[2], Double.parseDouble(f[3]), f[4]);
        }
    }

    public static void main(String[] args) throws Exception {
        int dash = Arrays.asList(args).indexOf("--");
        String[] ours = dash < 0 ? args : Arrays.copyOfRange(args, 0, dash);
        String[] jmh = dash < 0 ? new String[0] : Arrays.copyOfRange(args, dash + 1, args.length);
        Map<String, String> opt = new LinkedHashMap<>();
        List<Path> merge = new ArrayList<>();
        for (int i = 0; i < ours.length; i++) {
            String a = ours[i];
            if (a.equals("--merge")) {
                while (i + 1 < ours.length && !ours[i + 1].startsWith("--"))
                    merge.add(Path.of(ours[++i]));
            } else if (a.equals("-h") || a.equals("--help")) {
                usage(System.out);
                return;
            } else if (a.startsWith("--") && i + 1 < ours.length) {
                opt.put(a.substring(2), ours[++i]);
            } else {
                usage(System.err);
                System.exit(2);
            }
        }
        Set<String> known =
                Set.of(
                        "formats",
                        "parts",
                        "shapes",
                        "corpus-size",
                        "shape-size",
                        "threads",
                        "out",
                        "table",
                        "inputs");
        for (String k : opt.keySet()) {
            if (!known.contains(k)) {
                System.err.println("unknown option --" + k);
                usage(System.err);
                System.exit(2);
            }
        }

        if (opt.containsKey("inputs")) {
            writeInputs(Path.of(opt.get("inputs")), opt);
            return;
        }
        List<Row> rows = new ArrayList<>();
        if (!merge.isEmpty()) {
            for (Path p : merge) rows.addAll(read(p));
        } else {
            CommandLineOptions cmd;
            try {
                cmd = new CommandLineOptions(jmh);
            } catch (CommandLineOptionException e) {
                System.err.println("JMH options: " + e.getMessage());
                System.exit(2);
                return;
            }
            List<String> formats =
                    opt.containsKey("formats")
                            ? List.of(opt.get("formats").split(","))
                            : Corpora.formatNames();
            Set<String> parts =
                    new LinkedHashSet<>(
                            List.of(opt.getOrDefault("parts", "corpus,shapes").split(",")));
            List<String> shapes =
                    List.of(
                            opt.getOrDefault("shapes", String.join(",", Corpora.SHAPES))
                                    .split(","));
            String corpusSize = opt.getOrDefault("corpus-size", "1000000");
            String shapeSize = opt.getOrDefault("shape-size", "1000000");
            Path out = opt.containsKey("out") ? Path.of(opt.get("out")) : null;
            for (String part : parts) {
                List<Row> got =
                        switch (part) {
                            case "corpus" -> corpus(cmd, formats, corpusSize);
                            case "shapes" -> shapes(cmd, formats, shapes, shapeSize);
                            case "many" -> many(cmd, formats, corpusSize);
                            case "threads" ->
                                    threads(
                                            cmd,
                                            formats,
                                            corpusSize,
                                            List.of(opt.getOrDefault("threads", "1,2").split(",")));
                            case "degenerate" -> degenerate(cmd);
                            default ->
                                    throw new IllegalArgumentException(
                                            "unknown part "
                                                    + part
                                                    + " (corpus, shapes, many, threads, degenerate)");
                        };
                rows.addAll(got);
                if (out != null) { // after each part, so a long run that dies keeps what it
                    // measured
                    List<String> lines = new ArrayList<>();
                    for (Row r : rows) lines.add(r.tsv());
                    Files.write(out, lines, StandardCharsets.UTF_8);
                }
            }
        }
        // JMH's forks print their setup lines on standard output too: the tables come last, after a
        // heading
        System.out.println();
        System.out.println("## Benchmark matrix");
        print(rows, System.out);
        if (opt.containsKey("table")) {
            try (PrintStream table =
                    new PrintStream(
                            Files.newOutputStream(Path.of(opt.get("table"))),
                            true,
                            StandardCharsets.UTF_8)) {
                print(rows, table);
            }
        }
    }

    private static void usage(PrintStream out) {
        out.println(
                "usage: BenchMatrix [--formats a,b,...] [--parts corpus,shapes,many,threads,degenerate] [--shapes prose,prose_cjk,longcall,longcall_cjk]");
        out.println(
                "                   [--corpus-size N] [--shape-size N] [--threads 1,2] [--out FILE] [--table FILE] [-- JMH options]");
        out.println("       BenchMatrix --merge FILE...");
        out.println(
                "       BenchMatrix --inputs DIR [--formats ...] [--parts corpus,shapes] [--shapes ...] [--corpus-size N] [--shape-size N,...]");
    }

    // ---------------------------------------------------------------- inputs for peers

    /**
     * Writes what the matrix measures, so that another parser can be run beside it on the same
     * inputs: per format, kind (corpus or shape) and size, {@code DIR/FORMAT/KIND-SIZE.txt} (the
     * output, UTF-8), {@code .chunks4.json} (its 4-code-point deltas, a JSON array of strings, as
     * the stream rows feed them), {@code .tools.json} (the request's tools, OpenAI JSON) and {@code
     * .expected.json} (the message toolcalls gives: content, reasoning_content, tool_calls with
     * name and arguments); {@code DIR/inputs.tsv} lists them. Nothing is timed.
     */
    private static void writeInputs(Path dir, Map<String, String> opt) throws IOException {
        List<String> formats =
                opt.containsKey("formats")
                        ? List.of(opt.get("formats").split(","))
                        : Corpora.formatNames();
        Set<String> parts =
                new LinkedHashSet<>(List.of(opt.getOrDefault("parts", "corpus,shapes").split(",")));
        List<String> shapes =
                List.of(opt.getOrDefault("shapes", String.join(",", Corpora.SHAPES)).split(","));
        Gson gson = new GsonBuilder().disableHtmlEscaping().create();
        List<String> index = new ArrayList<>(List.of("format\tkind\tsize\tchars\tfile"));
        for (String name : formats) {
            Format f = Formats.get(name);
            List<Corpora.Output> outputs = new ArrayList<>();
            try {
                if (parts.contains("corpus"))
                    for (String size : opt.getOrDefault("corpus-size", "1000000").split(","))
                        outputs.add(Corpora.corpus(f, Integer.parseInt(size)));
                if (parts.contains("shapes"))
                    for (String shape : shapes)
                        for (String size : opt.getOrDefault("shape-size", "1000000").split(","))
                            outputs.add(Corpora.shape(f, shape, Integer.parseInt(size)));
            } catch (RuntimeException e) {
                System.err.println(name + ": " + e.getMessage());
            }
            Path fd = Files.createDirectories(dir.resolve(name));
            for (Corpora.Output o : outputs) {
                String base = o.kind() + "-" + o.length();
                Files.writeString(fd.resolve(base + ".txt"), o.text(), StandardCharsets.UTF_8);
                Files.writeString(
                        fd.resolve(base + ".chunks4.json"),
                        gson.toJson(Corpora.chunks(o.text(), 4)),
                        StandardCharsets.UTF_8);
                JsonArray tools = new JsonArray();
                for (String tool : o.tools().names())
                    o.tools()
                            .functionJson(tool)
                            .ifPresent(j -> tools.add(JsonParser.parseString(j)));
                Files.writeString(
                        fd.resolve(base + ".tools.json"),
                        gson.toJson(tools),
                        StandardCharsets.UTF_8);
                JsonObject m = new JsonObject();
                m.addProperty("content", o.expected().content());
                m.addProperty("reasoning_content", o.expected().reasoningContent());
                JsonArray calls = new JsonArray();
                for (ToolCall c : o.expected().toolCalls()) {
                    JsonObject call = new JsonObject();
                    call.addProperty("name", c.name());
                    call.addProperty("arguments", c.arguments());
                    calls.add(call);
                }
                m.add("tool_calls", calls);
                Files.writeString(
                        fd.resolve(base + ".expected.json"),
                        gson.toJson(m),
                        StandardCharsets.UTF_8);
                index.add(
                        String.join(
                                "\t",
                                name,
                                o.kind(),
                                String.valueOf(o.length()),
                                String.valueOf(o.text().codePointCount(0, o.length())),
                                name + "/" + base + ".txt"));
            }
        }
        Files.write(dir.resolve("inputs.tsv"), index, StandardCharsets.UTF_8);
        System.out.println("wrote " + (index.size() - 1) + " inputs under " + dir);
    }

    // ---------------------------------------------------------------- running

    private static Collection<RunResult> run(
            CommandLineOptions cmd,
            Class<?> benchmark,
            String methods,
            Map<String, List<String>> params,
            int threads)
            throws RunnerException {
        ChainedOptionsBuilder b =
                new OptionsBuilder()
                        .parent(cmd)
                        .include(
                                "^" + Pattern.quote(benchmark.getName()) + "\\.(" + methods + ")$");
        for (Map.Entry<String, List<String>> p : params.entrySet())
            b.param(p.getKey(), p.getValue().toArray(String[]::new));
        if (threads > 0) b.threads(threads);
        return new Runner(b.build()).run();
    }

    private static String method(RunResult r) {
        String label = r.getParams().getBenchmark();
        return label.substring(label.lastIndexOf('.') + 1);
    }

    /**
     * A secondary result in nanoseconds (average time: time per counted unit), whatever -tu was.
     */
    private static double secondary(RunResult r, String name) {
        Result<?> s = r.getSecondaryResults().get(name);
        return s == null ? Double.NaN : nanos(s.getScore(), s.getScoreUnit());
    }

    /** A secondary result of a throughput run in millions per second. */
    private static double millionsPerSecond(RunResult r, String name) {
        Result<?> s = r.getSecondaryResults().get(name);
        if (s == null) return Double.NaN;
        String unit = s.getScoreUnit(); // ops/us, ops/ms, ...
        return s.getScore() * 1e-6 * 1e9 / nanos(1, unit.substring(unit.indexOf('/') + 1) + "/op");
    }

    /** The primary result in nanoseconds per operation. */
    private static double primary(RunResult r) {
        return nanos(r.getPrimaryResult().getScore(), r.getPrimaryResult().getScoreUnit());
    }

    private static double nanos(double score, String unit) {
        String u = unit.substring(0, unit.indexOf('/'));
        return switch (u) {
            case "ns" -> score;
            case "us" -> score * 1e3;
            case "ms" -> score * 1e6;
            case "s" -> score * 1e9;
            case "min" -> score * 60e9;
            default ->
                    throw new IllegalStateException(
                            "unknown unit "
                                    + unit
                                    + " (run BenchMatrix in average-time mode, the benchmarks' default)");
        };
    }

    private static List<Row> corpus(CommandLineOptions cmd, List<String> formats, String size)
            throws RunnerException {
        List<Row> rows = new ArrayList<>();
        List<RunResult> results =
                new ArrayList<>(
                        run(
                                cmd,
                                StreamingBenchmark.class,
                                "streamEvents",
                                Map.of(
                                        "format",
                                        formats,
                                        "chunk",
                                        List.of("1", "4", "64"),
                                        "size",
                                        List.of(size)),
                                0));
        results.addAll(
                run(
                        cmd,
                        StreamingBenchmark.class,
                        "batch",
                        Map.of("format", formats, "chunk", List.of("4"), "size", List.of(size)),
                        0));
        for (RunResult r : results) {
            String format = r.getParams().getParam("format");
            String column =
                    method(r).equals("batch")
                            ? "batch"
                            : "stream" + r.getParams().getParam("chunk");
            rows.add(new Row("corpus", format, column, secondary(r, "chars"), "ns/char"));
            if (!column.equals("batch"))
                rows.add(
                        new Row(
                                "corpus",
                                format,
                                column + ".chunk",
                                secondary(r, "chunks"),
                                "ns/chunk"));
            alloc(r, "corpus", format, column).ifPresent(rows::add);
        }
        return rows;
    }

    /** With {@code -prof gc}: bytes allocated per chunk (per character in batch). */
    private static Optional<Row> alloc(RunResult r, String part, String row, String column) {
        Result<?> gc = r.getSecondaryResults().get("gc.alloc.rate.norm");
        if (gc == null) return Optional.empty();
        double norm = gc.getScore(); // B/op
        double perOp = primary(r);
        boolean chunked = r.getSecondaryResults().containsKey("chunks");
        double units =
                perOp
                        / secondary(
                                r, chunked ? "chunks" : "chars"); // chunks (or chars) per operation
        return Optional.of(
                new Row(
                        part,
                        row,
                        column + ".alloc",
                        norm / units,
                        chunked ? "B/chunk" : "B/char"));
    }

    private static List<Row> shapes(
            CommandLineOptions cmd, List<String> formats, List<String> shapes, String size)
            throws RunnerException {
        List<Row> rows = new ArrayList<>();
        List<String> sizes = List.of(size.split(","));
        for (RunResult r :
                run(
                        cmd,
                        ShapeBenchmark.class,
                        "batch|stream4|floorIndexOfOpener|floorQuoteScan",
                        Map.of("format", formats, "shape", shapes, "size", sizes),
                        0)) {
            String part = "shape:" + r.getParams().getParam("shape");
            String format =
                    r.getParams().getParam("format")
                            + (sizes.size() > 1 ? " " + r.getParams().getParam("size") : "");
            String m = method(r);
            rows.add(new Row(part, format, m, secondary(r, "chars"), "ns/char"));
            if (m.equals("stream4"))
                rows.add(
                        new Row(part, format, "stream4.chunk", secondary(r, "chunks"), "ns/chunk"));
            alloc(r, part, format, m).ifPresent(rows::add);
        }
        return rows;
    }

    private static List<Row> many(CommandLineOptions cmd, List<String> formats, String size)
            throws RunnerException {
        List<String> eight =
                formats.size() > 8
                        ? List.of(
                                "hermes",
                                "qwen3_coder",
                                "mistral",
                                "deepseek_v3",
                                "glm45",
                                "kimi_k2",
                                "pythonic",
                                "llama3_json")
                        : formats;
        String joined = String.join("+", eight);
        List<Row> rows = new ArrayList<>();
        // an Each run does not depend on "alone": run it once
        List<RunResult> results =
                new ArrayList<>(
                        run(
                                cmd,
                                ManyFormatsBenchmark.class,
                                "batchEach|stream4Each",
                                Map.of(
                                        "formats",
                                        List.of(joined),
                                        "alone",
                                        List.of(eight.get(0)),
                                        "size",
                                        List.of(size)),
                                0));
        results.addAll(
                run(
                        cmd,
                        ManyFormatsBenchmark.class,
                        "batchAlone|stream4Alone",
                        Map.of("formats", List.of(joined), "alone", eight, "size", List.of(size)),
                        0));
        for (RunResult r : results) {
            String m = method(r);
            String row = m.endsWith("Each") ? "in turn" : r.getParams().getParam("alone");
            String kind = m.startsWith("batch") ? "batch" : "stream4";
            rows.add(new Row("many", row, kind, primary(r), "ns/op"));
            rows.add(new Row("many", row, kind + ".char", secondary(r, "chars"), "ns/char"));
        }
        return rows;
    }

    private static List<Row> threads(
            CommandLineOptions cmd, List<String> all, String size, List<String> threads)
            throws RunnerException {
        List<String> formats = all.size() > 8 ? List.of("hermes") : all;
        List<Row> rows = new ArrayList<>();
        for (String t : threads)
            for (RunResult r :
                    run(
                            cmd,
                            SharedFormatBenchmark.class,
                            "stream|batch",
                            Map.of("format", formats, "size", List.of(size), "chunk", List.of("4")),
                            Integer.parseInt(t)))
                rows.add(
                        new Row(
                                "threads",
                                r.getParams().getParam("format"),
                                method(r) + ".t" + t,
                                millionsPerSecond(r, "chars"),
                                "M chars/s"));
        return rows;
    }

    private static List<Row> degenerate(CommandLineOptions cmd) throws RunnerException {
        List<Row> rows = new ArrayList<>();
        for (RunResult r : run(cmd, DegenerateBenchmark.class, "stream4|batch", Map.of(), 0))
            rows.add(
                    new Row(
                            "degenerate",
                            r.getParams().getParam("shape"),
                            method(r) + "." + r.getParams().getParam("size"),
                            primary(r) / 1e6,
                            "ms/op"));
        return rows;
    }

    // ---------------------------------------------------------------- tables

    /** The figures of one part: row -> column -> value. */
    private static Map<String, Map<String, Double>> table(List<Row> rows, String part) {
        Map<String, Map<String, Double>> t = new TreeMap<>();
        for (Row r : rows)
            if (r.part().equals(part))
                t.computeIfAbsent(r.row(), k -> new LinkedHashMap<>()).put(r.column(), r.value());
        return t;
    }

    static void print(List<Row> rows, PrintStream out) {
        Set<String> parts = new TreeSet<>();
        for (Row r : rows) parts.add(r.part());
        if (parts.contains("corpus")) printCorpus(table(rows, "corpus"), out);
        for (String shape : Corpora.SHAPES)
            if (parts.contains("shape:" + shape))
                printShape(shape, table(rows, "shape:" + shape), out);
        if (parts.contains("many")) printMany(table(rows, "many"), out);
        if (parts.contains("threads")) printThreads(table(rows, "threads"), out);
        if (parts.contains("degenerate")) printDegenerate(table(rows, "degenerate"), out);
    }

    private static String mps(Double nsPerChar) { // M chars/s
        return nsPerChar == null || nsPerChar.isNaN() ? "—" : fmt(1000 / nsPerChar);
    }

    private static String fmt(Double v) {
        if (v == null || v.isNaN() || v.isInfinite()) return "—";
        double a = Math.abs(v);
        return String.format(
                Locale.ROOT, a >= 100 ? "%.0f" : a >= 10 ? "%.1f" : a >= 1 ? "%.2f" : "%.3f", v);
    }

    private static String ratio(Double v, Double base) {
        return v == null || base == null || v.isNaN() || base.isNaN() ? "—" : fmt(v / base) + "×";
    }

    private static void printCorpus(Map<String, Map<String, Double>> t, PrintStream out) {
        Map<String, Double> hermes = t.get("hermes");
        boolean alloc = t.values().stream().anyMatch(c -> c.containsKey("stream4.alloc"));
        out.println();
        out.println(
                "Corpus (each format's own valid cases, repeated): M characters/s; ns per 4-character chunk; time per character relative to hermes");
        out.println();
        out.println(
                "| format | stream 1 | stream 4 | stream 64 | batch | ns/chunk (4) | ×hermes stream 4 | ×hermes batch |"
                        + (alloc ? " B/chunk (4) |" : ""));
        out.println("|---|---|---|---|---|---|---|---|" + (alloc ? "---|" : ""));
        for (Map.Entry<String, Map<String, Double>> e : t.entrySet()) {
            Map<String, Double> c = e.getValue();
            out.println(
                    "| "
                            + e.getKey()
                            + " | "
                            + mps(c.get("stream1"))
                            + " | "
                            + mps(c.get("stream4"))
                            + " | "
                            + mps(c.get("stream64"))
                            + " | "
                            + mps(c.get("batch"))
                            + " | "
                            + fmt(c.get("stream4.chunk"))
                            + " | "
                            + ratio(c.get("stream4"), hermes == null ? null : hermes.get("stream4"))
                            + " | "
                            + ratio(c.get("batch"), hermes == null ? null : hermes.get("batch"))
                            + " |"
                            + (alloc ? " " + fmt(c.get("stream4.alloc")) + " |" : ""));
        }
    }

    private static void printShape(
            String shape, Map<String, Map<String, Double>> t, PrintStream out) {
        boolean longCall = shape.startsWith("longcall");
        String floor = longCall ? "floorQuoteScan" : "floorIndexOfOpener";
        Map<String, Double> hermes = t.get("hermes");
        out.println();
        out.println(
                "Shape "
                        + shape
                        + ": M characters/s; batch and stream as multiples of the floor ("
                        + (longCall
                                ? "an indexOf loop over every quote and backslash"
                                : "indexOf of the format's opener")
                        + ", same text, same run)");
        out.println();
        out.println(
                "| format | batch | floor | batch ÷ floor | stream 4 | ns/chunk (4) | stream 4 ÷ floor | ×hermes batch | ×hermes stream 4 |");
        out.println("|---|---|---|---|---|---|---|---|---|");
        for (Map.Entry<String, Map<String, Double>> e : t.entrySet()) {
            Map<String, Double> c = e.getValue();
            out.println(
                    "| "
                            + e.getKey()
                            + " | "
                            + mps(c.get("batch"))
                            + " | "
                            + mps(c.get(floor))
                            + " | "
                            + ratio(c.get("batch"), c.get(floor))
                            + " | "
                            + mps(c.get("stream4"))
                            + " | "
                            + fmt(c.get("stream4.chunk"))
                            + " | "
                            + ratio(c.get("stream4"), c.get(floor))
                            + " | "
                            + ratio(c.get("batch"), hermes == null ? null : hermes.get("batch"))
                            + " | "
                            + ratio(c.get("stream4"), hermes == null ? null : hermes.get("stream4"))
                            + " |");
        }
    }

    private static void printMany(Map<String, Map<String, Double>> t, PrintStream out) {
        out.println();
        out.println(
                "Many formats in one JVM: ns per character; \"in turn\" parses every corpus once per operation, each other row one corpus as many times");
        out.println();
        out.println("| corpora | batch | stream 4 |");
        out.println("|---|---|---|");
        int n = 0;
        double batchSum = 0;
        double streamSum = 0;
        for (Map.Entry<String, Map<String, Double>> e : t.entrySet()) {
            if (e.getKey().equals("in turn")) continue;
            Map<String, Double> c = e.getValue();
            out.println(
                    "| "
                            + e.getKey()
                            + " alone | "
                            + fmt(c.get("batch.char"))
                            + " | "
                            + fmt(c.get("stream4.char"))
                            + " |");
            n++;
            batchSum += c.getOrDefault("batch", Double.NaN);
            streamSum += c.getOrDefault("stream4", Double.NaN);
        }
        Map<String, Double> turn = t.get("in turn");
        if (turn != null) {
            out.println(
                    "| in turn | "
                            + fmt(turn.get("batch.char"))
                            + " | "
                            + fmt(turn.get("stream4.char"))
                            + " |");
            // one "in turn" operation parses each corpus once; an "alone" operation parses its
            // corpus n times
            if (n > 0)
                out.println(
                        "| in turn ÷ sum of alone | "
                                + ratio(turn.get("batch"), batchSum / n)
                                + " | "
                                + ratio(turn.get("stream4"), streamSum / n)
                                + " |");
        }
    }

    private static void printThreads(Map<String, Map<String, Double>> t, PrintStream out) {
        Set<String> columns =
                new TreeSet<>(
                        (a, b) -> {
                            String[] x = a.split("\\.t");
                            String[] y = b.split("\\.t");
                            int c = x[0].compareTo(y[0]);
                            return c != 0
                                    ? -c
                                    : Integer.compare(
                                            Integer.parseInt(x[1]), Integer.parseInt(y[1]));
                        });
        for (Map<String, Double> c : t.values()) columns.addAll(c.keySet());
        printGrid(
                "Threads sharing one Format, each streaming (4-character chunks) or parsing its own copy of the corpus: M characters/s, all threads together",
                "format",
                columns,
                c -> {
                    String[] k = c.split("\\.t");
                    return k[0] + ", " + k[1] + (k[1].equals("1") ? " thread" : " threads");
                },
                t,
                out);
    }

    private static void printDegenerate(Map<String, Map<String, Double>> t, PrintStream out) {
        Set<String> columns = new TreeSet<>();
        for (Map<String, Double> c : t.values()) columns.addAll(c.keySet());
        printGrid(
                "Degenerate outputs (one huge held token): ms per output",
                "shape",
                columns,
                c -> c.replace(".", " "),
                t,
                out);
    }

    /** A titled table: one row per key of {@code t}, one column per entry of {@code columns}. */
    private static void printGrid(
            String title,
            String rowHeader,
            Set<String> columns,
            UnaryOperator<String> label,
            Map<String, Map<String, Double>> t,
            PrintStream out) {
        out.println();
        out.println(title);
        out.println();
        StringBuilder head = new StringBuilder("| " + rowHeader + " |");
        StringBuilder rule = new StringBuilder("|---|");
        for (String c : columns) {
            head.append(' ').append(label.apply(c)).append(" |");
            rule.append("---|");
        }
        out.println(head);
        out.println(rule);
        for (Map.Entry<String, Map<String, Double>> e : t.entrySet()) {
            StringBuilder line = new StringBuilder("| " + e.getKey() + " |");
            for (String c : columns) line.append(' ').append(fmt(e.getValue().get(c))).append(" |");
            out.println(line);
        }
    }

    private static List<Row> read(Path p) throws IOException {
        List<Row> rows = new ArrayList<>();
        for (String line : Files.readAllLines(p, StandardCharsets.UTF_8))
            if (!line.isBlank()) rows.add(Row.parse(line));
        return rows;
    }
}
