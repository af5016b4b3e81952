package dev.toolcalls;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.toolcalls.internal.assemble.SchemaTypes;
import dev.toolcalls.internal.json.Json;

import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;

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

    private static String ranged(String doc, List<int[]> ranges) {
        int[] starts = new int[ranges.size()];
        int[] ends = new int[ranges.size()];
        for (int k = 0; k < ranges.size(); k++) {
            starts[k] = ranges.get(k)[0];
            ends[k] = ranges.get(k)[1];
        }
        try {
            return "ok " + Json.check(doc, 64, starts, ends, ranges.size());
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
                if (mistakes && r.nextInt(3) == 0) {
                    b.append(text); // not escaped: a quote, a control character, a bad escape
                } else {
                    String escaped = SchemaTypes.escape(text);
                    if (!escaped.isEmpty())
                        ranges.add(new int[] {b.length(), b.length() + escaped.length()});
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
                if (cut > a) ranges.add(new int[] {a, cut});
                if (z > cut) ranges.add(new int[] {cut, z});
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
                assertEquals(
                        plain(doc),
                        ranged(doc, List.of(new int[] {a, z})),
                        doc + " " + a + ".." + z);
            }
        }
    }
}
