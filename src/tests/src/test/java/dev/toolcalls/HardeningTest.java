package dev.toolcalls;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.google.gson.JsonObject;

import dev.toolcalls.suite.SuiteCase;

import org.junit.jupiter.api.Test;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicReference;

/** Limits, any RFC 8259 JSON, misuse of a stream parser, and the unknown-tool policy. */
class HardeningTest {
    static final Format HERMES = Formats.get("hermes");

    static String call(String name, String args) {
        return "<tool_call>{\"name\": \"" + name + "\", \"arguments\": " + args + "}</tool_call>";
    }

    @Test
    void anyRfc8259NumberIsAcceptedWhateverItsLength() {
        for (String n :
                new String[] {
                    "1" + "0".repeat(65),
                    "9".repeat(5000),
                    "-0.5e-" + "7".repeat(3000),
                    "1" + "0".repeat(200_000)
                }) {
            ToolCall c = HERMES.parse(call("f", "{\"n\": " + n + "}")).toolCalls().get(0);
            assertEquals("{\"n\": " + n + "}", c.arguments());
        }
    }

    @Test
    void malformedJsonIsReportedWithoutLibraryInternals() {
        for (String bad :
                new String[] {"{\"a\": 01}", "{\"a\": 1,}", "{\"a\": NaN}", "{\"a\": \"\\x\"}"}) {
            ToolCallParseException e =
                    assertThrows(
                            ToolCallParseException.class, () -> HERMES.parse(call("f", bad)), bad);
            assertEquals(ToolCallParseException.Kind.MALFORMED_ARGUMENTS, e.kind(), bad);
            assertFalse(
                    e.getMessage().contains("JsonReader")
                            || e.getMessage().contains("gson")
                            || e.getMessage().contains("Gson"),
                    e.getMessage());
            assertTrue(e.getMessage().contains("expected"), e.getMessage());
        }
    }

    @Test
    void hugeNumbersAreTypedBySchemaInLinearTime() {
        String digits = "0012" + "3".repeat(500_000);
        Tools tools =
                Tools.parse(
                        "[{\"type\": \"function\", \"function\": {\"name\": \"f\", \"parameters\": {\"type\": \"object\", "
                                + "\"properties\": {\"n\": {\"type\": \"integer\"}, \"x\": {\"type\": \"number\"}}}}}]");
        String text =
                "<tool_call>\n<function=f>\n<parameter=n>\n"
                        + digits
                        + "\n</parameter>\n<parameter=x>\n+"
                        + digits
                        + ".\n</parameter>\n</function>\n</tool_call>";
        long t0 = System.nanoTime();
        ToolCall c = Formats.get("qwen3_coder").parse(text, tools).toolCalls().get(0);
        assertTrue(
                System.nanoTime() - t0 < 20_000_000_000L,
                "took " + (System.nanoTime() - t0) / 1e9 + " s");
        String canonical = digits.substring(2);
        assertEquals("{\"n\": " + canonical + ", \"x\": " + canonical + ".0}", c.arguments());
    }

    @Test
    void limitsAreTheirOwnKindOfError() {
        ToolCallParseException name =
                assertThrows(
                        ToolCallParseException.class,
                        () ->
                                HERMES.parse(
                                        call("f".repeat(300), "{}"),
                                        Tools.none(),
                                        ParseOptions.defaults().withMaxNameLength(256)));
        assertEquals(ToolCallParseException.Kind.LIMIT_EXCEEDED, name.kind());
        assertTrue(name.getMessage().contains("longer than 256"), name.getMessage());

        String deep = "[".repeat(40) + "]".repeat(40);
        ToolCallParseException nesting =
                assertThrows(
                        ToolCallParseException.class,
                        () ->
                                HERMES.parse(
                                        call("f", "{\"a\": " + deep + "}"),
                                        Tools.none(),
                                        ParseOptions.defaults().withMaxNesting(32)));
        assertEquals(ToolCallParseException.Kind.LIMIT_EXCEEDED, nesting.kind());
        assertEquals(
                1,
                HERMES.parse(call("f", "{\"a\": " + deep + "}")).toolCalls().size(),
                "within the default");

        StreamParser s =
                HERMES.newStream(Tools.none(), ParseOptions.defaults().withMaxTokenLength(1000));
        DeltaMessage.of(s.feed("<tool_call>{\"name\": \""));
        ToolCallParseException token =
                assertThrows(
                        ToolCallParseException.class,
                        () -> {
                            for (int i = 0; i < 100; i++)
                                DeltaMessage.of(s.feed("ffffffffffffffffffffffffffffff"));
                        });
        assertEquals(ToolCallParseException.Kind.LIMIT_EXCEEDED, token.kind());
        assertEquals(20, token.offset(), token.getMessage()); // where the name's string begins
        assertThrows(
                IllegalArgumentException.class, () -> ParseOptions.defaults().withMaxNesting(0));
    }

