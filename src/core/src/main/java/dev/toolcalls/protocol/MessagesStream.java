package dev.toolcalls.protocol;

import com.google.gson.JsonArray;
import com.google.gson.JsonNull;
import com.google.gson.JsonObject;
import com.google.gson.JsonPrimitive;

import dev.toolcalls.ParseEvent;
import dev.toolcalls.ToolCallParseException;
import dev.toolcalls.internal.json.Json;

import java.util.List;

/**
 * One message of the Anthropic Messages API ({@code /v1/messages}) from parse events ({@link
 * Protocol#MESSAGES}): {@code message_start}, then content blocks, then {@code message_delta} (with
 * {@code stop_reason}) and {@code message_stop}; a failure ends it with an {@code error} event.
 * Reasoning becomes {@code thinking} blocks ({@code thinking_delta}, then an empty {@code
 * signature_delta}: a local model has no signature), text {@code text} blocks ({@code text_delta}),
 * each call a {@code tool_use} block ({@code id}, {@code name}, {@code input: {}} at its start,
 * {@code input_json_delta} fragments whose concatenation is the input object), all in one {@code
 * index} sequence. {@code stop_reason} is {@code tool_use} when a call was made, {@code max_tokens}
 * when generation was cut, else {@code end_turn}. Text that is only whitespace between blocks opens
 * no block. {@link Protocol#response} builds the non-streaming {@code message} object from the same
 * events.
 */
public final class MessagesStream extends WireStream {
    private enum Kind {
        NONE,
        TEXT,
        THINKING,
        TOOL
    }

    private final String id;
    private final String model;
    private final JsonArray content = new JsonArray();
    private final HeldWhitespace heldText = new HeldWhitespace();
    private final HeldWhitespace heldThinking = new HeldWhitespace();
    private boolean sawCall;
    private Kind kind = Kind.NONE;
    private JsonObject block;
    private final StringBuilder text = new StringBuilder();
    private final StringBuilder out = new StringBuilder(256);
    private String stopReason;

    MessagesStream(String id, String model) {
        this.id = id;
        this.model = model;
    }

    @Override
    void opened() {
        JsonObject e = new JsonObject();
        e.addProperty("type", "message_start");
        e.add("message", message(new JsonArray(), null));
        emit(e);
    }

    @Override
    void failed(ToolCallParseException e) {
        aborted(Abort.ERROR, e.getMessage());
    }

    @Override
    void aborted(Abort why, String message) {
        closeBlock();
        emit(errorObject(why == Abort.SHUTDOWN ? "overloaded_error" : "api_error", message));
    }

    static JsonObject errorObject(String type, String message) {
        JsonObject err = new JsonObject();
        err.addProperty("type", type);
        err.addProperty("message", message);
        JsonObject o = new JsonObject();
        o.addProperty("type", "error");
        o.add("error", err);
        return o;
    }

    @Override
    void convert(List<ParseEvent> events) {
        for (ParseEvent e : events) {
            if (e instanceof ParseEvent.Text t) text(Kind.TEXT, t.text(), heldText);
            else if (e instanceof ParseEvent.Reasoning r)
                text(Kind.THINKING, r.text(), heldThinking);
            else if (e instanceof ParseEvent.ToolCallStart s) {
                closeBlock();
                sawCall = true;
                kind = Kind.TOOL;
                text.setLength(0);
                block = new JsonObject();
                block.addProperty("type", "tool_use");
                block.addProperty("id", s.id());
                block.addProperty("name", s.name());
                block.add("input", new JsonObject());
                JsonObject caller = new JsonObject();
                caller.addProperty(
                        "type", "direct"); // the model itself called it, not a server tool
                block.add("caller", caller);
                blockStart();
            } else if (e instanceof ParseEvent.ToolCallArguments a) {
                delta("input_json_delta", "partial_json", a.fragment());
                text.append(a.fragment());
            } else if (e instanceof ParseEvent.ToolCallEnd end) {
                block.add("input", Json.parse(end.arguments()));
                blockStop();
            }
        }
    }

    @Override
    void ended(boolean truncated) {
        closeBlock();
        stopReason = truncated ? "max_tokens" : sawCall ? "tool_use" : "end_turn";
        JsonObject d = new JsonObject();
        d.addProperty("type", "message_delta");
        JsonObject delta = new JsonObject();
        delta.addProperty("stop_reason", stopReason);
        delta.add("stop_sequence", JsonNull.INSTANCE);
        delta.add("stop_details", JsonNull.INSTANCE);
        delta.add("container", JsonNull.INSTANCE);
        d.add("delta", delta);
        JsonObject usage = new JsonObject();
        for (String n :
                new String[] {
                    "input_tokens",
                    "cache_creation_input_tokens",
                    "cache_read_input_tokens",
                    "output_tokens_details",
                    "server_tool_use"
                }) usage.add(n, JsonNull.INSTANCE);
        usage.addProperty("output_tokens", 0);
        d.add("usage", usage);
        emit(d);
        JsonObject stop = new JsonObject();
        stop.addProperty("type", "message_stop");
        emit(stop);
    }

