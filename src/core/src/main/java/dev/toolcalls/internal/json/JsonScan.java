package dev.toolcalls.internal.json;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.CharBuffer;
import java.nio.LongBuffer;
import java.util.concurrent.atomic.AtomicReference;

/**
 * Searches over the plain stretches of JSON string text: where the next control character (below
 * U+0020), or the next {@code "}, {@code \} or control character, lies. No vector search exists for
 * a range of characters, so the text is read a word at a time in one pass: a block of it is copied
 * into a small buffer and moved into an array of longs, and a loop over that array (which the
 * compiler turns into vector instructions, having no exit inside) gathers, per long, whether a lane
 * is below 0x20 ({@code (x - 0x20…20) & ~x}) and, for the three together, whether a lane equals
 * {@code "} or {@code \} ({@code y = x ^ 0x22…22}, {@code (y - 0x01…01) & ~y}); the top bit of a
 * lane is set when it is. A block where that fires is checked character by character, so a text
 * that has none is read at the speed of the copies. Blocks grow from 64 characters to {@value
 * #BLOCK}, so a search that stops early reads little past its stop; the buffers are kept for the
 * next search.
 *
 * <p>The copy depends on how the string is stored. A Latin-1 string's low bytes are its characters,
 * copied as they lie, eight to a long. A UTF-16 string's low bytes would be copied one character at
 * a time (and a character above U+00FF whose low byte is small fires the test), so its characters
 * are copied whole, four to a long. Java does not say how a string is stored; a string is read as
 * UTF-16 once a character above U+00FF is seen: among the first {@value #PROBE} of the string, or
 * in a block checked one by one. A Latin-1 string never is.
 */
public final class JsonScan {
    /** Below this many characters a plain loop is as fast. */
    private static final int SHORT = 64;

    private static final int BLOCK = 4096;

    private static final long SPACES = 0x2020202020202020L;
    private static final long ONES = 0x0101010101010101L;
    private static final long QUOTES = 0x2222222222222222L;
    private static final long SLASHES = 0x5C5C5C5C5C5C5C5CL;
    private static final long HIGHS = 0x8080808080808080L;
    private static final long SPACES16 = 0x0020002000200020L;
    private static final long ONES16 = 0x0001000100010001L;
    private static final long QUOTES16 = 0x0022002200220022L;
    private static final long SLASHES16 = 0x005C005C005C005CL;
    private static final long HIGHS16 = 0x8000800080008000L;

    /** Characters at the start of a string looked at for one above U+00FF. */
    static final int PROBE = 256;

    /** The buffers kept for the next search. */
    private static final AtomicReference<Scratch> SPARE = new AtomicReference<>();

    private JsonScan() {}

    /** The first index in [from, to) holding a character below U+0020, or {@code to}. */
    public static int control(String s, int from, int to) {
        return scan(s, from, to, false);
    }

    /**
     * The first index in [from, to) holding {@code "}, {@code \} or a character below U+0020, or
     * {@code to}.
     */
    public static int special(String s, int from, int to) {
        return scan(s, from, to, true);
    }

    private static boolean stops(char c, boolean quotes) {
        return c < 0x20 || quotes && (c == '"' || c == '\\');
    }

    private static int scan(String s, int from, int to, boolean quotes) {
        int i = from;
        for (int plain = Math.min(to, from + SHORT); i < plain; i++)
            if (stops(s.charAt(i), quotes)) return i;
        if (i == to) return to;
        Scratch b = SPARE.getAndSet(null);
        if (b == null) b = new Scratch();
        try {
            return blocks(s, i, to, quotes, b);
        } finally {
            SPARE.set(b);
        }
    }

    private static int blocks(String s, int i, int to, boolean quotes, Scratch b) {
        boolean wide = to - i > BLOCK && wideAtStart(s);
        for (int size = SHORT; i < to; size = Math.min(BLOCK, 2 * size)) {
            int end = Math.min(to, i + size);
            int found;
            if (wide) {
                found = wideBlock(s, i, end, quotes, b);
            } else {
                found = narrowBlock(s, i, end, quotes, b);
                if (found < 0) { // the block holds a character above U+00FF: the string is UTF-16
                    wide = true;
                    found = end;
                }
            }
            if (found < end) return found;
            i = end;
        }
        return to;
    }

