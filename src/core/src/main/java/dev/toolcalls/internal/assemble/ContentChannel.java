package dev.toolcalls.internal.assemble;

import java.util.function.Consumer;

/**
 * Text outside calls (content, or reasoning) as it flows out, under one of two policies:
 *
 * <ul>
 *   <li>{@code verbatim} (default): the text as written, except that whitespace before the first
 *       other character is held until such a character arrives and dropped if none ever does. So
 *       text that is only whitespace is never sent (the message field is null), and every chunking
 *       sends the same text.
 *   <li>{@code segments}: the text between calls is cut into segments at every call; each segment
 *       is stripped and the non-empty ones are joined with one space. Trailing whitespace is held
 *       until more text of the same segment shows it is inside.
 * </ul>
 */
public final class ContentChannel {
    public enum Policy {
        VERBATIM,
        SEGMENTS
    }

    /** Where the text goes as a range of the string it lies in, with no string made of it. */
    public interface Ranges {
        void accept(String source, int from, int to);
    }

    private final Consumer<String> out;
    private final Ranges ranges;
    private final Policy policy;
    private boolean sentAny;
    private boolean segmentStarted;

    /** Whitespace held back (made on first use: most streams never hold any). */
    private StringBuilder held;

    /** {@code ranges}: where text is sent as it lies, when {@link #sendsRange} says it is. */
    public ContentChannel(Consumer<String> out, Ranges ranges, Policy policy) {
        this.out = out;
        this.ranges = ranges;
        this.policy = policy;
    }

    /**
     * Whether text that is not only white space (or any text, once some was sent) is sent as it is,
     * so that {@link #addRange} may send it where it lies: verbatim, nothing held.
     */
    public boolean sendsRange() {
        return policy == Policy.VERBATIM && heldEmpty();
    }

    /**
     * Sends [from, to) of {@code source} where it lies; only where {@link #sendsRange}, and the
     * text is not only white space or {@link #sendsBlank}.
     */
    public void addRange(String source, int from, int to) {
        ranges.accept(source, from, to);
        sentAny = true;
    }

    /** Nothing sent or held, as new (for a parser that reuses this one). */
    public void reset() {
        sentAny = false;
        segmentStarted = false;
        if (held != null && held.capacity() > 4096) held = null;
        clearHeld();
    }

    /**
     * Adds {@code text} where it sends at most one piece, and gives that piece back instead of
     * sending it ("" for none): after the first text sent, verbatim (the text itself); in a segment
     * under way (the text up to its trailing white space, after what was held). Else null, and
     * nothing is done: {@link #add} sends what it makes.
     */
    public String addOne(String text) {
        if (policy == Policy.VERBATIM) return sentAny ? text : null;
        if (!segmentStarted) return null;
        int end = endOfLastNonWhitespace(text, 0);
        String piece = "";
        if (end > 0) {
            if (heldEmpty()) { // nothing held: the text itself, or a piece of it; not a copy
                piece = end == text.length() ? text : text.substring(0, end);
            } else {
                piece = held().append(text, 0, end).toString();
                clearHeld();
            }
            sentAny = true;
        }
        if (end < text.length()) held().append(text, end, text.length()); // trailing white space
        return piece;
    }

    /**
     * Where a piece of text that is only white space goes when it is not sent: the builder that
     * holds it, to append the piece to, or null where it is dropped (nothing to do); {@link #add}
     * sends it where {@link #sendsBlank} says so.
     */
    public StringBuilder blankHolder() {
        if (policy == Policy.VERBATIM) return held(); // before the first text sent
        return segmentStarted ? held() : null; // a segment's trailing, or leading, white space
    }

    /**
     * Whether {@link #add} sends a piece of text that is only white space (not held, not dropped).
     */
    public boolean sendsBlank() {
        return policy == Policy.VERBATIM && sentAny;
    }

    public void add(String text) {
        String piece = addOne(text);
        if (piece != null) {
            if (!piece.isEmpty()) out.accept(piece);
            return;
        }
        if (policy == Policy.VERBATIM) {
            if (firstNonWhitespace(text, 0) == text.length()) {
                held().append(text);
                return;
            }
            out.accept(
                    heldEmpty()
                            ? text
                            : held().append(text).toString()); // nothing held: the text as it is
            clearHeld();
            sentAny = true;
            return;
        }
        // a segment begins
        int i = firstNonWhitespace(text, 0);
        if (i == text.length()) return; // leading whitespace of a segment is dropped
        if (sentAny) out.accept(" "); // segments are joined with one space
        segmentStarted = true;
        clearHeld();
        int end = endOfLastNonWhitespace(text, i);
        if (end > i) {
            if (heldEmpty()) {
                // nothing held: the piece itself, not a copy
                out.accept(i == 0 && end == text.length() ? text : text.substring(i, end));
            } else {
                held().append(text, i, end);
                out.accept(held().toString());
                clearHeld();
            }
            sentAny = true;
        }
        held().append(text, Math.max(i, end), text.length()); // trailing whitespace waits
    }

    private StringBuilder held() {
        if (held == null) held = new StringBuilder();
        return held;
    }

    private boolean heldEmpty() {
        return held == null || held.length() == 0;
    }

    private void clearHeld() {
        if (held != null) held.setLength(0);
    }

    private static int firstNonWhitespace(String s, int from) {
        int i = from;
        while (i < s.length()) {
            int cp = s.codePointAt(i);
            if (!Character.isWhitespace(cp)) return i;
            i += Character.charCount(cp);
        }
        return i;
    }

    /**
     * Index after the last non-whitespace character at or after {@code from}; {@code from} if none.
     */
    private static int endOfLastNonWhitespace(String s, int from) {
        int i = s.length();
        while (i > from) {
            int cp = s.codePointBefore(i);
            if (!Character.isWhitespace(cp)) return i;
            i -= Character.charCount(cp);
        }
        return from;
    }

    /** A call begins: in the segments policy the current segment ends here. */
    public void boundary() {
        if (policy != Policy.SEGMENTS) return;
        segmentStarted = false;
        clearHeld();
    }
}
