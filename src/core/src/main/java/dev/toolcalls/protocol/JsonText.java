package dev.toolcalls.protocol;

/**
 * JSON written straight into a {@link StringBuilder}, the same text as the runtime's Gson writer
 * (no HTML escaping): a string literal has quote, backslash and the short escapes ({@code b t n f
 * r}) escaped, other control characters and U+2028, U+2029 as six-character escapes in lower-case
 * hexadecimal, everything else as it is. The per-event writers use it so that an event costs no
 * tree and no writer.
 */
final class JsonText {
    private static final char[] HEX = "0123456789abcdef".toCharArray();

    private JsonText() {}

    /** {@code s} as a JSON string literal, or {@code null}. */
    static void string(StringBuilder b, String s) {
        if (s == null) {
            b.append("null");
            return;
        }
        b.append('"');
        int from = 0;
        int n = s.length();
        for (int i = 0; i < n; i++) {
            char c = s.charAt(i);
            if (c >= 0x20 && c != '"' && c != '\\' && c != '\u2028' && c != '\u2029') continue;
            b.append(s, from, i);
            from = i + 1;
            switch (c) {
                case '"' -> b.append("\\\"");
                case '\\' -> b.append("\\\\");
                case '\b' -> b.append("\\b");
                case '\t' -> b.append("\\t");
                case '\n' -> b.append("\\n");
                case '\f' -> b.append("\\f");
                case '\r' -> b.append("\\r");
                default ->
                        b.append("\\u")
                                .append(HEX[c >> 12])
                                .append(HEX[(c >> 8) & 15])
                                .append(HEX[(c >> 4) & 15])
                                .append(HEX[c & 15]);
            }
        }
        b.append(s, from, n).append('"');
    }

    /** {@code "name":} after a comma unless it is the object's first member. */
    static void name(StringBuilder b, String name, boolean first) {
        if (!first) b.append(',');
        b.append('"').append(name).append("\":");
    }
}
