package dev.toolcalls;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.toolcalls.protocol.ValueJson;

import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;

/**
 * The format-file options, each on a small in-memory grammar, in batch and under many chunkings.
 */
class FormatRulesTest {
    static final String TOY = ToyFormats.resource("dev/toolcalls/toy/ToyLexer.g4");

    static final String NO_CLOSE =
            "lexer grammar N;\nTEXT : ~'<'+ ;\nLT : '<' ;\nOPEN : '<call ' -> pushMode(HEAD) ;\n"
                    + "mode HEAD;\nNAME : [a-z]+ ;\nARGS_OPEN : '>' -> mode(ARGS) ;\n"
                    + "mode ARGS;\nOBJ : '{' -> mode(NEST) ;\n"
                    + "mode NEST;\nIN_OPEN : '{' -> pushMode(NEST) ;\nIN_CLOSE : '}' -> popMode ;\nIN_TEXT : ~[{}]+ ;\n";

    static final String NO_CLOSE_FILE =
            "{\"name\": \"n\", \"callEnd\": \"implicit\", \"include\": [\"Nest\"], \"roles\": {\"TEXT\": \"content\", \"LT\": \"content\","
                    + " \"OPEN\": \"call.begin\", \"NAME\": \"name\", \"ARGS_OPEN\": \"skip\", \"OBJ\": \"args.json\"}, \"streamable\": [\"TEXT\"]}";

    static final Map<String, String> NEST_ROLES =
            Map.of(
                    "Nest",
                    "{\"roles\": {\"IN_OPEN\": \"inherit\", \"IN_CLOSE\": \"inherit\", \"IN_TEXT\": \"inherit\"}, \"streamable\": [\"IN_TEXT\"]}");

    static final String THINK =
            "lexer grammar R;\nTEXT : ~'<'+ ;\nLT : '<' ;\nOPEN : '<think>' -> pushMode(THINK) ;\n"
                    + "mode THINK;\nR_TEXT : ~'<'+ ;\nR_LT : '<' ;\nCLOSE : '</think>' -> popMode ;\n";

    static String toyFile(String options) {
        return "{\"name\": \"t\", "
                + options
                + (options.isEmpty() ? "" : ", ")
                + "\"roles\": {\"TEXT\": \"content\", \"LT\": \"content\", \"OPEN\": \"call.begin\","
                + " \"NAME\": \"name\", \"HEAD_WS\": \"skip\", \"HASH\": \"skip\", \"ARGS_OPEN\": \"skip\", \"ID\": \"id\","
                + " \"ARG_TEXT\": \"args.json\", \"ARG_LT\": \"args.json\", \"CLOSE\": \"call.end\"}, \"streamable\": [\"TEXT\", \"ARG_TEXT\"]}";
    }

    /**
     * Batch, then 1-character and random chunkings, all of which must agree; returns the batch
     * message.
     */
    static ChatMessage parseEveryWay(Format f, String text) {
        return parseEveryWay(f, Tools.none(), text);
    }

    static ChatMessage parseEveryWay(Format f, Tools tools, String text) {
        ParseOptions options = ParseOptions.defaults().withIds(() -> IdGenerator.seeded(5));
        ChatMessage batch = f.parse(text, tools, options);
        Random random = new Random(1);
        for (int k = 0; k < 30; k++) {
            StreamParser s = f.newStream(tools, options);
            List<DeltaMessage> all = new ArrayList<>();
            for (int i = 0; i < text.length(); ) {
                int end = Math.min(text.length(), i + (k == 0 ? 1 : 1 + random.nextInt(6)));
                all.addAll(DeltaMessage.of(s.feed(text.substring(i, end))));
                i = end;
            }
            all.addAll(DeltaMessage.of(s.finish()));
            assertEquals(batch, ChatMessage.fromDeltas(all), "chunking " + k);
        }
        return batch;
    }

