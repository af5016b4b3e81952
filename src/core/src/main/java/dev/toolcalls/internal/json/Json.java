package dev.toolcalls.internal.json;

import com.google.gson.Gson;
import com.google.gson.GsonBuilder;
import com.google.gson.JsonArray;
import com.google.gson.JsonElement;
import com.google.gson.JsonNull;
import com.google.gson.JsonObject;
import com.google.gson.JsonParser;
import com.google.gson.JsonPrimitive;
import com.google.gson.Strictness;
import com.google.gson.TypeAdapter;
import com.google.gson.stream.JsonReader;

import java.io.IOException;
import java.io.StringReader;
import java.util.Map;

/** The JSON the runtime needs: compact writing, strict validation, JSON string decoding. */
public final class Json {
    /** Gson is made on first use (a parse that writes no JSON never loads it: cold start). */
    private static final class Gsons {
        static final Gson GSON = new GsonBuilder().disableHtmlEscaping().create();
        static final Gson WRITER =
                new GsonBuilder().disableHtmlEscaping().serializeNulls().create();
        static final TypeAdapter<JsonElement> ELEMENT = GSON.getAdapter(JsonElement.class);
    }

    /** Writes JSON trees as built: a JsonNull member (a message's null content) is kept. */

    /**
     * Nesting deeper than this is refused (a stack-free validator, but trees and readers downstream
     * recurse).
     */
    public static final int MAX_DEPTH = 512;

    /**
     * Marks an escape that {@link #simpleEscape} or {@link #hex4} leaves to {@link #decodeEscape}.
     */
    private static final char NOT_ONE = '\uFFFF';

    private Json() {}

    public static String write(JsonElement e) {
        return Gsons.WRITER.toJson(e);
    }

    /**
     * Parses JSON the runtime itself wrote (or already validated); a failure is a bug, not bad
     * input.
     */
    public static JsonElement parse(String text) {
        return JsonParser.parseString(text);
    }

    /**
     * Text that is not strict JSON; the message says why and where. It carries no stack trace: it
     * answers a question about the text (a raw value is tried as JSON, and read as a string when it
     * is not), and filling in the thread's stack would cost more than reading the value.
     */
    public static class NotJson extends Exception {
        public NotJson(String message) {
            super(message, null, false, false);
        }
    }

    /** Valid so far, but nested deeper than the limit. */
    public static final class TooDeep extends NotJson {
        public TooDeep(String message) {
            super(message);
        }
    }

    /**
     * Parses exactly one JSON value under RFC 8259 rules (no comments, single quotes, unquoted
     * names, trailing commas, NaN, leading zeros or trailing data), whatever the length of its
     * numbers.
     */
    public static JsonElement parseStrict(String text) throws NotJson {
        StrictJson.check(text, MAX_DEPTH);
        JsonReader r = new JsonReader(new StringReader(text));
        r.setStrictness(
                Strictness
                        .LENIENT); // already validated; lenient reading has no number-length limit
        r.setNestingLimit(Integer.MAX_VALUE);
        try {
            return Gsons.ELEMENT.read(r);
        } catch (IOException | RuntimeException ex) {
            throw new IllegalStateException(
                    "valid JSON that Gson could not read: " + ex.getMessage(), ex);
        }
    }

    /**
     * The value's first character where {@code text} is strict JSON, else 0, with no error made:
     * the test of whether a text is JSON. Text whose first character (after whitespace) begins no
     * JSON value is not read further.
     */
    public static char kind(String text) {
        return StrictJson.kind(text, MAX_DEPTH);
    }

    /** Validates strict JSON without building anything; the value's first character when valid. */
    public static char check(String text) throws NotJson {
        return StrictJson.check(text, MAX_DEPTH);
    }

    /** The same with a nesting limit of one's own. */
    public static char check(String text, int maxDepth) throws NotJson {
        return StrictJson.check(text, Math.min(maxDepth, MAX_DEPTH));
    }

    /** The same, passing over the ranges known to be valid string text. */
    public static char check(String text, int maxDepth, StringRanges ranges) throws NotJson {
        return StrictJson.check(text, Math.min(maxDepth, MAX_DEPTH), ranges);
    }

    /**
     * {@link #check(String, int, StringRanges)} by one validator used for check after check (a
     * parser's parts keep one): no validator is made per check. One thread at a time.
     */
    public static final class Checker {
        private final StrictJson validator = new StrictJson();

        public char check(String text, int maxDepth, StringRanges ranges) throws NotJson {
            return validator.run(text, Math.min(maxDepth, MAX_DEPTH), ranges);
        }
    }

