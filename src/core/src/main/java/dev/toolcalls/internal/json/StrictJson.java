package dev.toolcalls.internal.json;

import java.util.Arrays;

/**
 * An RFC 8259 validator: one pass, no tree, no recursion, any number length, a nesting limit.
 * Accepts exactly one value with optional surrounding whitespace; rejects comments, single quotes,
 * unquoted names, trailing commas, NaN/Infinity, leading zeros, raw control characters in strings,
 * bad escapes and trailing data. Errors say what was expected and at which offset (UTF-16 index).
 *
 * <p>Ranges of the text known to be valid string text ({@link StringRanges}) are not read again
 * when the reading of a string comes to the start of one: an escaped range is passed over, a
 * quoteless one only searched for control characters.
 */
final class StrictJson {
    /** A range this near the reading of a string is reached by a plain loop, not by search. */
    private static final int NEAR = 256;

    /** The error of a check that wants no message ({@link #kind}): one, thrown again and again. */
    private static final Json.NotJson QUIET = new Json.NotJson("not JSON");

    private String s;
    private int maxDepth;
    private int i;

    /** Errors are {@link #QUIET}, with no message made. */
    private boolean quiet;

    // known string text: [starts[k], ends[k]) for k < ranges, in order, escaped or quoteless;
    // next: the first not passed
    private int[] starts;
    private int[] ends;
    private boolean[] escaped;
    private int ranges;
    private int next;

    // next quote and backslash at or after i (searched with indexOf, kept while still ahead)
    private int nextQuote;
    private int nextSlash;

    /** The first character of the value (after whitespace) when the text is valid, else throws. */
    static char check(String text, int maxDepth) throws Json.NotJson {
        return check(text, maxDepth, null);
    }

    /**
     * The first character of the value (after whitespace) when the text is valid, else 0: no error
     * message is made for text that is not.
     */
    static char kind(String text, int maxDepth) {
        // text whose first character begins no JSON value is not read further
        int at = skipWs(text, 0);
        if (at == text.length() || "{[\"-0123456789tfn".indexOf(text.charAt(at)) < 0) return 0;
        StrictJson v = new StrictJson();
        v.quiet = true;
        try {
            return v.run(text, maxDepth, null);
        } catch (Json.NotJson e) {
            return 0;
        }
    }

    /** The same, passing over the ranges known to be valid string text (null: none). */
    static char check(String text, int maxDepth, StringRanges known) throws Json.NotJson {
        return new StrictJson().run(text, maxDepth, known);
    }

    /**
     * {@link #check(String, int, StringRanges)} by this validator, which may check again after:
     * nothing of the text is kept once it returns.
     */
    char run(String text, int maxDepth, StringRanges known) throws Json.NotJson {
        this.s = text;
        this.maxDepth = maxDepth;
        this.starts = known == null ? null : known.starts;
        this.ends = known == null ? null : known.ends;
        this.escaped = known == null ? null : known.escaped;
        this.ranges = known == null ? 0 : known.count;
        i = 0;
        next = 0;
        nextQuote = -1;
        nextSlash = -1;
        try {
            ws();
            if (i >= text.length()) throw error("a JSON value");
            char first = text.charAt(i);
            document();
            return first;
        } finally {
            s = null;
            starts = null;
            ends = null;
            escaped = null;
        }
    }

    private void document() throws Json.NotJson {
        // containers on an explicit stack, object or array: the first 64 as bits of a long (no
        // allocation for ordinary arguments), deeper ones in an array made when needed
        long shallow = 0;
        boolean[] deep = null;
        int depth = 0;
        value:
        while (true) {
            ws();
            if (i >= s.length()) throw error("a JSON value");
            char c = s.charAt(i);
            if (c == '{' || c == '[') {
                if (depth >= maxDepth)
                    throw new Json.TooDeep(
                            "nesting deeper than " + maxDepth + " levels at offset " + i);
                boolean object = c == '{';
                if (depth < 64) {
                    shallow = object ? shallow | 1L << depth : shallow & ~(1L << depth);
                } else {
                    if (deep == null) deep = new boolean[64];
                    else if (depth - 64 == deep.length) deep = Arrays.copyOf(deep, deep.length * 2);
                    deep[depth - 64] = object;
                }
                depth++;
                i++;
                ws();
                if (i < s.length() && s.charAt(i) == (object ? '}' : ']')) {
                    i++;
                    depth--;
                } else {
                    if (object) member();
                    continue value;
                }
            } else {
                scalar();
            }
            // after a value: close containers or go on with the next item
            while (true) {
                ws();
                if (depth == 0) {
                    if (i < s.length()) throw error("the end of the data after the JSON value");
                    return;
                }
                boolean object =
                        depth <= 64 ? (shallow >>> (depth - 1) & 1) != 0 : deep[depth - 65];
                if (i >= s.length()) throw error(object ? "',' or '}'" : "',' or ']'");
                char d = s.charAt(i);
                if (d == ',') {
                    i++;
                    if (object) {
                        ws();
                        member();
                    }
                    continue value;
                }
                if (d == (object ? '}' : ']')) {
                    i++;
                    depth--;
                    continue;
                }
                throw error(object ? "',' or '}'" : "',' or ']'");
            }
        }
    }

