package dev.toolcalls;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;

/**
 * Lenient recovery: a complete call cut off before its end marker is a call; a format's lenient
 * mode (declared in its grammar and format file) tolerates extra wrappers; strict stays strict.
 */
class LenientRecoveryTest {
    static final ParseOptions LENIENT = ParseOptions.defaults().withLenient(true);
    static final String GRAMMAR =
            String.join(
                    "\n",
                    "lexer grammar L;",
                    "TEXT : ~[<`]+ ;",
                    "LT : '<' ;",
                    "TICK : '`' ;",
                    "OPEN : '<call ' -> pushMode(HEAD) ;",
                    "mode HEAD;",
                    "NAME : [a-z]+ ;",
                    "GT : '>' -> mode(ARGS) ;",
                    "mode ARGS;",
                    "ARG_TEXT : ~[<`]+ ;",
                    "ARG_LT : '<' ;",
                    "ARG_TICK : '`' ;",
                    "CLOSE : '</call>' -> popMode ;",
                    "FENCE_CLOSE : '```' -> popMode ;",
                    "mode LENIENT;",
                    "L_TEXT : ~[<`]+ -> type(TEXT) ;",
                    "L_LT : '<' -> type(LT) ;",
                    "L_TICK : '`' -> type(TICK) ;",
                    "L_OPEN : '<call ' -> type(OPEN), pushMode(HEAD) ;",
                    "FENCE_OPEN : '```call ' -> pushMode(HEAD) ;",
                    "");

    /** Every chunking gives the batch message. */
    static ChatMessage parseEveryWay(Format f, String text, ParseOptions o) {
        ChatMessage batch = f.parse(text, Tools.none(), o);
        for (int size = 1; size <= 7; size += 3) {
            StreamParser s = f.newStream(Tools.none(), o);
            List<DeltaMessage> all = new ArrayList<>();
            for (int i = 0; i < text.length(); i += size)
                all.addAll(
                        DeltaMessage.of(
                                s.feed(text.substring(i, Math.min(text.length(), i + size)))));
            all.addAll(DeltaMessage.of(s.finish()));
            ChatMessage streamed = ChatMessage.fromDeltas(all);
            assertEquals(batch.content(), streamed.content());
            assertEquals(
                    batch.toolCalls().stream().map(c -> c.name() + c.arguments()).toList(),
                    streamed.toolCalls().stream().map(c -> c.name() + c.arguments()).toList());
        }
        return batch;
    }

    /** The deltas of a stream fed in chunks of 3. */
    static List<DeltaMessage> streamed(Format f, String text, ParseOptions o) {
        return streamed(f, text, o, new ArrayList<>());
    }

    /** The same, collecting the deltas in {@code all} (those sent before an error too). */
    static List<DeltaMessage> streamed(
            Format f, String text, ParseOptions o, List<DeltaMessage> all) {
        StreamParser s = f.newStream(Tools.none(), o);
        for (int i = 0; i < text.length(); i += 3)
            all.addAll(DeltaMessage.of(s.feed(text.substring(i, Math.min(text.length(), i + 3)))));
        all.addAll(DeltaMessage.of(s.finish()));
        return all;
    }

    @Test
    void aBatchGivesBackABrokenCallAsItsRawTextEvenAfterItsNameWasRead() {
        String[][] cases = {
            {
                "hermes",
                "Sure. ",
                "<tool_call>{\"name\": \"f\", \"arguments\": {\"a\": 1,}}</tool_call>",
                ""
            },
            {"hermes", "", "<tool_call>{\"name\": \"f\", \"arguments\": {\"a\": [1,", ""},
            {
                "qwen3_coder",
                "Hi\n",
                "<tool_call>\n<function=f>\n<parameter=a>\nx\n</parameter>\n<parameter= >\ny\n</parameter>\n</function>\n</tool_call>",
                ""
            },
            {"pythonic", "", "[f(a=1, b=[2, 3", ""},
            {"toy", "a ", "<call f>{\"x\": 1,}</call>", " b"},
        };
        for (String[] c : cases) {
            Format f = Formats.get(c[0]);
            String text = c[1] + c[2] + c[3];
            ToolCallParseException strict =
                    assertThrows(ToolCallParseException.class, () -> f.parse(text), text);
            // streamed: the call's start is out before it breaks, so the stream fails, lenient or
            // not
            List<DeltaMessage> sent = new ArrayList<>();
            ToolCallParseException streamed =
                    assertThrows(
                            ToolCallParseException.class,
                            () -> streamed(f, text, LENIENT, sent),
                            text);
            assertEquals(strict.kind(), streamed.kind(), text);
            sent.addAll(DeltaMessage.of(streamed.eventsBeforeError()));
            assertTrue(
                    sent.stream().anyMatch(d -> d.isToolCall() && "f".equals(d.toolCall().name())),
                    text);
            // batch: nothing has left the process, the call's raw text from its first character is
            // content
            ChatMessage m = f.parse(text, Tools.none(), LENIENT);
            assertEquals(c[1] + c[2] + c[3], m.content(), text);
            assertTrue(m.toolCalls().isEmpty(), text);
            assertTrue(
                    f.parseEvents(text, Tools.none(), LENIENT).stream()
                            .noneMatch(e -> e instanceof ParseEvent.ToolCallStart),
                    text);
        }
        // the calls after it take the indices and ids the broken one did not use
        ParseOptions seeded = LENIENT.withIds(() -> IdGenerator.seeded(0));
        ChatMessage next =
                Formats.get("toy")
                        .parse("<call f>{\"x\": 1,}</call><call g>{}</call>", Tools.none(), seeded);
        assertEquals("<call f>{\"x\": 1,}</call>", next.content());
        assertEquals("g", next.toolCalls().get(0).name());
        assertEquals(
                Formats.get("toy")
                        .parse("<call g>{}</call>", Tools.none(), seeded)
                        .toolCalls()
                        .get(0)
                        .id(),
                next.toolCalls().get(0).id());
    }

