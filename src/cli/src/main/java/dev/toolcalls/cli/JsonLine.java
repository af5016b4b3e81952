package dev.toolcalls.cli;

import com.google.gson.JsonElement;
import com.google.gson.JsonObject;

import dev.toolcalls.Tools;
import dev.toolcalls.internal.json.Json;
import dev.toolcalls.server.JsonChecks;
import dev.toolcalls.server.JsonChecks.Kind;

import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;

/**
 * One {@code --jsonl} input line, checked strictly: {@code {"input": string, "tools": array|null?,
 * "thinking": boolean|null?}}, RFC 8259 JSON, no other fields, and no lone surrogate in any string
 * (a {@code \ud800} escape would otherwise reach the output as {@code ?}).
 */
record JsonLine(String input, Tools tools, Boolean thinking, List<Chunk> chunks, int[] ids) {
    private static final Set<String> FIELDS = Set.of("input", "tools", "thinking", "chunks", "ids");

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
                        "unknown field \""
                                + key
                                + "\" (fields: input or ids, tools, thinking, chunks)");
        JsonElement input = o.get("input");
        int[] ids = ids(o.get("ids"));
        if (ids != null && input != null)
            throw new Bad("a line has \"input\" or \"ids\", not both");
        if (ids != null && o.has("chunks"))
            throw new Bad("\"chunks\" cut an \"input\"; token ids are cut by --stream");
        if (ids != null) {
            Tools tools = tools(o.get("tools"), defaultTools);
            return new JsonLine(null, tools, thinking(o.get("thinking")), null, ids);
        }
        if (input == null) throw new Bad("\"input\" is missing");
        if (!JsonChecks.is(input, Kind.STRING))
            throw new Bad("\"input\" must be a string, not " + JsonChecks.describe(input));
        return new JsonLine(
                input.getAsString(),
                tools(o.get("tools"), defaultTools),
                thinking(o.get("thinking")),
                chunks(o.get("chunks"), input.getAsString()),
                null);
    }

    /** {@code "ids": [0, 1, ...]} (non-negative integers), or null without one. */
    private static int[] ids(JsonElement ids) throws Bad {
        if (ids == null || ids.isJsonNull()) return null;
        if (!ids.isJsonArray())
            throw new Bad("\"ids\" must be an array of token ids, not " + JsonChecks.describe(ids));
        int[] out = new int[ids.getAsJsonArray().size()];
        int i = 0;
        for (JsonElement e : ids.getAsJsonArray()) {
            long id = -1;
            if (JsonChecks.is(e, Kind.NUMBER)) {
                try {
                    id = new BigDecimal(e.getAsString()).longValueExact();
                } catch (ArithmeticException | NumberFormatException ex) {
                    id = -1;
                }
            }
            if (id < 0 || id > Integer.MAX_VALUE)
                throw new Bad(
                        "\"ids\"["
                                + i
                                + "] must be a token id (an integer from 0), not "
                                + JsonChecks.describe(e));
            out[i++] = (int) id;
        }
        return out;
    }

    private static Tools tools(JsonElement t, Tools defaultTools) throws Bad {
        Tools tools = defaultTools;
        if (t != null && !t.isJsonNull()) {
            if (!t.isJsonArray())
                throw new Bad("\"tools\" must be an array, not " + JsonChecks.describe(t));
            try {
                tools = Tools.parse(String.valueOf(t));
            } catch (IllegalArgumentException ex) {
                throw new Bad("\"tools\": " + ex.getMessage());
            }
        }
        return tools;
    }

    private static Boolean thinking(JsonElement think) throws Bad {
        Boolean thinking = null;
        if (think != null && !think.isJsonNull()) {
            if (!JsonChecks.is(think, Kind.BOOLEAN))
                throw new Bad(
                        "\"thinking\" must be true, false or null, not "
                                + JsonChecks.describe(think));
            thinking = think.getAsBoolean();
        }
        return thinking;
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
