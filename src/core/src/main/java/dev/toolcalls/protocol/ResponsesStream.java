package dev.toolcalls.protocol;

import com.google.gson.JsonArray;
import com.google.gson.JsonNull;
import com.google.gson.JsonObject;

import dev.toolcalls.ParseEvent;
import dev.toolcalls.ToolCallParseException;
import dev.toolcalls.internal.json.Json;

import java.util.List;

/**
 * One response of the OpenAI Responses API ({@code /v1/responses}) from parse events ({@link
 * Protocol#RESPONSES}): {@code response.created} and {@code response.in_progress}, then output
 * items, then {@code response.completed} (or {@code response.incomplete} when generation was cut);
 * a failure ends it with {@code response.failed}. Each reasoning span, text span and tool call
 * becomes its own output item with its own {@code output_index}: a {@code reasoning} item ({@code
 * reasoning_text} content), a {@code message} item ({@code output_text} content) or a {@code
 * function_call} item ({@code call_id}, {@code name}, {@code arguments}, {@code status}), opened by
 * {@code response.output_item.added} and closed by {@code response.output_item.done}. Every event
 * carries {@code sequence_number}. Text that is only whitespace between items opens no item. {@link
 * Protocol#response} builds the non-streaming {@code response} object from the same events.
 */
public final class ResponsesStream extends WireStream {
    private enum Kind {
        NONE,
        MESSAGE,
        REASONING,
        CALL
    }

    private final String id;
    private final String model;
    private final long created;
    private final String itemBase;
    private final JsonArray output = new JsonArray();
    private final HeldWhitespace heldText = new HeldWhitespace();
    private final HeldWhitespace heldReasoning = new HeldWhitespace();
    private int sequence;
    // the open item
    private Kind kind = Kind.NONE;
    private JsonObject item;
    private String itemId;
    private final StringBuilder text = new StringBuilder();
    private final StringBuilder out = new StringBuilder(256);

    /**
     * @param id the response id, e.g. {@code resp_...}
     * @param created seconds since the epoch
     */
    ResponsesStream(String id, String model, long created) {
        this.id = id;
        this.model = model;
        this.created = created;
        this.itemBase = id.startsWith("resp_") ? id.substring(5) : id;
    }

    @Override
    void opened() {
        emit("response.created", withResponse("in_progress", null, null));
        emit("response.in_progress", withResponse("in_progress", null, null));
    }

    @Override
    void failed(ToolCallParseException e) {
        aborted(Abort.ERROR, e.getMessage());
    }

    @Override
    void aborted(Abort why, String message) {
        closeItem("incomplete");
        JsonObject error = new JsonObject();
        error.addProperty("code", "server_error");
        error.addProperty("message", message);
        emit("response.failed", withResponse("failed", error, null));
    }

    @Override
    void convert(List<ParseEvent> events) {
        for (ParseEvent e : events) {
            if (e instanceof ParseEvent.Text t) text(Kind.MESSAGE, t.text(), heldText);
            else if (e instanceof ParseEvent.Reasoning r)
                text(Kind.REASONING, r.text(), heldReasoning);
            else if (e instanceof ParseEvent.ToolCallStart s) callStart(s);
            else if (e instanceof ParseEvent.ToolCallArguments a) {
                delta("response.function_call_arguments.delta", false, a.fragment(), false);
                text.append(a.fragment());
            } else if (e instanceof ParseEvent.ToolCallEnd end) callEnd(end);
        }
    }

    @Override
    void ended(boolean truncated) {
        closeItem("incomplete");
        JsonObject details = null;
        if (truncated) {
            details = new JsonObject();
            details.addProperty("reason", "max_output_tokens");
        }
        emit(
                truncated ? "response.incomplete" : "response.completed",
                withResponse(truncated ? "incomplete" : "completed", null, details));
    }

