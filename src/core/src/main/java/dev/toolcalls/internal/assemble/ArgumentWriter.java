package dev.toolcalls.internal.assemble;

import com.google.gson.JsonElement;
import com.google.gson.JsonObject;

import dev.toolcalls.internal.json.Json;
import dev.toolcalls.internal.lex.Role;

import java.math.BigInteger;
import java.util.IdentityHashMap;
import java.util.Set;
import java.util.function.Function;

/**
 * Writes the arguments JSON of formats whose arguments are not JSON, from key/value events, as a
 * prefix-stable stream: {@code {"k": v, "k2": v2}} with {@code ", "} and {@code ": "} separators,
 * the same bytes whatever the chunking.
 *
 * <p>Two kinds of values:
 *
 * <ul>
 *   <li><b>raw values</b> ({@code arg.value}, XML-style parameters): typed by the tool schema (see
 *       {@link SchemaTypes}). A value that can only be a string streams JSON-escaped as it arrives;
 *       any other is held until it ends, then converted and written.
 *   <li><b>literals</b> ({@code lit.*}, call syntax such as Python keyword arguments or a model's
 *       own custom syntax): already typed by how they are written, transliterated to JSON token by
 *       token as they arrive ({@code True} to {@code true}, {@code (1,)} to {@code [1]}, a trailing
 *       comma dropped, Python escapes decoded).
 * </ul>
 *
 * {@code "key": } goes out as soon as the key is complete. A value ends at {@code arg.end}, at the
 * next key, or at the end of the call. A key that is empty (or blank), and a value that has no key
 * (the grammar read an empty key as no key at all), would lose the value: both are malformed
 * arguments, never dropped.
 */
public final class ArgumentWriter {
    public enum Untyped {
        STRING,
        JSON
    }

    private enum Mode {
        NONE,
        STREAM_STRING,
        HOLD,
        LITERAL
    }

    /** Hexadecimal, octal and binary literals longer than this stay as written, in a string. */
    static final int MAX_RADIX_DIGITS = 4096;

    /** Where the arguments JSON goes, piece by piece. */
    @FunctionalInterface
    public interface Output {
        /** A piece of the arguments JSON. */
        void json(String piece);

        /**
         * A piece that is the inside of a JSON string, escaped here (no {@code "} unescaped, no
         * control character, whole escapes): valid as written wherever a string's text may stand.
         */
        default void escaped(String piece) {
            json(piece);
        }

        /**
         * A piece that is {@code before} (escaped already) and [from, to) of {@code source} escaped
         * here as the inside of a JSON string ({@link SchemaTypes#escape(String, int, int,
         * SchemaTypes.Seen)}, with {@code seen}): the range is read where it lies.
         */
        default void escaped(
                String before, String source, int from, int to, SchemaTypes.Seen seen) {
            String text = SchemaTypes.escape(source, from, to, seen);
            escaped(before.isEmpty() ? text : before + text);
        }

        /**
         * A piece of the arguments JSON that is {@code before}, the text of [from, to) in {@code
         * source} and {@code after}, joined: the range is read where it lies, no string is made of
         * it here.
         *
         * @param escaped the range is the inside of a JSON string, escaped (as for {@link
         *     #escaped(String)})
         */
        default void json(
                String before, String source, int from, int to, String after, boolean escaped) {
            String piece = SchemaTypes.joined(before, source, from, to, after);
            if (escaped) escaped(piece);
            else json(piece);
        }
    }

    private final Output out;

    /** The error for malformed arguments, from its detail (the caller adds where it is). */
    private final Function<String, ? extends RuntimeException> malformed;

    /** The request's function definition by name, or null. */
    private final Function<String, JsonObject> functions;

    private final Untyped untyped;
    private final boolean trimNewlines;

    private boolean used; // anything written in this call
    private JsonObject properties; // schema properties of the current function, if known

    /**
     * The types read from each property schema met (by identity; made on first use, and emptied
     * past {@link #MAX_TYPE_CACHE} schemas, for a writer reused with many tool sets). Never changed
     * once read: the sets are only read.
     */
    private IdentityHashMap<JsonElement, Set<SchemaTypes.Type>> typeCache;