    @Test
    void aCompleteCallCutBeforeItsEndMarkerIsACallWhenLenient() {
        Format hermes = Formats.get("hermes");
        for (String cut : new String[] {"", "}", "}</tool_c", "}\n</tool"}) {
            String text = "Sure. <tool_call>{\"name\": \"f\", \"arguments\": {\"a\": [1, 2]}" + cut;
            ChatMessage m = parseEveryWay(hermes, text, LENIENT);
            assertEquals(1, m.toolCalls().size(), text);
            assertEquals("{\"a\": [1, 2]}", m.toolCalls().get(0).arguments());
            assertEquals("Sure. ", m.content());
            ToolCallParseException strict =
                    assertThrows(ToolCallParseException.class, () -> hermes.parse(text));
            assertEquals(ToolCallParseException.Kind.UNTERMINATED_CALL, strict.kind());
        }
        // incomplete arguments: a stream that announced the call fails, batch gives it back as text
        String incomplete = "<tool_call>{\"name\": \"f\", \"arguments\": {\"a\": [1,";
        assertThrows(ToolCallParseException.class, () -> streamed(hermes, incomplete, LENIENT));
        assertEquals(incomplete, hermes.parse(incomplete, Tools.none(), LENIENT).content());
        // key/value formats: complete when no value is left open
        Format qwen = Formats.get("qwen3_coder");
        ChatMessage q =
                parseEveryWay(
                        qwen,
                        "<tool_call>\n<function=f>\n<parameter=a>\nx\n</parameter>\n</funct",
                        LENIENT);
        assertEquals("{\"a\": \"x\"}", q.toolCalls().get(0).arguments());
        assertThrows(
                ToolCallParseException.class,
                () -> streamed(qwen, "<tool_call>\n<function=f>\n<parameter=a>\nx", LENIENT));
        // literal formats: complete when the literal is back at its top level
        ChatMessage p = parseEveryWay(Formats.get("pythonic"), "[f(a=1, b=[2, 3]", LENIENT);
        assertEquals("{\"a\": 1, \"b\": [2, 3]}", p.toolCalls().get(0).arguments());
    }

    static Format lenientFormat(boolean declared) {
        return lenientFormat(declared ? "LENIENT" : null);
    }

    static Format lenientFormat(String mode) {
        return Formats.define(
                "{\"name\": \"l\", "
                        + (mode != null ? "\"lenientMode\": \"" + mode + "\", " : "")
                        + "\"roles\": {\"TEXT\": \"content\", \"LT\": \"content\", \"TICK\": \"content\", \"OPEN\": \"call.begin\", \"FENCE_OPEN\": \"call.begin\","
                        + " \"NAME\": \"name\", \"GT\": \"skip\", \"ARG_TEXT\": \"args.json\", \"ARG_LT\": \"args.json\", \"ARG_TICK\": \"args.json\","
                        + " \"CLOSE\": \"call.end\", \"FENCE_CLOSE\": \"call.end\"}, \"streamable\": [\"TEXT\", \"ARG_TEXT\"]}",
                ToyFormats.interp(GRAMMAR),
                name -> null);
    }

    @Test
    void aFormatsLenientModeToleratesItsWrappersOnlyWhenLenient() {
        Format f = lenientFormat(true);
        String fenced = "Here: ```call f>{\"a\": 1}``` done";
        ChatMessage lenient = parseEveryWay(f, fenced, LENIENT);
        assertEquals(1, lenient.toolCalls().size());
        assertEquals("{\"a\": 1}", lenient.toolCalls().get(0).arguments());
        assertEquals("Here:  done", lenient.content());
        ChatMessage strict = parseEveryWay(f, fenced, ParseOptions.defaults());
        assertEquals(fenced, strict.content(), "strict: the wrapper is text");
        assertTrue(strict.toolCalls().isEmpty());
        // the canonical form works in both
        assertEquals(1, parseEveryWay(f, "x <call g>{}</call> y", LENIENT).toolCalls().size());
        assertEquals(
                1,
                parseEveryWay(f, "x <call g>{}</call> y", ParseOptions.defaults())
                        .toolCalls()
                        .size());
        String m =
                assertThrows(IllegalArgumentException.class, () -> lenientFormat("NOPE"))
                        .getMessage();
        assertTrue(m.contains("lenientMode 'NOPE' is not a mode"), m);
    }
}