    /**
     * Whether the text is exactly one strict JSON object, checked in one pass without building it.
     */
    public static boolean isStrictObject(String text) throws NotJson {
        return check(text) == '{';
    }

    /** Decodes a JSON string literal, quotes included; null if it is not one. */
    public static String decodeString(String literal) {
        try {
            if (check(literal) != '"') return null;
        } catch (NotJson e) {
            return null;
        }
        String t = literal.strip();
        return decodeStringPiece(t.substring(1, t.length() - 1));
    }

    /**
     * Decodes a piece of the inside of a JSON string: plain characters stay, each escape ({@code
     * \n}, {@code \"}, {@code \u00e9}, ...) becomes its character.
     */
    public static String decodeStringPiece(String piece) {
        int at = piece.indexOf('\\');
        if (at < 0) return piece;
        int n = piece.length();
        StringBuilder out = new StringBuilder(n);
        int from = 0;
        // the plain stretches between escapes are copied whole; a lone backslash at the end stays
        for (; at >= 0 && at + 1 < n; at = piece.indexOf('\\', from)) {
            out.append(piece, from, at);
            char c = piece.charAt(at + 1);
            int end = c == 'u' ? Math.min(n, at + 6) : at + 2;
            char one = end - at == 6 ? hex4(piece, at + 2) : simpleEscape(c);
            if (one != NOT_ONE) out.append(one);
            else out.append(decodeEscape(piece.substring(at, end)));
            from = end;
        }
        return out.append(piece, from, n).toString();
    }

    /** The character of the escape {@code \c} when it is a common one-character escape. */
    private static char simpleEscape(char c) {
        switch (c) {
            case 'n':
                return '\n';
            case 't':
                return '\t';
            case 'r':
                return '\r';
            case 'b':
                return '\b';
            case 'f':
                return '\f';
            case '"':
            case '\\':
            case '/':
            case '\'':
                return c;
            default:
                return NOT_ONE;
        }
    }

    /**
     * The four hexadecimal digits at {@code i} as a character ({@link #NOT_ONE} if they are not).
     */
    private static char hex4(String s, int i) {
        int v = 0;
        for (int k = i; k < i + 4; k++) {
            int d = Character.digit(s.charAt(k), 16);
            if (d < 0) return NOT_ONE;
            v = v * 16 + d;
        }
        return v == NOT_ONE ? NOT_ONE : (char) v;
    }

    /**
     * Python/JSON string escapes: \n \t \r \b \f \v \a \0 \ooo \xhh \\uXXXX \UXXXXXXXX, and
     * \<newline> (nothing).
     */
    public static String decodeEscape(String e) {
        if (e.length() < 2 || e.charAt(0) != '\\') return e;
        char c = e.charAt(1);
        try {
            switch (c) {
                case 'n':
                    return "\n";
                case 't':
                    return "\t";
                case 'r':
                    return "\r";
                case 'b':
                    return "\b";
                case 'f':
                    return "\f";
                case 'v':
                    return "\u000b";
                case 'a':
                    return "\u0007";
                case '\n':
                    return "";
                case 'x':
                    return String.valueOf((char) Integer.parseInt(e.substring(2), 16));
                case 'u':
                    return String.valueOf((char) Integer.parseInt(e.substring(2), 16));
                case 'U':
                    return new String(Character.toChars(Integer.parseInt(e.substring(2), 16)));
                default:
                    if (c >= '0' && c <= '7')
                        return String.valueOf((char) Integer.parseInt(e.substring(1), 8));
                    return e.substring(1); // \\ \' \" and unknown escapes keep the character
            }
        } catch (RuntimeException ex) {
            return e;
        }
    }

    /**
     * A JSON tree from plain Java values: maps with string keys, lists, strings, numbers, booleans,
     * null.
     */
    public static JsonElement fromJava(Object value) {
        if (value == null) return JsonNull.INSTANCE;
        if (value instanceof String) return new JsonPrimitive((String) value);
        if (value instanceof Number) return new JsonPrimitive((Number) value);
        if (value instanceof Boolean) return new JsonPrimitive((Boolean) value);
        if (value instanceof Map) {
            JsonObject o = new JsonObject();
            for (Map.Entry<?, ?> e : ((Map<?, ?>) value).entrySet()) {
                if (!(e.getKey() instanceof String))
                    throw new IllegalArgumentException(
                            "a JSON object's keys are strings, not " + e.getKey());
                o.add((String) e.getKey(), fromJava(e.getValue()));
            }
            return o;
        }
        if (value instanceof Iterable) {
            JsonArray a = new JsonArray();
            for (Object item : (Iterable<?>) value) a.add(fromJava(item));
            return a;
        }
        throw new IllegalArgumentException("not a JSON value: " + value.getClass().getName());
    }
}