    /** A member's name and colon; the value follows. */
    private void member() throws Json.NotJson {
        if (i >= s.length() || s.charAt(i) != '"') throw error("a member name in double quotes");
        string();
        ws();
        if (i >= s.length() || s.charAt(i) != ':') throw error("':'");
        i++;
    }

    private void scalar() throws Json.NotJson {
        char c = s.charAt(i);
        if (c == '"') string();
        else if (c == '-' || c >= '0' && c <= '9') number();
        else if (!literal("true") && !literal("false") && !literal("null"))
            throw error("a JSON value");
    }

    private boolean literal(String word) {
        if (!s.startsWith(word, i)) return false;
        i += word.length();
        return true;
    }

    private void string() throws Json.NotJson {
        i++; // opening quote
        String s = this.s;
        int n = s.length();
        while (true) {
            // escaped string text ahead: the first range that begins here or later
            while (next < ranges && starts[next] < i) next++;
            int range = next < ranges ? starts[next] : n;
            if (range - i < NEAR) {
                // near: the characters up to it one by one, then the range passed over whole
                while (i < range) {
                    char c = s.charAt(i);
                    if (c == '"' || c == '\\' || c < 0x20) break;
                    i++;
                }
            } else {
                // the plain stretch up to the next quote or backslash: found by search, checked
                // for control characters a word at a time
                if (nextQuote < i) {
                    nextQuote = s.indexOf('"', i);
                    if (nextQuote < 0) nextQuote = n;
                }
                if (nextSlash < i) {
                    nextSlash = s.indexOf('\\', i);
                    if (nextSlash < 0) nextSlash = n;
                }
                i = JsonScan.control(s, i, Math.min(range, Math.min(nextQuote, nextSlash)));
            }
            if (i == range && range < n) {
                int end = ends[next];
                i = escaped[next++] ? end : JsonScan.control(s, i, end);
                if (i == end) continue;
            }
            if (i >= n) throw error("the end of the string");
            char c = s.charAt(i);
            if (c == '"') {
                i++;
                return;
            }
            if (c < 0x20)
                throw new Json.NotJson(
                        String.format(
                                "unescaped control character U+%04X in a string at offset %d",
                                (int) c, i));
            if (c == '\\') {
                if (i + 1 >= s.length()) throw error("an escape");
                char e = s.charAt(i + 1);
                if (e == 'u') {
                    for (int k = 2; k < 6; k++)
                        if (i + k >= s.length() || Character.digit(s.charAt(i + k), 16) < 0) {
                            i += Math.min(k, s.length() - i);
                            throw error("4 hex digits after \\u");
                        }
                    i += 6;
                } else if ("\"\\/bfnrt".indexOf(e) >= 0) {
                    i += 2;
                } else {
                    i++;
                    throw error("an escape (\\\" \\\\ \\/ \\b \\f \\n \\r \\t \\uXXXX)");
                }
            } else {
                i++;
            }
        }
    }

    private void number() throws Json.NotJson {
        if (s.charAt(i) == '-') i++;
        if (i >= s.length()) throw error("a digit");
        if (s.charAt(i) == '0') i++;
        else if (digit()) while (digit()) {}
        else throw error("a digit");
        if (i < s.length() && s.charAt(i) == '.') {
            i++;
            if (!digit()) throw error("a digit after the decimal point");
            while (digit()) {}
        }
        if (i < s.length() && (s.charAt(i) == 'e' || s.charAt(i) == 'E')) {
            i++;
            if (i < s.length() && (s.charAt(i) == '+' || s.charAt(i) == '-')) i++;
            if (!digit()) throw error("a digit in the exponent");
            while (digit()) {}
        }
    }

    private boolean digit() {
        if (i < s.length() && s.charAt(i) >= '0' && s.charAt(i) <= '9') {
            i++;
            return true;
        }
        return false;
    }

    private void ws() {
        i = skipWs(s, i);
    }

    /** The first index at or after {@code at} that is not JSON whitespace. */
    private static int skipWs(String s, int at) {
        while (at < s.length()) {
            char c = s.charAt(at);
            if (c != ' ' && c != '\t' && c != '\n' && c != '\r') return at;
            at++;
        }
        return at;
    }

    private Json.NotJson error(String expected) {
        if (quiet) return QUIET;
        if (i >= s.length())
            return new Json.NotJson("expected " + expected + " but the data ended at offset " + i);
        int cp = s.codePointAt(i);
        String found =
                cp < 0x20 || cp == 0x7f
                        ? String.format("U+%04X", cp)
                        : "'" + new String(Character.toChars(cp)) + "'";
        return new Json.NotJson("expected " + expected + " but found " + found + " at offset " + i);
    }
}
