package dev.toolcalls.internal.assemble;

import com.google.gson.JsonObject;

import java.util.Map;
import java.util.function.Function;

/**
 * The argument writer's schema lookup: a tool's definition by its name, in the tools of the request
 * a parser is bound to (a class, not a lambda, so that a format's first parser links no lambda in a
 * cold JVM).
 */
public final class ToolDefinitions implements Function<String, JsonObject> {
    private Map<String, JsonObject> byName = Map.of();

    /** The definitions of the request the parser is bound to, by name (read, never changed). */
    public void use(Map<String, JsonObject> byName) {
        if (this.byName != byName) this.byName = byName; // no store, no write barrier, if same
    }

    @Override
    public JsonObject apply(String name) {
        return byName.get(name);
    }
}