    @Test
    void aStreamParserUsedFromTwoThreadsOrAfterFinishFailsFast() throws Exception {
        StreamParser s = HERMES.newStream();
        CountDownLatch inside = new CountDownLatch(1);
        CountDownLatch release = new CountDownLatch(1);
        // a chunk whose lexing we hold up from another thread through a CharSequence is not
        // possible with String,
        // so make the first caller slow with a huge chunk and race the second
        String big = "x".repeat(20_000_000);
        AtomicReference<Throwable> second = new AtomicReference<>();
        Thread t =
                new Thread(
                        () -> {
                            inside.countDown();
                            DeltaMessage.of(s.feed(big));
                        });
        t.start();
        inside.await();
        boolean sawMisuse = false;
        for (int i = 0; i < 2000 && t.isAlive(); i++) {
            try {
                DeltaMessage.of(s.feed("y"));
            } catch (IllegalStateException e) {
                assertTrue(e.getMessage().contains("two threads"), e.getMessage());
                sawMisuse = true;
                break;
            }
        }
        t.join();
        release.countDown();
        assertTrue(
                sawMisuse || second.get() == null,
                "a concurrent feed either failed fast or did not overlap");
        DeltaMessage.of(s.finish());
        IllegalStateException after =
                assertThrows(IllegalStateException.class, () -> DeltaMessage.of(s.feed("more")));
        assertTrue(after.getMessage().contains("already finished"));
    }

    @Test
    void unknownToolsAreKeptGivenBackAsTextOrRejected() {
        Tools tools =
                Tools.parse("[{\"type\": \"function\", \"function\": {\"name\": \"known\"}}]");
        String text = "Hi " + call("known", "{}") + " and " + call("other", "{\"a\": 1}") + " bye";
        ChatMessage kept = HERMES.parse(text, tools);
        assertEquals(2, kept.toolCalls().size());
        ChatMessage asText =
                HERMES.parse(
                        text,
                        tools,
                        ParseOptions.defaults().withUnknownTool(ParseOptions.UnknownTool.TEXT));
        assertEquals(List.of("known"), asText.toolCalls().stream().map(ToolCall::name).toList());
        assertEquals("Hi  and " + call("other", "{\"a\": 1}") + " bye", asText.content());
        ToolCallParseException e =
                assertThrows(
                        ToolCallParseException.class,
                        () ->
                                HERMES.parse(
                                        text,
                                        tools,
                                        ParseOptions.defaults()
                                                .withUnknownTool(ParseOptions.UnknownTool.ERROR)));
        assertEquals(ToolCallParseException.Kind.UNKNOWN_TOOL, e.kind());
        assertTrue(
                e.getMessage().contains("'other'") && e.getMessage().contains("known"),
                e.getMessage());
        // without tools in the request nothing is unknown
        assertEquals(
                2,
                HERMES.parse(
                                text,
                                Tools.none(),
                                ParseOptions.defaults()
                                        .withUnknownTool(ParseOptions.UnknownTool.ERROR))
                        .toolCalls()
                        .size());
        // and every chunking agrees with batch
        StreamParser s =
                HERMES.newStream(
                        tools,
                        ParseOptions.defaults().withUnknownTool(ParseOptions.UnknownTool.TEXT));
        StringBuilder content = new StringBuilder();
        for (int i = 0; i < text.length(); i += 3)
            for (DeltaMessage d :
                    DeltaMessage.of(s.feed(text.substring(i, Math.min(text.length(), i + 3)))))
                if (d.isContent()) content.append(d.content());
        for (DeltaMessage d : DeltaMessage.of(s.finish()))
            if (d.isContent()) content.append(d.content());
        assertEquals(asText.content(), content.toString());
    }

