package dev.toolcalls;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.toolcalls.internal.assemble.SchemaTypes;
import dev.toolcalls.internal.json.Json;
import dev.toolcalls.internal.json.StringRanges;

import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.function.Supplier;

/**
 * The strict check that passes over string text the runtime escaped answers exactly as the check
 * that reads every character: on seeded documents holding escapes, quotes, control characters, CJK
 * and surrogate pairs, with the escaped pieces given whole or cut at every boundary, with mistakes
 * next to them, and with ranges given where no string is being read.
 */
class EscapedRangesTest {
    private static final String[] PIECES = {
        "a",
        "bc",
        " ",
        "\"",
        "\\",
        "\n",
        "\t",
        "\u0000",
        "\u001f",
        "/",
        "é",
        "\u00ff",
        "東京",
        "\ud83d\ude00",
        "\ud83d",
        "\u2028",
        "\\u0041",
        "<",
        "}",
        "]",
        ",",
        ":"
    };

    /** What the check answers: the value's first character, or the error's message. */
    private static String plain(String doc) {
        try {
            return "ok " + Json.check(doc, 64);
        } catch (Json.NotJson e) {
            return e.getClass().getSimpleName() + ": " + e.getMessage();
        }
    }

    /** Ranges as {start, end, 1 when escaped text, 0 when quoteless}. */
    private static String ranged(String doc, List<int[]> ranges) {
        StringRanges known = new StringRanges();
        for (int[] g : ranges) known.add(g[0], g[1], g[2] == 1);
        try {
            return "ok " + Json.check(doc, 64, known);
        } catch (Json.NotJson e) {
            return e.getClass().getSimpleName() + ": " + e.getMessage();
        }
    }

    private static String raw(Random r, int length) {
        StringBuilder b = new StringBuilder();
        while (b.length() < length) {
            if (r.nextInt(4) == 0) b.append(PIECES[r.nextInt(PIECES.length)]);
            else b.append((char) ('a' + r.nextInt(26)));
        }
        return b.toString();
    }

    /** A document as a writer makes it, the escaped pieces' ranges noted. */
    private record Doc(String text, List<int[]> ranges) {}

    private static Doc document(Random r, boolean mistakes) {
        StringBuilder b = new StringBuilder("{");
        List<int[]> ranges = new ArrayList<>();
        int members = 1 + r.nextInt(3);
        for (int m = 0; m < members; m++) {
            if (m > 0) b.append(", ");
            b.append('"').append("k").append(m).append("\": ");
            if (r.nextInt(5) == 0) {
                b.append(r.nextBoolean() ? "[1, true]" : "null");
                continue;
            }
            b.append('"');
            int parts = 1 + r.nextInt(4);
            for (int p = 0; p < parts; p++) {
                String text = raw(r, r.nextInt(3) == 0 ? 5000 + r.nextInt(300) : r.nextInt(40));
                if (r.nextInt(3) == 0) {
                    // as written: with mistakes, a quote, a control character or a bad escape;
                    // without, quoteless (control characters are the check's to find)
                    if (!mistakes) {
                        text = text.replace("\"", "").replace("\\", "");
                        if (r.nextInt(4) != 0) text = text.replaceAll("[\\x00-\\x1f]", "");
                    }
                    boolean quoteless = text.indexOf('"') < 0 && text.indexOf('\\') < 0;
                    if (quoteless && !text.isEmpty())
                        ranges.add(new int[] {b.length(), b.length() + text.length(), 0});
                    b.append(text);
                } else {
                    String escaped = SchemaTypes.escape(text);
                    if (!escaped.isEmpty())
                        ranges.add(new int[] {b.length(), b.length() + escaped.length(), 1});
                    b.append(escaped);
                }
            }
            b.append('"');
        }
        b.append('}');
        String text = b.toString();
        if (mistakes && r.nextBoolean()) text = text.substring(0, r.nextInt(text.length() + 1));
        List<int[]> kept = new ArrayList<>();
        for (int[] g : ranges) if (g[1] <= text.length()) kept.add(g);
        return new Doc(text, kept);
    }

    @Test
    void escapedPiecesPassedOverGiveTheSameAnswer() {
        Random r = new Random(11);
        int valid = 0;
        for (int trial = 0; trial < 400; trial++) {
            Doc d = document(r, trial % 2 == 1);
            String want = plain(d.text());
            if (want.equals("ok {")) valid++;
            assertEquals(want, ranged(d.text(), d.ranges()), d.text());
        }
        assertTrue(valid > 200, "too few valid documents: " + valid);
    }

    @Test
    void aPieceCutAtEveryBoundaryGivesTheSameAnswer() {
        Random r = new Random(5);
        for (int trial = 0; trial < 6; trial++) {
            String escaped = SchemaTypes.escape(raw(r, 300));
            String before = "{\"a\": \"x" + (trial % 2 == 0 ? "" : "\\n");
            String after = trial % 3 == 0 ? "\"}" : "\u0001\"}";
            String doc = before + escaped + after;
            int a = before.length();
            int z = a + escaped.length();
            String want = plain(doc);
            for (int cut = a; cut <= z; cut++) {
                // at an escape's middle a cut leaves two pieces that are not whole escapes: only
                // the cuts a writer could make (between whole escapes) are given
                if (!wholeEscapes(doc, a, cut)) continue;
                List<int[]> ranges = new ArrayList<>();
                if (cut > a) ranges.add(new int[] {a, cut, 1});
                if (z > cut) ranges.add(new int[] {cut, z, 1});
                assertEquals(want, ranged(doc, ranges), "cut at " + (cut - a));
            }
        }
    }

