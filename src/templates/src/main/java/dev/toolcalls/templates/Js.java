package dev.toolcalls.templates;

/** JavaScript's string functions, as Hugging Face's Jinja applies them. */
final class Js {
    private Js() {}

    /** Whether String.prototype.trim removes the character (WhiteSpace and LineTerminator). */
    static boolean isSpace(char c) {
        return switch (c) {
            case '\t',
                    '\n',
                    0x0B,
                    '\f',
                    '\r',
                    ' ',
                    0xA0,
                    0x1680,
                    0x2028,
                    0x2029,
                    0x202F,
                    0x205F,
                    0x3000,
                    0xFEFF ->
                    true;
            default -> c >= 0x2000 && c <= 0x200A;
        };
    }

    static String trim(String s) {
        return trimEnd(trimStart(s));
    }

    static String trimStart(String s) {
        int i = 0;
        while (i < s.length() && isSpace(s.charAt(i))) {
            i++;
        }
        return s.substring(i);
    }

    static String trimEnd(String s) {
        int j = s.length();
        while (j > 0 && isSpace(s.charAt(j - 1))) {
            j--;
        }
        return s.substring(0, j);
    }

    /** value.replace(/\b\w/g, toUpperCase): word characters are [A-Za-z0-9_]. */
    static String titleCase(String s) {
        StringBuilder b = new StringBuilder(s.length());
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            boolean word = isWord(c);
            boolean start = word && (i == 0 || !isWord(s.charAt(i - 1)));
            b.append(start ? Character.toUpperCase(c) : c);
        }
        return b.toString();
    }

    private static boolean isWord(char c) {
        return (c >= 'a' && c <= 'z')
                || (c >= 'A' && c <= 'Z')
                || (c >= '0' && c <= '9')
                || c == '_';
    }
}
