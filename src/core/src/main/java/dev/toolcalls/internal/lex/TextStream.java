package dev.toolcalls.internal.lex;

import org.antlr.v4.runtime.CharStream;
import org.antlr.v4.runtime.IntStream;
import org.antlr.v4.runtime.misc.Interval;

import java.util.Arrays;

/**
 * A growable {@link CharStream} over output that arrives in chunks, read in place.
 *
 * <p>ANTLR's {@code CodePointCharStream} is immutable (rebuilding it per chunk is quadratic) and
 * {@code UnbufferedCharStream} blocks. This stream grows by {@link #append}, answers EOF at the end
 * of the data received so far, knows whether that end is the real one ({@link #isComplete}) and
 * drops what lies below the commit point ({@link #discardBefore}).
 *
 * <p>The newest chunk is not copied: it is read where it lies, so a run of plain text can be found
 * with {@link String#indexOf(int, int)} (a vector search) and returned as a substring of it, or as
 * the chunk itself. Only what is still needed when the next chunk arrives (an undecided token, and
 * a few characters before the commit point for error excerpts) moves into a carry buffer, once. A
 * chunk the lexer takes whole moves there as it arrives ({@link #appendWhole}), so the stream holds
 * no reference to it.
 *
 * <p>Indexes are UTF-16 positions from the start of the whole output; {@link #LA} answers whole
 * code points (a surrogate pair is one) and a high surrogate at the end of the data waits for its
 * pair. {@link #codePoints} turns an index into the code point count that error offsets report; it
 * counts lazily, so a long run of text is never examined character by character to know it.
 */
public final class TextStream implements CharStream {
    /**
     * What the lexer sees instead of a masked character: private use, never the start of a marker.
     */
    static final int STAND_IN = 0xE000;

    /**
     * The dead prefix of the carry that moves out (when it is also half the carry or more): small
     * enough that the carry of a stream of text stays far under the size {@link #reset} keeps, so
     * no parser grows it again, and the live part moved each time is short beside it.
     */
    private static final int DEAD_MIN = 512;

    /** The most characters whose next occurrence {@link #next} keeps. */
    private static final int SEEK_CHARS = 8;

    // the carry: [carryBase, carryBase + carryLen), always followed directly by the current chunk
    private char[] carry = new char[64];
    private boolean[] carryMasked; // allocated on the first masked character
    private int carryBase;
    private int carryLen;

    /**
     * No surrogate pair (nor half of one) of the carry lies at or above this global index: from
     * there up, the carry's code points are its chars.
     */
    private int pairsBelow;

    private String cur = "";
    private int curBase; // == carryBase + carryLen
    private int p; // global index of the next character
    private int keepFrom; // nothing below this is needed any more
    private boolean complete;
    private long consumed;

    // lazy code point count: cpAtMark code points lie before index cpMark
    private int cpMark;
    private int cpAtMark;

    // next occurrence of a character in the current chunk, for run scans, per searched character
    // k < seekN: the character at seek[3k], found at seek[3k + 2] searching from seek[3k + 1]
    // (made at the first search: a stream of short chunks may never search)
    private int[] seek;
    private int seekN;

    private int limit;

    // the searches of lacks(): lacksChars[k] next at lacksAt[k] (the chunk's length: nowhere),
    // searching the current chunk from lacksFrom[k]
    private char[] lacksChars;
    private int[] lacksFrom;
    private int[] lacksAt;

    /** Empty again, as new (a carry buffer of moderate size is kept). */
    void reset() {
        if (carry.length > 4096) carry = new char[64];
        carryMasked = null;
        carryBase = 0;
        carryLen = 0;
        pairsBelow = 0;
        cur = "";
        curBase = 0;
        p = 0;
        keepFrom = 0;
        complete = false;
        consumed = 0;
        cpMark = 0;
        cpAtMark = 0;
        seekN = 0;
        limit = 0;
        lacksChars = null;
    }

    public void append(String chunk) {
        if (complete) throw new IllegalStateException("stream already finished");
        if (chunk.isEmpty()) return;
        retire();
        cur = chunk;
        limit = computeEnd();
    }

