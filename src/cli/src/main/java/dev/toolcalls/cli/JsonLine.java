package dev.toolcalls.cli;

import com.google.gson.JsonElement;
import com.google.gson.JsonObject;

import dev.toolcalls.Tools;
import dev.toolcalls.internal.json.Json;
import dev.toolcalls.server.JsonChecks;
import dev.toolcalls.server.JsonChecks.Kind;

import java.util.ArrayList;
import java.util.List;
import java.util.Set;

/**
 * One {@code --jsonl} input line, checked strictly: {@code {"input": string, "tools": array|null?,
 * "thinking": boolean|null?}}, RFC 8259 JSON, no other fields, and no lone surrogate in any string
 * (a {@code \ud800} escape would otherwise reach the output as {@code ?}).
 */
record JsonLine(String input, Tools tools, Boolean thinking, List<Chunk> chunks) {
    private static final Set<String> FIELDS = Set.of("input", "tools", "thinking", "chunks");

    /** One piece of a line's {@code chunks}: its text and whether it is one special token. */
    record Chunk(String text, boolean special) {}

    /** Why a line is not a valid input object. */
    static final class Bad extends Exception {
        Bad(String message) {
            super(message);
        }
    }

    static JsonLine read(String line, Tools defaultTools) throws Bad {
        JsonElement e;
        try {
            e = Json.parseStrict(line);
        } catch (Json.NotJson ex) {
            throw new Bad("not JSON: " + JsonChecks.plain(ex.getMessage()));
        }
        if (!e.isJsonObject())
            throw new Bad(
                    "expected {\"input\": \"...\", \"tools\": [...]?, \"thinking\": true|false?}");
        JsonObject o = e.getAsJsonObject();
        String lone = JsonChecks.loneSurrogate(o, "$");
        if (lone != null) throw new Bad(lone);
        for (String key : o.keySet())
            if (!FIELDS.contains(key))
                throw new Bad(
                        "unknown field \"" + key + "\" (fields: input, tools, thinking, chunks)");
        JsonElement input = o.get("input");
        if (input == null) throw new Bad("\"input\" is missing");
        if (!JsonChecks.is(input, Kind.STRING))
            throw new Bad("\"input\" must be a string, not " + JsonChecks.describe(input));
        Tools tools = defaultTools;
        JsonElement t = o.get("tools");
        if (t != null && !t.isJsonNull()) {
            if (!t.isJsonArray())
                throw new Bad("\"tools\" must be an array, not " + JsonChecks.describe(t));
            try {
                tools = Tools.parse(String.valueOf(t));
            } catch (IllegalArgumentException ex) {
                throw new Bad("\"tools\": " + ex.getMessage());
            }
        }
        JsonElement think = o.get("thinking");
        Boolean thinking = null;
        if (think != null && !think.isJsonNull()) {
            if (!JsonChecks.is(think, Kind.BOOLEAN))
                throw new Bad(
                        "\"thinking\" must be true, false or null, not "
                                + JsonChecks.describe(think));
            thinking = think.getAsBoolean();
        }
        return new JsonLine(
                input.getAsString(), tools, thinking, chunks(o.get("chunks"), input.getAsString()));
    }

    /**
     * {@code "chunks": ["text", {"text": "<tool_call>", "special": true}, ...]}, or null without
     * one; their concatenation must be the line's input.
     */
    private static List<Chunk> chunks(JsonElement chunks, String input) throws Bad {
        if (chunks == null || chunks.isJsonNull()) return null;
        if (!chunks.isJsonArray())
            throw new Bad(
                    "\"chunks\" must be an array of strings and {\"text\", \"special\"} objects, not "
                            + JsonChecks.describe(chunks));
        List<Chunk> out = new ArrayList<>();
        StringBuilder all = new StringBuilder();
        for (JsonElement c : chunks.getAsJsonArray()) {
            if (JsonChecks.is(c, Kind.STRING)) out.add(new Chunk(c.getAsString(), false));
            else if (c.isJsonObject()
                    && JsonChecks.is(c.getAsJsonObject().get("text"), Kind.STRING)) {
                JsonElement special = c.getAsJsonObject().get("special");
                if (special != null && !JsonChecks.is(special, Kind.BOOLEAN))
                    throw new Bad("a chunk's \"special\" must be true or false");
                out.add(
                        new Chunk(
                                c.getAsJsonObject().get("text").getAsString(),
                                special != null && special.getAsBoolean()));
            } else
                throw new Bad(
                        "each chunk is a string or {\"text\": \"...\", \"special\": true|false}");
            all.append(out.get(out.size() - 1).text());
        }
        if (!all.toString().equals(input)) throw new Bad("the chunks do not add up to \"input\"");
        return out;
    }
}
