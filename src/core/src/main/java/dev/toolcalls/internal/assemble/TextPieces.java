package dev.toolcalls.internal.assemble;

/**
 * Pieces of text joined once at the end: a single piece as it is (a long text is not copied; a
 * piece given as a range of a string is cut from it only then), two strings by one {@code concat},
 * more, or a range and more, in one builder, which {@link #clear} keeps for the next text.
 */
public final class TextPieces {
    private String first = "";
    private String second;
    private StringBuilder more;
    private boolean many;

    /** The only piece so far, where it came as [from, to) of this string; else null. */
    private String source;

    private int from;
    private int to;

    public void add(String piece) {
        if (source != null) gather();
        if (many) more.append(piece);
        else if (first.isEmpty()) first = piece;
        else if (second == null) second = piece;
        else {
            if (more == null)
                more = new StringBuilder(first.length() + second.length() + piece.length() + 16);
            more.append(first).append(second).append(piece);
            many = true;
        }
    }

    /** Adds [from, to) of {@code text} (not empty), with no string made of it here. */
    public void add(String text, int from, int to) {
        if (!many && source == null && first.isEmpty()) {
            source = text;
            this.from = from;
            this.to = to;
            return;
        }
        gather();
        more.append(text, from, to);
    }

    /** The pieces so far into the builder, to go on there. */
    private void gather() {
        if (many) return;
        if (more == null) more = new StringBuilder();
        if (source != null) more.append(source, from, to);
        else {
            more.append(first);
            if (second != null) more.append(second);
        }
        source = null;
        many = true;
    }

    public String text() {
        if (source != null)
            return from == 0 && to == source.length() ? source : source.substring(from, to);
        if (many) return more.toString();
        return second == null ? first : first.concat(second);
    }

    /** The text, or null where it is blank (a message's content or reasoning). */
    public String textOrNull() {
        String t = text();
        return t.isBlank() ? null : t;
    }

    /** Empty again; a large builder is let go. */
    public void clear() {
        first = "";
        second = null;
        source = null;
        many = false;
        if (more != null) {
            more.setLength(0);
            if (more.capacity() > 4096) more = null;
        }
    }
}
