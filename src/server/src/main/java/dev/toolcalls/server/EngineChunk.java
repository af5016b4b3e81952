package dev.toolcalls.server;

import com.google.gson.JsonElement;
import com.google.gson.JsonNull;
import com.google.gson.JsonParseException;

import dev.toolcalls.internal.json.Json;

import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * One event of an engine's {@code /v1/completions} stream, read by a single pass over its text that
 * checks it is one strict JSON value (RFC 8259) and keeps only what the gateway uses: of each
 * choice whether its {@code index} is another than the first, its {@code text} and its {@code
 * finish_reason}; the {@code error} and {@code usage} values as trees (they come once, if at all).
 * Every other value is checked and skipped without building anything.
 *
 * @param error the event's {@code error} value, or null when absent or JSON null
 * @param usage the event's {@code usage} value, or null when absent
 * @param choices the choices, in order
 */
record EngineChunk(JsonElement error, JsonElement usage, List<Choice> choices) {
    /**
     * One choice.
     *
     * @param other its {@code index} is an integer other than 0 (a choice the gateway does not
     *     relay); false when the index is absent or not an integer
     * @param text its {@code text} when a string, else null
     * @param finishReason its {@code finish_reason} when a string, else null
     */
    record Choice(boolean other, String text, String finishReason) {}

    /** As deep as Gson reads by default. */
    private static final int MAX_DEPTH = 255;

    /**
     * Reads one event's data.
     *
     * @throws JsonParseException the data is not one JSON object
     */
    static EngineChunk read(String data) {
        byte[] a = data.getBytes(StandardCharsets.UTF_8);
        return read(a, 0, a.length);
    }

    /**
     * Reads one event's data from its UTF-8 bytes {@code a[from..to)}, which are strict UTF-8 (as
     * {@link SseReader} hands them over): read in place, with no string made of the whole event.
     * Where it fails is said in bytes from {@code from}.
     *
     * @throws JsonParseException the data is not one JSON object
     */
    static EngineChunk read(byte[] a, int from, int to) {
        return new Scanner(a, from, to).event();
    }

    private static final class Scanner {
        private static final int EXCERPT = 40;
        private static final byte[][] EVENT_KEYS = {
            ascii("error"), ascii("usage"), ascii("choices")
        };
        private static final byte[][] NO_KEYS = {};
        private static final byte[][] CHOICE_KEYS = {
            ascii("index"), ascii("text"), ascii("finish_reason")
        };

        private final byte[] s;
        private final int start;
        private final int end;
        private int pos;
        private StringBuilder chars; // a string with escapes, decoded

        Scanner(byte[] s, int from, int to) {
            this.s = s;
            this.start = from;
            this.end = to;
            this.pos = from;
        }

        private static byte[] ascii(String name) {
            return name.getBytes(StandardCharsets.ISO_8859_1);
        }

        EngineChunk event() {
            space();
            if (peek() != '{') throw fail("not an object");
            pos++;
            JsonElement error = null;
            JsonElement usage = null;
            List<Choice> choices = List.of();
            if (!closes('}')) {
                do {
                    switch (key(EVENT_KEYS)) {
                        case 0 -> {
                            JsonElement e = tree();
                            error = e.isJsonNull() ? null : e;
                        }
                        case 1 -> usage = tree();
                        case 2 -> choices = choices();
                        default -> skip();
                    }
                } while (next('}'));
            }
            space();
            if (pos != end) throw fail("more than one value");
            return new EngineChunk(error, usage, choices);
        }

        private List<Choice> choices() {
            if (peek() != '[') {
                skip();
                return List.of();
            }
            pos++;
            List<Choice> out = new ArrayList<>(1);
            if (closes(']')) return out;
            do {
                if (peek() == '{') out.add(choice());
                else skip();
            } while (next(']'));
            return out;
        }

        private Choice choice() {
            pos++; // '{'
            boolean other = false;
            String text = null;
            String reason = null;
            if (!closes('}')) {
                do {
                    switch (key(CHOICE_KEYS)) {
                        case 0 -> {
                            int from = pos;
                            char c = peek();
                            skip();
                            other = (c == '-' || (c >= '0' && c <= '9')) && nonZeroInteger(from);
                        }
                        case 1 -> text = stringOrSkip();
                        case 2 -> reason = stringOrSkip();
                        default -> skip();
                    }
                } while (next('}'));
            }
            return new Choice(other, text, reason);
        }

