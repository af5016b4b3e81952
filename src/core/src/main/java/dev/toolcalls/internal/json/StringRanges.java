package dev.toolcalls.internal.json;

import java.util.Arrays;

/**
 * Ranges of a JSON text known to be valid string text, in order and apart, so that the strict check
 * need not read them again (see {@link Json#check(String, int, StringRanges)}). Two kinds:
 *
 * <ul>
 *   <li><b>escaped</b>: the inside of a string as the runtime's escaping wrote it (no {@code "}
 *       unescaped, no control character, whole escapes): passed over unread;
 *   <li><b>quoteless</b>: text that holds no {@code "} and no {@code \} (a run of a lexer rule
 *       whose set leaves both out): only searched for control characters.
 * </ul>
 *
 * Either is valid wherever a string's reading is between two characters; the check uses a range
 * only when a string's reading comes exactly to its start, and reads it as any text otherwise.
 */
public final class StringRanges {
    private static final int[] NO_INTS = {};
    private static final boolean[] NO_FLAGS = {};

    int[] starts = NO_INTS;
    int[] ends = NO_INTS;
    boolean[] escaped = NO_FLAGS;
    int count;

    /** Notes [start, end), after every range noted so far. */
    public void add(int start, int end, boolean escapedText) {
        if (count == starts.length) {
            int grown = Math.max(4, 2 * count);
            starts = Arrays.copyOf(starts, grown);
            ends = Arrays.copyOf(ends, grown);
            escaped = Arrays.copyOf(escaped, grown);
        }
        starts[count] = start;
        ends[count] = end;
        escaped[count++] = escapedText;
    }

    /** None, for the next text (large arrays dropped). */
    public void clear() {
        count = 0;
        if (starts.length > 64) {
            starts = NO_INTS;
            ends = NO_INTS;
            escaped = NO_FLAGS;
        }
    }

    public int count() {
        return count;
    }
}
