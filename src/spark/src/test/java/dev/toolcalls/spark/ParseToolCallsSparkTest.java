package dev.toolcalls.spark;

import static dev.toolcalls.spark.ToolCallsFunctions.parse_tool_calls;

import static org.apache.spark.sql.functions.col;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.google.gson.JsonObject;

import dev.toolcalls.ChatMessage;
import dev.toolcalls.Format;
import dev.toolcalls.Formats;
import dev.toolcalls.IdGenerator;
import dev.toolcalls.ParseOptions;
import dev.toolcalls.ToolCall;
import dev.toolcalls.ToolCallParseException;
import dev.toolcalls.Tools;
import dev.toolcalls.protocol.ValueJson;
import dev.toolcalls.suite.SuiteCase;

import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.RowFactory;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.types.DataTypes;
import org.apache.spark.sql.types.StructType;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * {@code parse_tool_calls} on Spark's own engine ({@code local[2]}, SQL and DataFrame API): every
 * regression case of {@code tests-data/}, all formats in one table, gives exactly what {@code
 * toolcalls parse} prints for it; bad rows give error structs without failing the job; Parquet in,
 * Parquet out.
 */
class ParseToolCallsSparkTest {
    private static final StructType CASES =
            new StructType()
                    .add("id", DataTypes.LongType, false)
                    .add("format", DataTypes.StringType, true)
                    .add("text", DataTypes.StringType, true)
                    .add("tools", DataTypes.StringType, true)
                    .add("options", DataTypes.StringType, true);

    static SparkSession spark;
    private static List<Row> caseRows;
    private static Map<Long, String> expected;

    @BeforeAll
    static void start() {
        spark =
                SparkSession.builder()
                        .master("local[2]")
                        .appName("toolcalls-spark-test")
                        .config("spark.sql.extensions", ToolCallsExtensions.class.getName())
                        .config("spark.ui.enabled", "false")
                        .config("spark.sql.shuffle.partitions", "4")
                        .getOrCreate();
        spark.sparkContext().setLogLevel("WARN");
        loadCases();
    }

    @AfterAll
    static void stop() {
        if (spark != null) spark.stop();
    }

    /**
     * Every case as a row, and what the command line prints for it: {@code toolcalls parse --format
     * F [--lenient] [--thinking on|off] [--tools T]} writes {@code ValueJson.message} of the batch
     * parse with ids from seed 0, or the error's type, message and offset.
     */
    private static void loadCases() {
        caseRows = new ArrayList<>();
        expected = new HashMap<>();
        long id = 0;
        for (List<SuiteCase> cases : SuiteCase.load(Path.of("tests-data")).values()) {
            for (SuiteCase c : cases) {
                if (c.expected().has("_problem")) continue;
                Format format = Formats.find(c.format()).orElse(null);
                if (format == null || format.problem().isPresent()) continue;
                String tools =
                        c.expected().has("tools") && !c.expected().get("tools").isJsonNull()
                                ? c.expected().get("tools").toString()
                                : null;
                List<String> opts = new ArrayList<>();
                if (c.lenient()) opts.add("lenient");
                if (c.thinking() != null) opts.add("thinking=" + (c.thinking() ? "on" : "off"));
                // formats by name in mixed case: the column is matched as the command line does
                String name = id % 3 == 0 ? c.format().toUpperCase(Locale.ROOT) : c.format();
                caseRows.add(
                        RowFactory.create(
                                id,
                                name,
                                c.input(),
                                tools,
                                opts.isEmpty() ? null : String.join(", ", opts)));
                expected.put(id, commandLine(format, c.input(), tools, c.options()));
                id++;
            }
        }
    }

    private static String commandLine(
            Format format, String text, String tools, ParseOptions options) {
        try {
            return ValueJson.message(
                    format.parse(text, tools == null ? Tools.none() : Tools.parse(tools), options));
        } catch (ToolCallParseException e) {
            return errorJson(e.kind().type(), e.getMessage(), e.offset());
        }
    }

    private static String errorJson(String type, String message, Integer offset) {
        JsonObject error = new JsonObject();
        error.addProperty("type", type);
        error.addProperty("message", message);
        error.addProperty("offset", offset);
        JsonObject o = new JsonObject();
        o.add("error", error);
        return o.toString();
    }

    /** A result struct written as the command line writes a message (or the error). */
    private static String render(Row p) {
        if (p == null) return null;
        Row error = p.getAs("error");
        if (error != null) {
            Integer offset = error.isNullAt(2) ? null : error.getInt(2);
            return errorJson(error.getString(0), error.getString(1), offset);
        }
        List<ToolCall> calls = new ArrayList<>();
        for (Row c : p.<Row>getList(p.fieldIndex("tool_calls")))
            calls.add(new ToolCall(c.getString(0), c.getString(1), c.getString(2)));
        return ValueJson.message(new ChatMessage(p.getAs("content"), p.getAs("reasoning"), calls));
    }

