package dev.toolcalls.internal.assemble;

import com.google.gson.JsonElement;
import com.google.gson.JsonObject;

import dev.toolcalls.internal.json.Json;
import dev.toolcalls.internal.json.JsonScan;

import java.util.EnumSet;
import java.util.Locale;
import java.util.Set;

/**
 * Typing of raw argument values (XML-style parameters) by the request's JSON schema — a public
 * contract, documented in the README:
 *
 * <ul>
 *   <li>the types of a parameter are the union of its {@code type} (a string or a list), the types
 *       of its {@code enum} values, and those of its {@code anyOf}/{@code oneOf}/{@code allOf}
 *       branches; aliases such as {@code int}, {@code float}, {@code bool}, {@code dict}, {@code
 *       list} are understood;
 *   <li>a value is tried against them in the order null, integer, number, boolean, object, array,
 *       string, and written as the first that fits: {@code null} only from the literal {@code
 *       null}; integers as integers; numbers as written when that is JSON (so {@code 140.0} stays
 *       {@code 140.0}); booleans from {@code true}/{@code false} (any case) or {@code 1}/{@code 0};
 *       objects and arrays when the value is strict JSON of that kind;
 *   <li>a value that fits none of its types is a string: never dropped, never nulled.
 * </ul>
 */
public final class SchemaTypes {
    /**
     * Ranges up to this long are read one by one before the searches ({@link JsonScan#special}).
     */
    private static final int SHORT = 16;

    public enum Type {
        NULL,
        INTEGER,
        NUMBER,
        BOOLEAN,
        OBJECT,
        ARRAY,
        STRING
    }

    private SchemaTypes() {}

    /*
     * The shapes of numbers below are checked by hand, not with regular expressions: the first
     * value typed in a fresh JVM would otherwise compile a pattern (milliseconds, and the lambda
     * bootstrap with its class spinner).
     */

    /** {@code [-+]?[0-9]+}. */
    static boolean integer(String v) {
        int i = v.startsWith("-") || v.startsWith("+") ? 1 : 0;
        return v.length() > i && digits(v, i) == v.length();
    }

    /** {@code [-+]?([0-9]+\.?[0-9]*|\.[0-9]+)([eE][-+]?[0-9]+)?}. */
    static boolean number(String v) {
        int i = v.startsWith("-") || v.startsWith("+") ? 1 : 0;
        int end = digits(v, i);
        if (end > i) {
            i = end < v.length() && v.charAt(end) == '.' ? digits(v, end + 1) : end;
        } else {
            if (i >= v.length() || v.charAt(i) != '.') return false;
            end = digits(v, i + 1);
            if (end == i + 1) return false;
            i = end;
        }
        return exponent(v, i) == v.length();
    }

    /** {@code -?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][-+]?[0-9]+)?}: a JSON number. */
    static boolean jsonNumber(String v) {
        int i = v.startsWith("-") ? 1 : 0;
        if (i >= v.length()) return false;
        if (v.charAt(i) == '0') i++;
        else {
            int end = digits(v, i);
            if (end == i) return false;
            i = end;
        }
        if (i < v.length() && v.charAt(i) == '.') {
            int end = digits(v, i + 1);
            if (end == i + 1) return false;
            i = end;
        }
        return exponent(v, i) == v.length();
    }

    /** The end of the run of ASCII digits from {@code i}. */
    private static int digits(String v, int i) {
        while (i < v.length() && v.charAt(i) >= '0' && v.charAt(i) <= '9') i++;
        return i;
    }

    /**
     * The end of an exponent {@code [eE][-+]?[0-9]+} at {@code i} ({@code i} itself when none
     * starts there), or -1 when one starts there and is not whole.
     */
    private static int exponent(String v, int i) {
        if (i >= v.length() || (v.charAt(i) != 'e' && v.charAt(i) != 'E')) return i;
        int j = i + 1;
        if (j < v.length() && (v.charAt(j) == '-' || v.charAt(j) == '+')) j++;
        int end = digits(v, j);
        return end == j ? -1 : end;
    }

    /** The types a property schema allows; empty when it says nothing usable. */
    public static Set<Type> of(JsonElement schema) {
        Set<Type> out = EnumSet.noneOf(Type.class);
        collect(schema, out, 0);
        return out;
    }