    private static final int MAX_TYPE_CACHE = 256;

    /** A key is open: its value, or the next key, is to come. */
    private boolean keyed;

    /**
     * The open key: [keyFrom, keyTo) of keySource (read where it lies in the output, or the key
     * itself), made a string only where a schema lookup needs it.
     */
    private String keySource;

    private int keyFrom;
    private int keyTo;
    private Mode mode = Mode.NONE;
    private Set<SchemaTypes.Type> types;
    private Boolean forcedString; // per-parameter override from the text: true string, false JSON

    /** Where the escaping of raw values found the next quote and backslash of their text. */
    private final SchemaTypes.Seen seen = new SchemaTypes.Seen();

    /**
     * A held value's text: its one piece as a range of its source ({@link #heldSource}, no copy),
     * or its pieces gathered in {@link #held} (made on first use) once a second one comes.
     */
    private StringBuilder held;

    private String heldSource;
    private int heldFrom;
    private int heldTo;

    private boolean valueStarted;
    private boolean pendingNewline;
    // literal state
    private int depth;
    private boolean inString;
    private boolean pendingComma;
    private boolean
            literalStarted; // the current key's literal value has begun (a second one has no key)

    /**
     * @param malformed the error to throw for arguments that would lose a value, from its detail
     */
    public ArgumentWriter(
            Output out,
            Function<String, JsonObject> functions,
            Untyped untyped,
            boolean trimNewlines,
            Function<String, ? extends RuntimeException> malformed) {
        this.out = out;
        this.malformed = malformed;
        this.functions = functions;
        this.untyped = untyped;
        this.trimNewlines = trimNewlines;
    }

    /** A new call: its function name, when already known, selects the schema. */
    public void begin() {
        used = false;
        properties = null;
        keyed = false;
        mode = Mode.NONE;
    }

    /** As new, for another response (a large held value's buffer is dropped). */
    public void reset() {
        begin();
        if (held != null && held.capacity() > 4096) held = null;
        if (held != null) held.setLength(0);
        heldSource = null;
        seen.clear();
        keySource = null;
        types = null;
        forcedString = null;
        valueStarted = false;
        pendingNewline = false;
        depth = 0;
        inString = false;
        pendingComma = false;
        literalStarted = false;
    }

    public boolean used() {
        return used;
    }

    /**
     * No value is half-written: the last raw value was ended by its marker, or a literal value is
     * back at its top level outside any string.
     */
    public boolean atValueBoundary() {
        if (!keyed) return true;
        return mode == Mode.LITERAL && depth == 0 && !inString;
    }

    /**
     * A key that is the text of [from, to) in {@code source} (the output itself, not a copy of the
     * token), blanks around it aside: as {@link #key(String, String)}, with {@code "key": } written
     * from where the key lies.
     */
    public void key(String source, int from, int to, String functionName) {
        while (from < to && Character.isWhitespace(source.charAt(from))) from++;
        while (to > from && Character.isWhitespace(source.charAt(to - 1))) to--;
        if (from == to || !SchemaTypes.plainString(source, from, to)) {
            key(source.substring(from, to), functionName);
            return;
        }
        endValue();
        if (!used && functionName != null) properties = propertiesOf(functionName);
        keySource = source;
        keyFrom = from;
        keyTo = to;
        out.json(used ? ", \"" : "{\"", source, from, to, "\": ", false);
        keyed();
    }

    public void key(String rawKey, String functionName) {
        endValue();
        if (rawKey.isBlank())
            throw malformed.apply(
                    "an argument"
                            + (functionName == null ? "" : " of '" + functionName + "'")
                            + " has an empty key, which would lose its value");
        if (!used && functionName != null) properties = propertiesOf(functionName);
        keySource = rawKey.strip();
        keyFrom = 0;
        keyTo = keySource.length();
        out.json(SchemaTypes.quote(used ? ", " : "{", keySource, ": "));
        keyed();
    }