    /**
     * Appends a chunk that the lexer takes whole at once (the caller moves the read position over
     * it), which does not end in a high surrogate: its characters go into the carry now, as the
     * next chunk's arrival would move them there, so the stream keeps no reference to it and writes
     * none (a store of a reference into this long-lived object pays the collector's write barrier).
     *
     * @param surrogates whether the chunk may hold a surrogate
     */
    void appendWhole(String chunk, boolean surrogates) {
        if (complete) throw new IllegalStateException("stream already finished");
        if (!cur.isEmpty()) { // else the last chunk went this way too, and nothing is to move
            retire();
            cur = "";
        }
        compact();
        int n = chunk.length();
        ensure(carryLen + n);
        chunk.getChars(0, n, carry, carryLen);
        if (carryMasked != null) Arrays.fill(carryMasked, carryLen, carryLen + n, false);
        carryLen += n;
        curBase = carryBase + carryLen;
        if (surrogates && !pairFree(chunk, 0, n)) pairsBelow = curBase;
        limit = curBase;
    }

    /**
     * Appends a chunk whose listed UTF-16 positions (ascending; BMP characters that are not
     * surrogates) the lexer must see as {@link #STAND_IN}; their text comes back unchanged.
     */
    public void append(String chunk, int[] masked) {
        if (masked == null || masked.length == 0) {
            append(chunk);
            return;
        }
        if (complete) throw new IllegalStateException("stream already finished");
        retire();
        cur = "";
        int at = carryLen;
        ensure(carryLen + chunk.length());
        chunk.getChars(0, chunk.length(), carry, carryLen);
        carryLen += chunk.length();
        if (!pairFree(chunk, 0, chunk.length())) pairsBelow = carryBase + carryLen;
        if (carryMasked == null) carryMasked = new boolean[carry.length];
        else Arrays.fill(carryMasked, at, carryLen, false);
        for (int m : masked) carryMasked[at + m] = true;
        curBase = carryBase + carryLen;
        limit = computeEnd();
    }

    /**
     * Moves what is still needed of the current chunk into the carry, and drops the rest; the
     * caller puts the next chunk in its place (one store of a reference per chunk: each such store
     * into this long-lived object pays the collector's write barrier).
     */
    private void retire() {
        int n = cur.length();
        if (n > 0) {
            int curEnd = curBase + n;
            // wholePairs never moves an index up: below the chunk, all of it is kept
            int from =
                    keepFrom <= curBase
                            ? curBase
                            : Math.max(curBase, wholePairs(Math.min(keepFrom, curEnd)));
            if (from > curBase) { // the carry is dead, and the chunk below from
                advanceCount(from);
                carryBase = from;
                carryLen = 0;
                pairsBelow = 0;
            } else {
                compact();
            }
            if (from < curEnd) {
                if (!pairFree(cur, from - curBase, n)) pairsBelow = curEnd;
                ensure(carryLen + curEnd - from);
                cur.getChars(from - curBase, n, carry, carryLen);
                if (carryMasked != null)
                    Arrays.fill(carryMasked, carryLen, carryLen + curEnd - from, false);
                carryLen += curEnd - from;
            }
            curBase = carryBase + carryLen;
        }
        seekN = 0;
        if (lacksChars != null) lacksChars = null;
    }

    /**
     * No surrogate pair in s[from, to), nor half of one at either end (O(1) for a Latin-1 string).
     */
    private static boolean pairFree(String s, int from, int to) {
        return to == from
                || s.codePointCount(from, to) == to - from
                        && !Character.isLowSurrogate(s.charAt(from))
                        && !Character.isHighSurrogate(s.charAt(to - 1));
    }

    /**
     * Drops the dead prefix of the carry when it is large (amortised: only big, mostly dead
     * prefixes move).
     */
    private void compact() {
        int dead = Math.min(keepFrom, curBase) - carryBase;
        if (dead < DEAD_MIN || dead < carryLen / 2) return; // wholePairs would drop no more
        int drop = wholePairs(Math.min(keepFrom, curBase)) - carryBase;
        if (drop < DEAD_MIN || drop < carryLen / 2) return;
        advanceCount(carryBase + drop);
        System.arraycopy(carry, drop, carry, 0, carryLen - drop);
        if (carryMasked != null)
            System.arraycopy(carryMasked, drop, carryMasked, 0, carryLen - drop);
        carryLen -= drop;
        carryBase += drop;
    }

    /**
     * The index itself, or one lower when it would cut a surrogate pair (or a high surrogate at the
     * end of the data, whose pair is still to come): what is dropped ends on a code point boundary,
     * so the code points counted below it and above it add up to those of the whole output.
     */
    private int wholePairs(int g) {
        if (g <= carryBase || !Character.isHighSurrogate(charAt(g - 1))) return g;
        return g == curBase + cur.length() || Character.isLowSurrogate(charAt(g)) ? g - 1 : g;
    }