    private static void collect(JsonElement schema, Set<Type> out, int depth) {
        if (schema == null || !schema.isJsonObject() || depth > 16) return;
        JsonObject s = schema.getAsJsonObject();
        JsonElement type = s.get("type");
        if (type != null && type.isJsonPrimitive()) addAlias(type.getAsString(), out);
        else if (type != null && type.isJsonArray())
            for (JsonElement t : type.getAsJsonArray())
                if (t.isJsonPrimitive()) addAlias(t.getAsString(), out);
        JsonElement values = s.get("enum");
        if (values != null && values.isJsonArray()) {
            for (JsonElement v : values.getAsJsonArray()) {
                if (v.isJsonNull()) out.add(Type.NULL);
                else if (v.isJsonPrimitive() && v.getAsJsonPrimitive().isBoolean())
                    out.add(Type.BOOLEAN);
                else if (v.isJsonPrimitive() && v.getAsJsonPrimitive().isNumber())
                    out.add(integer(v.getAsString()) ? Type.INTEGER : Type.NUMBER);
                else if (v.isJsonPrimitive()) out.add(Type.STRING);
                else if (v.isJsonArray()) out.add(Type.ARRAY);
                else out.add(Type.OBJECT);
            }
        }
        for (String key : new String[] {"anyOf", "oneOf", "allOf"}) {
            JsonElement branches = s.get(key);
            if (branches != null && branches.isJsonArray())
                for (JsonElement b : branches.getAsJsonArray()) collect(b, out, depth + 1);
        }
    }

    private static void addAlias(String name, Set<Type> out) {
        Type t = named(name);
        if (t != null) out.add(t);
    }

    /** The type a schema's type name stands for (its aliases too); null where it names none. */
    public static Type named(String name) {
        String t = name.strip().toLowerCase(Locale.ROOT);
        if (t.equals("null") || t.equals("none")) return Type.NULL;
        if (t.equals("string")
                || t.equals("str")
                || t.equals("text")
                || t.equals("varchar")
                || t.equals("char")
                || t.equals("enum")) return Type.STRING;
        if (t.equals("integer")
                || t.startsWith("int")
                || t.startsWith("uint")
                || t.equals("long")
                || t.equals("short")
                || t.equals("unsigned")) return Type.INTEGER;
        if (t.equals("number")
                || t.startsWith("num")
                || t.startsWith("float")
                || t.equals("double")
                || t.equals("decimal")) return Type.NUMBER;
        if (t.equals("boolean") || t.equals("bool") || t.equals("binary")) return Type.BOOLEAN;
        if (t.equals("object") || t.startsWith("dict") || t.equals("map")) return Type.OBJECT;
        if (t.equals("array")
                || t.equals("arr")
                || t.startsWith("list")
                || t.equals("sequence")
                || t.equals("tuple")) return Type.ARRAY;
        return null;
    }

    /**
     * JSON text for a raw value under these types (tried in priority order; string last and
     * always).
     */
    public static String convert(String raw, Set<Type> types) {
        String v = raw.strip();
        for (Type t : types) { // EnumSet iterates in declaration order: the priority order
            String json = as(t, v);
            if (json != null) return json;
        }
        return quote(raw);
    }

    /**
     * Untyped values in formats whose values default to JSON: strict JSON as written, else a
     * string.
     */
    public static String jsonOrString(String raw) {
        String v = jsonOrNull(raw);
        return v != null ? v : quote(raw);
    }

    /** Strict JSON as written (stripped), or null when {@code raw} is not. */
    public static String jsonOrNull(String raw) {
        String v = raw.strip();
        return Json.kind(v) != 0 ? v : null;
    }

    private static String as(Type t, String v) {
        switch (t) {
            case NULL:
                return v.equals("null") ? "null" : null;
            case INTEGER:
                return integer(v) ? canonicalInteger(v) : null;
            case NUMBER:
                if (jsonNumber(v)) return v;
                if (!number(v)) return null;
                return canonicalNumber(v);
            case BOOLEAN:
                {
                    String b = v.toLowerCase(Locale.ROOT);
                    if (b.equals("true") || b.equals("1")) return "true";
                    if (b.equals("false") || b.equals("0")) return "false";
                    return null;
                }
            case OBJECT:
                return strictJsonOf(v, '{');
            case ARRAY:
                return strictJsonOf(v, '[');
            default:
                return null; // STRING: handled by the caller as the last resort
        }
    }

    /** {@code [-+]?[0-9]+} as a JSON integer, in linear time: no sign '+', no leading zeros. */
    public static String canonicalInteger(String v) {
        boolean negative = v.startsWith("-");
        int from = v.startsWith("-") || v.startsWith("+") ? 1 : 0;
        while (from < v.length() - 1 && v.charAt(from) == '0') from++;
        String digits = v.substring(from);
        return negative && !digits.equals("0") ? "-" + digits : digits;
    }

