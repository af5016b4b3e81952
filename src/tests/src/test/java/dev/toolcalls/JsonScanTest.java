package dev.toolcalls;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;

import com.google.gson.Gson;
import com.google.gson.GsonBuilder;
import com.google.gson.JsonParser;
import com.google.gson.JsonPrimitive;

import dev.toolcalls.internal.assemble.SchemaTypes;
import dev.toolcalls.internal.json.JsonScan;

import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.util.Random;

/**
 * The searches over JSON string text find exactly what a character-by-character loop finds, at
 * every position and length (the block test, its blocks and tails, characters above U+00FF whose
 * low byte looks like a control character), and the escaping and quoting built on them write what a
 * JSON writer writes.
 */
class JsonScanTest {
    /** A long text without control characters is read to its end, in blocks of every size. */
    @BeforeAll
    static void pastTheColdStart() {
        String s = "x".repeat(1 << 17);
        assertEquals(s.length(), JsonScan.control(s, 0, s.length()));
    }

    private static int controlSlow(String s, int from, int to) {
        for (int i = from; i < to; i++) if (s.charAt(i) < 0x20) return i;
        return to;
    }

    private static int specialSlow(String s, int from, int to) {
        for (int i = from; i < to; i++) {
            char c = s.charAt(i);
            if (c < 0x20 || c == '"' || c == '\\') return i;
        }
        return to;
    }

    @Test
    void controlAndSpecialAgreeWithALoopEverywhere() {
        Random random = new Random(7);
        char[] plain = {'a', ' ', '~', 'é', '\u00ff', '\u0110', '\u4e0a', '\u010a', '\u2028'};
        char[] odd = {'\n', '\u0000', '\u001f', '\t', '"', '\\'};
        for (int length :
                new int[] {0, 1, 7, 8, 31, 32, 33, 63, 64, 65, 100, 4095, 4096, 4097, 9000}) {
            for (int trial = 0; trial < 20; trial++) {
                char[] text = new char[length];
                for (int i = 0; i < length; i++) text[i] = plain[random.nextInt(plain.length)];
                int marks = random.nextInt(3);
                for (int m = 0; m < marks && length > 0; m++)
                    text[random.nextInt(length)] = odd[random.nextInt(odd.length)];
                String s = new String(text);
                int from = length == 0 ? 0 : random.nextInt(Math.min(length, 40) + 1);
                int to = Math.max(from, length - random.nextInt(Math.min(length, 40) + 1));
                assertEquals(
                        controlSlow(s, from, to),
                        JsonScan.control(s, from, to),
                        s.length() + " control");
                assertEquals(
                        specialSlow(s, from, to),
                        JsonScan.special(s, from, to),
                        s.length() + " special");
            }
        }
    }

    @Test
    void longUtf16TextsAgreeWithALoop() {
        // read whole characters from the start (a character above U+00FF near the start) or from
        // the first block checked one by one that shows one; controls anywhere, or none
        Random random = new Random(13);
        for (int trial = 0; trial < 60; trial++) {
            StringBuilder b = new StringBuilder();
            if (trial % 2 == 0) b.append("{\"city\": \"\u6771\u4eac\", \"note\": \"");
            else b.append("a".repeat(300 + random.nextInt(9000)));
            while (b.length() < 30_000) {
                int r = random.nextInt(60);
                b.append(r == 0 ? '\u010a' : r < 20 && trial % 4 < 2 ? '\u4e0a' : 'x');
            }
            if (random.nextBoolean())
                b.setCharAt(300 + random.nextInt(b.length() - 300), (char) random.nextInt(0x20));
            String s = b.toString();
            int from = random.nextInt(100);
            int to = s.length() - random.nextInt(100);
            assertEquals(controlSlow(s, from, to), JsonScan.control(s, from, to), "trial " + trial);
        }
    }

    @Test
    void aLatin1TextWithoutControlsIsReadToItsEnd() {
        String s = "plain text, no controls. ".repeat(2000);
        assertEquals(s.length(), JsonScan.control(s, 0, s.length()));
        assertEquals(s.length() - 1, JsonScan.control(s + "\u0001", 0, s.length() + 1) - 1);
    }

    @Test
    void escapingWritesWhatAJsonWriterWrites() {
        Random random = new Random(11);
        char[] alphabet = {
            'a', 'b', ' ', '"', '\\', '\n', '\r', '\t', '\b', '\f', '\u0001', '\u001f', 'é',
            '\u4e0a', '\u010a', '\u2028', '\u2029'
        };
        Gson gson = new GsonBuilder().disableHtmlEscaping().create();
        for (int length : new int[] {0, 1, 5, 64, 65, 300, 5000}) {
            for (int trial = 0; trial < 10; trial++) {
                StringBuilder b = new StringBuilder();
                for (int i = 0; i < length; i++)
                    b.append(
                            random.nextInt(4) == 0
                                    ? alphabet[random.nextInt(alphabet.length)]
                                    : 'x');
                String s = b.toString();
                String json = SchemaTypes.quote(s);
                assertEquals(gson.toJson(s), json);
                assertEquals(
                        new JsonPrimitive(s),
                        JsonParser.parseString("\"" + SchemaTypes.escape(s) + "\""),
                        json);
                // a range of a text: its own escaping, whatever lies around it
                int from = random.nextInt(length + 1);
                int to = from + random.nextInt(length - from + 1);
                assertEquals(
                        SchemaTypes.escape(s.substring(from, to)),
                        SchemaTypes.escape("\"\n" + s + "\\", from + 2, to + 2),
                        json + " [" + from + ", " + to + ")");
            }
        }
        String plain = "nothing to escape here ".repeat(100);
        for (String odd : new String[] {"\"", "\\", "\n", "\u0001", "\u2028", "\u2029", "東", ""}) {
            String text = plain + odd + plain;
            assertEquals(gson.toJson(text), SchemaTypes.quote(text), odd);
        }
        assertSame(plain, SchemaTypes.escape(plain));
        assertEquals(plain.substring(3, 2000), SchemaTypes.escape(plain, 3, 2000));
    }
}
