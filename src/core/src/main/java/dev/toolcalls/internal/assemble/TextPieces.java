package dev.toolcalls.internal.assemble;

/**
 * Pieces of text joined once at the end: a single piece as it is (a long text is not copied), two
 * by one {@code concat}, more in one builder, which {@link #clear} keeps for the next text.
 */
public final class TextPieces {
    private String first = "";
    private String second;
    private StringBuilder more;
    private boolean many;

    public void add(String piece) {
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

    public String text() {
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
        many = false;
        if (more != null) {
            more.setLength(0);
            if (more.capacity() > 4096) more = null;
        }
    }
}