    private void ensure(int capacity) {
        if (capacity > carry.length) {
            int size = Math.max(capacity, carry.length * 2);
            carry = Arrays.copyOf(carry, size);
            if (carryMasked != null) carryMasked = Arrays.copyOf(carryMasked, size);
        }
    }

    /** Marks the real end of the output; a lone high surrogate still waiting is taken as is. */
    public void complete() {
        complete = true;
        limit = computeEnd();
    }

    public boolean isComplete() {
        return complete;
    }

    /**
     * Everything received is read (no character waits, not even half a surrogate pair) and more may
     * come.
     */
    boolean settled() {
        return p == curBase + cur.length() && !complete;
    }

    /**
     * Global index one past the last character the lexer may read (a trailing high surrogate waits
     * for its pair).
     */
    public int end() {
        return limit;
    }

    private int computeEnd() {
        int e = curBase + cur.length();
        if (!complete && e > carryBase && Character.isHighSurrogate(charAt(e - 1))) e--;
        return e;
    }

    /**
     * The text held from the read position to the end of the data (at most {@code max} characters,
     * none masked, no high surrogate waiting for its pair) joined to {@code chunk}, which is not
     * appended; null when nothing is held there, or the held text is not such.
     */
    String heldWith(String chunk, int max) {
        int total = curBase + cur.length();
        int n = total - p;
        if (complete || n <= 0 || n > max || limit != total || p < carryBase) return null;
        if (carryMasked != null) return null;
        return text(p, total).concat(chunk);
    }

    /** Nothing below {@code index - keep} is needed any more (kept for error excerpts). */
    public void discardBefore(int index, int keep) {
        int k = index - keep;
        if (k > keepFrom) keepFrom = k;
    }

    public int firstHeld() {
        return carryBase;
    }

    private char charAt(int g) {
        return g >= curBase ? cur.charAt(g - curBase) : carry[g - carryBase];
    }

    /**
     * Whether the text of [from, to) (clipped as {@link #text} clips it) is only white space
     * ({@link Character#isWhitespace}), read where it lies.
     */
    public boolean isBlank(int from, int to) {
        from = Math.max(from, carryBase);
        to = Math.min(to, curBase + cur.length());
        for (int g = from; g < to; g++) if (!Character.isWhitespace(charAt(g))) return false;
        return true;
    }

    /**
     * Text of [from, to), clipped to what is still held; the current chunk itself when it is all of
     * it.
     */
    public String text(int from, int to) {
        from = Math.max(from, carryBase);
        int total = curBase + cur.length();
        to = Math.min(to, total);
        if (to <= from) return "";
        if (from >= curBase) return cur.substring(from - curBase, to - curBase);
        if (to <= curBase) return new String(carry, from - carryBase, to - from);
        return new String(carry, from - carryBase, curBase - from) + cur.substring(0, to - curBase);
    }

    /**
     * The value of the JSON string literal that the text of [from, to) is (JSON blanks around it
     * aside), cut from the text without a copy in between, when it holds no escape, no control
     * character and no surrogate; otherwise null (it needs decoding, or is no such literal).
     */
    public String plainJsonString(int from, int to) {
        from = Math.max(from, carryBase);
        to = Math.min(to, curBase + cur.length());
        while (from < to && isJsonBlank(charAt(from))) from++;
        while (to > from && isJsonBlank(charAt(to - 1))) to--;
        if (to - from < 2 || charAt(from) != '"' || charAt(to - 1) != '"') return null;
        for (int g = from + 1; g < to - 1; g++) {
            char c = charAt(g);
            if (c < 0x20 || c == '"' || c == '\\' || Character.isSurrogate(c)) return null;
        }
        return text(from + 1, to - 1);
    }

    private static boolean isJsonBlank(char c) {
        return c == ' ' || c == '\t' || c == '\n' || c == '\r';
    }

    /** Whether the text of [from, to) is {@code c} alone, blanks around it aside. */
    public boolean isOnly(int from, int to, char c) {
        from = Math.max(from, carryBase);
        to = Math.min(to, curBase + cur.length());
        while (from < to && Character.isWhitespace(charAt(from))) from++;
        while (to > from && Character.isWhitespace(charAt(to - 1))) to--;
        return to == from + 1 && charAt(from) == c;
    }

    /**
     * The chunk appended last when the whole of [from, to) lies in it (its text is that of [from -
     * {@link #chunkBase()}, to - chunkBase()) there), else null.
     */
    public String chunkHolding(int from, int to) {
        return from >= curBase && to <= curBase + cur.length() ? cur : null;
    }