        /** The number just skipped, from {@code from}: an integer other than 0. */
        private boolean nonZeroInteger(int from) {
            String n = new String(s, from, pos - from, StandardCharsets.ISO_8859_1);
            if (n.indexOf('.') < 0 && n.indexOf('e') < 0 && n.indexOf('E') < 0)
                return !n.equals("0") && !n.equals("-0");
            BigDecimal d = new BigDecimal(n);
            return d.signum() != 0 && d.stripTrailingZeros().scale() <= 0;
        }

        private String stringOrSkip() {
            if (peek() == '"') return string();
            skip();
            return null;
        }

        /** A value as a Gson tree (for the rare {@code error} and {@code usage}). */
        private JsonElement tree() {
            if (peek() == 'n') { // engines send "usage": null in every chunk but the last
                literal("null");
                return JsonNull.INSTANCE;
            }
            int from = pos;
            skip();
            try {
                return Json.parseStrict(new String(s, from, pos - from, StandardCharsets.UTF_8));
            } catch (Json.NotJson e) {
                throw fail(e.getMessage());
            }
        }

        /**
         * A member's key and its colon (the value follows): which of the names it is, or -1. A key
         * without escapes is compared in place, not copied.
         */
        private int key(byte[]... names) {
            space();
            if (peek() != '"') throw fail("expected a member name");
            int from = pos + 1;
            int p = from;
            while (p < end) {
                byte c = s[p];
                if (c == '"' || c == '\\' || (c >= 0 && c < 0x20)) break;
                p++;
            }
            int found = -1;
            if (p < end && s[p] == '"') {
                pos = p + 1;
                for (int i = 0; i < names.length; i++)
                    if (names[i].length == p - from
                            && Arrays.equals(s, from, p, names[i], 0, names[i].length)) found = i;
            } else {
                byte[] key = string().getBytes(StandardCharsets.UTF_8);
                for (int i = 0; i < names.length; i++) if (Arrays.equals(names[i], key)) found = i;
            }
            space();
            if (peek() != ':') throw fail("expected ':'");
            pos++;
            space();
            return found;
        }

        /** After a member or element: a comma (true, another follows) or the closing bracket. */
        private boolean next(char close) {
            space();
            char c = peek();
            pos++;
            if (c == ',') {
                space();
                return true;
            }
            if (c == close) return false;
            pos--;
            throw fail("expected ',' or '" + close + "'");
        }

        /** After an opening bracket: the closing one at once (an empty value). */
        private boolean closes(char close) {
            space();
            if (peek() != close) return false;
            pos++;
            return true;
        }

        /** Checks and passes one value, nested ones included, without recursion. */
        private void skip() {
            byte[] open = null; // the brackets open, innermost last
            int depth = 0;
            while (true) {
                space();
                char c = peek();
                switch (c) {
                    case '{', '[' -> {
                        if (depth == MAX_DEPTH) throw fail("nested deeper than " + MAX_DEPTH);
                        if (open == null) open = new byte[16];
                        else if (depth == open.length) open = Arrays.copyOf(open, open.length * 2);
                        open[depth++] = (byte) c;
                        pos++;
                        space();
                        if (c == '{') {
                            if (peek() != '}') {
                                key(NO_KEYS);
                                continue;
                            }
                        } else if (peek() != ']') continue;
                        pos++; // empty
                        depth--;
                    }
                    case '"' -> passString();
                    case 't' -> literal("true");
                    case 'f' -> literal("false");
                    case 'n' -> literal("null");
                    default -> number();
                }
                // a value ended: close what it ends, or go on to the next member or element
                while (true) {
                    if (depth == 0) return;
                    char close = open[depth - 1] == '{' ? '}' : ']';
                    if (next(close)) {
                        if (close == '}') key(NO_KEYS);
                        break;
                    }
                    depth--;
                }
            }
        }

        private void literal(String word) {
            int n = word.length();
            if (end - pos < n) throw fail("not a JSON value");
            for (int i = 0; i < n; i++)
                if (s[pos + i] != word.charAt(i)) throw fail("not a JSON value");
            pos += n;
        }

        private void number() {
            int p = pos;
            if (p < end && s[p] == '-') p++;
            if (p < end && s[p] == '0') p++;
            else if (p < end && s[p] >= '1' && s[p] <= '9') p = digits(p);
            else throw fail(pos == end ? "unexpected end" : "not a JSON value");
            if (p < end && s[p] == '.') {
                int q = digits(p + 1);
                if (q == p + 1) throw failAt(q, "a digit must follow '.'");
                p = q;
            }
            if (p < end && (s[p] == 'e' || s[p] == 'E')) {
                p++;
                if (p < end && (s[p] == '+' || s[p] == '-')) p++;
                int q = digits(p);
                if (q == p) throw failAt(q, "a digit must follow the exponent");
                p = q;
            }
            pos = p;
        }

