package dev.toolcalls;

import com.google.gson.JsonArray;
import com.google.gson.JsonElement;
import com.google.gson.JsonObject;

import dev.toolcalls.internal.json.Json;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * The request's {@code tools}: an OpenAI tools array, {@code [{"type": "function", "function":
 * {"name": ..., "parameters": {json schema}}}]}. Formats that write arguments themselves type
 * values by these schemas. Immutable.
 *
 * <pre>{@code
 * Tools tools = Tools.parse(request.toolsJson());            // JSON text, from any JSON library
 * Tools same = Tools.of(List.of(Map.of("type", "function", "function", Map.of("name", "f"))));
 * }</pre>
 */
public final class Tools {
    private static final Tools NONE = new Tools(Map.of());

    private final Map<String, JsonObject> functions;

    private Tools(Map<String, JsonObject> functions) {
        this.functions = functions;
    }

    public static Tools none() {
        return NONE;
    }

    /**
     * Reads an OpenAI tools array from JSON text; {@code null} or {@code "null"} is no tools.
     *
     * @throws IllegalArgumentException saying what is wrong
     */
    public static Tools parse(String json) {
        if (json == null) return NONE;
        try {
            return of(Json.parseStrict(json));
        } catch (Json.NotJson e) {
            throw new IllegalArgumentException("tools are not valid JSON: " + e.getMessage());
        }
    }

    /**
     * The same from plain Java values: a list of maps, with nested maps, lists, strings, numbers,
     * booleans and nulls, as any JSON library can produce them.
     *
     * @throws IllegalArgumentException saying what is wrong
     */
    public static Tools of(List<?> tools) {
        return tools == null ? NONE : of(Json.fromJava(tools));
    }

    private static Tools of(JsonElement tools) {
        if (tools == null || tools.isJsonNull()) return NONE;
        if (!tools.isJsonArray())
            throw new IllegalArgumentException(
                    "tools must be a JSON array of {\"type\": \"function\", \"function\": {...}}");
        Map<String, JsonObject> byName = new LinkedHashMap<>();
        JsonArray array = tools.getAsJsonArray();
        for (int i = 0; i < array.size(); i++) {
            JsonElement t = array.get(i);
            JsonObject f =
                    t.isJsonObject()
                                    && t.getAsJsonObject().has("function")
                                    && t.getAsJsonObject().get("function").isJsonObject()
                            ? t.getAsJsonObject().getAsJsonObject("function")
                            : null;
            if (f == null || !f.has("name") || !f.get("name").isJsonPrimitive())
                throw new IllegalArgumentException("tools[" + i + "] has no function.name");
            byName.put(f.get("name").getAsString(), f.deepCopy());
        }
        return new Tools(Collections.unmodifiableMap(byName));
    }

    /** The function names, in request order. */
    public Set<String> names() {
        return functions.keySet();
    }

    /**
     * The function definition ({@code name}, {@code description}, {@code parameters}) of a tool, as
     * JSON text.
     */
    public Optional<String> functionJson(String name) {
        JsonObject f = functions.get(name);
        return f == null ? Optional.empty() : Optional.of(Json.write(f));
    }

    public int size() {
        return functions.size();
    }

    /** The definition itself, for schema typing; never handed out (it is mutable). */
    JsonObject definition(String name) {
        return functions.get(name);
    }

    /** The definitions by name, for a parser's schema lookups; never handed out (mutable). */
    Map<String, JsonObject> definitions() {
        return functions;
    }
}