    /** The global index of the first character of the chunk appended last. */
    public int chunkBase() {
        return curBase;
    }

    /**
     * Appends the text of {@link #text(int, int)} to {@code sink} without making a string of it.
     */
    public void appendText(StringBuilder sink, int from, int to) {
        from = Math.max(from, carryBase);
        int total = curBase + cur.length();
        to = Math.min(to, total);
        if (to <= from) return;
        if (from >= curBase) {
            sink.append(cur, from - curBase, to - curBase);
            return;
        }
        if (to <= curBase) {
            sink.append(carry, from - carryBase, to - from);
            return;
        }
        sink.append(carry, from - carryBase, curBase - from);
        sink.append(cur, 0, to - curBase);
    }

    // ---- code point offsets ------------------------------------------------------------------

    /**
     * Code points before global index {@code index}, which must lie at or above {@link
     * #firstHeld()}.
     */
    public int codePoints(int index) {
        if (index >= cpMark) {
            advanceCount(index);
            return cpAtMark;
        }
        return cpAtMark - count(Math.max(index, carryBase), cpMark);
    }

    private void advanceCount(int index) {
        if (index <= cpMark) return;
        cpAtMark += count(Math.max(cpMark, carryBase), index);
        cpMark = index;
    }

    /** Code points in [a, b) of the held data, where a is a code point boundary. */
    private int count(int a, int b) {
        int total = curBase + cur.length();
        b = Math.min(b, total);
        if (b <= a) return 0;
        if (a >= curBase) return cur.codePointCount(a - curBase, b - curBase);
        if (b <= curBase)
            return a >= pairsBelow ? b - a : Character.codePointCount(carry, a - carryBase, b - a);
        int n =
                (a >= pairsBelow
                                ? curBase - a
                                : Character.codePointCount(carry, a - carryBase, curBase - a))
                        + cur.codePointCount(0, b - curBase);
        if (Character.isHighSurrogate(carry[carryLen - 1])
                && Character.isLowSurrogate(cur.charAt(0))) n--; // a pair across the seam
        return n;
    }

    // ---- runs --------------------------------------------------------------------------------

    /**
     * End of the run of {@code run}'s characters starting at {@code from}: the first index at or
     * after it whose code point the run does not take, or {@link #end()}.
     */
    public int scanRun(int from, FastRuns.Run run) {
        int lim = end();
        int g = from;
        while (g < lim && g < curBase) { // in the carry: one by one
            int c = codePointAt(g);
            if (!run.takes(c)) return g;
            g += Character.charCount(c);
        }
        if (g >= lim) return lim;
        int i = g - curBase;
        int n = lim - curBase;
        char[] stops = run.stops;
        if (stops != null && n - i > 16) {
            int best = n;
            for (char s : stops) {
                int k = next(s, i);
                if (k < best) best = k;
            }
            return curBase + best;
        }
        String s = cur;
        while (i < n) {
            char c = s.charAt(i);
            if (c < 128) {
                if (!run.ascii[c]) break;
                i++;
                continue;
            }
            int cp = c;
            if (Character.isHighSurrogate(c)
                    && i + 1 < s.length()
                    && Character.isLowSurrogate(s.charAt(i + 1)))
                cp = Character.toCodePoint(c, s.charAt(i + 1));
            if (!run.takes(cp)) break;
            i += Character.charCount(cp);
        }
        return curBase + Math.min(i, n);
    }

    /** The code point at g as the lexer sees it (STAND_IN where masked). */
    private int codePointAt(int g) {
        char c = charAt(g);
        if (g < curBase && carryMasked != null && carryMasked[g - carryBase]) return STAND_IN;
        if (Character.isHighSurrogate(c) && g + 1 < curBase + cur.length()) {
            char d = charAt(g + 1);
            if (Character.isLowSurrogate(d)) return Character.toCodePoint(c, d);
        }
        return c;
    }

    /**
     * First index at or after i in the current chunk holding c, or the chunk's length; cached per
     * character.
     */
    private int next(char c, int i) {
        int[] known = seek;
        for (int k = 0; k < 3 * seekN; k += 3) {
            if (known[k] != c) continue;
            if (known[k + 1] <= i && i <= known[k + 2]) return known[k + 2];
            int at = cur.indexOf(c, i);
            known[k + 1] = i;
            known[k + 2] = at < 0 ? cur.length() : at;
            return known[k + 2];
        }
        int at = cur.indexOf(c, i);
        at = at < 0 ? cur.length() : at;
        if (known == null) known = seek = new int[3 * SEEK_CHARS];
        if (seekN < SEEK_CHARS) {
            known[3 * seekN] = c;
            known[3 * seekN + 1] = i;
            known[3 * seekN + 2] = at;
            seekN++;
        }
        return at;
    }