    /** The state of a value just after its key. */
    private void keyed() {
        keyed = true;
        used = true;
        mode = Mode.NONE;
        forcedString = null;
        types = null;
        valueStarted = false;
        pendingNewline = false;
        if (held != null) held.setLength(0);
        heldSource = null;
        depth = 0;
        inString = false;
        pendingComma = false;
        literalStarted = false;
    }

    /** {@code arg.as-string} / {@code arg.as-json}: the text says how to read this parameter. */
    public void force(boolean string) {
        forcedString = string;
    }

    /** A piece of a raw value: {@link #value(String, int, int)} of all of it. */
    public void value(String piece) {
        value(piece, 0, piece.length());
    }

    /**
     * A piece of a raw value, the text of [from, to) in {@code source} (the output itself, not a
     * copy of the piece). A long string value is escaped where it lies and copied once, with the
     * newlines trimmed at its edges left out of the copy; the searches of values cut in order from
     * one text go over it once.
     */
    public void value(String source, int from, int to) {
        if (!keyed) throw keyless();
        if (mode == Mode.NONE) startRaw();
        if (trimNewlines && !valueStarted && from < to && source.charAt(from) == '\n') from++;
        valueStarted = true;
        if (mode == Mode.HOLD) {
            hold(source, from, to);
            return;
        }
        // streaming a string: with trimming, a trailing newline waits, it may be the template's
        // last one
        if (from == to) return;
        if (!trimNewlines) {
            out.escaped("", source, from, to, seen);
            return;
        }
        boolean newlineBefore = pendingNewline;
        pendingNewline = source.charAt(to - 1) == '\n';
        if (pendingNewline) to--;
        if (from < to) out.escaped(newlineBefore ? "\\n" : "", source, from, to, seen);
        else if (newlineBefore) out.escaped("\\n");
    }

    /** Holds [from, to) of {@code source} after what the value already holds. */
    private void hold(String source, int from, int to) {
        if (heldSource == null && (held == null || held.length() == 0)) {
            heldSource = source;
            heldFrom = from;
            heldTo = to;
            return;
        }
        if (held == null) held = new StringBuilder();
        if (heldSource != null) {
            held.append(heldSource, heldFrom, heldTo);
            heldSource = null;
        }
        held.append(source, from, to);
    }

    /**
     * A held value written as a JSON string; a long one's inside as text the runtime escaped, which
     * the strict check of the arguments passes over.
     */
    private void string(String raw) {
        if (raw.length() < CallAssembler.LONG_PIECE) {
            out.json(SchemaTypes.quote(raw));
            return;
        }
        out.json("\"");
        out.escaped(SchemaTypes.quoteInside(raw));
        out.json("\"");
    }

    /** The held value's text. */
    private String heldText() {
        if (heldSource != null) {
            String raw =
                    heldFrom == 0 && heldTo == heldSource.length()
                            ? heldSource
                            : heldSource.substring(heldFrom, heldTo);
            heldSource = null;
            return raw;
        }
        return held == null ? "" : held.toString();
    }

    private void startRaw() {
        boolean string;
        if (forcedString != null) string = forcedString;
        else {
            // without the tools' properties no key has a type: its name is not cut
            types = properties == null ? Set.of() : typesOf(keyName());
            string =
                    types.isEmpty()
                            ? untyped == Untyped.STRING
                            : types.size() == 1 && types.contains(SchemaTypes.Type.STRING);
        }
        if (string) {
            mode = Mode.STREAM_STRING;
            out.json("\"");
        } else {
            mode = Mode.HOLD;
        }
    }

