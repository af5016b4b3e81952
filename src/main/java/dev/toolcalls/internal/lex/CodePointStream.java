package dev.toolcalls.internal.lex;

import org.antlr.v4.runtime.CharStream;
import org.antlr.v4.runtime.IntStream;
import org.antlr.v4.runtime.misc.Interval;

/**
 * A growable {@link CharStream} of code points for lexing output as it arrives.
 *
 * <p>ANTLR's {@code CodePointCharStream} is immutable (rebuilding it per chunk is quadratic) and
 * {@code UnbufferedCharStream} blocks. This stream grows by {@link #append}, answers EOF at the end
 * of the data received so far, knows whether that end is the real one ({@link #isComplete}), drops
 * what lies below the commit point ({@link #discardBefore}), and keeps a trailing high surrogate
 * back until its pair arrives. Indexes are code points from the start of the whole output.
 */
public final class CodePointStream implements CharStream {
    private int[] data = new int[256];
    private int base;        // global index of data[0]
    private int size;        // code points held, starting at base
    private int p;           // global index of the next code point
    private char pendingHigh;
    private boolean complete;
    private long consumed;

    /**
     * Code points that the lexer must see as {@link #STAND_IN} (a marker spelled out in ordinary
     * text, when the caller says which tokens were special) are stored with this bit set; their
     * text comes back unchanged.
     */
    static final int MASKED = 1 << 30;
    /** What the lexer sees instead of a masked code point: private use, never the start of a marker. */
    static final int STAND_IN = 0xE000;
    private boolean anyMasked;

    public void append(CharSequence chunk) { append(chunk, null); }

    /**
     * Appends a chunk, masking the UTF-16 positions listed (ascending; BMP characters that are not
     * surrogates) so that the lexer sees {@link #STAND_IN} there.
     */
    public void append(CharSequence chunk, int[] masked) {
        if (complete) throw new IllegalStateException("stream already finished");
        int nextMask = 0;
        int n = chunk.length();
        ensure(size + n + 1);
        int i = 0;
        if (pendingHigh != 0 && n > 0) {
            char c = chunk.charAt(0);
            if (Character.isLowSurrogate(c)) {
                data[size++] = Character.toCodePoint(pendingHigh, c);
                i = 1;
            } else {
                data[size++] = pendingHigh;
            }
            pendingHigh = 0;
        }
        for (; i < n; i++) {
            char c = chunk.charAt(i);
            if (masked != null && nextMask < masked.length && masked[nextMask] == i) {
                nextMask++;
                data[size++] = c | MASKED;
                anyMasked = true;
                continue;
            }
            if (Character.isHighSurrogate(c)) {
                if (i + 1 == n) { pendingHigh = c; break; }
                char d = chunk.charAt(i + 1);
                if (Character.isLowSurrogate(d)) { data[size++] = Character.toCodePoint(c, d); i++; continue; }
            }
            data[size++] = c;
        }
    }

    /** Marks the real end of the output; a lone high surrogate still waiting is taken as is. */
    public void complete() {
        if (pendingHigh != 0) {
            ensure(size + 1);
            data[size++] = pendingHigh;
            pendingHigh = 0;
        }
        complete = true;
    }

    public boolean isComplete() { return complete; }

    /** Global index one past the last code point received. */
    public int end() { return base + size; }

    /** Drops code points below {@code index}, keeping {@code keep} of them for error excerpts. */
    public void discardBefore(int index, int keep) {
        int drop = index - keep - base;
        if (drop < 4096 || drop < size / 2) return; // amortised: move only big, mostly dead prefixes
        System.arraycopy(data, drop, data, 0, size - drop);
        size -= drop;
        base += drop;
    }

    /** Text of the code points in [from, to), clipped to what is still held. */
    public String text(int from, int to) {
        int a = Math.max(from, base) - base, b = Math.min(to, base + size) - base;
        if (b <= a) return "";
        if (!anyMasked) return new String(data, a, b - a);
        int[] plain = java.util.Arrays.copyOfRange(data, a, b);
        for (int k = 0; k < plain.length; k++) plain[k] &= ~MASKED;
        return new String(plain, 0, plain.length);
    }

    public int firstHeld() { return base; }

    private void ensure(int capacity) {
        if (capacity > data.length) {
            int[] bigger = new int[Math.max(capacity, data.length * 2)];
            System.arraycopy(data, 0, bigger, 0, size);
            data = bigger;
        }
    }

    // ---- CharStream ------------------------------------------------------------------------

    @Override public String getText(Interval interval) { return text(interval.a, interval.b + 1); }

    @Override public void consume() {
        if (p >= base + size) throw new IllegalStateException("cannot consume EOF");
        p++;
        consumed++;
    }

    /** Code points the lexer has stepped over so far, re-lexing included: the measure of its work. */
    public long consumed() { return consumed; }

    @Override public int LA(int i) {
        if (i == 0) return 0;
        int at = i > 0 ? p + i - 1 : p + i;
        if (at < base || at >= base + size) return IntStream.EOF;
        int v = data[at - base];
        return v < MASKED ? v : STAND_IN;
    }

    @Override public int mark() { return -1; }
    @Override public void release(int marker) { }
    @Override public int index() { return p; }
    @Override public void seek(int index) { p = index; }
    @Override public int size() { return base + size; }
    @Override public String getSourceName() { return IntStream.UNKNOWN_SOURCE_NAME; }
}
