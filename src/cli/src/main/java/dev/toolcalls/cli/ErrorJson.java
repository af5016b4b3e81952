package dev.toolcalls.cli;

import com.google.gson.Gson;
import com.google.gson.GsonBuilder;
import com.google.gson.JsonObject;

import dev.toolcalls.ToolCallParseException;

/** {@code {"error": {"type", "message", "offset", "format"}}} as the command line prints it. */
final class ErrorJson {
    static final Gson GSON = new GsonBuilder().disableHtmlEscaping().serializeNulls().create();

    private ErrorJson() { }

    static JsonObject of(ToolCallParseException e) {
        return of(e.kind().type(), e.getMessage(), e.offset(), e.format());
    }

    static JsonObject of(String type, String message, Integer offset, String format) {
        JsonObject error = new JsonObject();
        error.addProperty("type", type);
        error.addProperty("message", message);
        error.addProperty("offset", offset);
        error.addProperty("format", format);
        return error;
    }

    static String wrap(JsonObject error) {
        JsonObject o = new JsonObject();
        o.add("error", error);
        return GSON.toJson(o);
    }
}
