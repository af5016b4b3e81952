package dev.toolcalls;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.toolcalls.protocol.ValueJson;

import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;

/** The runtime's guarantees, on the test fixture format {@code <call NAME #ID>args</call>}. */
class StreamingRuntimeTest {
    static final Format TOY = Formats.get("toy");

    static StreamParser stream() {
        return TOY.newStream(
                Tools.none(), ParseOptions.defaults().withIds(() -> IdGenerator.seeded(0)));
    }

    static String json(List<DeltaMessage> deltas) {
        StringBuilder b = new StringBuilder();
        for (DeltaMessage d : deltas) b.append(ValueJson.delta(d)).append('\n');
        return b.toString();
    }

    @Test
    void tagPrefixIsHeldThenReleasedAsContentWhenItIsNotATag() {
        StreamParser s = stream();
        assertEquals("{\"content\":\"a \"}\n", json(DeltaMessage.of(s.feed("a <ca"))));
        assertEquals("{\"content\":\"<cat> b\"}\n", json(DeltaMessage.of(s.feed("t> b"))));
        assertEquals("", json(DeltaMessage.of(s.finish())));
    }

    @Test
    void tagPrefixAtTheVeryEndIsFlushedAtFinish() {
        StreamParser s = stream();
        assertEquals("{\"content\":\"x \"}\n", json(DeltaMessage.of(s.feed("x <call"))));
        assertEquals("{\"content\":\"<call\"}\n", json(DeltaMessage.of(s.finish())));
    }

    @Test
    void contentFlowsAsItArrivesWithoutWaitingForTheNextTag() {
        StreamParser s = stream();
        assertEquals("{\"content\":\"Hello\"}\n", json(DeltaMessage.of(s.feed("Hello"))));
        assertEquals("{\"content\":\" world\"}\n", json(DeltaMessage.of(s.feed(" world"))));
    }

    @Test
    void headerWaitsForTheIdWhenTheFormatCarriesIdsAndCarriesNameOnce() {
        StreamParser s = stream();
        assertEquals("", json(DeltaMessage.of(s.feed("<call get_weather"))));
        assertEquals("", json(DeltaMessage.of(s.feed(" #ab")))); // the id may still grow
        assertEquals(
                "{\"tool_calls\":[{\"index\":0,\"id\":\"abc\",\"type\":\"function\",\"function\":{\"name\":\"get_weather\",\"arguments\":\"\"}}]}\n",
                json(DeltaMessage.of(s.feed("c>"))));
        assertEquals(
                "{\"tool_calls\":[{\"index\":0,\"function\":{\"arguments\":\"{\\\"a\\\": \"}}]}\n",
                json(DeltaMessage.of(s.feed("{\"a\": "))));
        assertEquals(
                "{\"tool_calls\":[{\"index\":0,\"function\":{\"arguments\":\"1}\"}}]}\n",
                json(DeltaMessage.of(s.feed("1}</cal"))));
        assertEquals("", json(DeltaMessage.of(s.feed("l>"))));
        assertEquals("", json(DeltaMessage.of(s.finish())));
    }

    @Test
    void piecesOfOneFeedAreMergedByKind() {
        List<DeltaMessage> d =
                DeltaMessage.of(
                        stream().feed("Hi there <call f>{\"a\": 1}</call><call g>{}</call> bye"));
        assertEquals(4, d.size(), json(d));
        assertEquals("Hi there ", d.get(0).content());
        assertEquals("f", d.get(1).toolCall().name());
        assertEquals("{\"a\": 1}", d.get(1).toolCall().arguments());
        assertEquals(1, d.get(2).toolCall().index());
        assertEquals("{}", d.get(2).toolCall().arguments());
        assertEquals(" bye", d.get(3).content());
    }

    @Test
    void whitespaceOnlyContentIsNullAndNeverStreamed() {
        StreamParser s = stream();
        List<DeltaMessage> all = new ArrayList<>();
        for (char c : "  \n<call f>{}</call>\n  ".toCharArray())
            all.addAll(DeltaMessage.of(s.feed(String.valueOf(c))));
        all.addAll(DeltaMessage.of(s.finish()));
        assertTrue(all.stream().noneMatch(DeltaMessage::isContent), json(all));
        assertNull(TOY.parse("  \n<call f>{}</call>\n  ").content());
    }

    @Test
    void leadingWhitespaceIsHeldUntilRealContentThenFlowsVerbatim() {
        StreamParser s = stream();
        assertEquals("", json(DeltaMessage.of(s.feed("\n\n"))));
        assertEquals(
                "{\"content\":\"\\n\\nHello\\n\"}\n", json(DeltaMessage.of(s.feed("Hello\n"))));
        assertEquals("\n\nHello\n", TOY.parse("\n\nHello\n").content());
    }

