package dev.toolcalls;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.toolcalls.internal.assemble.ArgumentWriter;
import dev.toolcalls.internal.assemble.SchemaTypes;
import dev.toolcalls.internal.lex.Role;

import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;

/**
 * The argument writer: schema typing of raw values, streaming of string values, literal
 * transliteration — on an in-memory XML-style grammar {@code <fn=NAME><p=KEY>value</p></fn>}.
 */
class ArgumentWriterTest {
    static final String XML =
            "lexer grammar X;\nTEXT : ~'<'+ ;\nLT : '<' ;\nOPEN : '<fn=' -> pushMode(FNAME_MODE) ;\n"
                    + "mode FNAME_MODE;\nFNAME : [a-zA-Z_.]+ ;\nNAME_END : '>' -> mode(BODY) ;\n"
                    + "mode BODY;\nBODY_WS : [ \\t\\r\\n]+ ;\nP_OPEN : '<p=' -> pushMode(KEY) ;\nCLOSE : '</fn>' -> popMode ;\n"
                    + "mode KEY;\nPKEY : ~[>]+ ;\nKEY_END : '>' -> mode(VALUE) ;\n"
                    + "mode VALUE;\nV_TEXT : ~'<'+ ;\nV_LT : '<' ;\nP_CLOSE : '</p>' -> popMode ;\n";

    static final Format X = ToyFormats.compile(XML, file("\"valueNewlines\": \"trim\", "));

    static final Tools TOOLS =
            Tools.parse(
                    "[{\"type\": \"function\", \"function\": {\"name\": \"f\", \"parameters\": {\"type\": \"object\", \"properties\": {"
                            + "\"s\": {\"type\": \"string\"}, \"i\": {\"type\": \"integer\"}, \"n\": {\"type\": \"number\"}, \"b\": {\"type\": \"boolean\"},"
                            + "\"o\": {\"type\": \"object\"}, \"a\": {\"type\": \"array\"}, \"sn\": {\"type\": [\"string\", \"null\"]}, \"in\": {\"type\": [\"integer\", \"null\"]},"
                            + "\"e\": {\"enum\": [1, 2, 3]}, \"u\": {\"anyOf\": [{\"type\": \"boolean\"}, {\"type\": \"string\"}]}, \"x\": {\"type\": \"int64\"}}}}}]");

    static String file(String options) {
        return "{\"name\": \"x\", "
                + options
                + "\"roles\": {\"TEXT\": \"content\", \"LT\": \"content\", \"OPEN\": \"call.begin\", \"FNAME\": \"name\","
                + " \"NAME_END\": \"skip\", \"BODY_WS\": \"skip\", \"P_OPEN\": \"skip\", \"CLOSE\": \"call.end\", \"PKEY\": \"arg.key\", \"KEY_END\": \"skip\","
                + " \"V_TEXT\": \"arg.value\", \"V_LT\": \"arg.value\", \"P_CLOSE\": \"arg.end\"}, \"streamable\": [\"TEXT\", \"V_TEXT\", \"BODY_WS\"]}";
    }

    static String args(String body) {
        return FormatRulesTest.parseEveryWay(X, TOOLS, "<fn=f>\n" + body + "</fn>")
                .toolCalls()
                .get(0)
                .arguments();
    }

    static String p(String key, String value) {
        return "<p=" + key + ">\n" + value + "\n</p>\n";
    }

    @Test
    void eachToolSetTypesItsOwnKeysWhenParsesTakeTurns() {
        // the same key typed differently by two tool sets, parsed in turn on one thread (a parse
        // may reuse the parts of the one before): each output gets its own tools' types, in every
        // call
        Tools strings =
                Tools.parse(
                        "[{\"type\": \"function\", \"function\": {\"name\": \"f\", \"parameters\": {\"type\": \"object\","
                                + " \"properties\": {\"i\": {\"type\": \"string\"}}}}}]");
        String calls = "<fn=f>\n" + p("i", "5") + "</fn><fn=f>\n" + p("i", "7") + "</fn>";
        for (int round = 0; round < 3; round++) {
            ChatMessage typed = X.parse(calls, TOOLS, ParseOptions.defaults());
            ChatMessage raw = X.parse(calls, strings, ParseOptions.defaults());
            assertEquals("{\"i\": 5}", typed.toolCalls().get(0).arguments());
            assertEquals("{\"i\": 7}", typed.toolCalls().get(1).arguments());
            assertEquals("{\"i\": \"5\"}", raw.toolCalls().get(0).arguments());
            assertEquals("{\"i\": \"7\"}", raw.toolCalls().get(1).arguments());
        }
    }