    /**
     * Error offsets count code points, and every chunking counts them alike: the stream drops what
     * lies far enough behind the lexer while it reads, and a drop that would cut a surrogate pair
     * in two must not count the pair twice. Emoji before the call and inside it, then tokens at
     * every distance from them, then the error; against every 2-way split and 1-character chunks.
     */
    @Test
    void errorOffsetsCountCodePointsAlikeUnderEveryChunking() {
        for (int pad = 30; pad <= 45; pad++) {
            String filler = "a<".repeat(pad);
            // the error is at the call's begin (malformed arguments), at text the call does not
            // allow, at the begin of a cut call
            errorOffsetIsTheSameInEveryChunking(
                    "😀😀 "
                            + filler
                            + " <tool_call>{\"name\": \"f\", \"arguments\": {bad}}</tool_call>",
                    "<tool_call>");
            errorOffsetIsTheSameInEveryChunking(
                    "<tool_call>{\"name\": \"f\", \"arguments\": {\"a\": \"😀😀"
                            + filler
                            + "\"} x}</tool_call>",
                    "x}");
            errorOffsetIsTheSameInEveryChunking(
                    "😀 a 😀<tool_call>{\"name\": \"g😀\", \"arguments\": {}}</tool_call>"
                            + filler
                            + "<tool_call>{\"name\": \"f\", \"arguments\": {\"a\": 1}",
                    "<tool_call>{\"name\": \"f\"");
        }
    }

    private static void errorOffsetIsTheSameInEveryChunking(String text, String errorAt) {
        ToolCallParseException batch =
                assertThrows(ToolCallParseException.class, () -> HERMES.parse(text), text);
        String before = text.substring(0, text.indexOf(errorAt));
        assertEquals(
                before.codePointCount(0, before.length()),
                batch.offset(),
                () -> batch.getMessage() + ": " + text);
        for (int cut = 0; cut <= text.length(); cut++) {
            int at = cut;
            assertEquals(
                    batch.offset(),
                    streamedErrorOffset(List.of(text.substring(0, cut), text.substring(cut))),
                    () -> "split at " + at + ": " + text);
        }
        List<String> ones = new ArrayList<>();
        for (int i = 0; i < text.length(); i++) ones.add(text.substring(i, i + 1));
        assertEquals(batch.offset(), streamedErrorOffset(ones), () -> "1-char chunks: " + text);
    }

    private static int streamedErrorOffset(List<String> chunks) {
        StreamParser s = HERMES.newStream();
        return assertThrows(
                        ToolCallParseException.class,
                        () -> {
                            for (String c : chunks) s.feed(c);
                            s.finish();
                        })
                .offset();
    }