    static Dataset<Row> caseTable() {
        // many partitions, rows shuffled between them: formats mixed in every task
        return spark.createDataFrame(caseRows, CASES).repartition(8, col("text"));
    }

    static void assertAllCases(List<Row> rows, String via) {
        assertEquals(caseRows.size(), rows.size(), via + ": one result per case");
        List<String> wrong = new ArrayList<>();
        for (Row r : rows) {
            long id = r.getLong(0);
            String want = expected.get(id);
            String got = render(r.getStruct(1));
            if (!want.equals(got))
                wrong.add(
                        caseRows.get((int) id).getString(1)
                                + " #"
                                + id
                                + ": "
                                + got
                                + " != "
                                + want);
        }
        assertTrue(
                wrong.isEmpty(),
                via
                        + ": "
                        + wrong.size()
                        + " rows differ from the command line, e.g. "
                        + wrong.subList(0, Math.min(5, wrong.size())));
    }

    @Test
    void everyRegressionCaseGivesTheCommandLinesBatchOutputInSql() {
        everyRegressionCaseInSql();
    }

    static void everyRegressionCaseInSql() {
        assertTrue(caseRows.size() > 1000, "the regression cases are read: " + caseRows.size());
        caseTable().createOrReplaceTempView("cases");
        List<Row> rows =
                spark.sql(
                                "SELECT id, parse_tool_calls(format, text, tools, options) AS p"
                                        + " FROM cases")
                        .collectAsList();
        assertAllCases(rows, "SQL");
        long errors = rows.stream().filter(r -> r.getStruct(1).getAs("error") != null).count();
        assertTrue(errors > 0 && errors < rows.size(), "cases of both kinds: " + errors);
    }

    @Test
    void everyRegressionCaseGivesTheCommandLinesBatchOutputInTheDataFrameApi() {
        List<Row> rows =
                caseTable()
                        .select(
                                col("id"),
                                parse_tool_calls(
                                                col("format"),
                                                col("text"),
                                                col("tools"),
                                                col("options"))
                                        .alias("p"))
                        .collectAsList();
        assertAllCases(rows, "DataFrame API");
    }

    @Test
    void theResultHasTheDocumentedSchema() {
        Dataset<Row> out =
                spark.sql("SELECT parse_tool_calls('hermes', 'hi') AS p").select(col("p.*"));
        assertEquals(
                "struct<content:string,reasoning:string,"
                        + "tool_calls:array<struct<id:string,name:string,arguments:string>>,"
                        + "error:struct<type:string,message:string,offset:int>>",
                out.schema().simpleString());
        Row r = out.first();
        assertEquals("hi", r.getString(0));
        assertTrue(r.getList(2).isEmpty());
        assertNull(r.get(3));
    }

    @Test
    void idsComeFromTheRowKeyAndAreTheSameInEveryRun() {
        String text =
                "<tool_call>{\"name\": \"a\", \"arguments\": {}}</tool_call>"
                        + "<tool_call>{\"name\": \"b\", \"arguments\": {\"x\": 1}}</tool_call>";
        Dataset<Row> keyed =
                spark.createDataFrame(
                        List.of(
                                RowFactory.create(0L, "k0", text),
                                RowFactory.create(42L, "row-42", text),
                                RowFactory.create(43L, "row-43", text)),
                        new StructType()
                                .add("n", DataTypes.LongType)
                                .add("s", DataTypes.StringType)
                                .add("text", DataTypes.StringType));
        keyed.createOrReplaceTempView("keyed");
        String sql =
                "SELECT n, parse_tool_calls('hermes', text, NULL, NULL, n).tool_calls.id AS by_n,"
                        + " parse_tool_calls('hermes', text, NULL, NULL, s).tool_calls.id AS by_s,"
                        + " parse_tool_calls('hermes', text).tool_calls.id AS unkeyed"
                        + " FROM keyed ORDER BY n";
        List<Row> first = spark.sql(sql).collectAsList();
        List<Row> again = spark.sql(sql).collectAsList();
        assertEquals(first, again, "the same rows give the same ids in every run");

        Format hermes = Formats.get("hermes");
        for (Row r : first) {
            long n = r.getLong(0);
            assertEquals(ids(hermes, text, IdGenerator.seeded(n)), r.getList(1), "key " + n);
            assertEquals(ids(hermes, text, IdGenerator.seeded(0)), r.getList(3), "no key: seed 0");
        }
        assertEquals(
                ids(hermes, text, IdGenerator.seeded(ParseToolCalls.fnv1a("row-42".getBytes()))),
                first.get(1).getList(2),
                "a string key seeds the ids with its FNV-1a hash");
        assertNotEquals(first.get(1).getList(1), first.get(2).getList(1), "other key, other ids");
        assertEquals(2, first.get(1).getList(1).size());
        assertNotEquals(
                first.get(1).getList(1).get(0),
                first.get(1).getList(1).get(1),
                "two calls of a row get two ids");
    }

