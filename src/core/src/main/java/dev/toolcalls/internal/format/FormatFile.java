package dev.toolcalls.internal.format;

import dev.toolcalls.internal.json.Json;

import java.util.AbstractMap;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

/**
 * The JSON format file, {@code grammars/<format>/<format>.json}, read strictly: every key known,
 * every value of its type (no reflection, so it reads the same in a native image). Also the shape
 * of the role files of shared grammars, {@code grammars/imports/<Grammar>.json}, which hold only
 * {@code roles} and {@code streamable}.
 *
 * @param lexer the lexer grammar's name, e.g. {@code MyModelLexer}
 * @param include role files of imported grammars whose roles and streamable tokens this format
 *     takes over
 * @param ids template of generated ids, e.g. {@code call_{random:24}} (= {@code openai}, the
 *     default); see {@link IdTemplate}
 * @param idPattern regex a model-written id must match to be kept (default: any non-empty id is
 *     kept)
 * @param content content policy: {@code verbatim} or {@code segments}
 * @param callEnd how calls end: {@code marker} (a call.end token) or {@code implicit} (next call,
 *     text, or end of output)
 * @param nameFromId regex whose group 1 is the function name inside a model-written id (e.g. {@code
 *     functions.NAME:0})
 * @param untypedValues raw argument values the schema says nothing about: {@code string} (default)
 *     or {@code json}
 * @param valueNewlines {@code trim}: one newline right after a value's open tag and one right
 *     before its close tag are not part of it
 * @param thinkingMode the lexer mode that is "inside reasoning", for templates that open the think
 *     block in the prompt
 * @param thinkingDefault whether thinking is on when the request does not say (default false)
 * @param roles token name to role
 * @param streamable tokens that may be cut at the end of the data received so far and emitted at
 *     once
 * @param lenientMode the lexer mode to start in (instead of the default mode) when parsing is
 *     lenient: the default mode's rules plus the wrappers and slips the format tolerates then
 * @param specialTokens marker spellings that are special tokens of the model's vocabulary: when the
 *     caller says which chunks were special tokens, these spellings in ordinary text are text
 * @param registries the parser names peer servers register this convention under, by server ({@link
 *     #REGISTRIES}); documentation data, listed in docs/formats.md (whose generator checks that
 *     each is a name or alias of the bundled format)
 * @param roleAt where each entry of {@code roles} is written: its token name to {@code
 *     source:line:column}
 */
