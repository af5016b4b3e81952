package dev.toolcalls.internal.json;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.CharBuffer;
import java.nio.LongBuffer;
import java.util.concurrent.atomic.AtomicReferenceArray;

/**
 * Searches over the plain stretches of JSON string text: where the next {@code "}, {@code \} or
 * control character (below U+0020) lies. The two characters are found by {@link String#indexOf} (a
 * vector search); control characters, for which no such search exists, a word at a time: a block of
 * the text is copied into a small buffer and moved into an array of longs, and a loop over that
 * array (which the compiler turns into vector instructions, having no exit inside) gathers whether
 * a lane is below 0x20 ({@code (x - 0x20…20) & ~x}, the top bit of a lane set when it is). A block
 * where that fires is checked character by character, so a text that has none is read at the speed
 * of the copies. Blocks grow from 64 characters to {@value #BLOCK}, so a search that stops early
 * reads little past its stop; the buffers are kept for the next search.
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
    private static final long HIGHS = 0x8080808080808080L;
    private static final long SPACES16 = 0x0020002000200020L;
    private static final long HIGHS16 = 0x8000800080008000L;

    /** Characters at the start of a string looked at for one above U+00FF. */
    static final int PROBE = 256;

    /** The buffers kept for the next search, a few slots chosen by thread. */
    private static final AtomicReferenceArray<Scratch> SPARES = new AtomicReferenceArray<>(8);

    private JsonScan() {}

    /** The first index in [from, to) holding a character below U+0020, or {@code to}. */
    public static int control(String s, int from, int to) {
        int i = from;
        for (int plain = Math.min(to, from + SHORT); i < plain; i++)
            if (s.charAt(i) < 0x20) return i;
        if (i == to) return to;
        int slot = (int) (Thread.currentThread().getId() & (SPARES.length() - 1));
        Scratch b = SPARES.getAndSet(slot, null);
        if (b == null) b = new Scratch();
        try {
            return blocks(s, i, to, b);
        } finally {
            SPARES.set(slot, b);
        }
    }

    private static int blocks(String s, int i, int to, Scratch b) {
        boolean wide = to - i > BLOCK && wideAtStart(s);
        for (int size = SHORT; i < to; size = Math.min(BLOCK, 2 * size)) {
            int end = Math.min(to, i + size);
            int found;
            if (wide) {
                found = wideBlock(s, i, end, b);
            } else {
                found = narrowBlock(s, i, end, b);
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

    private static boolean wideAtStart(String s) {
        for (int i = 0, n = Math.min(PROBE, s.length()); i < n; i++)
            if (s.charAt(i) > 0xFF) return true;
        return false;
    }

    /**
     * The buffers of a search: a few kept for the next searches (each taken and given back with one
     * atomic exchange, in a slot chosen by the thread); a search that finds its slot empty makes
     * its own.
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
     * The first control character of [from, to) by the low bytes; {@code to} when there is none,
     * and -1 when there is none but a character above U+00FF was seen.
     */
    @SuppressWarnings("deprecation") // the low byte of each character is what the test reads
    private static int narrowBlock(String s, int from, int to, Scratch b) {
        int n = to - from;
        int words = n >>> 3;
        s.getBytes(from, from + (words << 3), b.bytes, 0);
        if (below(b, words, SPACES, HIGHS)) {
            boolean wide = false;
            for (int j = from; j < to; j++) {
                char c = s.charAt(j);
                if (c < 0x20) return j;
                if (c > 0xFF) wide = true;
            }
            return wide ? -1 : to;
        }
        for (int j = from + (words << 3); j < to; j++) if (s.charAt(j) < 0x20) return j;
        return to;
    }

    /** The first control character of [from, to) by whole characters, or {@code to}. */
    private static int wideBlock(String s, int from, int to, Scratch b) {
        int n = to - from;
        int words = n >>> 2;
        s.getChars(from, from + (words << 2), b.chars, 0);
        b.charView.clear();
        b.charView.put(b.chars, 0, words << 2); // into bytes, two a character
        if (below(b, words, SPACES16, HIGHS16)) {
            for (int j = from; j < to; j++) if (s.charAt(j) < 0x20) return j;
            return to;
        }
        for (int j = from + (words << 2); j < to; j++) if (s.charAt(j) < 0x20) return j;
        return to;
    }

    /**
     * Whether the first {@code words} longs of the scratch bytes hold a lane below the one {@code
     * spaces} repeats ({@code highs}: each lane's top bit; lanes of 8 or 16 bits). The longs are
     * moved into an array first: a loop over an array, with no exit, is one the compiler makes into
     * vector instructions.
     */
    private static boolean below(Scratch b, int words, long spaces, long highs) {
        long[] longs = b.longs;
        b.longView.clear();
        b.longView.get(longs, 0, words);
        long any = 0;
        for (int k = 0; k < words; k++) {
            long x = longs[k];
            any |= (x - spaces) & ~x;
        }
        return (any & highs) != 0;
    }
}