    private static boolean wideAtStart(String s) {
        for (int i = 0, n = Math.min(PROBE, s.length()); i < n; i++)
            if (s.charAt(i) > 0xFF) return true;
        return false;
    }

    /**
     * The buffers of a search: one kept for the next search (taken and given back with one atomic
     * exchange each); a search that finds it taken makes its own.
     */
    private static final class Scratch {
        final byte[] bytes = new byte[2 * BLOCK];
        final long[] longs = new long[BLOCK / 4];
        final char[] chars = new char[BLOCK];
        final LongBuffer longView;
        final CharBuffer charView;

        Scratch() {
            ByteBuffer buffer = ByteBuffer.wrap(bytes).order(ByteOrder.LITTLE_ENDIAN);
            longView = buffer.asLongBuffer();
            charView = buffer.asCharBuffer();
        }
    }

    /**
     * The first stop of [from, to) by the low bytes; {@code to} when there is none, and -1 when
     * there is none but a character above U+00FF was seen.
     */
    @SuppressWarnings("deprecation") // the low byte of each character is what the test reads
    private static int narrowBlock(String s, int from, int to, boolean quotes, Scratch b) {
        int n = to - from;
        int words = n >>> 3;
        s.getBytes(from, from + (words << 3), b.bytes, 0);
        if (fires(b, words, quotes, SPACES, ONES, QUOTES, SLASHES, HIGHS)) {
            boolean wide = false;
            for (int j = from; j < to; j++) {
                char c = s.charAt(j);
                if (stops(c, quotes)) return j;
                if (c > 0xFF) wide = true;
            }
            return wide ? -1 : to;
        }
        for (int j = from + (words << 3); j < to; j++) if (stops(s.charAt(j), quotes)) return j;
        return to;
    }

    /** The first stop of [from, to) by whole characters, or {@code to}. */
    private static int wideBlock(String s, int from, int to, boolean quotes, Scratch b) {
        int n = to - from;
        int words = n >>> 2;
        s.getChars(from, from + (words << 2), b.chars, 0);
        b.charView.clear();
        b.charView.put(b.chars, 0, words << 2); // into bytes, two a character
        if (fires(b, words, quotes, SPACES16, ONES16, QUOTES16, SLASHES16, HIGHS16)) {
            for (int j = from; j < to; j++) if (stops(s.charAt(j), quotes)) return j;
            return to;
        }
        for (int j = from + (words << 2); j < to; j++) if (stops(s.charAt(j), quotes)) return j;
        return to;
    }

    /**
     * Whether the first {@code words} longs of the scratch bytes hold a lane below the one {@code
     * spaces} repeats or, with {@code quotes}, equal to the one {@code quote} or {@code slash}
     * repeats ({@code ones}: each lane 1, {@code highs}: each lane's top bit; lanes of 8 or 16
     * bits). The longs are moved into an array first: a loop over an array, with no exit, is one
     * the compiler makes into vector instructions.
     */
    private static boolean fires(
            Scratch b,
            int words,
            boolean quotes,
            long spaces,
            long ones,
            long quote,
            long slash,
            long highs) {
        long[] longs = b.longs;
        b.longView.clear();
        b.longView.get(longs, 0, words);
        long any = 0;
        if (quotes) {
            for (int k = 0; k < words; k++) {
                long x = longs[k];
                long q = x ^ quote;
                long z = x ^ slash;
                any |= ((x - spaces) & ~x) | ((q - ones) & ~q) | ((z - ones) & ~z);
            }
        } else {
            for (int k = 0; k < words; k++) {
                long x = longs[k];
                any |= (x - spaces) & ~x;
            }
        }
        return (any & highs) != 0;
    }
}
