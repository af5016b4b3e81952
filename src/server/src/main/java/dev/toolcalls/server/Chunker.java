package dev.toolcalls.server;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;

/**
 * Cuts text the way {@code parse --stream} and {@code serve} do: 1..max code points, lengths from
 * {@code new Random(seed)}. {@link #split} cuts a whole text; a {@link Cutter} cuts the same chunks
 * from text that arrives in pieces, holding only the chunk being cut.
 */
public final class Chunker {
    private Chunker() {}

    public static List<String> split(String text, int max, long seed) {
        Cutter cutter = new Cutter(max, seed);
        List<String> out = cutter.push(text);
        out.addAll(cutter.finish());
        return out;
    }

    /**
     * Incremental cutting: {@code push} the text as it is read, then {@code finish}; the chunks are
     * exactly those {@link #split} gives for the whole text, whatever the pieces.
     */
    public static final class Cutter {
        private final Random random;
        private final int max;
        private final StringBuilder pending = new StringBuilder();
        private int start; // the chunk being cut begins at pending[start]
        private int have; // code points in pending[start..]
        private int want; // length drawn for the chunk being cut; 0 before the draw

        public Cutter(int max, long seed) {
            if (max < 1)
                throw new IllegalArgumentException("chunks are at least 1 code point long");
            this.max = max;
            this.random = new Random(seed);
        }

        /** The chunks this text completes. */
        public List<String> push(CharSequence text) {
            pending.append(text);
            have += Character.codePointCount(text, 0, text.length());
            // a pair split across pieces was counted twice; it is one code point
            int at = pending.length() - text.length();
            if (text.length() > 0
                    && at > 0
                    && Character.isLowSurrogate(text.charAt(0))
                    && Character.isHighSurrogate(pending.charAt(at - 1))) have--;
            return cut(false);
        }

        /** The last chunk, if text remains. */
        public List<String> finish() {
            return cut(true);
        }

        private List<String> cut(boolean end) {
            List<String> out = new ArrayList<>();
            while (have > 0) {
                if (want == 0) want = 1 + random.nextInt(max);
                // a high surrogate at the end may still get its pair: it is not a whole code point
                // yet
                int whole =
                        !end && Character.isHighSurrogate(pending.charAt(pending.length() - 1))
                                ? have - 1
                                : have;
                if (whole < want && !end) break;
                int n = Math.min(want, have);
                int stop = pending.offsetByCodePoints(start, n);
                out.add(pending.substring(start, stop));
                start = stop;
                have -= n;
                want = 0;
            }
            if (start > 0 && start >= pending.length() / 2) {
                pending.delete(0, start);
                start = 0;
            }
            return out;
        }
    }
}