    @Test
    void escapingRangesOfOneTextWithRememberedFindsIsEscapingTheirCopies() {
        // ranges mostly ascending, some going back, over text dense in quotes, backslashes and
        // control characters: the finds one range leaves for the next never skip a character
        Random random = new Random(7);
        String alphabet = "ab\"\\\n\t\u0001\u2028é";
        for (int round = 0; round < 200; round++) {
            StringBuilder b = new StringBuilder();
            int n = 1 + random.nextInt(60);
            for (int k = 0; k < n; k++)
                b.append(alphabet.charAt(random.nextInt(alphabet.length())));
            String text = b.toString();
            SchemaTypes.Seen seen = new SchemaTypes.Seen();
            int from = 0;
            for (int k = 0; k < 20; k++) {
                if (random.nextInt(5) == 0) from = random.nextInt(text.length());
                int to = from + random.nextInt(text.length() - from + 1);
                assertEquals(
                        SchemaTypes.escape(text.substring(from, to)),
                        SchemaTypes.escape(text, from, to, seen),
                        text + " [" + from + ", " + to + ")");
                from = to < text.length() ? to + random.nextInt(2) : 0;
                if (from > text.length()) from = text.length();
            }
        }
    }

    @Test
    void valuesAreTypedByTheSchemaInPriorityOrder() {
        assertEquals(
                "{\"s\": \"3\", \"i\": 3, \"n\": 140.0, \"b\": true, \"o\": {\"k\": [1]}, \"a\": [1, 2], \"sn\": null, \"in\": null, \"e\": 2, \"u\": false, \"x\": -7}",
                args(
                        p("s", "3")
                                + p("i", "3")
                                + p("n", "140.0")
                                + p("b", "True")
                                + p("o", "{\"k\": [1]}")
                                + p("a", "[1, 2]")
                                + p("sn", "null")
                                + p("in", "null")
                                + p("e", "2")
                                + p("u", "false")
                                + p("x", "-7")));
    }

    @Test
    void aValueThatFailsItsTypeStaysAString() {
        assertEquals(
                "{\"i\": \"140.0\", \"n\": \"NaN\", \"b\": \"maybe\", \"o\": \"{'k': 1}\", \"a\": \"[1,]\", \"in\": \"None\", \"sn\": \"None\", \"e\": \"7x\"}",
                args(
                        p("i", "140.0")
                                + p("n", "NaN")
                                + p("b", "maybe")
                                + p("o", "{'k': 1}")
                                + p("a", "[1,]")
                                + p("in", "None")
                                + p("sn", "None")
                                + p("e", "7x")));
    }

    @Test
    void withoutASchemaValuesAreStringsUnlessTheFormatSaysJson() {
        assertEquals("{\"zz\": \"3\", \"s\": \"\"}", args(p("zz", "3") + "<p=s></p>"));
        Format json = ToyFormats.compile(XML, file("\"untypedValues\": \"json\", "));
        assertEquals(
                "{\"a\": 3, \"b\": \"x y\", \"c\": {\"k\": true}}",
                json.parse("<fn=g><p=a>3</p><p=b>x y</p><p=c>{\"k\": true}</p></fn>")
                        .toolCalls()
                        .get(0)
                        .arguments());
    }

    @Test
    void stringValuesStreamAsTheyArriveWithTheCloseTagHeldBack() {
        StreamParser s = X.newStream(TOOLS, ParseOptions.defaults());
        StringBuilder args = new StringBuilder();
        for (String chunk :
                new String[] {
                    "<fn=f>\n<p=s>\nPar", "is <b> & \"q\"\n</", "p>\n<p=i>\n4", "2\n</p>\n</fn>"
                }) {
            for (DeltaMessage d : DeltaMessage.of(s.feed(chunk)))
                if (d.isToolCall()) args.append(d.toolCall().arguments());
            if (chunk.endsWith("Par")) assertEquals("{\"s\": \"Par", args.toString());
            if (chunk.endsWith("</"))
                assertEquals(
                        "{\"s\": \"Paris <b> & \\\"q\\\"",
                        args.toString()); // neither the newline nor "</" yet
            if (chunk.endsWith("4"))
                assertEquals(
                        "{\"s\": \"Paris <b> & \\\"q\\\"\", \"i\": ",
                        args.toString()); // integers wait for their end
        }
        for (DeltaMessage d : DeltaMessage.of(s.finish())) args.append(d.toolCall().arguments());
        assertEquals("{\"s\": \"Paris <b> & \\\"q\\\"\", \"i\": 42}", args.toString());
    }

