package dev.toolcalls.server;

import com.google.gson.JsonArray;
import com.google.gson.JsonElement;
import com.google.gson.JsonObject;

import dev.toolcalls.internal.json.Json;
import dev.toolcalls.protocol.ChatCompletionsStream;
import dev.toolcalls.protocol.Protocol;
import dev.toolcalls.protocol.WireEvent;

import java.util.ArrayList;
import java.util.List;

/**
 * The engine's token counts, as each protocol reports them: Chat Completions {@code usage} ({@code
 * prompt_tokens}, {@code completion_tokens}, {@code total_tokens}; streamed as a last chunk with no
 * choices when {@code stream_options.include_usage} asks); Responses {@code usage} ({@code
 * input_tokens}, {@code output_tokens}, {@code total_tokens}) on the response; Messages {@code
 * usage} ({@code input_tokens}, {@code output_tokens}) on the message, streamed on {@code
 * message_delta}.
 */
record Usage(long input, long output) {
    /** The counts of an OpenAI {@code usage} object, or null when it has none. */
    static Usage of(JsonElement usage) {
        if (usage == null || !usage.isJsonObject()) return null;
        JsonObject u = usage.getAsJsonObject();
        JsonElement in = u.get("prompt_tokens");
        JsonElement out = u.get("completion_tokens");
        if (in == null
                || out == null
                || !JsonChecks.is(in, JsonChecks.Kind.INTEGER)
                || !JsonChecks.is(out, JsonChecks.Kind.INTEGER)) return null;
        return new Usage(in.getAsLong(), out.getAsLong());
    }

    private JsonObject openAi() {
        JsonObject u = new JsonObject();
        u.addProperty("prompt_tokens", input);
        u.addProperty("completion_tokens", output);
        u.addProperty("total_tokens", input + output);
        return u;
    }

    private JsonObject responses() {
        JsonObject u = new JsonObject();
        u.addProperty("input_tokens", input);
        JsonObject cached = new JsonObject();
        cached.addProperty("cached_tokens", 0);
        u.add("input_tokens_details", cached);
        u.addProperty("output_tokens", output);
        JsonObject reasoning = new JsonObject();
        reasoning.addProperty("reasoning_tokens", 0);
        u.add("output_tokens_details", reasoning);
        u.addProperty("total_tokens", input + output);
        return u;
    }

    private void messages(JsonObject usage) {
        usage.addProperty("input_tokens", input);
        usage.addProperty("output_tokens", output);
    }

    /** A batch body with these counts. */
    String addTo(Protocol protocol, String body) {
        JsonObject o = Json.parse(body).getAsJsonObject();
        switch (protocol) {
            case CHAT_COMPLETIONS -> o.add("usage", openAi());
            case RESPONSES -> o.add("usage", responses());
            case MESSAGES -> {
                if (!o.has("usage") || !o.get("usage").isJsonObject())
                    o.add("usage", new JsonObject());
                messages(o.getAsJsonObject("usage"));
            }
        }
        return Json.write(o);
    }

    /**
     * The last events of a stream with these counts: Chat Completions gets a usage chunk before
     * {@code [DONE]} (when {@code chunkWanted}), Responses the counts on its final response,
     * Messages on its {@code message_delta}.
     */
    List<WireEvent> addTo(
            Protocol protocol,
            List<WireEvent> events,
            String id,
            String model,
            long created,
            boolean chunkWanted) {
        List<WireEvent> out = new ArrayList<>(events.size() + 1);
        for (WireEvent e : events) {
            switch (protocol) {
                case CHAT_COMPLETIONS -> {
                    if (chunkWanted && ChatCompletionsStream.DONE.equals(e.json())) {
                        JsonObject c = new JsonObject();
                        c.addProperty("id", id);
                        c.addProperty("object", "chat.completion.chunk");
                        c.addProperty("created", created);
                        c.addProperty("model", model);
                        c.add("choices", new JsonArray());
                        c.add("usage", openAi());
                        out.add(new WireEvent(null, Json.write(c)));
                    }
                    out.add(e);
                }
                case RESPONSES -> {
                    if ("response.completed".equals(e.name())
                            || "response.incomplete".equals(e.name())) {
                        JsonObject o = Json.parse(e.json()).getAsJsonObject();
                        o.getAsJsonObject("response").add("usage", responses());
                        out.add(new WireEvent(e.name(), Json.write(o)));
                    } else out.add(e);
                }
                case MESSAGES -> {
                    if ("message_delta".equals(e.name())) {
                        JsonObject o = Json.parse(e.json()).getAsJsonObject();
                        if (!o.has("usage") || !o.get("usage").isJsonObject())
                            o.add("usage", new JsonObject());
                        messages(o.getAsJsonObject("usage"));
                        out.add(new WireEvent(e.name(), Json.write(o)));
                    } else out.add(e);
                }
            }
        }
        return out;
    }
}
