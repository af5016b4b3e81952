package dev.toolcalls.cli;

import com.google.gson.Gson;
import com.google.gson.GsonBuilder;
import com.google.gson.JsonObject;

import dev.toolcalls.ToolCallParseException;
import dev.toolcalls.server.JsonChecks;

/** {@code {"error": {"type", "message", "offset", "format"}}} as the command line prints it. */
final class ErrorJson {
    static final Gson GSON = new GsonBuilder().disableHtmlEscaping().serializeNulls().create();

    private ErrorJson() {}

    static JsonObject of(ToolCallParseException e) {
        return of(e.kind().type(), e.getMessage(), e.offset(), e.format());
    }

    static JsonObject of(String type, String message, Integer offset, String format) {
        JsonObject error = new JsonObject();
        error.addProperty("type", type);
        error.addProperty("message", message == null ? null : escapeLoneSurrogates(message));
        error.addProperty("offset", offset);
        error.addProperty("format", format);
        return error;
    }

    /**
     * The text with each lone surrogate written as its escape ({@code \ud800}): a message may quote
     * input that holds one, and printed as UTF-8 it would come out as {@code ?}.
     */
    static String escapeLoneSurrogates(String s) {
        if (JsonChecks.loneAt(s) < 0) return s;
        StringBuilder b = new StringBuilder(s.length() + 16);
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            if (Character.isHighSurrogate(c)
                    && i + 1 < s.length()
                    && Character.isLowSurrogate(s.charAt(i + 1))) b.append(c).append(s.charAt(++i));
            else if (Character.isSurrogate(c)) b.append(String.format("\\u%04x", (int) c));
            else b.append(c);
        }
        return b.toString();
    }

    static String wrap(JsonObject error) {
        JsonObject o = new JsonObject();
        o.add("error", error);
        return GSON.toJson(o);
    }
}
