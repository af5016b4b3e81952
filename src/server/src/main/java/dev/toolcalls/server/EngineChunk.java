package dev.toolcalls.server;

import com.google.gson.JsonElement;
import com.google.gson.JsonParseException;
import com.google.gson.JsonParser;
import com.google.gson.stream.JsonReader;
import com.google.gson.stream.JsonToken;

import java.io.IOException;
import java.io.StringReader;
import java.util.ArrayList;
import java.util.List;

/**
 * One event of an engine's {@code /v1/completions} stream, read with a streaming JSON reader rather
 * than as a tree: of each choice only {@code index}, {@code text} and {@code finish_reason}; the
 * {@code error} and {@code usage} values as they are (they come once, if at all). Other fields are
 * skipped unread.
 *
 * @param error the event's {@code error} value, or null when absent or JSON null
 * @param usage the event's {@code usage} value, or null when absent
 * @param choices the choices, in order
 */
record EngineChunk(JsonElement error, JsonElement usage, List<Choice> choices) {
    /**
     * One choice: its {@code index} (null when absent), and its {@code text} and {@code
     * finish_reason} when they are strings (null otherwise).
     */
    record Choice(JsonElement index, String text, String finishReason) {}

    /**
     * Reads one event's data.
     *
     * @throws JsonParseException the data is not one JSON object
     */
    static EngineChunk read(String data) {
        try (JsonReader r = new JsonReader(new StringReader(data))) {
            if (r.peek() != JsonToken.BEGIN_OBJECT) throw new JsonParseException("not an object");
            JsonElement error = null;
            JsonElement usage = null;
            List<Choice> choices = List.of();
            r.beginObject();
            while (r.hasNext()) {
                switch (r.nextName()) {
                    case "error" -> {
                        JsonElement e = JsonParser.parseReader(r);
                        error = e.isJsonNull() ? null : e;
                    }
                    case "usage" -> usage = JsonParser.parseReader(r);
                    case "choices" -> {
                        if (r.peek() != JsonToken.BEGIN_ARRAY) {
                            r.skipValue();
                            choices = List.of();
                            break;
                        }
                        choices = new ArrayList<>(1);
                        r.beginArray();
                        while (r.hasNext()) {
                            if (r.peek() == JsonToken.BEGIN_OBJECT) choices.add(choice(r));
                            else r.skipValue();
                        }
                        r.endArray();
                    }
                    default -> r.skipValue();
                }
            }
            r.endObject();
            if (r.peek() != JsonToken.END_DOCUMENT)
                throw new JsonParseException("more than one value");
            return new EngineChunk(error, usage, choices);
        } catch (IOException | IllegalStateException | NumberFormatException e) {
            throw new JsonParseException(e.getMessage(), e);
        }
    }

    private static Choice choice(JsonReader r) throws IOException {
        JsonElement index = null;
        String text = null;
        String reason = null;
        r.beginObject();
        while (r.hasNext()) {
            switch (r.nextName()) {
                case "index" -> index = JsonParser.parseReader(r);
                case "text" -> text = string(r);
                case "finish_reason" -> reason = string(r);
                default -> r.skipValue();
            }
        }
        r.endObject();
        return new Choice(index, text, reason);
    }

    private static String string(JsonReader r) throws IOException {
        if (r.peek() == JsonToken.STRING) return r.nextString();
        r.skipValue();
        return null;
    }
}
