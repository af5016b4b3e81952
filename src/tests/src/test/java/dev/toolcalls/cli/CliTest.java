package dev.toolcalls.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.google.gson.JsonArray;
import com.google.gson.JsonNull;
import com.google.gson.JsonObject;
import com.google.gson.JsonParser;
import com.google.gson.JsonPrimitive;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/** The command-line contract, on the runtime's fixture format {@code toy}. */
class CliTest {
    @TempDir Path dir;

    static final String OUTPUT = "Sure 😀 <call get_weather>{\"city\": \"Paris\"}</call> done";

    record Run(int code, String out, String err) {
        List<String> lines() {
            return out.isEmpty() ? List.of() : List.of(out.split("\n"));
        }
    }

    static Run run(String stdin, String... args) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        int code =
                Main.run(
                        args,
                        new PrintStream(out, true, StandardCharsets.UTF_8),
                        new PrintStream(err, true, StandardCharsets.UTF_8),
                        new ByteArrayInputStream(stdin.getBytes(StandardCharsets.UTF_8)));
        return new Run(
                code, out.toString(StandardCharsets.UTF_8), err.toString(StandardCharsets.UTF_8));
    }

    Path write(String name, String text) throws IOException {
        Path p = dir.resolve(name);
        Files.writeString(p, text, StandardCharsets.UTF_8);
        return p;
    }

    @Test
    void batchPrintsOneMessageObject() throws IOException {
        Run r = run("", "parse", "--format", "toy", write("in.txt", OUTPUT).toString());
        assertEquals(0, r.code(), r.err());
        JsonObject m = JsonParser.parseString(r.out()).getAsJsonObject();
        assertEquals("Sure 😀  done", m.get("content").getAsString());
        JsonObject call = m.getAsJsonArray("tool_calls").get(0).getAsJsonObject();
        assertEquals("function", call.get("type").getAsString());
        assertTrue(call.get("id").getAsString().matches("call_[A-Za-z0-9]{24}"));
        assertEquals("get_weather", call.getAsJsonObject("function").get("name").getAsString());
        assertEquals(
                "{\"city\": \"Paris\"}",
                call.getAsJsonObject("function").get("arguments").getAsString());
        assertEquals(1, r.lines().size());
    }

    @Test
    void batchWithoutCallsHasNullContentOrTextAndEmptyToolCalls() {
        assertEquals(
                "{\"content\":null,\"tool_calls\":[]}\n",
                run("   ", "parse", "--format", "toy", "-").out());
        assertEquals(
                "{\"content\":\"hi\",\"tool_calls\":[]}\n",
                run("hi", "parse", "--format", "toy").out());
    }

    @Test
    void streamDeltasReassembleToTheBatchOutputForAnySeed() throws IOException {
        Path in = write("in.txt", OUTPUT);
        JsonObject batch =
                JsonParser.parseString(run("", "parse", "--format", "toy", in.toString()).out())
                        .getAsJsonObject();
        List<String> seen = new ArrayList<>();
        for (String seed : new String[] {"0", "7", "99"}) {
            Run r =
                    run(
                            "",
                            "parse",
                            "--format",
                            "toy",
                            "--stream",
                            "--chunk-seed",
                            seed,
                            "--chunk-max",
                            "3",
                            in.toString());
            assertEquals(0, r.code(), r.err());
            assertEquals(batch, reassemble(r.lines()), "seed " + seed);
            seen.add(r.out());
        }
        assertNotEquals(seen.get(0), seen.get(1), "different seeds cut differently");
        assertEquals(
                seen.get(1),
                run(
                                "",
                                "parse",
                                "--format",
                                "toy",
                                "--stream",
                                "--chunk-seed",
                                "7",
                                "--chunk-max",
                                "3",
                                in.toString())
                        .out());
    }

    static JsonObject reassemble(List<String> deltaLines) {
        StringBuilder content = null;
        JsonArray calls = new JsonArray();
        for (String line : deltaLines) {
            JsonObject d = JsonParser.parseString(line).getAsJsonObject();
            if (d.has("content")) {
                if (content == null) content = new StringBuilder();
                content.append(d.get("content").getAsString());
            }
            if (!d.has("tool_calls")) continue;
            JsonObject t = d.getAsJsonArray("tool_calls").get(0).getAsJsonObject();
            int index = t.get("index").getAsInt();
            if (index == calls.size()) {
                JsonObject c = new JsonObject();
                c.add("id", t.get("id"));
                c.add("type", t.get("type"));
                JsonObject f = new JsonObject();
                f.add("name", t.getAsJsonObject("function").get("name"));
                f.addProperty("arguments", "");
                c.add("function", f);
                calls.add(c);
            }
            JsonObject f = calls.get(index).getAsJsonObject().getAsJsonObject("function");
            f.addProperty(
                    "arguments",
                    f.get("arguments").getAsString()
                            + t.getAsJsonObject("function").get("arguments").getAsString());
        }
        JsonObject m = new JsonObject();
        m.add(
                "content",
                content == null ? JsonNull.INSTANCE : new JsonPrimitive(content.toString()));
        m.add("tool_calls", calls);
        return m;
    }

    @Test
    void failurePrintsDeltasSoFarThenAnErrorObjectOnStderrAndExits1() {
        Run r =
                run(
                        "hello <call f>{\"a\": 1",
                        "parse",
                        "--format",
                        "toy",
                        "--stream",
                        "--chunk-max",
                        "1");
        assertEquals(1, r.code());
        assertTrue(r.out().startsWith("{\"content\":\"h"), r.out());
        assertTrue(r.out().contains("\"name\":\"f\""), r.out());
        JsonObject e = JsonParser.parseString(r.err()).getAsJsonObject().getAsJsonObject("error");
        assertEquals("unterminated_call", e.get("type").getAsString());
        assertEquals(6, e.get("offset").getAsInt());
        assertEquals("toy", e.get("format").getAsString());
        assertTrue(e.get("message").getAsString().contains("<call f>"));
        Run batch = run("<call f>{,}</call>", "parse", "--format", "toy");
        assertEquals(1, batch.code());
        assertEquals("", batch.out());
        assertEquals(
                "malformed_arguments",
                JsonParser.parseString(batch.err())
                        .getAsJsonObject()
                        .getAsJsonObject("error")
                        .get("type")
                        .getAsString());
    }

    @Test
    void lenientTurnsAnUnsentBrokenCallIntoContent() {
        Run r = run("a <call f!>", "parse", "--format", "toy", "--lenient");
        assertEquals(0, r.code(), r.err());
        assertEquals("{\"content\":\"a <call f!>\",\"tool_calls\":[]}\n", r.out());
        // batch sends nothing before the end: a call broken after its name was read is content too;
        // a stream has sent its start and fails
        Run named = run("a <call f>{\"x\": 1,}</call> b", "parse", "--format", "toy", "--lenient");
        assertEquals(0, named.code(), named.err());
        assertEquals(
                "{\"content\":\"a <call f>{\\\"x\\\": 1,}</call> b\",\"tool_calls\":[]}\n",
                named.out());
        Run streamed =
                run(
                        "a <call f>{\"x\": 1,}</call> b",
                        "parse",
                        "--format",
                        "toy",
                        "--lenient",
                        "--stream");
        assertEquals(1, streamed.code(), streamed.out());
        assertTrue(streamed.out().contains("\"name\":\"f\""), streamed.out());
        assertTrue(streamed.err().contains("\"malformed_arguments\""), streamed.err());
    }

    @Test
    void jsonlAnswersEveryLineInOrderAndABadLineNeverStopsTheOthers() {
        String in =
                "{\"input\": \"<call f>{}</call>\"}\nnot json\n{\"input\": \"x <call g>{\\\"a\\\":\"}\n{\"input\": \"plain\", \"tools\": []}\n";
        Run r = run(in, "parse", "--format", "toy", "--jsonl");
        assertEquals(0, r.code(), r.err());
        List<String> lines = r.lines();
        assertEquals(4, lines.size(), r.out());
        assertEquals(
                "f",
                JsonParser.parseString(lines.get(0))
                        .getAsJsonObject()
                        .getAsJsonObject("message")
                        .getAsJsonArray("tool_calls")
                        .get(0)
                        .getAsJsonObject()
                        .getAsJsonObject("function")
                        .get("name")
                        .getAsString());
        assertEquals(
                "invalid_input",
                JsonParser.parseString(lines.get(1))
                        .getAsJsonObject()
                        .getAsJsonObject("error")
                        .get("type")
                        .getAsString());
        assertEquals(
                "unterminated_call",
                JsonParser.parseString(lines.get(2))
                        .getAsJsonObject()
                        .getAsJsonObject("error")
                        .get("type")
                        .getAsString());
        assertEquals(
                "plain",
                JsonParser.parseString(lines.get(3))
                        .getAsJsonObject()
                        .getAsJsonObject("message")
                        .get("content")
                        .getAsString());

        Run s = run(in, "parse", "--format", "toy", "--jsonl", "--stream");
        JsonObject third = JsonParser.parseString(s.lines().get(2)).getAsJsonObject();
        assertEquals(
                "x ",
                third.getAsJsonArray("deltas")
                        .get(0)
                        .getAsJsonObject()
                        .get("content")
                        .getAsString());
        assertEquals("unterminated_call", third.getAsJsonObject("error").get("type").getAsString());
        assertTrue(JsonParser.parseString(s.lines().get(0)).getAsJsonObject().has("deltas"));
    }

    @Test
    void usageErrorsExit2WithAUsageMessageAndNoStackTrace() throws IOException {
        for (String[] args :
                new String[][] {
                    {"parse"},
                    {"parse", "--format", "nope"},
                    {"parse", "--format", "toy", "--bogus"},
                    {"parse", "--format", "toy", "/no/such/file"},
                    {"parse", "--format", "toy", "--chunk-max", "0"},
                    {
                        "parse",
                        "--format",
                        "toy",
                        "--tools",
                        write("bad-tools.json", "{\"not\": \"an array\"}").toString()
                    },
                    {"frobnicate"},
                    {}
                }) {
            Run r = run("", args);
            assertEquals(2, r.code(), String.join(" ", args) + "\n" + r.err());
            assertTrue(r.err().contains("Usage") || r.err().contains("usage"), r.err());
            assertFalse(r.err().contains("\tat "), r.err());
        }
    }

    @Test
    void toolsFileIsReadAndHandedOver() throws IOException {
        Path tools =
                write(
                        "tools.json",
                        "[{\"type\": \"function\", \"function\": {\"name\": \"f\", \"parameters\": {\"type\": \"object\"}}}]");
        Run r = run("<call f>{}</call>", "parse", "--format", "toy", "--tools", tools.toString());
        assertEquals(0, r.code(), r.err());
    }

    @Test
    void formatsListsNamesAndAliases() {
        Run r = run("", "formats");
        assertEquals(0, r.code());
        assertTrue(
                r.out().lines().anyMatch(l -> l.startsWith("toy") && l.contains("toy-alias")),
                r.out());
    }

    @Test
    void testCommandPrintsATablePerFormatAndFailsOnAnyFailure() throws IOException {
        Run ok = run("", "test", "src/tests/src/test/resources/suite");
        assertEquals(0, ok.code(), ok.out());
        assertTrue(ok.out().contains("toy") && ok.out().contains("0 failed"), ok.out());

        Path suite = dir.resolve("suite/toy");
        Files.createDirectories(suite);
        Files.writeString(suite.resolve("wrong.txt"), "<call f>{}</call>");
        Files.writeString(
                suite.resolve("wrong.json"),
                "{\"content\": null, \"tool_calls\": [{\"name\": \"g\", \"arguments\": {}}]}");
        Run bad = run("", "test", dir.resolve("suite").toString());
        assertEquals(1, bad.code(), bad.out());
        assertTrue(
                bad.out().contains("FAIL toy/wrong") && bad.out().contains("1 failed"), bad.out());
    }

    @Test
    void outputEventsStreamsEachCallsEndBeforeWhatFollowsIt() throws IOException {
        Run r =
                run(
                        "",
                        "parse",
                        "--format",
                        "toy",
                        "--output",
                        "events",
                        "--stream",
                        "--chunk-max",
                        "3",
                        write("in.txt", OUTPUT).toString());
        assertEquals(0, r.code(), r.err());
        List<String> types = new ArrayList<>();
        for (String line : r.lines())
            types.add(JsonParser.parseString(line).getAsJsonObject().get("type").getAsString());
        int start = types.indexOf("tool_call_start");
        int end = types.indexOf("tool_call_end");
        int lastText = types.lastIndexOf("text");
        assertTrue(start >= 0 && start < end && end < lastText, types.toString());
        JsonObject endEvent = JsonParser.parseString(r.lines().get(end)).getAsJsonObject();
        assertEquals("{\"city\": \"Paris\"}", endEvent.get("arguments").getAsString());
        assertEquals("get_weather", endEvent.get("name").getAsString());
        Run batch =
                run(
                        "",
                        "parse",
                        "--format",
                        "toy",
                        "--output",
                        "events",
                        write("in2.txt", OUTPUT).toString());
        assertEquals(5, JsonParser.parseString(batch.out()).getAsJsonArray().size(), batch.out());
    }

    @Test
    void outputResponsesAndMessagesPrintEachProtocolsObjectsAndEvents() throws IOException {
        Path in = write("in.txt", OUTPUT);
        JsonObject response =
                JsonParser.parseString(
                                run(
                                                "",
                                                "parse",
                                                "--format",
                                                "toy",
                                                "--output",
                                                "responses",
                                                in.toString())
                                        .out())
                        .getAsJsonObject();
        assertEquals("completed", response.get("status").getAsString());
        JsonArray output = response.getAsJsonArray("output");
        assertEquals(
                List.of("message", "function_call", "message"),
                List.of(
                        output.get(0).getAsJsonObject().get("type").getAsString(),
                        output.get(1).getAsJsonObject().get("type").getAsString(),
                        output.get(2).getAsJsonObject().get("type").getAsString()));
        JsonObject message =
                JsonParser.parseString(
                                run(
                                                "",
                                                "parse",
                                                "--format",
                                                "toy",
                                                "--output",
                                                "messages",
                                                in.toString())
                                        .out())
                        .getAsJsonObject();
        assertEquals("tool_use", message.get("stop_reason").getAsString());
        assertEquals(
                "Paris",
                message.getAsJsonArray("content")
                        .get(1)
                        .getAsJsonObject()
                        .getAsJsonObject("input")
                        .get("city")
                        .getAsString());
        Run streamed =
                run(
                        "",
                        "parse",
                        "--format",
                        "toy",
                        "--output",
                        "messages",
                        "--stream",
                        in.toString());
        assertTrue(
                streamed.lines().get(0).contains("\"message_start\"")
                        && streamed.lines()
                                .get(streamed.lines().size() - 1)
                                .contains("\"message_stop\""),
                streamed.out());
        Run failing =
                run(
                        "",
                        "parse",
                        "--format",
                        "toy",
                        "--output",
                        "responses",
                        "--stream",
                        write("bad.txt", "x <call f>{\"a\": ").toString());
        assertEquals(1, failing.code());
        assertTrue(
                failing.lines().get(failing.lines().size() - 1).contains("\"response.failed\""),
                failing.out());
        Run jsonl =
                run(
                        "{\"input\": \"hi <call f>{}</call>\"}\n",
                        "parse",
                        "--format",
                        "toy",
                        "--output",
                        "messages",
                        "--jsonl");
        assertEquals(
                "tool_use",
                JsonParser.parseString(jsonl.out())
                        .getAsJsonObject()
                        .getAsJsonObject("message")
                        .get("stop_reason")
                        .getAsString());
        assertEquals(
                2, run("", "parse", "--format", "toy", "--output", "xml", in.toString()).code());
    }

    @Test
    void unknownToolPolicyAndLenientRecoveryWorkFromTheCommandLine() throws IOException {
        Path tools =
                write(
                        "tools.json",
                        "[{\"type\": \"function\", \"function\": {\"name\": \"known\"}}]");
        Path in = write("in.txt", "a <call known>{}</call> b <call other>{}</call> c");
        assertEquals(
                2,
                JsonParser.parseString(
                                run(
                                                "",
                                                "parse",
                                                "--format",
                                                "toy",
                                                "--tools",
                                                tools.toString(),
                                                in.toString())
                                        .out())
                        .getAsJsonObject()
                        .getAsJsonArray("tool_calls")
                        .size());
        JsonObject text =
                JsonParser.parseString(
                                run(
                                                "",
                                                "parse",
                                                "--format",
                                                "toy",
                                                "--tools",
                                                tools.toString(),
                                                "--unknown-tool",
                                                "text",
                                                in.toString())
                                        .out())
                        .getAsJsonObject();
        assertEquals(1, text.getAsJsonArray("tool_calls").size());
        assertEquals("a  b <call other>{}</call> c", text.get("content").getAsString());
        Run error =
                run(
                        "",
                        "parse",
                        "--format",
                        "toy",
                        "--tools",
                        tools.toString(),
                        "--unknown-tool",
                        "error",
                        in.toString());
        assertEquals(1, error.code());
        assertTrue(error.err().contains("\"unknown_tool\""), error.err());
        assertEquals(
                2,
                run("", "parse", "--format", "toy", "--unknown-tool", "maybe", in.toString())
                        .code());
        Path cut = write("cut.txt", "x <call f>{\"a\": 1}");
        assertEquals(1, run("", "parse", "--format", "toy", cut.toString()).code());
        Run recovered = run("", "parse", "--format", "toy", "--lenient", cut.toString());
        assertEquals(0, recovered.code(), recovered.err());
        assertEquals(
                "{\"a\": 1}",
                JsonParser.parseString(recovered.out())
                        .getAsJsonObject()
                        .getAsJsonArray("tool_calls")
                        .get(0)
                        .getAsJsonObject()
                        .getAsJsonObject("function")
                        .get("arguments")
                        .getAsString());
    }
}
