package dev.toolcalls.server;

import com.google.gson.JsonElement;

import java.math.BigDecimal;
import java.util.Locale;
import java.util.Map;

/**
 * Checks on JSON that came from outside (a request body, a {@code --jsonl} line): the kind of a
 * value, and lone surrogates, which Java strings can hold but UTF-8 output cannot (they would go
 * out as {@code ?}).
 */
public final class JsonChecks {
    private JsonChecks() {}

    /** The JSON kinds a field may have. */
    public enum Kind {
        STRING,
        BOOLEAN,
        INTEGER,
        NUMBER,
        ARRAY,
        OBJECT,
        NULL;

        boolean matches(JsonElement e) {
            switch (this) {
                case NULL:
                    return e.isJsonNull();
                case ARRAY:
                    return e.isJsonArray();
                case OBJECT:
                    return e.isJsonObject();
                case STRING:
                    return e.isJsonPrimitive() && e.getAsJsonPrimitive().isString();
                case BOOLEAN:
                    return e.isJsonPrimitive() && e.getAsJsonPrimitive().isBoolean();
                case NUMBER:
                    return e.isJsonPrimitive() && e.getAsJsonPrimitive().isNumber();
                default:
                    {
                        if (!e.isJsonPrimitive() || !e.getAsJsonPrimitive().isNumber())
                            return false;
                        String n = e.getAsString();
                        if (n.indexOf('.') < 0 && n.indexOf('e') < 0 && n.indexOf('E') < 0)
                            return true;
                        try {
                            return new BigDecimal(n).stripTrailingZeros().scale() <= 0;
                        } catch (NumberFormatException | ArithmeticException x) {
                            return false;
                        }
                    }
            }
        }

        String article() {
            switch (this) {
                case INTEGER:
                case ARRAY:
                case OBJECT:
                    return "an " + name().toLowerCase(Locale.ROOT);
                case NULL:
                    return "null";
                default:
                    return "a " + name().toLowerCase(Locale.ROOT);
            }
        }
    }

    /** Whether the value is one of the kinds. */
    public static boolean is(JsonElement e, Kind... kinds) {
        for (Kind k : kinds) if (k.matches(e)) return true;
        return false;
    }

    /** "a string or null", "an integer", ... */
    public static String expected(Kind... kinds) {
        StringBuilder b = new StringBuilder();
        for (int i = 0; i < kinds.length; i++) {
            if (i > 0) b.append(i == kinds.length - 1 ? " or " : ", ");
            b.append(kinds[i].article());
        }
        return b.toString();
    }

    /** {@code a string "maybe"}, {@code a number}, ... for error messages. */
    public static String describe(JsonElement e) {
        if (e.isJsonNull()) return "null";
        if (e.isJsonArray()) return "an array";
        if (e.isJsonObject()) return "an object";
        if (e.getAsJsonPrimitive().isBoolean()) return "a boolean";
        if (e.getAsJsonPrimitive().isNumber()) return "a number";
        String s = e.getAsString();
        return "a string \"" + (s.length() > 20 ? s.substring(0, 20) + "..." : s) + "\"";
    }

    /**
     * Where the first lone surrogate is, as a sentence naming the path ({@code
     * $.tools[0].function.name}), or null when every string and key is Unicode text.
     */
    public static String loneSurrogate(JsonElement e, String path) {
        if (e.isJsonObject()) {
            for (Map.Entry<String, JsonElement> m : e.getAsJsonObject().entrySet()) {
                int at = loneAt(m.getKey());
                if (at >= 0) return sentence(m.getKey(), at, "a key in " + path);
                String inner = loneSurrogate(m.getValue(), path + "." + m.getKey());
                if (inner != null) return inner;
            }
        } else if (e.isJsonArray()) {
            for (int i = 0; i < e.getAsJsonArray().size(); i++) {
                String inner = loneSurrogate(e.getAsJsonArray().get(i), path + "[" + i + "]");
                if (inner != null) return inner;
            }
        } else if (Kind.STRING.matches(e)) {
            String s = e.getAsString();
            int at = loneAt(s);
            if (at >= 0) return sentence(s, at, path);
        }
        return null;
    }

    private static String sentence(String s, int at, String where) {
        return String.format(
                "lone surrogate \\u%04x at character %d of %s (a string must be Unicode text; escape a pair, not half of one)",
                (int) s.charAt(at), at, where);
    }

    /** The index of the first unpaired surrogate, or -1. */
    public static int loneAt(String s) {
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            if (Character.isHighSurrogate(c)
                    && i + 1 < s.length()
                    && Character.isLowSurrogate(s.charAt(i + 1))) i++;
            else if (Character.isSurrogate(c)) return i;
        }
        return -1;
    }

    /**
     * A JSON parser's message without the parser's advice to its own users (class names, links).
     */
    public static String plain(String message) {
        if (message == null) return "malformed JSON";
        int see = message.indexOf("\nSee http");
        if (see >= 0) message = message.substring(0, see);
        return message.replaceAll(
                        "Use JsonReader\\.setStrictness\\([^)]*\\) to accept malformed JSON",
                        "malformed JSON")
                .trim();
    }
}