    @Test
    void segmentsPolicyStripsEachSegmentAndJoinsWithOneSpace() {
        Format f = ToyFormats.compile(TOY, toyFile("\"content\": \"segments\""));
        assertEquals(
                "Hi there. Bye",
                parseEveryWay(f, "  Hi there. \n<call f>{}</call>\n\n  Bye \n").content());
        assertEquals(
                "a b",
                parseEveryWay(f, "a<call f>{}</call><call g>{}</call> \n <call h>{}</call>b")
                        .content());
        assertNull(parseEveryWay(f, " \n<call f>{}</call>  ").content());
        StreamParser s = f.newStream();
        assertEquals(
                "x",
                DeltaMessage.of(s.feed(" x  ")).get(0).content()); // trailing whitespace waits...
        assertEquals(
                "  y",
                DeltaMessage.of(s.feed("y"))
                        .get(0)
                        .content()); // ...and comes out when the segment goes on
    }

    @Test
    void implicitCallEndClosesACallAtTheNextCallAtTextAndAtTheEnd() {
        Format f = ToyFormats.compile(NO_CLOSE, NO_CLOSE_FILE, NEST_ROLES);
        ChatMessage m =
                parseEveryWay(
                        f, "a <call f>{\"x\": {\"y\": 1}}<call g>{} tail <call h>{\"z\": [1]}");
        assertEquals(List.of("f", "g", "h"), m.toolCalls().stream().map(ToolCall::name).toList());
        assertEquals("{\"x\": {\"y\": 1}}", m.toolCalls().get(0).arguments());
        assertEquals("a  tail ", m.content());
        // the end of the output ends a call only once its arguments are complete
        ToolCallParseException e =
                assertThrows(ToolCallParseException.class, () -> f.parse("<call f>{\"x\": {"));
        assertEquals(ToolCallParseException.Kind.UNTERMINATED_CALL, e.kind());
    }

    @Test
    void includedRoleFilesGiveRolesAndTheFormatsOwnRolesWin() {
        String file =
                NO_CLOSE_FILE.replace(
                        "\"OBJ\": \"args.json\"",
                        "\"OBJ\": \"args.json\", \"IN_TEXT\": \"inherit\"");
        assertEquals(
                1,
                ToyFormats.compile(NO_CLOSE, file, NEST_ROLES)
                        .parse("<call f>{}")
                        .toolCalls()
                        .size());
        String m =
                assertThrows(
                                IllegalArgumentException.class,
                                () -> ToyFormats.compile(NO_CLOSE, NO_CLOSE_FILE, Map.of()))
                        .getMessage();
        assertTrue(m.contains("no role file for included grammar Nest"), m);
    }

    @Test
    void anIdPatternKeepsOnlyMatchingModelIdsAndTheTemplateMakesTheRest() {
        Format f =
                ToyFormats.compile(
                        TOY, toyFile("\"ids\": \"{random:9}\", \"idPattern\": \"[A-Za-z0-9]{9}\""));
        ChatMessage m =
                parseEveryWay(
                        f,
                        "<call f #a1B2c3D4e>{}</call><call g #toolong123>{}</call><call h>{}</call>");
        assertEquals("a1B2c3D4e", m.toolCalls().get(0).id());
        assertTrue(
                m.toolCalls().get(1).id().matches("[A-Za-z0-9]{9}")
                        && !m.toolCalls().get(1).id().equals("toolong12"));
        assertTrue(m.toolCalls().get(2).id().matches("[A-Za-z0-9]{9}"));
    }

    @Test
    void idsCanNameTheFunctionAndTemplatesCanHoldNameAndIndex() {
        Format f =
                ToyFormats.compile(
                        TOY,
                        toyFile(
                                "\"ids\": \"functions.{name}:{index}\", \"nameFromId\": \"(?:functions\\\\.)?([\\\\w.]+?)(?::\\\\d+)?\""));
        ChatMessage m =
                parseEveryWay(
                        f,
                        "<call #functions.get_weather:0>{\"a\": 1}</call><call #lookup:1>{}</call><call g>{}</call>");
        assertEquals("get_weather", m.toolCalls().get(0).name());
        assertEquals("functions.get_weather:0", m.toolCalls().get(0).id());
        assertEquals("lookup", m.toolCalls().get(1).name());
        assertEquals("functions.g:2", m.toolCalls().get(2).id());
    }