    @Test
    void onlyOneTemplateNewlineIsTrimmedEachSideAndTextIsEscaped() {
        assertEquals(
                "{\"s\": \"\\nline é 😀 </p\\ttab\\n\"}",
                args("<p=s>\n\nline é 😀 </p\ttab\n\n</p>"));
        assertEquals("{}", args(""));
    }

    /**
     * Keys and atoms read where they lie in the output give the arguments that their text gives:
     * every atom spelling (JSON words, numbers JSON writes as they are, and those converted: a
     * sign, a leading zero, an underscore, a radix, a bare point, an upper-case exponent, -0), keys
     * with blanks around them and with characters to escape.
     */
    @Test
    void keysAndAtomsReadInPlaceAreWrittenAsTheirText() {
        String[] atoms = {
            "True",
            "true",
            "False",
            "false",
            "None",
            "null",
            "Nonex",
            "0",
            "-0",
            "7",
            "-12",
            "007",
            "+4",
            "1_000",
            "0x1F",
            "-0x10",
            "0o17",
            "0b101",
            "0x123456789abcdef0123",
            "2.5",
            "-2.5",
            "0.50",
            "1.",
            ".5",
            "1e3",
            "1e-3",
            "1e+3",
            "1E3",
            "1e03",
            "1e0",
            "-0.0",
            "-0e1",
            "1.5e",
            "-",
            "00.5",
            "0x",
            " 3 "
        };
        String[] keys = {"city", " days ", "q\"x", "tab\there"};
        for (String key : keys)
            for (String atom : atoms) {
                List<String> byText = new ArrayList<>();
                ArgumentWriter t = writer(byText);
                t.key(key, "f");
                t.literal(Role.LIT_OPEN, "[");
                t.literal(Role.LIT_ATOM, atom);
                t.literal(Role.LIT_COMMA, ",");
                t.literal(Role.LIT_ATOM, atom);
                t.literal(Role.LIT_CLOSE, "]");
                t.finish();
                List<String> inPlace = new ArrayList<>();
                ArgumentWriter w = writer(inPlace);
                String source = "f(" + key + "=[" + atom + "," + atom + "])";
                int k = source.indexOf(key);
                w.key(source, k, k + key.length(), "f");
                int a = source.indexOf('[') + 1;
                w.literal(Role.LIT_OPEN, "[");
                w.literal(Role.LIT_ATOM, source, a, a + atom.length());
                w.literal(Role.LIT_COMMA, ",");
                a += atom.length() + 1;
                w.literal(Role.LIT_ATOM, source, a, a + atom.length());
                w.literal(Role.LIT_CLOSE, "]");
                w.finish();
                assertEquals(String.join("", byText), String.join("", inPlace), key + " " + atom);
            }
    }

    private static ArgumentWriter writer(List<String> out) {
        ArgumentWriter w =
                new ArgumentWriter(
                        out::add,
                        Tools.none()::definition,
                        ArgumentWriter.Untyped.STRING,
                        false,
                        IllegalArgumentException::new);
        w.begin();
        return w;
    }