    /** The current value is complete. */
    public void endValue() {
        if (!keyed) return;
        switch (mode) {
            case NONE: // a key with no value text: an empty raw value
                startRaw();
                endValue();
                return;
            case STREAM_STRING:
                out.json("\"");
                break;
            case HOLD:
                {
                    String raw = heldText();
                    if (trimNewlines && raw.endsWith("\n"))
                        raw = raw.substring(0, raw.length() - 1);
                    boolean untypedValue = types == null || types.isEmpty();
                    if (forcedString != null && !forcedString
                            || untypedValue && untyped == Untyped.JSON) {
                        String json = SchemaTypes.jsonOrNull(raw);
                        if (json != null) out.json(json);
                        else string(raw);
                    } else if (untypedValue) string(raw);
                    else out.json(SchemaTypes.convert(raw, types));
                    break;
                }
            case LITERAL: // complete unless the call was cut short, which the strict check then
                // reports
                break;
            default:
                break;
        }
        keyed = false;
        mode = Mode.NONE;
    }

    /** Ends the arguments object; false when nothing was written (the call has no arguments). */
    public boolean finish() {
        endValue();
        if (used) out.json("}");
        return used;
    }

    // ---- literals --------------------------------------------------------------------------

    public void literal(Role role, String text) {
        if (!literalBegins(role)) return;
        switch (role) {
            case LIT_OPEN:
                separated(isOnly(text, '{') ? "{" : "[");
                depth++;
                break;
            case LIT_CLOSE:
                pendingComma = false;
                out.json(isOnly(text, '}') ? "}" : "]");
                depth--;
                break;
            case LIT_COMMA:
                pendingComma = true;
                break;
            case LIT_COLON:
                out.json(": ");
                break;
            case LIT_KEY:
                separated(SchemaTypes.quote(text.strip()));
                break;
            case LIT_QUOTE:
                if (inString) out.json("\"");
                else separated("\"");
                inString = !inString;
                break;
            case LIT_CHARS:
                out.escaped(SchemaTypes.escape(text));
                break;
            case LIT_ESCAPE:
                out.escaped(SchemaTypes.escape(Json.decodeEscape(text)));
                break;
            case LIT_ATOM:
                separated(atom(text.strip()));
                break;
            default:
                break;
        }
    }

    /**
     * Whether a literal token of {@code role} is written: the open key's value is a literal (false:
     * it is a raw value, and the token is not written). Throws where the token would begin a second
     * value of the key.
     */
    private boolean literalBegins(Role role) {
        if (!keyed) throw keyless();
        if (mode == Mode.NONE) mode = Mode.LITERAL;
        if (mode != Mode.LITERAL) return false;
        if (depth == 0
                && !inString
                && (role == Role.LIT_OPEN || role == Role.LIT_ATOM || role == Role.LIT_QUOTE)) {
            if (literalStarted) throw keyless(); // the value of a key the grammar read as none
            literalStarted = true;
        }
        return true;
    }

    /**
     * A literal's string characters, atom or bare key ({@link Role#LIT_CHARS}, {@link
     * Role#LIT_ATOM}, {@link Role#LIT_KEY}), the text of [from, to) in {@code source} (the output
     * itself, not a copy of the token): as {@link #literal} of its text, read where it lies.
     */
    public void literal(Role role, String source, int from, int to) {
        switch (role) {
            case LIT_CHARS -> literalChars(source, from, to);
            case LIT_ATOM -> literalAtom(source, from, to);
            case LIT_KEY -> literalKey(source, from, to);
            default -> literal(role, source.substring(from, to));
        }
    }

    /**
     * A literal's atom: with the JSON words and the numbers already written as the conversion
     * writes them read where they lie.
     */
    private void literalAtom(String source, int from, int to) {
        if (!literalBegins(Role.LIT_ATOM)) return;
        while (from < to && Character.isWhitespace(source.charAt(from))) from++;
        while (to > from && Character.isWhitespace(source.charAt(to - 1))) to--;
        String word = word(source, from, to);
        if (word != null) separated(word);
        else if (jsonNumber(source, from, to)) {
            out.json(pendingComma ? ", " : "", source, from, to, "", false);
            pendingComma = false;
        } else separated(atom(source.substring(from, to)));
    }

