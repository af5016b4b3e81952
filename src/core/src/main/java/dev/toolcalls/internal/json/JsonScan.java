package dev.toolcalls.internal.json;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;

/**
 * Searches over the plain stretches of JSON string text: where the next {@code "}, {@code \} or
 * control character (below U+0020) lies. The two characters are found by {@link String#indexOf} (a
 * vector search); control characters, for which no such search exists, eight at a time: the low
 * bytes of a block of characters are copied into a small buffer and read as longs, a long holding a
 * byte below 0x20 exactly when {@code (x - 0x20…20) & ~x & 0x80…80} is not zero. A block where that
 * fires is checked character by character (a character above U+00FF whose low byte is small fires
 * it too), so a text that has none is read at the speed of a copy.
 */
public final class JsonScan {
    private static final VarHandle LONGS =
            MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.LITTLE_ENDIAN);

    /** Below this many characters a plain loop is as fast. */
    private static final int SHORT = 64;

    private static final int BLOCK = 4096;
    private static final long SPACES = 0x2020202020202020L;
    private static final long HIGHS = 0x8080808080808080L;

    private JsonScan() {}

    /** The first index in [from, to) holding a character below U+0020, or {@code to}. */
    public static int control(String s, int from, int to) {
        if (to - from < SHORT) {
            int i = from;
            while (i < to && s.charAt(i) >= 0x20) i++;
            return i;
        }
        byte[] buf = new byte[Math.min(BLOCK, (to - from + 7) & ~7)];
        for (int at = from; at < to; at += BLOCK) {
            int end = Math.min(to, at + BLOCK);
            int found = controlInBlock(s, at, end, buf);
            if (found < end) return found;
        }
        return to;
    }

    @SuppressWarnings("deprecation") // the low byte of each character is what the test reads
    private static int controlInBlock(String s, int from, int to, byte[] buf) {
        int n = to - from;
        s.getBytes(from, to, buf, 0);
        int k = 0;
        for (; k + 32 <= n; k += 32) {
            long a = (long) LONGS.get(buf, k);
            long b = (long) LONGS.get(buf, k + 8);
            long c = (long) LONGS.get(buf, k + 16);
            long d = (long) LONGS.get(buf, k + 24);
            long any =
                    ((a - SPACES) & ~a)
                            | ((b - SPACES) & ~b)
                            | ((c - SPACES) & ~c)
                            | ((d - SPACES) & ~d);
            if ((any & HIGHS) != 0) {
                for (int j = from + k; j < from + k + 32; j++) if (s.charAt(j) < 0x20) return j;
            }
        }
        for (int j = from + k; j < to; j++) if (s.charAt(j) < 0x20) return j;
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
}