        private int digits(int p) {
            while (p < end && s[p] >= '0' && s[p] <= '9') p++;
            return p;
        }

        /** Passes a string (at its quote), checking its escapes and characters. */
        private void passString() {
            int p = pos + 1;
            while (true) {
                if (p >= end) throw failAt(p, "unterminated string");
                byte c = s[p];
                if (c == '"') {
                    pos = p + 1;
                    return;
                }
                if (c == '\\') p = escape(p, null);
                else if (c >= 0 && c < 0x20) throw failAt(p, "a control character in a string");
                else p++;
            }
        }

        /**
         * A string (at its quote), decoded. Its other bytes are whole UTF-8 sequences (the data is
         * strict UTF-8, and an escape's backslash never cuts one).
         */
        private String string() {
            int from = pos + 1;
            int p = from;
            while (true) { // no escape yet: the string is its bytes
                if (p >= end) throw failAt(p, "unterminated string");
                byte c = s[p];
                if (c == '"') {
                    pos = p + 1;
                    return new String(s, from, p - from, StandardCharsets.UTF_8);
                }
                if (c == '\\') break;
                if (c >= 0 && c < 0x20) throw failAt(p, "a control character in a string");
                p++;
            }
            if (chars == null) chars = new StringBuilder();
            chars.setLength(0);
            int run = from; // bytes not yet decoded
            while (true) {
                if (p >= end) throw failAt(p, "unterminated string");
                byte c = s[p];
                if (c == '"' || c == '\\') {
                    if (p > run) chars.append(new String(s, run, p - run, StandardCharsets.UTF_8));
                    if (c == '"') {
                        pos = p + 1;
                        return chars.toString();
                    }
                    p = escape(p, chars);
                    run = p;
                } else if (c >= 0 && c < 0x20) {
                    throw failAt(p, "a control character in a string");
                } else {
                    p++;
                }
            }
        }

        /** The escape at {@code p} (its backslash), appended to out when given; where it ends. */
        private int escape(int p, StringBuilder out) {
            if (p + 1 >= end) throw failAt(p, "unterminated string");
            byte e = s[p + 1];
            char c;
            switch (e) {
                case '"', '\\', '/' -> c = (char) e;
                case 'b' -> c = '\b';
                case 'f' -> c = '\f';
                case 'n' -> c = '\n';
                case 'r' -> c = '\r';
                case 't' -> c = '\t';
                case 'u' -> {
                    if (p + 6 > end) throw failAt(p, "unterminated string");
                    int v = 0;
                    for (int i = p + 2; i < p + 6; i++) {
                        int d = s[i] < 0 ? -1 : Character.digit(s[i], 16);
                        if (d < 0) throw failAt(i, "a \\u escape needs four hex digits");
                        v = v * 16 + d;
                    }
                    if (out != null) out.append((char) v);
                    return p + 6;
                }
                default -> throw failAt(p, "an invalid escape");
            }
            if (out != null) out.append(c);
            return p + 2;
        }

        private void space() {
            while (pos < end) {
                byte c = s[pos];
                if (c != ' ' && c != '\n' && c != '\r' && c != '\t') return;
                pos++;
            }
        }

        /** The byte at the position, as a char (a byte of a UTF-8 sequence is one above 0x7F). */
        private char peek() {
            if (pos >= end) throw fail("unexpected end");
            return (char) (s[pos] & 0xFF);
        }

        private JsonParseException fail(String what) {
            return failAt(pos, what);
        }

        private JsonParseException failAt(int at, String what) {
            int from = Math.max(start, at - EXCERPT);
            int to = Math.min(end, at + EXCERPT);
            while (from > start && (s[from] & 0xC0) == 0x80) from--; // whole UTF-8 sequences
            while (to < end && (s[to] & 0xC0) == 0x80) to++;
            return new JsonParseException(
                    what
                            + " at character "
                            + (at - start)
                            + " near '"
                            + (from > start ? "..." : "")
                            + new String(s, from, to - from, StandardCharsets.UTF_8)
                            + (to < end ? "..." : "")
                            + "'");
        }
    }
}