    /** A literal's bare key: one with nothing to escape written from where it lies. */
    private void literalKey(String source, int from, int to) {
        if (!literalBegins(Role.LIT_KEY)) return;
        while (from < to && Character.isWhitespace(source.charAt(from))) from++;
        while (to > from && Character.isWhitespace(source.charAt(to - 1))) to--;
        if (SchemaTypes.plainString(source, from, to)) {
            out.json(pendingComma ? ", \"" : "\"", source, from, to, "\"", false);
            pendingComma = false;
        } else separated(SchemaTypes.quote(source.substring(from, to)));
    }

    /** A literal's string characters, escaped into the arguments from where they lie. */
    private void literalChars(String source, int from, int to) {
        if (!keyed) throw keyless();
        if (mode == Mode.NONE) mode = Mode.LITERAL;
        if (mode != Mode.LITERAL) return;
        out.escaped("", source, from, to, seen);
    }

    /**
     * {@code true}, {@code false} or {@code null} for [from, to) of {@code s} spelling one of them
     * in Python or JSON, else null.
     */
    private static String word(String s, int from, int to) {
        int n = to - from;
        if (n == 4) {
            if (s.startsWith("True", from) || s.startsWith("true", from)) return "true";
            if (s.startsWith("None", from) || s.startsWith("null", from)) return "null";
        } else if (n == 5) {
            if (s.startsWith("False", from) || s.startsWith("false", from)) return "false";
        }
        return null;
    }

    /**
     * Whether [from, to) of {@code s} is a number that {@link #atom} writes as it is: {@code
     * -?(0|[1-9][0-9]*)(\.[0-9]+)?(e-?(0|[1-9][0-9]*))?}, except {@code -0} (written 0).
     */
    private static boolean jsonNumber(String s, int from, int to) {
        int i = from < to && s.charAt(from) == '-' ? from + 1 : from;
        int whole = i;
        i = unsigned(s, i, to);
        if (i == whole) return false;
        boolean integer = true;
        if (i < to && s.charAt(i) == '.') {
            int fraction = ++i;
            while (i < to && isDigit(s.charAt(i))) i++;
            if (i == fraction) return false;
            integer = false;
        }
        if (i < to && s.charAt(i) == 'e') {
            i++;
            if (i < to && s.charAt(i) == '-') i++;
            int exponent = i;
            i = unsigned(s, i, to);
            if (i == exponent) return false;
            integer = false;
        }
        return i == to && !(integer && whole > from && s.charAt(whole) == '0');
    }

    /** The end of {@code 0|[1-9][0-9]*} at {@code i} in {@code s} (i itself when there is none). */
    private static int unsigned(String s, int i, int to) {
        if (i < to && s.charAt(i) == '0') return i + 1;
        while (i < to && isDigit(s.charAt(i))) i++;
        return i;
    }

    private static boolean isDigit(char c) {
        return c >= '0' && c <= '9';
    }

    /** Whether {@code text} is {@code c} alone, blanks around it aside (without stripping it). */
    private static boolean isOnly(String text, char c) {
        int a = 0;
        int z = text.length();
        while (a < z && Character.isWhitespace(text.charAt(a))) a++;
        while (z > a && Character.isWhitespace(text.charAt(z - 1))) z--;
        return z == a + 1 && text.charAt(a) == c;
    }

    private RuntimeException keyless() {
        return malformed.apply(
                "an argument value has no key (is its key empty?), which would lose it");
    }

    /** {@code piece}, after the comma that a value before it left pending, in one piece. */
    private void separated(String piece) {
        if (pendingComma) {
            out.json(", ", piece, 0, piece.length(), "", false);
            pendingComma = false;
        } else {
            out.json(piece);
        }
    }