    /**
     * A number in Python or loose spelling ({@code +1.}, {@code .5}, {@code 007.50e3}) as JSON, in
     * linear time: sign '+' and leading zeros dropped, a bare point completed with a zero.
     */
    public static String canonicalNumber(String v) {
        int e = Math.max(v.indexOf('e'), v.indexOf('E'));
        String mantissa = e < 0 ? v : v.substring(0, e);
        String exponent = e < 0 ? "" : v.substring(e);
        boolean negative = mantissa.startsWith("-");
        if (mantissa.startsWith("-") || mantissa.startsWith("+")) mantissa = mantissa.substring(1);
        int point = mantissa.indexOf('.');
        String whole = point < 0 ? mantissa : mantissa.substring(0, point);
        String fraction = point < 0 ? null : mantissa.substring(point + 1);
        whole = canonicalInteger(whole.isEmpty() ? "0" : whole);
        if (fraction != null && fraction.isEmpty()) fraction = "0";
        if (!exponent.isEmpty()) {
            String sign =
                    exponent.length() > 1
                                    && (exponent.charAt(1) == '-' || exponent.charAt(1) == '+')
                            ? exponent.substring(1, 2)
                            : "";
            exponent =
                    "e"
                            + (sign.equals("-") ? "-" : "")
                            + canonicalInteger(exponent.substring(1 + sign.length()));
        }
        return (negative ? "-" : "") + whole + (fraction == null ? "" : "." + fraction) + exponent;
    }

    private static String strictJsonOf(String v, char kind) {
        return Json.kind(v) == kind ? v : null;
    }

    /**
     * The JSON string literal of {@code s}, exactly as Gson writes it without HTML escaping: quote,
     * backslash and the short escapes ({@code b t n f r}) escaped, other control characters and
     * U+2028, U+2029 as six-character escapes in lower-case hexadecimal. Written by hand: Gson's
     * writer would cost a format's first raw value the loading of Gson (about a hundred classes).
     */
    public static String quote(String s) {
        return quote("", s, "");
    }

    /** {@link #quote(String)} of {@code s} between {@code before} and {@code after}, made once. */
    public static String quote(String before, String s, String after) {
        return quoted(before, true, s, after);
    }

    /**
     * The inside of {@link #quote(String)} of {@code s}, without the quotes: {@code s} itself when
     * nothing needs escaping.
     */
    public static String quoteInside(String s) {
        return quoted("", false, s, "");
    }

    private static String quoted(String before, boolean quotes, String s, String after) {
        int first = toQuote(s);
        if (first == s.length() && !quotes && before.isEmpty() && after.isEmpty()) return s;
        if (first == s.length())
            return new StringBuilder(before.length() + s.length() + after.length() + 2)
                    .append(before)
                    .append(quotes ? "\"" : "")
                    .append(s)
                    .append(quotes ? "\"" : "")
                    .append(after)
                    .toString();
        StringBuilder b = null;
        int from = 0;
        for (int i = first; i < s.length(); i++) {
            char c = s.charAt(i);
            String e;
            if (c == '"') e = "\\\"";
            else if (c == '\\') e = "\\\\";
            else if (c >= 0x20 && c != '\u2028' && c != '\u2029') continue;
            else if (c == '\b') e = "\\b";
            else if (c == '\t') e = "\\t";
            else if (c == '\n') e = "\\n";
            else if (c == '\f') e = "\\f";
            else if (c == '\r') e = "\\r";
            else e = String.format("\\u%04x", (int) c);
            if (b == null)
                b =
                        new StringBuilder(before.length() + s.length() + after.length() + 16)
                                .append(before)
                                .append(quotes ? "\"" : "");
            b.append(s, from, i).append(e);
            from = i + 1;
        }
        return b.append(s, from, s.length()).append(quotes ? "\"" : "").append(after).toString();
    }

    /**
     * {@code before}, [from, to) of {@code source} and {@code after} as one string, copied once
     * (the range's own substring, or {@code source} itself, when there is nothing around it).
     */
    public static String joined(String before, String source, int from, int to, String after) {
        if (before.isEmpty() && after.isEmpty())
            return from == 0 && to == source.length() ? source : source.substring(from, to);
        return new StringBuilder(before.length() + (to - from) + after.length())
                .append(before)
                .append(source, from, to)
                .append(after)
                .toString();
    }

    /**
     * The first index of a character that {@link #quote(String)} escapes, or the length: {@code "},
     * {@code \} and control characters by {@link JsonScan#special}, U+2028 and U+2029 by {@link
     * String#indexOf} (at once in a Latin-1 string).
     */
    private static int toQuote(String s) {
        int n = s.length();
        int stop = JsonScan.special(s, 0, n);
        if (stop == 0) return 0;
        int a = s.indexOf('\u2028');
        if (a >= 0 && a < stop) stop = a;
        a = s.indexOf('\u2029');
        return a >= 0 && a < stop ? a : stop;
    }