    @Test
    void surrogatePairSplitAcrossChunksIsNeverEmittedHalf() {
        StreamParser s = stream();
        assertEquals("", json(DeltaMessage.of(s.feed("\uD83D"))));
        assertEquals("😀", DeltaMessage.of(s.feed("\uDE00")).get(0).content());
        StreamParser a = stream();
        DeltaMessage.of(a.feed("<call e>{\"e\": \"\uD83D"));
        List<DeltaMessage> rest = new ArrayList<>(DeltaMessage.of(a.feed("\uDE00\"}</call>")));
        rest.addAll(DeltaMessage.of(a.finish()));
        for (DeltaMessage d : rest) {
            String args = d.toolCall().arguments();
            assertTrue(
                    args.isEmpty() || !Character.isHighSurrogate(args.charAt(args.length() - 1)));
        }
    }

    @Test
    void generatedIdsAreCallPlus24AlphanumericsAndReproducibleWithASeed() {
        ChatMessage m = TOY.parse("<call f>{}</call><call g>{}</call>");
        for (ToolCall c : m.toolCalls()) assertTrue(c.id().matches("call_[A-Za-z0-9]{24}"), c.id());
        assertTrue(!m.toolCalls().get(0).id().equals(m.toolCalls().get(1).id()));
        ParseOptions seeded = ParseOptions.defaults().withIds(() -> IdGenerator.seeded(7));
        assertEquals(
                TOY.parse("<call f>{}</call>", Tools.none(), seeded),
                TOY.parse("<call f>{}</call>", Tools.none(), seeded));
    }

    @Test
    void messageAndDeltaJsonUseOpenAiFieldNames() {
        assertEquals("{\"content\":null,\"tool_calls\":[]}", ValueJson.message(TOY.parse("")));
        ChatMessage m = TOY.parse("<call f #x1>{\"a\": \"<b>\"}</call>");
        assertEquals(
                "{\"content\":null,\"tool_calls\":[{\"id\":\"x1\",\"type\":\"function\",\"function\":{\"name\":\"f\",\"arguments\":\"{\\\"a\\\": \\\"<b>\\\"}\"}}]}",
                ValueJson.message(m));
    }

    @Test
    void unterminatedCallIsAnErrorAtItsStartWithFormatOffsetAndExcerpt() {
        ToolCallParseException e =
                assertThrows(
                        ToolCallParseException.class, () -> TOY.parse("ok <call f>{\"a\": 1}"));
        assertEquals(ToolCallParseException.Kind.UNTERMINATED_CALL, e.kind());
        assertEquals(3, e.offset());
        assertEquals("toy", e.format());
        assertTrue(e.getMessage().startsWith("toy: unterminated call at offset 3"), e.getMessage());
        assertTrue(e.excerpt().contains("<call f>"), e.excerpt());
    }

    @Test
    void malformedArgumentsAreRejectedStrictly() {
        for (String args :
                new String[] {
                    "{\"a\": 1,}",
                    "{'a': 1}",
                    "{a: 1}",
                    "{\"a\": NaN}",
                    "[1]",
                    "{\"a\": 1} x",
                    "{\"a\": 1",
                    "\"{}\"",
                    "{\"a\": \"x\ny\"}",
                    "{\"a\": \"tab\there\"}"
                }) {
            ToolCallParseException e =
                    assertThrows(
                            ToolCallParseException.class,
                            () -> TOY.parse("<call f>" + args + "</call>"),
                            args);
            assertEquals(ToolCallParseException.Kind.MALFORMED_ARGUMENTS, e.kind(), args);
        }
        assertEquals("{}", TOY.parse("<call f></call>").toolCalls().get(0).arguments());
    }

    @Test
    void callWithoutNameIsAnError() {
        ToolCallParseException e =
                assertThrows(
                        ToolCallParseException.class, () -> TOY.parse("<call  #id1>{}</call>"));
        assertEquals(ToolCallParseException.Kind.MISSING_NAME, e.kind());
        assertEquals(0, e.offset());
    }

    @Test
    void unexpectedTextInsideACallPointsAtTheCharacter() {
        ToolCallParseException e =
                assertThrows(ToolCallParseException.class, () -> TOY.parse("ab<call f!>{}</call>"));
        assertEquals(ToolCallParseException.Kind.UNEXPECTED_TEXT, e.kind());
        assertEquals(9, e.offset());
    }

    @Test
    void lenientReturnsAMalformedCallAsContentOnlyWhileNothingOfItWasSent() {
        ParseOptions lenient = ParseOptions.defaults().withLenient(true);
        assertEquals(
                "a <call f!>{}</call> b",
                TOY.parse("a <call f!>{}</call> b", Tools.none(), lenient).content());
        assertEquals("a <call f", TOY.parse("a <call f", Tools.none(), lenient).content());
        // streamed, the header went out with the first argument byte: the broken call is an error
        // even when lenient
        StreamParser s = TOY.newStream(Tools.none(), lenient);
        ToolCallParseException e =
                assertThrows(
                        ToolCallParseException.class,
                        () -> {
                            s.feed("<call f>{\"x\": 1,}</call>");
                            s.finish();
                        });
        assertEquals(ToolCallParseException.Kind.MALFORMED_ARGUMENTS, e.kind());
        // in batch nothing has left the process: the call comes back as its raw text
        assertEquals(
                "<call f>{\"x\": 1,}</call>",
                TOY.parse("<call f>{\"x\": 1,}</call>", Tools.none(), lenient).content());
    }