    /**
     * Python and JSON literals as JSON: True/False/None, true/false/null, numbers in Python
     * spelling; linear in the literal's length.
     */
    public static String atom(String t) {
        switch (t) {
            case "True":
            case "true":
                return "true";
            case "False":
            case "false":
                return "false";
            case "None":
            case "null":
                return "null";
            default:
                break;
        }
        String n = t.indexOf('_') < 0 ? t : t.replace("_", "");
        boolean negative = n.startsWith("-");
        int from = negative || n.startsWith("+") ? 1 : 0;
        int radix = radix(n, from);
        if (radix != 10) {
            // another radix to decimal costs more than linear time: only for numbers of sane length
            if (n.length() - from <= MAX_RADIX_DIGITS) {
                try {
                    if (n.length() - from <= 17) { // at most 15 digits: a long holds the value
                        long value = Long.parseLong(n, from + 2, n.length(), radix);
                        return Long.toString(negative ? -value : value);
                    }
                    BigInteger value = new BigInteger(n.substring(from + 2), radix);
                    return (negative ? value.negate() : value).toString();
                } catch (NumberFormatException e) {
                    // not a number: falls through to a string
                }
            }
        } else {
            int digits = digits(n, from);
            if (digits == n.length() && digits > from) {
                // an integer: as written when it is already JSON (no '+', no leading zero)
                return from == 0 && (n.charAt(0) != '0' || n.length() == 1)
                                || negative && n.charAt(1) != '0'
                        ? n
                        : SchemaTypes.canonicalInteger(n);
            }
            if (isPythonFloat(n, from, digits)) return SchemaTypes.canonicalNumber(n);
        }
        return SchemaTypes.quote(t); // an unknown bare word is kept, as a string
    }

    /** 16, 8 or 2 when {@code s} has the prefix 0x, 0o or 0b (any case) at {@code i}, else 10. */
    private static int radix(String s, int i) {
        if (s.length() < i + 2 || s.charAt(i) != '0') return 10;
        switch (s.charAt(i + 1)) {
            case 'x':
            case 'X':
                return 16;
            case 'o':
            case 'O':
                return 8;
            case 'b':
            case 'B':
                return 2;
            default:
                return 10;
        }
    }

    /** The end of the run of ASCII digits from {@code i}. */
    private static int digits(String s, int i) {
        while (i < s.length() && s.charAt(i) >= '0' && s.charAt(i) <= '9') i++;
        return i;
    }

    /**
     * Whether {@code s} from {@code from} is {@code ([0-9]+\.?[0-9]*|\.[0-9]+)([eE][-+]?[0-9]+)?},
     * its first digits ending at {@code digits}.
     */
    private static boolean isPythonFloat(String s, int from, int digits) {
        int n = s.length();
        int i = digits;
        if (i < n && s.charAt(i) == '.') {
            int fraction = digits(s, i + 1);
            if (digits == from && fraction == i + 1) return false; // "." alone
            i = fraction;
        } else if (digits == from) {
            return false;
        }
        if (i < n && (s.charAt(i) == 'e' || s.charAt(i) == 'E')) {
            i++;
            if (i < n && (s.charAt(i) == '-' || s.charAt(i) == '+')) i++;
            int exponent = digits(s, i);
            if (exponent == i) return false;
            i = exponent;
        }
        return i == n;
    }

    // ---- schema ----------------------------------------------------------------------------

    private JsonObject propertiesOf(String function) {
        JsonObject f = functions.apply(function);
        JsonElement parameters = f == null ? null : f.get("parameters");
        JsonElement properties =
                parameters != null && parameters.isJsonObject()
                        ? parameters.getAsJsonObject().get("properties")
                        : null;
        return properties != null && properties.isJsonObject()
                ? properties.getAsJsonObject()
                : null;
    }

    private String keyName() {
        return keySource.substring(keyFrom, keyTo);
    }

    /**
     * The types the tools give key {@code k}; none (an immutable empty set) when they say none.
     * Each property's types are read from its schema once, on first use: every call of a tool gives
     * its keys the same schema objects.
     */
    private Set<SchemaTypes.Type> typesOf(String k) {
        JsonElement schema = properties == null ? null : properties.get(k);
        if (schema == null) return Set.of();
        if (typeCache == null) typeCache = new IdentityHashMap<>();
        Set<SchemaTypes.Type> known = typeCache.get(schema);
        if (known == null) {
            if (typeCache.size() >= MAX_TYPE_CACHE) typeCache.clear();
            known = SchemaTypes.of(schema);
            typeCache.put(schema, known);
        }
        return known;
    }
}