    /**
     * Whether none of {@code chars} (at most four) lies in [from, end of the data), which must be
     * within the current chunk (false otherwise). Where each character is next found (or that it is
     * not) is remembered while it lies ahead, so asking again further on searches only past it.
     */
    public boolean lacks(char[] chars, int from) {
        if (from < curBase || end() != curBase + cur.length()) return false;
        if (lacksChars != chars) {
            if (lacksFrom == null) {
                lacksFrom = new int[4];
                lacksAt = new int[4];
            }
            lacksChars = chars;
            Arrays.fill(lacksFrom, Integer.MAX_VALUE);
        }
        int i = from - curBase;
        boolean none = true;
        for (int k = 0; k < chars.length; k++) {
            if (lacksFrom[k] > i || lacksAt[k] < i) {
                int at = cur.indexOf(chars[k], i);
                lacksFrom[k] = i;
                lacksAt[k] = at < 0 ? cur.length() : at;
            }
            if (lacksAt[k] < cur.length()) none = false;
        }
        return none;
    }

    /** Moves the read position over a run found by {@link #scanRun}. */
    public void skipTo(int index) {
        consumed += index - p;
        p = index;
    }

    // ---- CharStream ------------------------------------------------------------------------

    @Override
    public String getText(Interval interval) {
        return text(interval.a, interval.b + 1);
    }

    @Override
    public void consume() {
        int lim = end();
        if (p >= lim) throw new IllegalStateException("cannot consume EOF");
        char c = charAt(p);
        p +=
                Character.isHighSurrogate(c)
                                && p + 1 < curBase + cur.length()
                                && Character.isLowSurrogate(charAt(p + 1))
                        ? 2
                        : 1;
        consumed++;
    }

    /**
     * Code points the lexer has stepped over so far, re-lexing included: the measure of its work.
     */
    public long consumed() {
        return consumed;
    }

    /** The code point at global index g as the lexer sees it, or -1 at the end of the data. */
    int peek(int g) {
        if (g >= limit) return IntStream.EOF;
        if (g >= curBase) {
            char c = cur.charAt(g - curBase);
            if (!Character.isSurrogate(c)) return c;
        }
        return codePointAt(g);
    }

    /**
     * How many characters of {@code text} (which holds no surrogate) agree with the data from
     * global index {@code g} on: up to the end of the text or of the data the lexer may read, and
     * none of them masked (where the lexer sees each character as it is).
     */
    int agreeing(int g, String text) {
        int n = Math.min(text.length(), limit - g);
        if (n <= 0) return 0;
        if (g >= curBase) {
            int at = g - curBase;
            if (cur.regionMatches(at, text, 0, n)) return n;
            int i = 0;
            while (cur.charAt(at + i) == text.charAt(i)) i++;
            return i;
        }
        if (carryMasked != null || g < carryBase) return 0;
        int i = 0;
        while (i < n && charAt(g + i) == text.charAt(i)) i++;
        return i;
    }

    /**
     * The text of [from, to) when the lexer sees each of its characters as it is (none masked, no
     * surrogate), else null.
     */
    String plainText(int from, int to) {
        if (from < carryBase || to > limit || from < curBase && carryMasked != null) return null;
        for (int g = from; g < to; g++) if (Character.isSurrogate(charAt(g))) return null;
        return text(from, to);
    }

    /** Counts work done outside {@link #consume()} (a match walked over the DFA directly). */
    void addWork(int n) {
        consumed += n;
    }

    /** The lexer simulator looks one code point ahead and no further (or back). */
    @Override
    public int LA(int i) {
        if (i == 1) return peek(p);
        if (i == 0) return 0;
        throw new UnsupportedOperationException(
                "LA(" + i + "): the lexer reads one code point ahead only");
    }

    @Override
    public int mark() {
        return -1;
    }

    @Override
    public void release(int marker) {}

    @Override
    public int index() {
        return p;
    }

    @Override
    public void seek(int index) {
        p = index;
    }

    @Override
    public int size() {
        return curBase + cur.length();
    }

    @Override
    public String getSourceName() {
        return IntStream.UNKNOWN_SOURCE_NAME;
    }
}
