package dev.toolcalls.internal.lex;

import java.util.Arrays;
import java.util.stream.Collectors;

/**
 * What a token means to the runtime. A format file gives every token type of its lexer one role;
 * the vocabulary is small and closed so that a grammar, not Java, carries a format's knowledge.
 */
public enum Role {
    /** Text outside calls: the message's {@code content}. */
    CONTENT("content"),
    /** Reasoning text: the message's {@code reasoning_content}. */
    REASONING("reasoning"),
    /** Read and dropped: markers, whitespace, keys the format does not use. */
    SKIP("skip"),
    /** Opens a call. A call still open when the next one begins is ended first. */
    CALL_BEGIN("call.begin"),
    /** Closes the open call; its arguments are validated here. */
    CALL_END("call.end"),
    /** The function name, as written. */
    NAME("name"),
    /** The function name as a JSON string literal, quotes included. */
    NAME_JSON("name.json"),
    /** A call id the model wrote, as written. */
    ID("id"),
    /** A call id the model wrote, as a JSON string literal. */
    ID_JSON("id.json"),
    /** Raw JSON text of the arguments, appended verbatim. */
    ARGS_JSON("args.json"),
    /** A piece of the inside of a JSON string whose decoded value is the arguments JSON. */
    ARGS_JSON_STRING("args.json-string"),
    /** An argument name, as written (key/value formats: the runtime writes the arguments JSON). */
    ARG_KEY("arg.key"),
    /** A piece of a raw argument value, typed by the tool schema. */
    ARG_VALUE("arg.value"),
    /** Ends the current argument value (optional: the next key or the call's end also do). */
    ARG_END("arg.end"),
    /** The text marks the current parameter as a string, whatever the schema says. */
    ARG_AS_STRING("arg.as-string"),
    /** The text marks the current parameter as JSON (kept as a string when it is not). */
    ARG_AS_JSON("arg.as-json"),
    /**
     * Literal values (call syntax): opens an array/tuple/list ({@code [}, {@code (}) or an object
     * ({@code {}}).
     */
    LIT_OPEN("lit.open"),
    /** Closes the innermost array or object. */
    LIT_CLOSE("lit.close"),
    /** Separates items; a trailing one before a close is dropped. */
    LIT_COMMA("lit.comma"),
    /** Separates an object key from its value. */
    LIT_COLON("lit.colon"),
    /** A bare (unquoted) object key. */
    LIT_KEY("lit.key"),
    /** Opens or closes a string. */
    LIT_QUOTE("lit.quote"),
    /** Characters inside a string, as written. */
    LIT_CHARS("lit.chars"),
    /** A backslash escape inside a string (Python and JSON escapes). */
    LIT_ESCAPE("lit.escape"),
    /** A number, or true/false/null in Python or JSON spelling. */
    LIT_ATOM("lit.atom"),
    /** The role of the latest token whose role was not {@code inherit} (shared value modes). */
    INHERIT("inherit");

    public final String wire;

    Role(String wire) {
        this.wire = wire;
    }

    public static Role of(String wire) {
        for (Role r : values()) if (r.wire.equals(wire)) return r;
        return null;
    }

    /**
     * The role whose name is nearest to {@code wire} by edit distance, when it is near enough to be
     * a misspelling of it (at most 2 edits, and fewer than half its length); null otherwise.
     */
    public static String nearest(String wire) {
        String best = null;
        int bestDistance = Integer.MAX_VALUE;
        for (Role r : values()) {
            int limit = Math.min(2, (r.wire.length() - 1) / 2);
            int d = distance(wire, r.wire, limit);
            if (d <= limit && d < bestDistance) {
                best = r.wire;
                bestDistance = d;
            }
        }
        return best;
    }

    /**
     * Levenshtein distance of a and b, or limit + 1 once it is larger than limit (linear in their
     * lengths).
     */
    private static int distance(String a, String b, int limit) {
        if (Math.abs(a.length() - b.length()) > limit) return limit + 1;
        int[] prev = new int[b.length() + 1];
        int[] cur = new int[b.length() + 1];
        for (int j = 0; j <= b.length(); j++) prev[j] = j;
        for (int i = 1; i <= a.length(); i++) {
            cur[0] = i;
            int rowMin = cur[0];
            for (int j = 1; j <= b.length(); j++) {
                int cost = a.charAt(i - 1) == b.charAt(j - 1) ? 0 : 1;
                cur[j] = Math.min(Math.min(cur[j - 1] + 1, prev[j] + 1), prev[j - 1] + cost);
                rowMin = Math.min(rowMin, cur[j]);
            }
            if (rowMin > limit) return limit + 1;
            int[] t = prev;
            prev = cur;
            cur = t;
        }
        return prev[b.length()];
    }

    public static String vocabulary() {
        return Arrays.stream(values()).map(r -> r.wire).collect(Collectors.joining(", "));
    }
}