    /** The non-streaming {@code response} object for a whole output's events. */
    static String response(
            List<ParseEvent> events, String id, String model, long created, boolean truncated) {
        ResponsesStream r = new ResponsesStream(id, model, created);
        r.events(events);
        List<WireEvent> last = r.complete(truncated);
        JsonObject terminal = Json.parse(last.get(last.size() - 1).json()).getAsJsonObject();
        return Json.write(terminal.get("response"));
    }

    // ---- items ---------------------------------------------------------------------------------

    private void text(Kind k, String piece, HeldWhitespace held) {
        if (kind != k) {
            String now = held.take(piece);
            if (now == null) return;
            piece = now;
            closeItem("completed");
            openText(k);
        }
        if (k == Kind.MESSAGE) delta("response.output_text.delta", true, piece, true);
        else delta("response.reasoning_text.delta", true, piece, false);
        text.append(piece);
    }

    private void openText(Kind k) {
        kind = k;
        text.setLength(0);
        itemId = (k == Kind.MESSAGE ? "msg_" : "rs_") + itemBase + "_" + output.size();
        item =
                k == Kind.MESSAGE
                        ? messageItem("in_progress", List.of())
                        : reasoningItem("in_progress", List.of());
        added();
        JsonObject part = base("response.content_part.added");
        part.addProperty("item_id", itemId);
        part.addProperty("output_index", output.size());
        part.addProperty("content_index", 0);
        part.add("part", part(k, ""));
        emit(part);
    }

    private void callStart(ParseEvent.ToolCallStart s) {
        heldText.drop();
        heldReasoning.drop();
        closeItem("completed");
        kind = Kind.CALL;
        text.setLength(0);
        itemId = "fc_" + itemBase + "_" + output.size();
        item = callItem(s.id(), s.name(), "", "in_progress");
        added();
    }

    private void callEnd(ParseEvent.ToolCallEnd end) {
        JsonObject d = base("response.function_call_arguments.done");
        d.addProperty("item_id", itemId);
        d.addProperty("output_index", output.size());
        d.addProperty("name", end.name());
        d.addProperty("arguments", end.arguments());
        emit(d);
        item = callItem(end.id(), end.name(), end.arguments(), "completed");
        done();
    }

    /**
     * Ends the open item: text and reasoning items get their done events; a call still open is cut
     * short.
     */
    private void closeItem(String status) {
        heldText.drop();
        heldReasoning.drop();
        if (kind == Kind.NONE) return;
        if (kind == Kind.CALL) {
            item.addProperty("status", "incomplete");
            item.addProperty("arguments", text.toString());
            done();
            return;
        }
        String full = text.toString();
        JsonObject d =
                base(
                        kind == Kind.MESSAGE
                                ? "response.output_text.done"
                                : "response.reasoning_text.done");
        d.addProperty("item_id", itemId);
        d.addProperty("output_index", output.size());
        d.addProperty("content_index", 0);
        d.addProperty("text", full);
        if (kind == Kind.MESSAGE) d.add("logprobs", new JsonArray());
        emit(d);
        JsonObject part = base("response.content_part.done");
        part.addProperty("item_id", itemId);
        part.addProperty("output_index", output.size());
        part.addProperty("content_index", 0);
        part.add("part", part(kind, full));
        emit(part);
        String itemStatus =
                kind == Kind.MESSAGE && !status.equals("completed") ? "incomplete" : "completed";
        item =
                kind == Kind.MESSAGE
                        ? messageItem(itemStatus, List.of(part(kind, full)))
                        : reasoningItem("completed", List.of(part(kind, full)));
        done();
    }

    private void added() {
        JsonObject e = base("response.output_item.added");
        e.addProperty("output_index", output.size());
        e.add("item", item.deepCopy());
        emit(e);
    }

    private void done() {
        JsonObject e = base("response.output_item.done");
        e.addProperty("output_index", output.size());
        e.add("item", item.deepCopy());
        emit(e);
        output.add(item);
        kind = Kind.NONE;
        item = null;
        text.setLength(0);
    }

