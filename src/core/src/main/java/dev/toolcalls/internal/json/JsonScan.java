package dev.toolcalls.internal.json;

import java.util.Arrays;
import java.util.concurrent.atomic.AtomicReferenceArray;

/**
 * Searches over the plain stretches of JSON string text: where the next {@code "}, {@code \\} or
 * control character (below U+0020) lies. The two characters are found by {@link String#indexOf} (a
 * vector search); control characters, for which no such search exists, a block at a time: the block
 * is copied into a small array in one bulk copy, a loop with no exit maps each element to its
 * lane's top bit set when it is not a control character ({@code x = c & ~0x1F}, then {@code (x |
 * -x)} keeps the top bit exactly when {@code x} is not zero), which the compiler turns into vector
 * instructions, and {@link Arrays#mismatch} (itself a vector search) finds the first element
 * without it against an array of top bits. So a text that has none is read at the speed of the
 * copy, and the index found is the control character's. Blocks grow from 64 characters to {@value
 * #BLOCK}, so a search that stops early reads little past its stop; the arrays are kept for the
 * next search.
 *
 * <p>The copy depends on how the string is stored. A Latin-1 string's characters are its bytes,
 * copied as they lie ({@link String#getBytes(int, int, byte[], int)}, one byte a character). A
 * UTF-16 string's characters are copied whole ({@link String#getChars}, two bytes a character),
 * since their low bytes alone would be copied one by one (and a character above U+00FF whose low
 * byte is small would be found as a control character). Java does not say how a string is stored; a
 * string is read as UTF-16 once a character above U+00FF is seen: among the first or the last
 * {@value #PROBE} of the string (a long argument followed by others that hold such characters), or
 * where the low bytes found a control character that is not one. A Latin-1 string never is.
 */
public final class JsonScan {
    /** Below this many characters a plain loop is as fast. */
    private static final int SHORT = 64;

    private static final int BLOCK = 4096;

    /** Every lane's top bit: what the mapping of a block without control characters gives. */
    private static final byte[] TOPS = new byte[BLOCK];

    private static final char[] TOPS16 = new char[BLOCK];

    static {
        Arrays.fill(TOPS, (byte) 0x80);
        Arrays.fill(TOPS16, (char) 0x8000);
    }

    /** Characters at each end of a string looked at for one above U+00FF. */
    static final int PROBE = 256;

    /** The arrays kept for the next search, a few slots chosen by thread. */
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
        boolean wide = to - i > BLOCK && wideAtEnds(s);
        for (int size = SHORT; i < to; size = Math.min(BLOCK, 2 * size)) {
            int end = Math.min(to, i + size);
            int found = wide ? wideBlock(s, i, end, b) : narrowBlock(s, i, end, b);
            if (found < end) {
                if (s.charAt(found) < 0x20) return found;
                // a character above U+00FF whose low byte is small: the string is UTF-16
                wide = true;
                end = found + 1;
            }
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

    /** Whether a character above U+00FF lies among the first or the last {@value #PROBE}. */
    private static boolean wideAtEnds(String s) {
        int n = s.length();
        for (int i = 0, end = Math.min(PROBE, n); i < end; i++) if (s.charAt(i) > 0xFF) return true;
        for (int i = Math.max(PROBE, n - PROBE); i < n; i++) if (s.charAt(i) > 0xFF) return true;
        return false;
    }

    /**
     * The arrays of a search: a few kept for the next searches (each taken and given back with one
     * atomic exchange, in a slot chosen by the thread); a search that finds its slot empty makes
     * its own.
     */
    private static final class Scratch {
        final byte[] bytes = new byte[BLOCK];
        final byte[] tops = new byte[BLOCK];
        final char[] chars = new char[BLOCK];
        final char[] tops16 = new char[BLOCK];
    }

    /**
     * The first index of [from, to) whose low byte is below 0x20, or {@code to}: a control
     * character, or in a UTF-16 string possibly a character above U+00FF.
     */
    @SuppressWarnings("deprecation") // the low byte of each character is what the test reads
    private static int narrowBlock(String s, int from, int to, Scratch b) {
        int n = to - from;
        byte[] bytes = b.bytes;
        byte[] tops = b.tops;
        s.getBytes(from, to, bytes, 0);
        for (int k = 0; k < n; k++) {
            int x = bytes[k] & 0xE0;
            tops[k] = (byte) ((x | -x) & 0x80);
        }
        int at = Arrays.mismatch(tops, 0, n, TOPS, 0, n);
        return at < 0 ? to : from + at;
    }

    /** The first control character of [from, to) by whole characters, or {@code to}. */
    private static int wideBlock(String s, int from, int to, Scratch b) {
        int n = to - from;
        char[] chars = b.chars;
        char[] tops = b.tops16;
        s.getChars(from, to, chars, 0);
        for (int k = 0; k < n; k++) {
            int x = chars[k] & 0xFFE0;
            tops[k] = (char) ((x | -x) & 0x8000);
        }
        int at = Arrays.mismatch(tops, 0, n, TOPS16, 0, n);
        return at < 0 ? to : from + at;
    }
}
