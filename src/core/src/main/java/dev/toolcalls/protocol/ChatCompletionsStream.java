package dev.toolcalls.protocol;

import com.google.gson.JsonArray;
import com.google.gson.JsonNull;
import com.google.gson.JsonObject;

import dev.toolcalls.ChatMessage;
import dev.toolcalls.DeltaMessage;
import dev.toolcalls.ParseEvent;
import dev.toolcalls.ToolCallParseException;
import dev.toolcalls.internal.json.Json;

import java.util.List;

/**
 * One response of OpenAI Chat Completions ({@code /v1/chat/completions}) as {@code
 * chat.completion.chunk} objects: the first carries {@code role: "assistant"}, each later one a
 * {@code choices[0].delta} ({@link DeltaMessage#of}), the last an empty delta with {@code
 * finish_reason} ({@code "tool_calls"} when a call was emitted, else {@code "stop"}, or {@code
 * "length"} when generation was cut), then the {@code [DONE]} sentinel. A parse error or an outside
 * failure ends the stream with an {@code {"error": {...}}} chunk and {@code [DONE]}. The chunks'
 * events have no SSE event name. {@link #completion} builds the batch {@code chat.completion} from
 * the same events.
 */
public final class ChatCompletionsStream extends WireStream {
    /** The SSE data that ends a Chat Completions stream. */
    public static final String DONE = "[DONE]";

    private final String id;
    private final String model;
    private final long created;
    private boolean sawCall;
    // {"id":...,"object":"chat.completion.chunk","created":...,"model":...,"choices":[{"index":0,"delta":
    private String head;
    private final StringBuilder text = new StringBuilder(256);

    ChatCompletionsStream(String id, String model, long created) {
        this.id = id;
        this.model = model;
        this.created = created;
    }

    @Override
    void opened() {
        chunkHead().append("{\"role\":\"assistant\"}");
        chunkEnd(null);
    }

    @Override
    void convert(List<ParseEvent> events) {
        for (DeltaMessage d : DeltaMessage.of(events)) {
            if (d.isToolCall()) sawCall = true;
            ValueJson.delta(chunkHead(), d);
            chunkEnd(null);
        }
    }

    @Override
    void ended(boolean truncated) {
        chunkHead().append("{}");
        chunkEnd(finishReason(truncated, sawCall));
        queue(new WireEvent(null, DONE));
    }

    @Override
    void failed(ToolCallParseException e) {
        error(e.getMessage(), "tool_call_parse_error", e.kind().type());
    }

    @Override
    void aborted(Abort why, String message) {
        error(message, "server_error", why == Abort.SHUTDOWN ? "shutting_down" : "server_error");
    }

    private void error(String message, String type, String code) {
        queue(new WireEvent(null, Json.write(errorObject(message, type, code, null))));
        queue(new WireEvent(null, DONE));
    }

    /** {@code {"error": {"message", "type", "param", "code"}}}, the OpenAI error shape. */
    static JsonObject errorObject(String message, String type, String code, String param) {
        JsonObject err = new JsonObject();
        err.addProperty("message", message);
        err.addProperty("type", type);
        err.addProperty("param", param);
        err.addProperty("code", code);
        JsonObject o = new JsonObject();
        o.add("error", err);
        return o;
    }

    /**
     * The reused text, holding a chunk's opening up to its delta: the same text as Gson writes for
     * {@link #envelope}'s tree, written without one.
     */
    private StringBuilder chunkHead() {
        if (head == null) {
            StringBuilder b = new StringBuilder("{\"id\":");
            JsonText.string(b, id);
            b.append(",\"object\":\"chat.completion.chunk\",\"created\":").append(created);
            b.append(",\"model\":");
            JsonText.string(b, model);
            head = b.append(",\"choices\":[{\"index\":0,\"delta\":").toString();
        }
        text.setLength(0);
        return text.append(head);
    }

    /** Closes the chunk begun by {@link #chunkHead} and queues it. */
    private void chunkEnd(String finish) {
        text.append(",\"logprobs\":null,\"finish_reason\":");
        JsonText.string(text, finish);
        queue(new WireEvent(null, text.append("}]}").toString()));
    }

    /**
     * {@code "tool_calls"} when a call was emitted, else {@code "stop"}; {@code "length"} when
     * generation was cut.
     */
    private static String finishReason(boolean truncated, boolean calls) {
        return truncated ? "length" : calls ? "tool_calls" : "stop";
    }

    /**
     * The batch {@code chat.completion} of a whole output's events: {@code choices[0].message} has
     * {@code role}, {@code content}, {@code reasoning_content} when there is some, and {@code
     * tool_calls} when there are any.
     */
    static String completion(
            List<ParseEvent> events, String id, String model, long created, boolean truncated) {
        ChatMessage message = ChatMessage.fromEvents(events);
        JsonObject m = ValueJson.messageTree(message);
        JsonObject msg = new JsonObject();
        msg.addProperty("role", "assistant");
        msg.add("content", m.get("content"));
        if (m.has("reasoning_content")) msg.add("reasoning_content", m.get("reasoning_content"));
        if (!message.toolCalls().isEmpty()) msg.add("tool_calls", m.get("tool_calls"));
        return envelope(
                "chat.completion",
                "message",
                msg,
                finishReason(truncated, !message.toolCalls().isEmpty()),
                id,
                model,
                created);
    }

    /**
     * {@code {id, object, created, model, choices: [{index: 0, <field>: body, logprobs: null,
     * finish_reason}]}}.
     */
    private static String envelope(
            String object,
            String field,
            JsonObject body,
            String finish,
            String id,
            String model,
            long created) {
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
        return Json.write(o);
    }
}