    private static List<String> ids(Format f, String text, IdGenerator ids) {
        return f
                .parse(text, Tools.none(), ParseOptions.defaults().withIds(() -> ids))
                .toolCalls()
                .stream()
                .map(ToolCall::id)
                .toList();
    }

    @Test
    void badRowsGiveErrorStructsAndNeverFailTheJob() {
        String cut = "ok <tool_call>{\"name\": \"f\"";
        String call = "<tool_call>{\"name\": \"f\", \"arguments\": {}}</tool_call>";
        Dataset<Row> rows =
                spark.sql(
                        "SELECT * FROM VALUES"
                                + " (1, 'hermes', '"
                                + cut
                                + "', NULL, NULL),"
                                + " (2, 'hermes', '"
                                + cut
                                + "', NULL, 'lenient'),"
                                + " (3, 'no_such_format', 'x', NULL, NULL),"
                                + " (4, 'hermes', '"
                                + call
                                + "', '[{\"type\": ', NULL),"
                                + " (5, 'hermes', 'x', NULL, 'lenient, colour=blue'),"
                                + " (6, 'hermes', CAST(X'6F6BFF' AS STRING), NULL, NULL),"
                                + " (7, 'hermes', NULL, NULL, NULL),"
                                + " (8, NULL, 'x', NULL, NULL),"
                                + " (9, 'hermes', '"
                                + call
                                + "', NULL, 'unknown_tool=error')"
                                + " AS t(n, format, text, tools, options)");
        Map<Integer, Row> out = new HashMap<>();
        for (Row r :
                rows.select(
                                col("n"),
                                parse_tool_calls(
                                                col("format"),
                                                col("text"),
                                                col("tools"),
                                                col("options"))
                                        .alias("p"))
                        .collectAsList()) out.put(r.getInt(0), r.getStruct(1));

        assertError(out.get(1), "unterminated_call", 3);
        assertEquals(cut, out.get(2).getAs("content"), "lenient: the cut call is content");
        assertNull(out.get(2).getAs("error"));
        assertError(out.get(3), "unknown_format", null);
        assertError(out.get(4), "invalid_tools", null);
        assertError(out.get(5), "invalid_options", null);
        assertTrue(
                out.get(5).<Row>getAs("error").getString(1).contains("colour"),
                "the message names the option");
        Row utf8 = assertError(out.get(6), "invalid_utf8", 2);
        assertTrue(utf8.getString(1).contains("0xFF at byte offset 2"), utf8.getString(1));
        assertNull(out.get(7), "a null text gives null");
        assertError(out.get(8), "unknown_format", null);
        // without tools no call is unknown, as on the command line
        assertEquals("f", out.get(9).<Row>getList(2).get(0).getString(1));
    }

    private static Row assertError(Row p, String type, Integer offset) {
        assertNotNull(p, type);
        Row error = p.getAs("error");
        assertNotNull(error, "an error struct for " + type + ", got " + p);
        assertEquals(type, error.getString(0), error.getString(1));
        assertEquals(offset, error.isNullAt(2) ? null : error.getInt(2), error.getString(1));
        assertNull(p.getAs("tool_calls"));
        assertNull(p.getAs("content"));
        return error;
    }

    @Test
    void parquetInParquetOut(@TempDir Path dir) {
        String in = dir.resolve("in.parquet").toString();
        String out = dir.resolve("out.parquet").toString();
        caseTable().write().parquet(in);
        spark.read()
                .parquet(in)
                .select(
                        col("id"),
                        parse_tool_calls(col("format"), col("text"), col("tools"), col("options"))
                                .alias("p"))
                .write()
                .parquet(out);
        Dataset<Row> back = spark.read().parquet(out);
        assertEquals(
                ParseToolCalls.RESULT_TYPE.simpleString(),
                back.schema().apply("p").dataType().simpleString());
        assertAllCases(back.collectAsList(), "Parquet");
        assertEquals(
                caseRows.size(),
                back.where(col("p").isNotNull()).count(),
                "every case text gives a struct");
        assertEquals(
                0,
                back.where(col("p.error").isNotNull().and(col("p.tool_calls").isNotNull()))
                        .count());
    }
}