    @Test
    void lenientGoesOnAsTextAfterACallAbandonedMidway() {
        ParseOptions lenient = ParseOptions.defaults().withLenient(true);
        assertEquals(
                "<call f g>{\"a\": 1}</call> tail <cat>",
                TOY.parse("<call f g>{\"a\": 1}</call> tail <cat>", Tools.none(), lenient)
                        .content());
        ChatMessage next = TOY.parse("<call f g>{}</call><call h>{}</call>", Tools.none(), lenient);
        assertEquals("<call f g>{}</call>", next.content());
        assertEquals("h", next.toolCalls().get(0).name());
        ToolCallParseException e =
                assertThrows(ToolCallParseException.class, () -> TOY.parse("<call f g>{}</call>"));
        assertEquals(ToolCallParseException.Kind.MISSING_NAME, e.kind());
        assertEquals(8, e.offset());
    }

    @Test
    void anOutputCutInsideANameIsAnUnterminatedCallNotATruncatedName() {
        Format f =
                ToyFormats.compile(
                        FormatLoadingTest.GRAMMAR,
                        FormatLoadingTest.file(FormatLoadingTest.ROLES, "\"TEXT\""));
        StreamParser s = f.newStream();
        assertEquals("hi ", DeltaMessage.of(s.feed("hi <c>getwea")).get(0).content());
        ToolCallParseException e = assertThrows(ToolCallParseException.class, s::finish);
        assertEquals(ToolCallParseException.Kind.UNTERMINATED_CALL, e.kind());
        assertTrue(
                DeltaMessage.of(e.eventsBeforeError()).isEmpty(),
                "no header with a cut name: " + DeltaMessage.of(e.eventsBeforeError()));
        assertEquals(
                "hi <c>getwea",
                f.parse("hi <c>getwea", Tools.none(), ParseOptions.defaults().withLenient(true))
                        .content());
        assertEquals("get", f.parse("<c>get</c>").toolCalls().get(0).name());
    }

    @Test
    void aWholeOutputsErrorCarriesTheEventsParseEventsGivesWithTheSameIds() {
        // parse gathers the message without events and, on an error, parses the output again for
        // them: the ids the first parse drew are used again, and the id source is asked once
        String out = "a <call f>{\"x\": 1}</call> b <call g>{bad</call> c";
        IdGenerator forEvents = IdGenerator.seeded(7);
        IdGenerator forMessage = IdGenerator.seeded(7);
        int[] asked = {0};
        ToolCallParseException viaEvents =
                assertThrows(
                        ToolCallParseException.class,
                        () ->
                                TOY.parseEvents(
                                        out,
                                        Tools.none(),
                                        ParseOptions.defaults().withIds(() -> forEvents)));
        ToolCallParseException viaMessage =
                assertThrows(
                        ToolCallParseException.class,
                        () ->
                                TOY.parse(
                                        out,
                                        Tools.none(),
                                        ParseOptions.defaults()
                                                .withIds(
                                                        () -> {
                                                            asked[0]++;
                                                            return forMessage;
                                                        })));
        assertEquals(viaEvents.getMessage(), viaMessage.getMessage());
        assertEquals(viaEvents.eventsBeforeError(), viaMessage.eventsBeforeError());
        assertTrue(
                viaMessage.eventsBeforeError().stream()
                        .anyMatch(e -> e instanceof ParseEvent.ToolCallEnd),
                "the call before the error: " + viaMessage.eventsBeforeError());
        assertEquals(1, asked[0]);
        assertEquals(forEvents.alphanumeric(9), forMessage.alphanumeric(9));
    }

    @Test
    void deltasProducedBeforeAnErrorTravelWithIt() {
        StreamParser s = stream();
        ToolCallParseException e =
                assertThrows(
                        ToolCallParseException.class,
                        () -> DeltaMessage.of(s.feed("hello <call f!")));
        assertEquals("hello ", DeltaMessage.of(e.eventsBeforeError()).get(0).content());
        assertThrows(IllegalStateException.class, () -> DeltaMessage.of(s.feed("more")));
    }

    @Test
    void longOutputsInTinyChunksGiveTheBatchResult() {
        StringBuilder text = new StringBuilder();
        for (int i = 0; i < 2000; i++)
            text.append("line ")
                    .append(i)
                    .append(" é 中 😀 <cat>\n<call f>{\"i\": ")
                    .append(i)
                    .append(", \"s\": \"</ca\"}</call>");
        ChatMessage batch =
                TOY.parse(
                        text.toString(),
                        Tools.none(),
                        ParseOptions.defaults().withIds(() -> IdGenerator.seeded(0)));
        StreamParser s = stream();
        List<DeltaMessage> all = new ArrayList<>();
        for (int i = 0; i < text.length(); i += 3)
            all.addAll(DeltaMessage.of(s.feed(text.substring(i, Math.min(text.length(), i + 3)))));
        all.addAll(DeltaMessage.of(s.finish()));
        assertEquals(batch, ChatMessage.fromDeltas(all));
        assertEquals(2000, batch.toolCalls().size());
    }
}