    /** The non-streaming {@code message} object for a whole output's events. */
    static String message(List<ParseEvent> events, String id, String model, boolean truncated) {
        MessagesStream m = new MessagesStream(id, model);
        m.events(events);
        m.complete(truncated);
        return Json.write(m.message(m.content, m.stopReason));
    }

    private void text(Kind k, String piece, HeldWhitespace held) {
        if (kind != k) {
            String now = held.take(piece);
            if (now == null) return;
            piece = now;
            closeBlock();
            kind = k;
            text.setLength(0);
            block = new JsonObject();
            block.addProperty("type", k == Kind.TEXT ? "text" : "thinking");
            if (k == Kind.TEXT) {
                block.addProperty("text", "");
                block.add("citations", JsonNull.INSTANCE);
            } else {
                block.addProperty("thinking", "");
                block.addProperty("signature", "");
            }
            blockStart();
        }
        if (k == Kind.TEXT) delta("text_delta", "text", piece);
        else delta("thinking_delta", "thinking", piece);
        text.append(piece);
    }

    private void closeBlock() {
        heldText.drop();
        heldThinking.drop();
        if (kind == Kind.NONE) return;
        if (kind == Kind.TEXT) block.addProperty("text", text.toString());
        else if (kind == Kind.THINKING) {
            block.addProperty("thinking", text.toString());
            JsonObject sig = new JsonObject();
            sig.addProperty("type", "signature_delta");
            sig.addProperty("signature", "");
            delta(sig);
        }
        // a tool_use block still open (its call cut short) keeps its empty input
        blockStop();
    }

    private void blockStart() {
        JsonObject e = new JsonObject();
        e.addProperty("type", "content_block_start");
        e.addProperty("index", content.size());
        JsonObject start = block.deepCopy();
        if (kind == Kind.TEXT) start.addProperty("text", "");
        emit(withBlock(e, start));
    }

    private static JsonObject withBlock(JsonObject e, JsonObject b) {
        e.add("content_block", b);
        return e;
    }

    /**
     * {@code {"type":"content_block_delta","index":i,"delta":{"type":TYPE,FIELD:value}}}, written
     * straight into the reused text: the same text as {@link #delta(JsonObject)} writes.
     */
    private void delta(String type, String field, String value) {
        out.setLength(0);
        out.append("{\"type\":\"content_block_delta\",\"index\":")
                .append(content.size())
                .append(",\"delta\":{\"type\":\"")
                .append(type)
                .append("\",\"")
                .append(field)
                .append("\":");
        JsonText.string(out, value);
        queue(new WireEvent("content_block_delta", out.append("}}").toString()));
    }

    private void delta(JsonObject d) {
        JsonObject e = new JsonObject();
        e.addProperty("type", "content_block_delta");
        e.addProperty("index", content.size());
        e.add("delta", d);
        emit(e);
    }

    private void blockStop() {
        JsonObject e = new JsonObject();
        e.addProperty("type", "content_block_stop");
        e.addProperty("index", content.size());
        emit(e);
        content.add(block);
        block = null;
        kind = Kind.NONE;
        text.setLength(0);
    }

    private JsonObject message(JsonArray blocks, String stop) {
        JsonObject m = new JsonObject();
        m.addProperty("id", id);
        m.addProperty("type", "message");
        m.addProperty("role", "assistant");
        m.addProperty("model", model);
        m.add("content", blocks.deepCopy());
        m.add("stop_reason", stop == null ? JsonNull.INSTANCE : new JsonPrimitive(stop));
        m.add("stop_sequence", JsonNull.INSTANCE);
        m.add("stop_details", JsonNull.INSTANCE);
        m.add("container", JsonNull.INSTANCE);
        JsonObject usage = new JsonObject();
        usage.addProperty("input_tokens", 0);
        usage.addProperty("output_tokens", 0);
        for (String n :
                new String[] {
                    "cache_creation",
                    "cache_creation_input_tokens",
                    "cache_read_input_tokens",
                    "inference_geo",
                    "output_tokens_details",
                    "server_tool_use",
                    "service_tier"
                }) usage.add(n, JsonNull.INSTANCE);
        m.add("usage", usage);
        return m;
    }

    private void emit(JsonObject o) {
        queue(new WireEvent(o.get("type").getAsString(), Json.write(o)));
    }
}