    /**
     * The name limit holds in every format, whichever role gives the name (a name token, a JSON
     * string, the model-written id it is read from): in every format with a call among its cases,
     * that call's name made one code point longer than the limit is {@code limit_exceeded}, in
     * batch and in chunks, at the default limit and at a small one (then also in 1-character
     * chunks).
     */
    @Test
    void theNameLimitHoldsInEveryFormatWhicheverRoleGivesTheName() {
        Map<String, List<SuiteCase>> cases = SuiteCase.load(Path.of("tests-data"));
        cases.putAll(SuiteCase.load(Path.of("src/tests/src/test/resources/suite")));
        List<String> failures = new ArrayList<>();
        int formats = 0;
        for (Format f : Formats.all()) {
            List<SuiteCase> own = cases.getOrDefault(f.name(), List.of());
            SuiteCase c = caseWithOneCall(own);
            if (c == null) {
                if (own.stream()
                        .anyMatch(
                                each ->
                                        each.expected().has("tool_calls")
                                                && !each.expected()
                                                        .getAsJsonArray("tool_calls")
                                                        .isEmpty()))
                    failures.add(
                            f.name()
                                    + ": no strict case with one call whose name is written once, to build on");
                continue;
            }
            formats++;
            String name =
                    c.expected()
                            .getAsJsonArray("tool_calls")
                            .get(0)
                            .getAsJsonObject()
                            .get("name")
                            .getAsString();
            for (int limit : new int[] {ParseOptions.defaults().maxNameLength(), 64}) {
                ParseOptions options = c.options().withMaxNameLength(limit);
                String text =
                        c.input()
                                .replace(
                                        name,
                                        name
                                                + "a"
                                                        .repeat(
                                                                limit
                                                                        + 1
                                                                        - name.codePointCount(
                                                                                0, name.length())));
                Integer batch =
                        nameLimitOffset(
                                f, options, List.of(text), failures, c + " batch, limit " + limit);
                List<List<String>> chunkings = new ArrayList<>();
                chunkings.add(chunks(text, 4096));
                if (limit < 100) {
                    chunkings.add(
                            List.of(
                                    text.substring(0, text.length() / 2),
                                    text.substring(text.length() / 2)));
                    chunkings.add(chunks(text, 7));
                    chunkings.add(chunks(text, 1));
                }
                for (List<String> chunks : chunkings) {
                    Integer streamed =
                            nameLimitOffset(
                                    f,
                                    options,
                                    chunks,
                                    failures,
                                    c
                                            + " in chunks of "
                                            + chunks.get(0).length()
                                            + ", limit "
                                            + limit);
                    if (batch != null && streamed != null && !batch.equals(streamed))
                        failures.add(
                                c
                                        + " in chunks of "
                                        + chunks.get(0).length()
                                        + ": offset "
                                        + streamed
                                        + ", batch "
                                        + batch);
                }
            }
        }
        assertEquals(Formats.all().size(), formats, "formats with a call among their cases");
        assertTrue(failures.isEmpty(), String.join("\n", failures));
    }

    /** A strict case whose output holds one call, whose name is written exactly once in it. */
    private static SuiteCase caseWithOneCall(List<SuiteCase> cases) {
        for (SuiteCase c : cases) {
            JsonObject e = c.expected();
            if (c.lenient()
                    || e.has("error")
                    || !e.has("tool_calls")
                    || e.getAsJsonArray("tool_calls").size() != 1) continue;
            String name =
                    e.getAsJsonArray("tool_calls")
                            .get(0)
                            .getAsJsonObject()
                            .get("name")
                            .getAsString();
            if (name.length() >= 3
                    && c.input().indexOf(name) >= 0
                    && c.input().indexOf(name) == c.input().lastIndexOf(name)) return c;
        }
        return null;
    }

    private static Integer nameLimitOffset(
            Format f,
            ParseOptions options,
            List<String> chunks,
            List<String> failures,
            String what) {
        try {
            if (chunks.size() == 1) {
                f.parse(chunks.get(0), Tools.none(), options);
            } else {
                StreamParser s = f.newStream(Tools.none(), options);
                for (String chunk : chunks) s.feed(chunk);
                s.finish();
            }
            failures.add(what + ": no error");
        } catch (ToolCallParseException e) {
            if (e.kind() == ToolCallParseException.Kind.LIMIT_EXCEEDED
                    && e.getMessage().contains("function name")) return e.offset();
            failures.add(
                    what
                            + ": "
                            + e.getMessage().substring(0, Math.min(300, e.getMessage().length())));
        }
        return null;
    }

    private static List<String> chunks(String text, int size) {
        List<String> out = new ArrayList<>();
        for (int i = 0; i < text.length(); i += size)
            out.add(text.substring(i, Math.min(text.length(), i + size)));
        return out;
    }
}
