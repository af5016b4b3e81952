package dev.toolcalls.internal.constraint;

import com.google.gson.JsonArray;
import com.google.gson.JsonElement;
import com.google.gson.JsonObject;

import java.util.Map;

/**
 * Closes the object schemas of a tool's parameters: an object schema (one of type {@code object},
 * or with {@code properties}) that does not say {@code additionalProperties} is given {@code
 * "additionalProperties": false}, as xgrammar's strict mode and strict function definitions read
 * it. Walks the keywords that hold schemas ({@code properties}, {@code patternProperties}, {@code
 * additionalProperties}, {@code items}, {@code prefixItems}, {@code anyOf}, {@code oneOf}, {@code
 * not}, {@code $defs}, {@code definitions}); the members of an {@code allOf} are left as they are
 * (each closed alone would refuse the keys the others add), and what lies below them is walked.
 */
public final class ClosedObjects {
    private ClosedObjects() {}

    /** Closes the schemas of {@code function}'s {@code parameters} in place (a deep copy). */
    public static void closeParameters(JsonObject function) {
        JsonElement p = function.get("parameters");
        if (p != null && p.isJsonObject()) close(p.getAsJsonObject(), true);
    }

    private static void close(JsonObject schema, boolean own) {
        if (own && isObject(schema) && !schema.has("additionalProperties"))
            schema.addProperty("additionalProperties", false);
        for (String map : new String[] {"properties", "patternProperties", "$defs", "definitions"})
            eachOf(schema.get(map));
        for (String one : new String[] {"additionalProperties", "items", "not"}) {
            JsonElement e = schema.get(one);
            if (e != null && e.isJsonObject()) close(e.getAsJsonObject(), true);
        }
        for (String list : new String[] {"items", "prefixItems", "anyOf", "oneOf"}) {
            JsonElement e = schema.get(list);
            if (e != null && e.isJsonArray()) closeAll(e.getAsJsonArray(), true);
        }
        JsonElement all = schema.get("allOf");
        if (all != null && all.isJsonArray()) closeAll(all.getAsJsonArray(), false);
    }

    private static void eachOf(JsonElement map) {
        if (map == null || !map.isJsonObject()) return;
        for (Map.Entry<String, JsonElement> e : map.getAsJsonObject().entrySet())
            if (e.getValue().isJsonObject()) close(e.getValue().getAsJsonObject(), true);
    }

    private static void closeAll(JsonArray schemas, boolean own) {
        for (JsonElement e : schemas) if (e.isJsonObject()) close(e.getAsJsonObject(), own);
    }

    private static boolean isObject(JsonObject schema) {
        if (schema.has("properties")) return true;
        JsonElement type = schema.get("type");
        if (type == null) return false;
        if (type.isJsonPrimitive()) return type.getAsString().equals("object");
        if (type.isJsonArray())
            for (JsonElement t : type.getAsJsonArray())
                if (t.isJsonPrimitive() && t.getAsString().equals("object")) return true;
        return false;
    }
}