    private JsonObject messageItem(String status, List<JsonObject> content) {
        JsonObject m = new JsonObject();
        m.addProperty("id", itemId);
        m.addProperty("type", "message");
        m.addProperty("role", "assistant");
        m.addProperty("status", status);
        JsonArray c = new JsonArray();
        for (JsonObject p : content) c.add(p);
        m.add("content", c);
        return m;
    }

    private JsonObject reasoningItem(String status, List<JsonObject> content) {
        JsonObject r = new JsonObject();
        r.addProperty("id", itemId);
        r.addProperty("type", "reasoning");
        r.add("summary", new JsonArray());
        JsonArray c = new JsonArray();
        for (JsonObject p : content) c.add(p);
        r.add("content", c);
        r.addProperty("status", status);
        return r;
    }

    private JsonObject callItem(String callId, String name, String arguments, String status) {
        JsonObject f = new JsonObject();
        f.addProperty("id", itemId);
        f.addProperty("type", "function_call");
        f.addProperty("call_id", callId);
        f.addProperty("name", name);
        f.addProperty("arguments", arguments);
        f.addProperty("status", status);
        return f;
    }

    private static JsonObject part(Kind k, String text) {
        JsonObject p = new JsonObject();
        p.addProperty("type", k == Kind.MESSAGE ? "output_text" : "reasoning_text");
        p.addProperty("text", text);
        if (k == Kind.MESSAGE) {
            p.add("annotations", new JsonArray());
            p.add("logprobs", new JsonArray());
        }
        return p;
    }

    // ---- envelope ------------------------------------------------------------------------------

    private JsonObject withResponse(String status, JsonObject error, JsonObject incomplete) {
        JsonObject r = new JsonObject();
        r.addProperty("id", id);
        r.addProperty("object", "response");
        r.addProperty("created_at", created);
        r.addProperty("status", status);
        r.add("error", error == null ? JsonNull.INSTANCE : error);
        r.add("incomplete_details", incomplete == null ? JsonNull.INSTANCE : incomplete);
        r.add("instructions", JsonNull.INSTANCE);
        r.add("metadata", new JsonObject());
        r.addProperty("model", model);
        r.add("output", output.deepCopy());
        r.addProperty("parallel_tool_calls", true);
        r.add("temperature", JsonNull.INSTANCE);
        r.addProperty("tool_choice", "auto");
        r.add("tools", new JsonArray());
        r.add("top_p", JsonNull.INSTANCE);
        r.add("access_programs", JsonNull.INSTANCE);
        JsonObject e = new JsonObject();
        e.add("response", r);
        return e;
    }

    /**
     * {@code {"type", "item_id", "output_index", "content_index"?, "delta", "logprobs": []?,
     * "sequence_number"}}, written straight into the reused text: the same text as {@link
     * #emit(JsonObject)} writes for that tree.
     */
    private void delta(String type, boolean contentIndex, String piece, boolean logprobs) {
        out.setLength(0);
        out.append("{\"type\":\"").append(type).append("\",\"item_id\":");
        JsonText.string(out, itemId);
        out.append(",\"output_index\":").append(output.size());
        if (contentIndex) out.append(",\"content_index\":0");
        out.append(",\"delta\":");
        JsonText.string(out, piece);
        if (logprobs) out.append(",\"logprobs\":[]");
        out.append(",\"sequence_number\":").append(sequence++).append('}');
        queue(new WireEvent(type, out.toString()));
    }

    private JsonObject base(String type) {
        JsonObject o = new JsonObject();
        o.addProperty("type", type);
        return o;
    }

    private void emit(String type, JsonObject body) {
        JsonObject o = base(type);
        for (var m : body.entrySet()) o.add(m.getKey(), m.getValue());
        emit(o);
    }

    private void emit(JsonObject o) {
        o.addProperty("sequence_number", sequence++);
        queue(new WireEvent(o.get("type").getAsString(), Json.write(o)));
    }
}
