package dev.toolcalls.protocol;

import java.util.ArrayList;
import java.util.List;

import com.google.gson.Gson;
import com.google.gson.GsonBuilder;
import com.google.gson.JsonArray;
import com.google.gson.JsonNull;
import com.google.gson.JsonObject;

import dev.toolcalls.ChatMessage;
import dev.toolcalls.DeltaMessage;
import dev.toolcalls.StreamParser;
import dev.toolcalls.ToolCallParseException;
import dev.toolcalls.internal.json.WireJson;

/**
 * Wraps a stream parser's deltas into complete OpenAI {@code chat.completion.chunk} objects, one
 * response at a time:
 * <pre>{@code
 * CompletionChunks chunks = new CompletionChunks(format.newStream(tools), "chatcmpl-abc", "my-model", created);
 * for (String text : generated) for (String chunk : chunks.feed(text)) sse.event(chunk);
 * for (String chunk : chunks.finish(false)) sse.event(chunk);   // true when max_tokens cut generation
 * sse.done();
 * }</pre>
 * The first chunk carries {@code role: "assistant"}; the last carries {@code finish_reason}:
 * {@code "tool_calls"} when at least one call was emitted, else {@code "stop"}, or {@code "length"}
 * when generation was cut (an open call is then reported by the parser's error policy, never
 * silently dropped). {@link #completion} builds the matching non-streaming {@code chat.completion}.
 */
public final class CompletionChunks {
    static final Gson GSON = new GsonBuilder().disableHtmlEscaping().serializeNulls().create();

    private final StreamParser parser;
    private final String id;
    private final String model;
    private final long created;
    private boolean roleSent;
    private boolean sawCall;
    private String finishReason;

    public CompletionChunks(StreamParser parser, String id, String model, long created) {
        this.parser = parser;
        this.id = id;
        this.model = model;
        this.created = created;
    }

    /**
     * Chunks for the deltas this text makes certain (the first call also yields the role chunk).
     *
     * @throws ToolCallParseException as {@link StreamParser#feed}; {@link #wrap} its
     *         {@code deltasBeforeError()} to send what was already certain
     */
    public List<String> feed(String text) {
        List<String> out = new ArrayList<>();
        if (!roleSent) out.add(roleChunk());
        out.addAll(wrap(parser.feed(text)));
        return out;
    }

    /** The same for a chunk said to be, or not to be, one special token ({@link StreamParser#feed(String, boolean)}). */
    public List<String> feed(String text, boolean special) {
        List<String> out = new ArrayList<>();
        if (!roleSent) out.add(roleChunk());
        out.addAll(wrap(parser.feed(text, special)));
        return out;
    }

    /** The remaining chunks and the final one with {@code finish_reason}. */
    public List<String> finish(boolean truncated) {
        List<String> out = new ArrayList<>();
        if (!roleSent) out.add(roleChunk());
        out.addAll(wrap(parser.finish()));
        finishReason = finishReason(truncated, sawCall);
        out.add(chunk(new JsonObject(), finishReason));
        return out;
    }

    /** The finish reason sent, once {@link #finish} has run. */
    public String finishReason() { return finishReason; }

    /** Chunks for deltas, e.g. those a failing feed had produced before its error. */
    public List<String> wrap(List<DeltaMessage> deltas) {
        List<String> out = new ArrayList<>();
        for (DeltaMessage d : deltas) {
            if (d.isToolCall()) sawCall = true;
            out.add(chunk(WireJson.delta(d), null));
        }
        return out;
    }

    private String roleChunk() {
        roleSent = true;
        JsonObject delta = new JsonObject();
        delta.addProperty("role", "assistant");
        return chunk(delta, null);
    }

    private String chunk(JsonObject delta, String finish) {
        return envelope("chat.completion.chunk", "delta", delta, finish, id, model, created);
    }

    /** {@code "tool_calls"} when a call was emitted, else {@code "stop"}; {@code "length"} when generation was cut. */
    static String finishReason(boolean truncated, boolean calls) {
        return truncated ? "length" : calls ? "tool_calls" : "stop";
    }

    /**
     * The non-streaming {@code chat.completion} for a parsed message: {@code choices[0].message}
     * has {@code role}, {@code content}, {@code reasoning_content} when there is some, and
     * {@code tool_calls} when there are any.
     */
    public static String completion(ChatMessage message, String id, String model, long created, boolean truncated) {
        JsonObject m = WireJson.message(message);
        JsonObject msg = new JsonObject();
        msg.addProperty("role", "assistant");
        msg.add("content", m.get("content"));
        if (m.has("reasoning_content")) msg.add("reasoning_content", m.get("reasoning_content"));
        if (!message.toolCalls().isEmpty()) msg.add("tool_calls", m.get("tool_calls"));
        return envelope("chat.completion", "message", msg, finishReason(truncated, !message.toolCalls().isEmpty()), id, model, created);
    }

    /** {@code {id, object, created, model, choices: [{index: 0, <field>: body, logprobs: null, finish_reason}]}}. */
    private static String envelope(String object, String field, JsonObject body, String finish, String id, String model, long created) {
        JsonObject choice = new JsonObject();
        choice.addProperty("index", 0);
        choice.add(field, body);
        choice.add("logprobs", JsonNull.INSTANCE);
        choice.addProperty("finish_reason", finish);
        JsonArray choices = new JsonArray();
        choices.add(choice);
        JsonObject o = new JsonObject();
        o.addProperty("id", id);
        o.addProperty("object", object);
        o.addProperty("created", created);
        o.addProperty("model", model);
        o.add("choices", choices);
        return GSON.toJson(o);
    }
}