    /**
     * Whether [from, to) of {@code s} is the inside of a JSON string as it stands: no character
     * that {@link #quote(String)} escapes.
     */
    public static boolean plainString(String s, int from, int to) {
        for (int i = from; i < to; i++) {
            char c = s.charAt(i);
            if (c < 0x20 || c == '"' || c == '\\' || c == '\u2028' || c == '\u2029') return false;
        }
        return true;
    }

    /**
     * The inside of a JSON string for {@code s}, without the quotes: {@code s} itself when nothing
     * needs escaping.
     */
    public static String escape(String s) {
        return escape(s, 0, s.length());
    }

    /**
     * The inside of a JSON string for {@code s} in [from, to), without the quotes: that text as it
     * is when nothing needs escaping ({@code s} itself when it is all of it); the stretches between
     * the characters that do are found by search (each of {@code "} and {@code \} by {@link
     * String#indexOf}, remembered while it lies ahead; control characters by {@link
     * JsonScan#control}) and copied whole.
     */
    public static String escape(String s, int from, int to) {
        return escape(s, from, to, null);
    }

    /**
     * {@link #escape(String, int, int)}, the searches for {@code "} and {@code \} starting where
     * those of earlier calls on the same string left off when their finds still lie ahead: values
     * cut in ascending order from one long text are searched once over, however many there are
     * (each search alone runs to the string's end when the character is absent).
     *
     * @param seen the finds of earlier calls, updated; null for none
     */
    public static String escape(String s, int from, int to, Seen seen) {
        String escaped = escapeOrNull(s, from, to, seen);
        if (escaped != null) return escaped;
        return from == 0 && to == s.length() ? s : s.substring(from, to);
    }

    /**
     * {@link #escape(String, int, int, Seen)}, but null where [from, to) needs no escape (no string
     * is made of the text as it is).
     */
    private static String escapeOrNull(String s, int from, int to, Seen seen) {
        StringBuilder b = escapeInto(null, s, from, to, seen);
        return b == null ? null : b.toString();
    }

    /**
     * Appends [from, to) of {@code s} to {@code into}, escaped as {@link #escape(String, int, int,
     * Seen)} escapes it, with no string made of it.
     */
    public static void escapeTo(StringBuilder into, String s, int from, int to, Seen seen) {
        escapeInto(into, s, from, to, seen);
    }

    /**
     * The escape of [from, to) of {@code s} appended to {@code into}; where {@code into} is null,
     * to a builder made at the first character that needs an escape (null where none does).
     */
    private static StringBuilder escapeInto(
            StringBuilder into, String s, int from, int to, Seen seen) {
        // a few characters (a small chunk's piece of a value) are read one by one
        if (to - from <= SHORT && JsonScan.special(s, from, to) == to)
            return into == null ? null : into.append(s, from, to);
        int quote = -1;
        int slash = -1;
        if (seen != null && seen.text == s && seen.from <= from) {
            quote = seen.quote;
            slash = seen.slash;
        }
        StringBuilder b = into;
        int i = from;
        while (true) {
            if (quote < i) quote = next(s, '"', i);
            if (slash < i) slash = next(s, '\\', i);
            int stop = JsonScan.control(s, i, Math.min(Math.min(quote, slash), to));
            if (stop == to) break;
            if (b == null) b = new StringBuilder(to - from + 16);
            b.append(s, i, stop);
            char c = s.charAt(stop);
            switch (c) {
                case '"':
                    b.append("\\\"");
                    break;
                case '\\':
                    b.append("\\\\");
                    break;
                case '\n':
                    b.append("\\n");
                    break;
                case '\r':
                    b.append("\\r");
                    break;
                case '\t':
                    b.append("\\t");
                    break;
                case '\b':
                    b.append("\\b");
                    break;
                case '\f':
                    b.append("\\f");
                    break;
                default:
                    b.append(String.format("\\u%04x", (int) c));
            }
            i = stop + 1;
        }
        if (seen != null) {
            seen.text = s;
            seen.from = i; // no quote or backslash in [i, quote) or [i, slash)
            seen.quote = quote;
            seen.slash = slash;
        }
        if (b == null) return null;
        return b.append(s, i, to);
    }

    /**
     * The next {@code "} and {@code \} of a string at or after a position, as found by the last
     * {@link #escape(String, int, int, Seen)} on it.
     */
    public static final class Seen {
        private String text;
        private int from;
        private int quote;
        private int slash;

        /** Forgets the string. */
        public void clear() {
            text = null;
        }
    }

    /** The first index of {@code c} at or after {@code from}, or the string's length. */
    private static int next(String s, char c, int from) {
        int at = s.indexOf(c, from);
        return at < 0 ? s.length() : at;
    }
}
