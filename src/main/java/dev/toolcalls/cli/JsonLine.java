package dev.toolcalls.cli;

import java.util.Map;
import java.util.Set;

import com.google.gson.JsonElement;
import com.google.gson.JsonObject;

import dev.toolcalls.Tools;
import dev.toolcalls.internal.json.Json;
import dev.toolcalls.internal.json.WireJson;

/**
 * One {@code --jsonl} input line, checked strictly: {@code {"input": string, "tools": array|null?,
 * "thinking": boolean|null?}}, RFC 8259 JSON, no other fields, and no lone surrogate in any string
 * (a {@code \ud800} escape would otherwise reach the output as {@code ?}).
 */
record JsonLine(String input, Tools tools, Boolean thinking) {
    private static final Set<String> FIELDS = Set.of("input", "tools", "thinking");

    /** Why a line is not a valid input object. */
    static final class Bad extends Exception {
        Bad(String message) { super(message); }
    }

    static JsonLine read(String line, Tools defaultTools) throws Bad {
        JsonElement e;
        try {
            e = Json.parseStrict(line);
        } catch (Json.NotJson ex) {
            throw new Bad("not JSON: " + plain(ex.getMessage()));
        }
        if (!e.isJsonObject()) throw new Bad("expected {\"input\": \"...\", \"tools\": [...]?, \"thinking\": true|false?}");
        JsonObject o = e.getAsJsonObject();
        for (String key : o.keySet()) if (!FIELDS.contains(key)) throw new Bad("unknown field \"" + key + "\" (fields: input, tools, thinking)");
        String lone = loneSurrogate(o, "$");
        if (lone != null) throw new Bad(lone);
        JsonElement input = o.get("input");
        if (input == null) throw new Bad("\"input\" is missing");
        if (!isString(input)) throw new Bad("\"input\" must be a string, not " + kind(input));
        Tools tools = defaultTools;
        JsonElement t = o.get("tools");
        if (t != null && !t.isJsonNull()) {
            if (!t.isJsonArray()) throw new Bad("\"tools\" must be an array, not " + kind(t));
            try {
                tools = WireJson.tools(t);
            } catch (IllegalArgumentException ex) {
                throw new Bad("\"tools\": " + ex.getMessage());
            }
        }
        JsonElement think = o.get("thinking");
        Boolean thinking = null;
        if (think != null && !think.isJsonNull()) {
            if (!think.isJsonPrimitive() || !think.getAsJsonPrimitive().isBoolean())
                throw new Bad("\"thinking\" must be true, false or null, not " + kind(think));
            thinking = think.getAsBoolean();
        }
        return new JsonLine(input.getAsString(), tools, thinking);
    }

    /** A JSON error message without the JSON library's advice to itself (its class names and links). */
    static String plain(String message) {
        if (message == null) return "malformed JSON";
        int see = message.indexOf("\nSee http");
        if (see >= 0) message = message.substring(0, see);
        return message.replaceAll("Use JsonReader\\.setStrictness\\([^)]*\\) to accept malformed JSON", "malformed JSON").trim();
    }

    private static boolean isString(JsonElement e) { return e.isJsonPrimitive() && e.getAsJsonPrimitive().isString(); }

    /** {@code a string "maybe"}, {@code a number}, ... for error messages. */
    static String kind(JsonElement e) {
        if (e.isJsonNull()) return "null";
        if (e.isJsonArray()) return "an array";
        if (e.isJsonObject()) return "an object";
        if (e.getAsJsonPrimitive().isBoolean()) return "a boolean";
        if (e.getAsJsonPrimitive().isNumber()) return "a number";
        String s = e.getAsString();
        return "a string \"" + (s.length() > 20 ? s.substring(0, 20) + "..." : s) + "\"";
    }

    /** Where the first lone surrogate is (a string or a key, as a path), or null when there is none. */
    static String loneSurrogate(JsonElement e, String path) {
        if (e.isJsonObject()) {
            for (Map.Entry<String, JsonElement> m : e.getAsJsonObject().entrySet()) {
                int at = loneAt(m.getKey());
                if (at >= 0) return describe(m.getKey(), at, "a key in " + path);
                String inner = loneSurrogate(m.getValue(), path + "." + m.getKey());
                if (inner != null) return inner;
            }
        } else if (e.isJsonArray()) {
            for (int i = 0; i < e.getAsJsonArray().size(); i++) {
                String inner = loneSurrogate(e.getAsJsonArray().get(i), path + "[" + i + "]");
                if (inner != null) return inner;
            }
        } else if (isString(e)) {
            String s = e.getAsString();
            int at = loneAt(s);
            if (at >= 0) return describe(s, at, path);
        }
        return null;
    }

    private static String describe(String s, int at, String where) {
        return String.format("lone surrogate \\u%04x at character %d of %s (a string must be Unicode text; escape a pair, not half of one)",
                (int) s.charAt(at), at, where);
    }

    /** The index of the first unpaired surrogate, or -1. */
    static int loneAt(String s) {
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            if (Character.isHighSurrogate(c) && i + 1 < s.length() && Character.isLowSurrogate(s.charAt(i + 1))) i++;
            else if (Character.isSurrogate(c)) return i;
        }
        return -1;
    }
}
