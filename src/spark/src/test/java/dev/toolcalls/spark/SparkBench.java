package dev.toolcalls.spark;

import static org.apache.spark.sql.functions.col;
import static org.apache.spark.sql.functions.expr;
import static org.apache.spark.sql.functions.length;
import static org.apache.spark.sql.functions.lit;

import com.google.gson.JsonElement;
import com.google.gson.JsonParser;

import dev.toolcalls.ChatMessage;
import dev.toolcalls.Format;
import dev.toolcalls.Formats;
import dev.toolcalls.ToolCall;
import dev.toolcalls.ToolCallParseException;
import dev.toolcalls.Tools;
import dev.toolcalls.suite.SuiteCase;

import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.RowFactory;
import org.apache.spark.sql.SaveMode;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.types.DataTypes;
import org.apache.spark.sql.types.StructType;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * Rows per second of {@code parse_tool_calls} on Spark's engine, and the same Hermes rows parsed
 * the way a user writes it without toolcalls ({@code regexp_extract_all} + {@code from_json}): the
 * speed ratio, and how many rows the regular expression gets wrong. Run by {@code
 * src/spark/bench/run.sh [ROWS]} (a measurement, not a test).
 *
 * <p>The input is ROWS outputs (default 1,000,000) cycled from every regression case of {@code
 * tests-data/} (all formats mixed, each with its tools and options), and ROWS outputs cycled from
 * the Hermes cases alone, both written to Parquet first; each timed run reads the Parquet, parses
 * and writes to Spark's {@code noop} sink, after one untimed warm-up run. A run with no parsing
 * (the text's length) gives the cost of the scan itself.
 */
public final class SparkBench {
    /** What a user writes for Hermes today: every tagged JSON object, read as {name, arguments}. */
    static final String REGEX_CALLS =
            "transform(regexp_extract_all(text, '(?s)<tool_call>\\\\s*(.*?)\\\\s*</tool_call>', 1),"
                    + " x -> from_json(x, 'name STRING, arguments STRING'))";

    private static final StructType CASES =
            new StructType()
                    .add("format", DataTypes.StringType)
                    .add("text", DataTypes.StringType)
                    .add("tools", DataTypes.StringType)
                    .add("options", DataTypes.StringType);

    private static final StructType NUMBERED =
            new StructType()
                    .add("k", DataTypes.LongType)
                    .add("format", DataTypes.StringType)
                    .add("text", DataTypes.StringType)
                    .add("tools", DataTypes.StringType)
                    .add("options", DataTypes.StringType);

    private SparkBench() {}

    public static void main(String[] args) throws Exception {
        long rows = args.length > 0 ? Long.parseLong(args[0]) : 1_000_000L;
        Path dir = Files.createTempDirectory("toolcalls-spark-bench");
        List<Row> all = new ArrayList<>();
        List<Row> hermes = new ArrayList<>();
        for (List<SuiteCase> cases : SuiteCase.load(Path.of("tests-data")).values())
            for (SuiteCase c : cases) {
                if (c.expected().has("_problem")) continue;
                String tools =
                        c.expected().has("tools") && !c.expected().get("tools").isJsonNull()
                                ? c.expected().get("tools").toString()
                                : null;
                List<String> opts = new ArrayList<>();
                if (c.lenient()) opts.add("lenient");
                if (c.thinking() != null) opts.add("thinking=" + (c.thinking() ? "on" : "off"));
                Row r =
                        RowFactory.create(
                                c.format(),
                                c.input(),
                                tools,
                                opts.isEmpty() ? null : String.join(",", opts));
                all.add(r);
                if (c.format().equals("hermes") && tools == null && opts.isEmpty()) hermes.add(r);
            }
        String allPath = dir.resolve("all.parquet").toString();
        String hermesPath = dir.resolve("hermes.parquet").toString();
        System.out.printf(
                Locale.ROOT,
                "input: %,d rows cycled from %d cases (%d formats), %,d rows from %d Hermes cases"
                        + " (strict, no tools)%n",
                rows,
                all.size(),
                all.stream().map(r -> r.getString(0)).distinct().count(),
                rows,
                hermes.size());

        for (String master : List.of("local[1]", "local[2]")) {
            SparkSession spark =
                    SparkSession.builder()
                            .master(master)
                            .appName("toolcalls-spark-bench")
                            .config("spark.sql.extensions", ToolCallsExtensions.class.getName())
                            .config("spark.ui.enabled", "false")
                            .getOrCreate();
            spark.sparkContext().setLogLevel("WARN");
            if (master.equals("local[1]")) {
                cycle(spark, all, rows).write().mode(SaveMode.Overwrite).parquet(allPath);
                cycle(spark, hermes, rows).write().mode(SaveMode.Overwrite).parquet(hermesPath);
            }
            // as many partitions as cores, whatever the files' layout
            int cores = spark.sparkContext().defaultParallelism();
            Dataset<Row> in = spark.read().parquet(allPath).repartition(cores).cache();
            Dataset<Row> hin = spark.read().parquet(hermesPath).repartition(cores).cache();
            in.count();
            hin.count();
            System.out.printf(Locale.ROOT, "%n%s (%d cores)%n", master, cores);
            double scan = time(in.select(length(col("text"))), rows, "scan only (length)");
            double mixed =
                    time(
                            in.select(
                                    expr("parse_tool_calls(format, text, tools, options)")
                                            .alias("p")),
                            rows,
                            "parse_tool_calls, all formats");
            double h =
                    time(
                            hin.select(expr("parse_tool_calls('hermes', text)").alias("p")),
                            rows,
                            "parse_tool_calls, Hermes");
            double rx = time(hin.select(expr(REGEX_CALLS).alias("calls")), rows, "regex, Hermes");
            System.out.printf(
                    Locale.ROOT,
                    "  regex / parse_tool_calls on Hermes: %.2fx the rows per second%n",
                    rx / h);
            System.out.printf(
                    Locale.ROOT,
                    "  parsing alone (all formats, scan time taken out): %,.0f rows/s%n",
                    1 / (1 / mixed - 1 / scan));
            if (master.equals("local[1]")) regexErrors(spark, hin);
            in.unpersist();
            hin.unpersist();
            spark.stop();
        }
    }

    /** {@code rows} rows cycled from {@code cases}. */
    private static Dataset<Row> cycle(SparkSession spark, List<Row> cases, long rows) {
        List<Row> numbered = new ArrayList<>();
        for (int i = 0; i < cases.size(); i++) {
            Row c = cases.get(i);
            numbered.add(RowFactory.create((long) i, c.get(0), c.get(1), c.get(2), c.get(3)));
        }
        Dataset<Row> table = spark.createDataFrame(numbered, NUMBERED);
        return spark.range(rows)
                .withColumn("k", col("id").mod(lit(cases.size())))
                .join(table, "k")
                .drop("k");
    }

    /** Rows per second of writing {@code df} to the noop sink: one warm-up run, one timed. */
    private static double time(Dataset<Row> df, long rows, String what) {
        run(df);
        long t0 = System.nanoTime();
        run(df);
        long best = System.nanoTime() - t0;
        double perSecond = rows / (best / 1e9);
        System.out.printf(
                Locale.ROOT, "  %-32s %8.2f s  %,12.0f rows/s%n", what, best / 1e9, perSecond);
        return perSecond;
    }

    private static void run(Dataset<Row> df) {
        df.write().format("noop").mode(SaveMode.Overwrite).save();
    }

    /**
     * Each distinct Hermes output judged once, counted as often as it occurs: the regex is wrong on
     * a row that toolcalls parses when its calls differ (names, arguments as JSON values, their
     * number and order); on a row that toolcalls rejects (a broken output) when it still returns a
     * call with a name.
     */
    private static void regexErrors(SparkSession spark, Dataset<Row> hin) {
        Format hermes = Formats.get("hermes");
        List<Row> distinct =
                hin.groupBy("text")
                        .count()
                        .select(col("text"), col("count"), expr(REGEX_CALLS).alias("calls"))
                        .collectAsList();
        long wrongValid = 0;
        long wrongBroken = 0;
        long valid = 0;
        long broken = 0;
        List<String> examples = new ArrayList<>();
        for (Row r : distinct) {
            String text = r.getString(0);
            long n = r.getLong(1);
            List<Row> calls = r.isNullAt(2) ? List.of() : r.getList(2);
            ChatMessage m;
            try {
                m = hermes.parse(text, Tools.none());
            } catch (ToolCallParseException e) {
                broken += n;
                boolean accepted = calls.stream().anyMatch(c -> c != null && !c.isNullAt(0));
                if (accepted) {
                    wrongBroken += n;
                    if (examples.size() < 6) examples.add("broken output read as a call: " + text);
                }
                continue;
            }
            valid += n;
            if (!same(m.toolCalls(), calls)) {
                wrongValid += n;
                if (examples.size() < 6) examples.add("calls differ: " + text);
            }
        }
        long total = valid + broken;
        System.out.printf(
                Locale.ROOT,
                "  regex wrong on %,d of %,d Hermes rows (%.1f%%): %,d of %,d well-formed rows get"
                        + " other calls, %,d of %,d broken rows give a call anyway (%d distinct"
                        + " outputs)%n",
                wrongValid + wrongBroken,
                total,
                100.0 * (wrongValid + wrongBroken) / total,
                wrongValid,
                valid,
                wrongBroken,
                broken,
                distinct.size());
        for (String e : examples)
            System.out.println(
                    "    e.g. " + e.replace("\n", "\\n").substring(0, Math.min(150, e.length())));
    }

    private static boolean same(List<ToolCall> want, List<Row> got) {
        if (want.size() != got.size()) return false;
        for (int i = 0; i < want.size(); i++) {
            Row g = got.get(i);
            if (g == null || g.isNullAt(0) || !want.get(i).name().equals(g.getString(0)))
                return false;
            JsonElement args = json(want.get(i).arguments());
            JsonElement gotArgs = g.isNullAt(1) ? null : json(g.getString(1));
            if (!args.equals(gotArgs)) return false;
        }
        return true;
    }

    private static JsonElement json(String text) {
        try {
            return JsonParser.parseString(text);
        } catch (RuntimeException e) {
            return null;
        }
    }
}