    @Test
    void literalsAreTransliteratedToJson() {
        List<String> out = new ArrayList<>();
        ArgumentWriter w = writer(out);
        w.key("a", "f");
        for (String[] e :
                new String[][] {
                    {"LIT_OPEN", "("},
                    {"LIT_ATOM", "0x1F"},
                    {"LIT_COMMA", ","},
                    {"LIT_ATOM", "1_000"},
                    {"LIT_COMMA", ","},
                    {"LIT_ATOM", ".5"},
                    {"LIT_COMMA", ","},
                    {"LIT_ATOM", "None"},
                    {"LIT_COMMA", ","},
                    {"LIT_CLOSE", ")"}
                }) w.literal(Role.valueOf(e[0]), e[1]);
        w.key("b", "f");
        for (String[] e :
                new String[][] {
                    {"LIT_OPEN", "{"},
                    {"LIT_QUOTE", "'"},
                    {"LIT_CHARS", "k"},
                    {"LIT_QUOTE", "'"},
                    {"LIT_COLON", ":"},
                    {"LIT_QUOTE", "'"},
                    {"LIT_CHARS", "it"},
                    {"LIT_ESCAPE", "\\'"},
                    {"LIT_CHARS", "s \"x\""},
                    {"LIT_ESCAPE", "\\n"},
                    {"LIT_ESCAPE", "\\u00e9"},
                    {"LIT_QUOTE", "'"},
                    {"LIT_COMMA", ","},
                    {"LIT_KEY", "n"},
                    {"LIT_COLON", ":"},
                    {"LIT_ATOM", "True"},
                    {"LIT_CLOSE", "}"}
                }) w.literal(Role.valueOf(e[0]), e[1]);
        assertTrue(w.finish());
        assertEquals("1.0", ArgumentWriter.atom("1."));
        assertEquals("-1.0e5", ArgumentWriter.atom("-1.e5"));
        assertEquals("7", ArgumentWriter.atom("007"));
        assertEquals("0e5", ArgumentWriter.atom("0e5"));
        assertEquals("0", ArgumentWriter.atom("-0"));
        assertEquals("-12", ArgumentWriter.atom("-12"));
        assertEquals("5", ArgumentWriter.atom("+5"));
        assertEquals("-5", ArgumentWriter.atom("-0b101"));
        assertEquals("8", ArgumentWriter.atom("0O10"));
        assertEquals("0.5e-3", ArgumentWriter.atom(".5e-3"));
        assertEquals("\"0x\"", ArgumentWriter.atom("0x"));
        assertEquals("\"1e\"", ArgumentWriter.atom("1e"));
        assertEquals("\".\"", ArgumentWriter.atom("."));
        assertEquals("\"-\"", ArgumentWriter.atom("-"));
        assertEquals(
                "{\"a\": [31, 1000, 0.5, null], \"b\": {\"k\": \"it's \\\"x\\\"\\né\", \"n\": true}}",
                String.join("", out));
    }

    @Test
    void anEmptyKeyOrAValueWithoutAKeyIsMalformedNeverDropped() {
        List<String> out = new ArrayList<>();
        ArgumentWriter w = writer(out);
        assertTrue(
                assertThrows(IllegalArgumentException.class, () -> w.key(" \n", "f"))
                        .getMessage()
                        .contains("empty key"));
        w.begin();
        assertTrue(
                assertThrows(IllegalArgumentException.class, () -> w.value("lost"))
                        .getMessage()
                        .contains("has no key"));
        w.begin();
        assertThrows(IllegalArgumentException.class, () -> w.literal(Role.LIT_ATOM, "1"));
        w.begin();
        w.key("a", "f");
        w.literal(Role.LIT_QUOTE, "'");
        w.literal(Role.LIT_CHARS, "x");
        w.literal(Role.LIT_QUOTE, "'");
        w.literal(Role.LIT_COMMA, ",");
        assertThrows(
                IllegalArgumentException.class,
                () -> w.literal(Role.LIT_ATOM, "3"),
                "a second value for one key is the value of a key read as none");
    }

    @Test
    void theTextCanForceAParameterToStringOrJson() {
        List<String> out = new ArrayList<>();
        ArgumentWriter w =
                new ArgumentWriter(
                        out::add,
                        TOOLS::definition,
                        ArgumentWriter.Untyped.STRING,
                        false,
                        IllegalArgumentException::new);
        w.begin();
        w.key("i", "f");
        w.force(true);
        w.value("42");
        w.key("s", "f");
        w.force(false);
        w.value("[1, 2]");
        w.key("t", "f");
        w.force(false);
        w.value("not json");
        w.finish();
        assertEquals("{\"i\": \"42\", \"s\": [1, 2], \"t\": \"not json\"}", String.join("", out));
        ArgumentWriter none =
                new ArgumentWriter(
                        out::add,
                        TOOLS::definition,
                        ArgumentWriter.Untyped.STRING,
                        false,
                        IllegalArgumentException::new);
        none.begin();
        assertFalse(none.finish());
    }
}
