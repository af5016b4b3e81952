package dev.toolcalls.internal.json;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.CharBuffer;

/**
 * Searches over the plain stretches of JSON string text: where the next {@code "}, {@code \} or
 * control character (below U+0020) lies. The two characters are found by {@link String#indexOf} (a
 * vector search); control characters, for which no such search exists, a word at a time: a block of
 * the text is copied into a small buffer and read as longs, a long holding a character below 0x20
 * exactly when {@code (x - 0x20…20) & ~x & 0x80…80} is not zero (per byte, or per 16-bit lane). A
 * block where that fires is checked character by character, so a text that has none is read at the
 * speed of a copy.
 *
 * <p>The copy depends on how the string is stored. A Latin-1 string's low bytes are its characters,
 * copied as they lie, eight to a long. A UTF-16 string's low bytes would be copied one character at
 * a time (and a character above U+00FF whose low byte is small fires the test), so its characters
 * are copied whole, four to a long. Java does not say how a string is stored; a string is read as
 * UTF-16 once a character above U+00FF is seen: among the first {@value #PROBE} of the string, or
 * in a block checked one by one. A Latin-1 string never is.
 */
public final class JsonScan {
    /**
     * The byte array read as longs, made on first use: making a view handle spins method-handle
     * classes, which a cold JVM that reads only short strings does not pay for.
     */
    private static final class Longs {
        static final VarHandle LONGS =
                MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.LITTLE_ENDIAN);
    }

    /** Below this many characters a plain loop is as fast. */
    private static final int SHORT = 64;

    private static final int BLOCK = 4096;
    private static final long SPACES = 0x2020202020202020L;
    private static final long HIGHS = 0x8080808080808080L;
    private static final long SPACES16 = 0x0020002000200020L;
    private static final long HIGHS16 = 0x8000800080008000L;

    /** Characters at the start of a string looked at for one above U+00FF. */
    static final int PROBE = 256;

    /**
     * Characters this JVM scans one by one before it reads words: the word reads go through a view
     * handle, whose making spins method-handle classes, several milliseconds that a cold JVM
     * reading a format file and a short output would spend for nothing.
     */
    private static final int COLD = 1 << 16;

    /** Characters scanned one by one so far (racy: a lost count only delays the switch). */
    private static int coldScanned;

    /** Whether {@link #COLD} characters have been scanned: words from then on. */
    private static boolean warm;

    private JsonScan() {}

    /** The first index in [from, to) holding a character below U+0020, or {@code to}. */
    public static int control(String s, int from, int to) {
        if (to - from < SHORT || !warm && (coldScanned += to - from) < COLD) {
            int i = from;
            while (i < to && s.charAt(i) >= 0x20) i++;
            return i;
        }
        warm = true;
        boolean wide = to - from > BLOCK && wideAtStart(s);
        byte[] buf = null;
        CharBuffer view = null;
        char[] chars = null;
        for (int at = from; at < to; at += BLOCK) {
            int end = Math.min(to, at + BLOCK);
            int found;
            if (wide) {
                if (view == null) { // two bytes a character
                    buf = new byte[2 * BLOCK];
                    view = ByteBuffer.wrap(buf).order(ByteOrder.LITTLE_ENDIAN).asCharBuffer();
                    chars = new char[BLOCK];
                }
                found = controlInWideBlock(s, at, end, chars, view, buf);
            } else {
                if (buf == null) buf = new byte[Math.min(BLOCK, (to - from + 7) & ~7)];
                found = controlInBlock(s, at, end, buf);
                if (found < 0) { // the block holds a character above U+00FF: the string is UTF-16
                    wide = true;
                    found = end;
                }
            }
            if (found < end) return found;
        }
        return to;
    }

    private static boolean wideAtStart(String s) {
        for (int i = 0, n = Math.min(PROBE, s.length()); i < n; i++)
            if (s.charAt(i) > 0xFF) return true;
        return false;
    }

    /**
     * The first control character of [from, to) by the low bytes; {@code to} when there is none,
     * and -1 when there is none but a character above U+00FF was seen.
     */
    @SuppressWarnings("deprecation") // the low byte of each character is what the test reads
    private static int controlInBlock(String s, int from, int to, byte[] buf) {
        int n = to - from;
        s.getBytes(from, to, buf, 0);
        int k = 0;
        boolean wide = false;
        for (; k + 32 <= n; k += 32) {
            if (below(buf, k, SPACES, HIGHS)) {
                for (int j = from + k; j < from + k + 32; j++) {
                    char ch = s.charAt(j);
                    if (ch < 0x20) return j;
                    if (ch > 0xFF) wide = true;
                }
            }
        }
        for (int j = from + k; j < to; j++) if (s.charAt(j) < 0x20) return j;
        return wide ? -1 : to;
    }

    /** The first control character of [from, to) by whole characters, or {@code to}. */
    private static int controlInWideBlock(
            String s, int from, int to, char[] chars, CharBuffer view, byte[] buf) {
        int n = to - from;
        s.getChars(from, to, chars, 0);
        view.clear();
        view.put(chars, 0, n); // into buf, two bytes a character
        int k = 0;
        for (; k + 32 <= 2 * n; k += 32) {
            if (below(buf, k, SPACES16, HIGHS16)) {
                for (int j = from + k / 2; j < from + k / 2 + 16; j++)
                    if (s.charAt(j) < 0x20) return j;
            }
        }
        for (int j = from + k / 2; j < to; j++) if (s.charAt(j) < 0x20) return j;
        return to;
    }

    /**
     * The first index in [from, to) holding {@code "}, {@code \} or a character below U+0020, or
     * {@code to}.
     */
    public static int special(String s, int from, int to) {
        if (to - from < SHORT) {
            for (int i = from; i < to; i++) {
                char c = s.charAt(i);
                if (c < 0x20 || c == '"' || c == '\\') return i;
            }
            return to;
        }
        int stop = to;
        int q = s.indexOf('"', from);
        if (q >= 0 && q < stop) stop = q;
        int b = s.indexOf('\\', from);
        if (b >= 0 && b < stop) stop = b;
        return control(s, from, stop);
    }

    /**
     * Whether the 32 bytes of {@code buf} from {@code k}, read as four longs, hold a lane below the
     * one {@code spaces} repeats ({@code highs}: each lane's top bit; lanes of 8 or 16 bits).
     */
    private static boolean below(byte[] buf, int k, long spaces, long highs) {
        long a = (long) Longs.LONGS.get(buf, k);
        long b = (long) Longs.LONGS.get(buf, k + 8);
        long c = (long) Longs.LONGS.get(buf, k + 16);
        long d = (long) Longs.LONGS.get(buf, k + 24);
        long any =
                ((a - spaces) & ~a)
                        | ((b - spaces) & ~b)
                        | ((c - spaces) & ~c)
                        | ((d - spaces) & ~d);
        return (any & highs) != 0;
    }
}