public record FormatFile(
        String name,
        List<String> aliases,
        String description,
        String lexer,
        List<String> include,
        String ids,
        String idPattern,
        String content,
        String callEnd,
        String nameFromId,
        String untypedValues,
        String valueNewlines,
        String thinkingMode,
        boolean thinkingDefault,
        Map<String, String> roles,
        List<String> streamable,
        List<String> specialTokens,
        String lenientMode,
        Map<String, List<String>> registries,
        Map<String, String> roleAt) {

    /** The most aliases one format file may give its format. */
    public static final int MAX_ALIASES = 1024;

    /**
     * The largest format file or role file, in bytes (a text given as a string is measured in
     * chars, which never outnumber its UTF-8 bytes).
     */
    public static final int MAX_SIZE = 1 << 20;

    private static final Set<String> KEYS =
            Set.of(
                    "name",
                    "aliases",
                    "description",
                    "lexer",
                    "include",
                    "ids",
                    "idPattern",
                    "content",
                    "callEnd",
                    "nameFromId",
                    "untypedValues",
                    "valueNewlines",
                    "thinkingMode",
                    "thinkingDefault",
                    "roles",
                    "streamable",
                    "specialTokens",
                    "lenientMode",
                    "registries");

    /**
     * The servers whose parser names {@code "registries"} may list, in the order docs/formats.md
     * shows them.
     */
    public static final List<String> REGISTRIES =
            List.of("vllm", "sglang", "llama.cpp", "ollama", "lmdeploy");

    /**
     * Reads a format file or role file.
     *
     * @param source where the text came from, for messages
     * @throws IllegalArgumentException naming the source, the key and what is wrong
     */
    public static FormatFile parse(String json, String source) {
        return parse(json, source, true);
    }

    /**
     * Reads a bundled format file or role file (compiled into the library from {@code grammars/}),
     * as {@link #parse} does but without its strict check of the JSON text: the test suite checks
     * that every bundled file is strict JSON ({@code JsonTreeTest}), so the check would find
     * nothing, and it is most of the reading of a format file in a fresh JVM.
     */
    public static FormatFile parseBundled(String json, String source) {
        return parse(json, source, false);
    }

    private static FormatFile parse(String json, String source, boolean check) {
        if (json.length() > MAX_SIZE) throw tooLarge(source);
        Map<String, Object> o;
        try {
            Object e = check ? JsonTree.parse(json) : JsonTree.parseValid(json);
            if (!(e instanceof Map))
                throw new IllegalArgumentException(source + ": a format file is a JSON object");
            o = object(e);
        } catch (Json.NotJson e) {
            throw new IllegalArgumentException(source + ": not valid JSON: " + e.getMessage());
        }
        for (String key : o.keySet())
            if (!KEYS.contains(key))
                throw new IllegalArgumentException(
                        source
                                + ": unknown key \""
                                + key
                                + "\" (known: "
                                + String.join(", ", new TreeSet<>(KEYS))
                                + ")");
        Reader r = new Reader(o, source);
        Object aliases = o.get("aliases");
        if (aliases instanceof List && ((List<?>) aliases).size() > MAX_ALIASES)
            throw new IllegalArgumentException(
                    source
                            + ": \"aliases\" lists "
                            + ((List<?>) aliases).size()
                            + " names, more than the "
                            + MAX_ALIASES
                            + " a format file may give its format");
        return new FormatFile(
                r.string("name", null),
                r.strings("aliases"),
                r.string("description", ""),
                r.string("lexer", null),
                r.strings("include"),
                r.string("ids", "openai"),
                r.string("idPattern", null),
                r.string("content", "verbatim"),
                r.string("callEnd", "marker"),
                r.string("nameFromId", null),
                r.string("untypedValues", "string"),
                r.string("valueNewlines", "keep"),
                r.string("thinkingMode", null),
                r.bool("thinkingDefault"),
                r.map("roles"),
                r.strings("streamable"),
                r.strings("specialTokens"),
                r.string("lenientMode", null),
                r.registries(),
                new KeysAt(json, "roles", source));
    }

    /** The message for a format file or role file larger than {@link #MAX_SIZE}. */
    public static IllegalArgumentException tooLarge(String source) {
        return new IllegalArgumentException(
                source
                        + ": larger than "
                        + (MAX_SIZE >> 20)
                        + " MiB, the most a format file may hold");
    }

    /**
     * {@link #keysAt} of a text, found on first use: only messages about a format ask where its
     * roles are written, and a second pass over the text is a sizeable part of a format's first
     * load in a fresh JVM.
     */
    private static final class KeysAt extends AbstractMap<String, String> {
        private final String json;
        private final String member;
        private final String source;
        private volatile Map<String, String> found;

        KeysAt(String json, String member, String source) {
            this.json = json;
            this.member = member;
            this.source = source;
        }

        @Override
        public Set<Entry<String, String>> entrySet() {
            Map<String, String> m = found;
            if (m == null) found = m = keysAt(json, member, source);
            return m.entrySet();
        }

        @Override
        public String get(Object key) {
            entrySet();
            return found.get(key);
        }

        @Override
        public boolean containsKey(Object key) {
            entrySet();
            return found.containsKey(key);
        }
    }

    /**
     * Where the keys of the top-level member {@code member} of a valid JSON object are written:
     * each key to {@code source:line:column} of its opening quote (before a note in parentheses
     * that ends {@code source}, as in {@code "… (bundled)"}). One pass over the text.
     */
    static Map<String, String> keysAt(String json, String member, String source) {
        int note = source.endsWith(")") ? source.lastIndexOf(" (") : -1;
        String file = note < 0 ? source : source.substring(0, note);
        String suffix = note < 0 ? "" : source.substring(note);
        Map<String, String> out = new LinkedHashMap<>();
        int depth = 0;
        int line = 1;
        int lineStart = 0;
        int inside = -1;
        boolean next = false; // the member's name was just read: its value opens next
        for (int i = 0; i < json.length(); i++) {
            char c = json.charAt(i);
            if (c == '\n') {
                line++;
                lineStart = i + 1;
            } else if (c == '{' || c == '[') {
                depth++;
                if (next && c == '{') inside = depth;
                next = false;
            } else if (c == '}' || c == ']') {
                if (depth == inside) inside = -1;
                depth--;
            } else if (c == '"') {
                int end = i + 1;
                while (json.charAt(end) != '"') end += json.charAt(end) == '\\' ? 2 : 1;
                int after = end + 1;
                while (after < json.length() && Character.isWhitespace(json.charAt(after))) after++;
                boolean key = after < json.length() && json.charAt(after) == ':';
                if (key && depth == inside)
                    out.put(
                            Json.decodeString(json.substring(i, end + 1)),
                            file + ":" + line + ":" + (i - lineStart + 1) + suffix);
                else if (key && depth == 1)
                    next = Json.decodeString(json.substring(i, end + 1)).equals(member);
                else next = false;
                i = end;
            }
        }
        return Collections.unmodifiableMap(out);
    }

    /** A JSON object of {@link JsonTree}'s. */
    @SuppressWarnings("unchecked")
    private static Map<String, Object> object(Object e) {
        return (Map<String, Object>) e;
    }

    /** The members of a format file's object ({@link JsonTree}'s values), typed as asked. */
    private record Reader(Map<String, Object> o, String source) {
        String string(String key, String otherwise) {
            Object e = o.get(key);
            if (e == null) return otherwise;
            if (!(e instanceof String)) throw wrong(key, "a string");
            return (String) e;
        }

        boolean bool(String key) {
            Object e = o.get(key);
            if (e == null) return false;
            if (!(e instanceof Boolean)) throw wrong(key, "true or false");
            return (Boolean) e;
        }

        List<String> strings(String key) {
            Object e = o.get(key);
            if (e == null) return List.of();
            if (!(e instanceof List)) throw wrong(key, "an array of strings");
            List<String> out = new ArrayList<>();
            for (Object item : (List<?>) e) {
                if (!(item instanceof String)) throw wrong(key, "an array of strings");
                out.add((String) item);
            }
            return Collections.unmodifiableList(out);
        }

        Map<String, String> map(String key) {
            Object e = o.get(key);
            if (e == null) return Map.of();
            if (!(e instanceof Map)) throw wrong(key, "an object of token name to role");
            Map<String, String> out = new LinkedHashMap<>();
            for (Map.Entry<String, Object> m : object(e).entrySet()) {
                if (!(m.getValue() instanceof String))
                    throw new IllegalArgumentException(
                            source + ": role of " + m.getKey() + " must be a string");
                out.put(m.getKey(), (String) m.getValue());
            }
            return Collections.unmodifiableMap(out);
        }

        /**
         * {@code {"vllm": ["NAME", ...], "sglang": [...], ...}}: each server one of {@link
         * #REGISTRIES}, each name non-empty, once.
         */
        Map<String, List<String>> registries() {
            Object e = o.get("registries");
            if (e == null) return Map.of();
            if (!(e instanceof Map))
                throw wrong(
                        "registries",
                        "an object of server to parser names, e.g. {\"vllm\": [\"NAME\"]}");
            Map<String, List<String>> out = new LinkedHashMap<>();
            for (Map.Entry<String, Object> m : object(e).entrySet()) {
                String server = m.getKey();
                String at = source + ": \"registries\": ";
                if (!REGISTRIES.contains(server))
                    throw new IllegalArgumentException(
                            at
                                    + "unknown server \""
                                    + server
                                    + "\" (known: "
                                    + String.join(", ", REGISTRIES)
                                    + ")");
                Object v = m.getValue();
                if (!(v instanceof List) || ((List<?>) v).isEmpty())
                    throw new IllegalArgumentException(
                            at
                                    + server
                                    + " must be a non-empty array of parser names (leave the server out when it has none)");
                List<String> names = new ArrayList<>();
                Set<String> seen = new HashSet<>();
                for (Object item : (List<?>) v) {
                    if (!(item instanceof String) || ((String) item).isEmpty())
                        throw new IllegalArgumentException(
                                at + server + " must be a non-empty array of parser names");
                    String n = (String) item;
                    if (!seen.add(n))
                        throw new IllegalArgumentException(
                                at + server + " lists \"" + n + "\" twice");
                    names.add(n);
                }
                out.put(server, Collections.unmodifiableList(names));
            }
            return Collections.unmodifiableMap(out);
        }

        IllegalArgumentException wrong(String key, String what) {
            return new IllegalArgumentException(source + ": \"" + key + "\" must be " + what);
        }
    }
}
