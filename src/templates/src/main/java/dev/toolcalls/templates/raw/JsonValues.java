package dev.toolcalls.templates.raw;

import com.google.gson.JsonArray;
import com.google.gson.JsonElement;
import com.google.gson.JsonParseException;
import com.google.gson.JsonParser;
import com.google.gson.JsonPrimitive;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * JSON text to plain Java values (maps, lists, strings, numbers, booleans, null), as the chat
 * template expects them: integers stay integers ({@code 3}, not {@code 3.0}) and key order is kept.
 */
public final class JsonValues {
    private JsonValues() {}

    /**
     * The value of a JSON text.
     *
     * @throws IllegalArgumentException when the text is not JSON
     */
    public static Object parse(String json) {
        try {
            return toJava(JsonParser.parseString(json));
        } catch (JsonParseException e) {
            throw new IllegalArgumentException("not valid JSON: " + e.getMessage(), e);
        }
    }

    /**
     * A JSON object as a map; anything else (a string a model wrote, bad JSON) as {@code orElse}.
     */
    public static Object parseObjectOr(String json, Object orElse) {
        if (json == null || json.isBlank()) return new LinkedHashMap<String, Object>();
        try {
            JsonElement e = JsonParser.parseString(json);
            return e.isJsonObject() ? toJava(e) : orElse;
        } catch (JsonParseException e) {
            return orElse;
        }
    }

    private static Object toJava(JsonElement e) {
        if (e == null || e.isJsonNull()) return null;
        if (e.isJsonObject()) {
            Map<String, Object> map = new LinkedHashMap<>();
            e.getAsJsonObject()
                    .entrySet()
                    .forEach(en -> map.put(en.getKey(), toJava(en.getValue())));
            return map;
        }
        if (e.isJsonArray()) {
            JsonArray array = e.getAsJsonArray();
            List<Object> list = new ArrayList<>(array.size());
            array.forEach(x -> list.add(toJava(x)));
            return list;
        }
        JsonPrimitive p = e.getAsJsonPrimitive();
        if (p.isBoolean()) return p.getAsBoolean();
        if (p.isString()) return p.getAsString();
        String n = p.getAsString();
        if (n.indexOf('.') < 0 && n.indexOf('e') < 0 && n.indexOf('E') < 0) {
            BigInteger big = new BigInteger(n);
            return big.bitLength() < 64 ? (Object) big.longValue() : big;
        }
        double d = p.getAsDouble();
        return Double.isInfinite(d) ? new BigDecimal(n) : d;
    }
}