    @Test
    void reasoningRoleStreamsReasoningContentWithTheSameHoldBack() {
        Format f =
                ToyFormats.compile(
                        THINK,
                        "{\"name\": \"r\", \"roles\": {\"TEXT\": \"content\", \"LT\": \"content\", \"OPEN\": \"skip\","
                                + " \"R_TEXT\": \"reasoning\", \"R_LT\": \"reasoning\", \"CLOSE\": \"skip\"}, \"streamable\": [\"TEXT\", \"R_TEXT\"]}");
        ChatMessage m = parseEveryWay(f, "<think>\nhmm <b> </thin</think>\n\nAnswer <think");
        assertEquals("hmm <b> </thin", m.reasoningContent().strip());
        assertEquals("\n\nAnswer <think", m.content());
        assertEquals(
                "{\"content\":\"\\n\\nAnswer <think\",\"reasoning_content\":\"\\nhmm <b> </thin\",\"tool_calls\":[]}",
                ValueJson.message(m));
        StreamParser s = f.newStream();
        assertEquals(
                "{\"reasoning_content\":\"\\nhm\"}",
                ValueJson.delta(DeltaMessage.of(s.feed("<think>\nhm")).get(0)));
        assertEquals(0, DeltaMessage.of(s.feed("</thi")).size());
        assertNull(f.parse("just text").reasoningContent());
    }

    @Test
    void thinkingStartsTheOutputInsideReasoningWhenThePromptOpenedIt() {
        String file =
                "{\"name\": \"r\", \"thinkingMode\": \"THINK\", \"thinkingDefault\": true, \"roles\": {\"TEXT\": \"content\", \"LT\": \"content\","
                        + " \"OPEN\": \"skip\", \"R_TEXT\": \"reasoning\", \"R_LT\": \"reasoning\", \"CLOSE\": \"skip\"}, \"streamable\": [\"TEXT\", \"R_TEXT\"]}";
        Format f = ToyFormats.compile(THINK, file);
        ChatMessage on = parseEveryWay(f, "mulling it over</think>The answer");
        assertEquals("mulling it over", on.reasoningContent());
        assertEquals("The answer", on.content());
        assertEquals(
                "all reasoning, cut short",
                parseEveryWay(f, "all reasoning, cut short").reasoningContent());
        ChatMessage off =
                f.parse("plain answer", Tools.none(), ParseOptions.defaults().withThinking(false));
        assertEquals("plain answer", off.content());
        assertNull(off.reasoningContent());
        assertTrue(
                assertThrows(
                                IllegalArgumentException.class,
                                () ->
                                        ToyFormats.compile(
                                                THINK,
                                                file.replace(
                                                        "\"THINK\", \"thinkingDefault\"",
                                                        "\"NOPE\", \"thinkingDefault\"")))
                        .getMessage()
                        .contains("thinkingMode 'NOPE' is not a mode"));
    }

    @Test
    void unknownOptionsAreRejectedByName() {
        assertTrue(
                assertThrows(
                                IllegalArgumentException.class,
                                () -> ToyFormats.compile(TOY, toyFile("\"content\": \"trimmed\"")))
                        .getMessage()
                        .contains("unknown content policy 'trimmed'"));
        assertTrue(
                assertThrows(
                                IllegalArgumentException.class,
                                () -> ToyFormats.compile(TOY, toyFile("\"callEnd\": \"never\"")))
                        .getMessage()
                        .contains("unknown callEnd 'never'"));
        assertTrue(
                assertThrows(
                                IllegalArgumentException.class,
                                () -> ToyFormats.compile(TOY, toyFile("\"nameFromId\": \"(\"")))
                        .getMessage()
                        .contains("nameFromId is not a regex"));
    }
}