    @Test
    void aQuotelessRunCutAtEveryBoundaryGivesTheSameAnswer() {
        Random r = new Random(9);
        for (int trial = 0; trial < 6; trial++) {
            String run = raw(r, 300).replace("\"", "").replace("\\", "");
            if (trial % 2 == 0) run = run.replaceAll("[\\x00-\\x1f]", "");
            String doc = "{\"a\": [\"" + run + "\"]}";
            int a = doc.indexOf(run);
            int z = a + run.length();
            String want = plain(doc);
            for (int cut = a; cut <= z; cut++) {
                List<int[]> ranges = new ArrayList<>();
                if (cut > a) ranges.add(new int[] {a, cut, 0});
                if (z > cut) ranges.add(new int[] {cut, z, 0});
                assertEquals(want, ranged(doc, ranges), "cut at " + (cut - a));
            }
        }
    }

    /** [from, to) is a sequence of plain characters and whole escapes. */
    private static boolean wholeEscapes(String s, int from, int to) {
        int i = from;
        while (i < to) i += s.charAt(i) != '\\' ? 1 : s.charAt(i + 1) == 'u' ? 6 : 2;
        return i == to;
    }

    @Test
    void rangesWhereNoStringIsReadAreReadAsText() {
        // text that is valid string text, given as a range where the check reads a name, a
        // number, a literal or structure: the answer is the plain check's
        Random r = new Random(3);
        String[] docs = {
            "{\"abc\": 12345, \"d\": [true, false, null]}",
            "{\"abc\": 12x45}",
            "{abc: 1}",
            "[1, 2, 3] tail",
            "{\"a\": \"b\"} {\"c\": 1}",
            "{\"a\": \"one\" \"two\"}"
        };
        for (String doc : docs) {
            for (int trial = 0; trial < 200; trial++) {
                int a = r.nextInt(doc.length());
                int z = a + 1 + r.nextInt(doc.length() - a);
                boolean plainText = true;
                for (int i = a; i < z; i++) {
                    char c = doc.charAt(i);
                    if (c == '"' || c == '\\' || c < 0x20) plainText = false;
                }
                if (!plainText) continue;
                String where = doc + " " + a + ".." + z;
                assertEquals(plain(doc), ranged(doc, List.of(new int[] {a, z, 1})), where);
                assertEquals(plain(doc), ranged(doc, List.of(new int[] {a, z, 0})), where);
            }
        }
    }

    /**
     * Whole outputs with one long argument (escapes, quotes, control characters, CJK, surrogate
     * pairs; in a raw value, a literal string and a JSON string) parse as they do fed one code
     * point at a time, where no piece is long enough to be noted: the same message or the same
     * error.
     */
    @Test
    void longArgumentsParseAsTheyDoStreamed() {
        Random r = new Random(13);
        String marked =
                "<｜tool▁calls▁begin｜><｜tool▁call▁begin｜>function<｜tool▁sep｜>f\n```json\n"
                        + "{\"city\": \"東京\", \"text\": \"%s\"}\n```<｜tool▁call▁end｜>"
                        + "<｜tool▁calls▁end｜>";
        String[][] shapes = {
            {
                "qwen3_coder",
                "<tool_call>\n<function=f>\n<parameter=text>\n%s\n</parameter>\n</function>\n</tool_call>"
            },
            {
                "glm45",
                "<tool_call>f\n<arg_key>text</arg_key>\n<arg_value>%s</arg_value>\n</tool_call>"
            },
            {"pythonic", "[f(text='%s')]"},
            {
                "hermes",
                "<tool_call>\n{\"name\": \"f\", \"arguments\": {\"text\": \"%s\"}}\n</tool_call>"
            },
            {"deepseek_v3", marked}
        };
        for (String[] shape : shapes) {
            Format f = Formats.get(shape[0]);
            boolean raw = !shape[1].contains("\"%s\"");
            for (int trial = 0; trial < 12; trial++) {
                String value = raw(r, 300 + r.nextInt(3000)).replace("<", "");
                if (shape[0].equals("pythonic")) value = value.replaceAll("['\\\\\\r\\n]", "");
                else if (!raw && trial % 3 != 0) value = SchemaTypes.escape(value); // valid JSON
                String text = String.format(shape[1], value);
                ParseOptions o = ParseOptions.defaults().withIds(() -> IdGenerator.seeded(3));
                String whole = outcome(() -> f.parse(text, Tools.none(), o));
                String streamed =
                        outcome(
                                () -> {
                                    StreamParser p = f.newStream(Tools.none(), o);
                                    List<ParseEvent> events = new ArrayList<>();
                                    for (String c : RunsTest.chunks(text, null))
                                        events.addAll(p.feed(c));
                                    events.addAll(p.finish());
                                    return ChatMessage.fromEvents(events);
                                });
                assertEquals(streamed, whole, shape[0] + ": " + text);
            }
        }
    }

    private static String outcome(Supplier<ChatMessage> parse) {
        try {
            return parse.get().toString();
        } catch (ToolCallParseException e) {
            return "error " + e.kind() + " " + e.offset();
        }
    }
}
