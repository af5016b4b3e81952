package dev.toolcalls.protocol;

import com.google.gson.JsonArray;
import com.google.gson.JsonNull;
import com.google.gson.JsonObject;
import com.google.gson.JsonPrimitive;

import dev.toolcalls.ChatMessage;
import dev.toolcalls.DeltaMessage;
import dev.toolcalls.ParseEvent;
import dev.toolcalls.ToolCall;
import dev.toolcalls.ToolCallDelta;
import dev.toolcalls.internal.json.Json;

/**
 * The API's values as JSON: a message, a tool call and a delta in the shape of OpenAI Chat
 * Completions ({@code choices[0].message}, {@code tool_calls[i]}, {@code choices[0].delta}), and a
 * parse event as {@code {"type": ..., fields}}. Compact, with exact field names.
 *
 * <pre>{@code
 * String json = ValueJson.message(format.parse(text, tools));
 * for (ParseEvent e : parser.feed(chunk)) log(ValueJson.event(e));
 * }</pre>
 */
public final class ValueJson {
    private ValueJson() {}

    /**
     * {@code {"content": string|null, "reasoning_content"?: ..., "tool_calls": [...]}}; {@code
     * content} is written even when null.
     */
    public static String message(ChatMessage m) {
        StringBuilder b = new StringBuilder();
        b.append("{\"content\":");
        JsonText.string(b, m.content());
        if (m.reasoningContent() != null) {
            b.append(",\"reasoning_content\":");
            JsonText.string(b, m.reasoningContent());
        }
        b.append(",\"tool_calls\":[");
        boolean first = true;
        for (ToolCall c : m.toolCalls()) {
            if (!first) b.append(',');
            toolCall(b, c);
            first = false;
        }
        return b.append("]}").toString();
    }

    /** {@code {"id", "type": "function", "function": {"name", "arguments"}}}. */
    public static String toolCall(ToolCall c) {
        StringBuilder b = new StringBuilder();
        toolCall(b, c);
        return b.toString();
    }

    /**
     * {@link #toolCall} written into {@code b}, the same text as Gson writes for {@link
     * #toolCallTree} (a message or a call is written without a tree: a CLI run that prints one
     * never loads Gson).
     */
    private static void toolCall(StringBuilder b, ToolCall c) {
        b.append("{\"id\":");
        JsonText.string(b, c.id());
        b.append(",\"type\":");
        JsonText.string(b, c.type());
        b.append(",\"function\":{\"name\":");
        JsonText.string(b, c.name());
        b.append(",\"arguments\":");
        JsonText.string(b, c.arguments());
        b.append("}}");
    }

    /**
     * One of {@code {"content"}}, {@code {"reasoning_content"}} or {@code {"tool_calls": [one]}}.
     */
    public static String delta(DeltaMessage d) {
        StringBuilder b = new StringBuilder();
        delta(b, d);
        return b.toString();
    }

    /**
     * {@link #delta} written into {@code b}: one of {@code {"content"}}, {@code
     * {"reasoning_content"}} or {@code {"tool_calls": [one]}}, the same text as Gson writes for
     * that object, without building a tree.
     */
    static void delta(StringBuilder b, DeltaMessage d) {
        boolean first = true;
        b.append('{');
        if (d.content() != null) {
            JsonText.name(b, "content", first);
            JsonText.string(b, d.content());
            first = false;
        }
        if (d.reasoningContent() != null) {
            JsonText.name(b, "reasoning_content", first);
            JsonText.string(b, d.reasoningContent());
            first = false;
        }
        ToolCallDelta t = d.toolCall();
        if (t != null) {
            JsonText.name(b, "tool_calls", first);
            b.append("[{\"index\":").append(t.index());
            if (t.id() != null) {
                b.append(",\"id\":");
                JsonText.string(b, t.id());
                b.append(",\"type\":\"function\"");
            }
            b.append(",\"function\":{");
            boolean inner = true;
            if (t.name() != null) {
                JsonText.name(b, "name", inner);
                JsonText.string(b, t.name());
                inner = false;
            }
            if (t.arguments() != null) {
                JsonText.name(b, "arguments", inner);
                JsonText.string(b, t.arguments());
            }
            b.append("}}]");
        }
        b.append('}');
    }

    /**
     * {@code {"type": "text"|"reasoning"|"tool_call_start"|"tool_call_arguments"|"tool_call_end",
     * ...}} with the event's fields (snake_case).
     */
    public static String event(ParseEvent e) {
        return Json.write(eventTree(e));
    }

    /** {@code {"content": string|null, "reasoning_content"?: ..., "tool_calls": [...]}}. */
    static JsonObject messageTree(ChatMessage m) {
        JsonObject o = new JsonObject();
        o.add("content", m.content() == null ? JsonNull.INSTANCE : new JsonPrimitive(m.content()));
        if (m.reasoningContent() != null) o.addProperty("reasoning_content", m.reasoningContent());
        JsonArray calls = new JsonArray();
        for (ToolCall c : m.toolCalls()) calls.add(toolCallTree(c));
        o.add("tool_calls", calls);
        return o;
    }

    /** {@code {"id", "type": "function", "function": {"name", "arguments"}}}. */
    static JsonObject toolCallTree(ToolCall c) {
        JsonObject function = new JsonObject();
        function.addProperty("name", c.name());
        function.addProperty("arguments", c.arguments());
        JsonObject o = new JsonObject();
        o.addProperty("id", c.id());
        o.addProperty("type", c.type());
        o.add("function", function);
        return o;
    }

    /** A parse event as {@code {"type": ..., fields}}. */
    static JsonObject eventTree(ParseEvent e) {
        JsonObject o = new JsonObject();
        if (e instanceof ParseEvent.Text t) {
            o.addProperty("type", "text");
            o.addProperty("text", t.text());
        } else if (e instanceof ParseEvent.Reasoning r) {
            o.addProperty("type", "reasoning");
            o.addProperty("text", r.text());
        } else if (e instanceof ParseEvent.ToolCallStart s) {
            o.addProperty("type", "tool_call_start");
            o.addProperty("index", s.index());
            o.addProperty("id", s.id());
            o.addProperty("name", s.name());
        } else if (e instanceof ParseEvent.ToolCallArguments a) {
            o.addProperty("type", "tool_call_arguments");
            o.addProperty("index", a.index());
            o.addProperty("fragment", a.fragment());
        } else if (e instanceof ParseEvent.ToolCallEnd end) {
            o.addProperty("type", "tool_call_end");
            o.addProperty("index", end.index());
            o.addProperty("id", end.id());
            o.addProperty("name", end.name());
            o.addProperty("arguments", end.arguments());
        }
        return o;
    }
}
