package dev.toolcalls.server;

import com.google.gson.JsonArray;
import com.google.gson.JsonElement;
import com.google.gson.JsonNull;
import com.google.gson.JsonObject;
import com.google.gson.JsonPrimitive;

import dev.toolcalls.internal.json.Json;
import dev.toolcalls.protocol.Protocol;

/**
 * A request of any protocol as the Chat Completions body a chat template renders: OpenAI-shaped
 * {@code messages} (system, user, assistant with {@code tool_calls} and {@code reasoning_content},
 * tool results as {@code role: "tool"} messages with their {@code tool_call_id}), {@code tools} as
 * {@code {"type": "function", "function": {...}}}, and {@code chat_template_kwargs}.
 *
 * <ul>
 *   <li>Chat Completions: messages as sent; content given as parts is joined into one string (text
 *       parts only, joined with newlines, as vLLM does); {@code developer} becomes {@code system};
 *       an assistant's {@code reasoning} becomes {@code reasoning_content}.
 *   <li>Responses: {@code instructions} is the system message; {@code input} a string (one user
 *       message) or items: messages ({@code input_text} / {@code output_text} parts), {@code
 *       function_call} (joins the assistant message before it, or opens one), {@code
 *       function_call_output} (a tool message), {@code reasoning} (the next assistant message's
 *       {@code reasoning_content}).
 *   <li>Messages: {@code system} is the system message; {@code text} blocks join, {@code thinking}
 *       blocks become {@code reasoning_content}, {@code tool_use} blocks tool calls (their {@code
 *       input} as the arguments), {@code tool_result} blocks tool messages, placed before the rest
 *       of their user turn; {@code thinking: {"type": ...}} sets {@code enable_thinking}.
 * </ul>
 *
 * A shape it cannot render (an image, an unknown item) is an {@link Invalid} naming the field.
 */
final class Conversation {
    /** A request the template cannot be given; {@code param} names the field. */
    static final class Invalid extends RuntimeException {
        final String param;

        Invalid(String param, String message) {
            super(message);
            this.param = param;
        }
    }

    private Conversation() {}

    /**
     * The Chat Completions body ({@code messages}, {@code tools}, {@code chat_template_kwargs}).
     */
    static JsonObject of(Protocol protocol, JsonObject body) {
        JsonArray messages =
                switch (protocol) {
                    case CHAT_COMPLETIONS -> chat(body);
                    case RESPONSES -> responses(body);
                    case MESSAGES -> messages(body);
                };
        JsonObject out = new JsonObject();
        out.add("messages", messages);
        JsonElement tools;
        try {
            tools = Replay.chatTools(protocol, body.get("tools"));
        } catch (IllegalArgumentException e) {
            throw new Invalid("tools", "invalid tools: " + e.getMessage());
        }
        if (tools != null && tools.isJsonArray()) {
            JsonArray functions = new JsonArray();
            for (int i = 0; i < tools.getAsJsonArray().size(); i++) {
                JsonElement t = tools.getAsJsonArray().get(i);
                String at = "tools[" + i + "]";
                if (!t.isJsonObject()) throw new Invalid(at, at + " must be an object");
                JsonElement type = t.getAsJsonObject().get("type");
                if (type != null && !"function".equals(type.getAsString())) continue;
                JsonElement f = t.getAsJsonObject().get("function");
                if (f == null || !f.isJsonObject())
                    throw new Invalid(at + ".function", at + ".function must be an object");
                // the same shape whichever protocol the tool came in
                JsonObject function = new JsonObject();
                function.add(
                        "name",
                        new JsonPrimitive(string(f.getAsJsonObject(), "name", at + ".function")));
                for (String key : new String[] {"description", "parameters"}) {
                    JsonElement v = f.getAsJsonObject().get(key);
                    if (v != null && !v.isJsonNull()) function.add(key, v);
                }
                JsonObject tool = new JsonObject();
                tool.addProperty("type", "function");
                tool.add("function", function);
                functions.add(tool);
            }
            if (!functions.isEmpty()) out.add("tools", functions);
        }
        JsonObject kwargs = new JsonObject();
        JsonElement given = body.get("chat_template_kwargs");
        if (given != null && given.isJsonObject())
            for (var e : given.getAsJsonObject().entrySet()) kwargs.add(e.getKey(), e.getValue());
        Boolean thinking = protocol == Protocol.MESSAGES ? Replay.thinking(body) : null;
        if (thinking != null && !kwargs.has("enable_thinking"))
            kwargs.addProperty("enable_thinking", thinking);
        if (!kwargs.isEmpty()) out.add("chat_template_kwargs", kwargs);
        return out;
    }

    // ---- Chat Completions

    private static JsonArray chat(JsonObject body) {
        JsonArray out = new JsonArray();
        JsonArray in = body.getAsJsonArray("messages");
        for (int i = 0; i < in.size(); i++) {
            String at = "messages[" + i + "]";
            JsonObject m = in.get(i).getAsJsonObject().deepCopy();
            String role = string(m, "role", at);
            if (role.equals("developer")) m.addProperty("role", "system");
            JsonElement content = m.get("content");
            if (content != null && content.isJsonArray())
                m.addProperty("content", text(content.getAsJsonArray(), at + ".content"));
            if (m.has("reasoning") && !m.has("reasoning_content"))
                m.add("reasoning_content", m.remove("reasoning"));
            JsonElement calls = m.get("tool_calls");
            if (calls != null && !calls.isJsonNull()) {
                if (!calls.isJsonArray())
                    throw new Invalid(at + ".tool_calls", at + ".tool_calls must be an array");
                for (int k = 0; k < calls.getAsJsonArray().size(); k++) {
                    JsonElement c = calls.getAsJsonArray().get(k);
                    String cat = at + ".tool_calls[" + k + "]";
                    if (!c.isJsonObject() || !c.getAsJsonObject().has("function"))
                        throw new Invalid(cat, cat + " must be an object with a function");
                    JsonElement f = c.getAsJsonObject().get("function");
                    if (!f.isJsonObject())
                        throw new Invalid(cat + ".function", cat + ".function must be an object");
                    arguments(f.getAsJsonObject(), cat + ".function.arguments");
                }
            }
            out.add(m);
        }
        return out;
    }

    /** A tool call's arguments must be a JSON object (or its text), as the template takes them. */
    private static void arguments(JsonObject function, String at) {
        JsonElement a = function.get("arguments");
        if (a == null || a.isJsonNull()) {
            function.addProperty("arguments", "{}");
            return;
        }
        if (a.isJsonObject()) {
            function.addProperty("arguments", Json.write(a));
            return;
        }
        if (!JsonChecks.is(a, JsonChecks.Kind.STRING))
            throw new Invalid(at, at + " must be a JSON string");
        String s = a.getAsString();
        try {
            if (!s.isBlank() && !Json.parseStrict(s).isJsonObject())
                throw new Invalid(at, at + " must be the JSON text of an object");
        } catch (Json.NotJson e) {
            throw new Invalid(at, at + " is not valid JSON: " + JsonChecks.plain(e.getMessage()));
        }
        if (s.isBlank()) function.addProperty("arguments", "{}");
    }

    /** Text parts joined with newlines; any other part is refused. */
    private static String text(JsonArray parts, String at) {
        StringBuilder b = new StringBuilder();
        for (int i = 0; i < parts.size(); i++) {
            JsonElement p = parts.get(i);
            String pat = at + "[" + i + "]";
            if (p.isJsonPrimitive()) {
                if (b.length() > 0) b.append('\n');
                b.append(p.getAsString());
                continue;
            }
            if (!p.isJsonObject()) throw new Invalid(pat, pat + " must be an object");
            JsonObject o = p.getAsJsonObject();
            String type = o.has("type") ? o.get("type").getAsString() : "text";
            if (!(type.equals("text")
                    || type.equals("input_text")
                    || type.equals("output_text")
                    || type.equals("reasoning_text")
                    || type.equals("summary_text")))
                throw new Invalid(
                        pat + ".type",
                        pat
                                + ": only text content can be rendered by the chat template, got a part of type '"
                                + type
                                + "'");
            if (b.length() > 0) b.append('\n');
            b.append(string(o, "text", pat));
        }
        return b.toString();
    }

    // ---- Responses

    private static JsonArray responses(JsonObject body) {
        JsonArray out = new JsonArray();
        JsonElement instructions = body.get("instructions");
        if (instructions != null && !instructions.isJsonNull())
            out.add(message("system", instructions.getAsString()));
        JsonElement input = body.get("input");
        if (input == null || input.isJsonNull()) return out;
        if (input.isJsonPrimitive()) {
            out.add(message("user", input.getAsString()));
            return out;
        }
        JsonArray items = input.getAsJsonArray();
        JsonObject assistant = null; // the assistant message tool calls join
        String reasoning = null; // waiting for its assistant message
        for (int i = 0; i < items.size(); i++) {
            String at = "input[" + i + "]";
            if (!items.get(i).isJsonObject()) throw new Invalid(at, at + " must be an object");
            JsonObject item = items.get(i).getAsJsonObject();
            String type = item.has("type") ? string(item, "type", at) : "message";
            switch (type) {
                case "message" -> {
                    String role = string(item, "role", at);
                    if (role.equals("developer")) role = "system";
                    JsonElement c = item.get("content");
                    String content =
                            c == null || c.isJsonNull()
                                    ? ""
                                    : c.isJsonArray()
                                            ? text(c.getAsJsonArray(), at + ".content")
                                            : c.getAsString();
                    JsonObject m = message(role, content);
                    if (role.equals("assistant")) {
                        if (reasoning != null) m.addProperty("reasoning_content", reasoning);
                        reasoning = null;
                        assistant = m;
                    } else {
                        assistant = null;
                    }
                    out.add(m);
                }
                case "function_call" -> {
                    if (assistant == null) {
                        assistant = message("assistant", "");
                        if (reasoning != null)
                            assistant.addProperty("reasoning_content", reasoning);
                        reasoning = null;
                        out.add(assistant);
                    }
                    JsonObject function = new JsonObject();
                    function.add("name", new JsonPrimitive(string(item, "name", at)));
                    function.add("arguments", item.get("arguments"));
                    arguments(function, at + ".arguments");
                    JsonObject call = new JsonObject();
                    call.addProperty(
                            "id",
                            item.has("call_id")
                                    ? string(item, "call_id", at)
                                    : item.has("id") ? string(item, "id", at) : "");
                    call.addProperty("type", "function");
                    call.add("function", function);
                    if (!assistant.has("tool_calls")) assistant.add("tool_calls", new JsonArray());
                    assistant.getAsJsonArray("tool_calls").add(call);
                }
                case "function_call_output" -> {
                    assistant = null;
                    JsonObject m = new JsonObject();
                    m.addProperty("role", "tool");
                    m.addProperty("tool_call_id", string(item, "call_id", at));
                    JsonElement o = item.get("output");
                    m.addProperty(
                            "content",
                            o == null || o.isJsonNull()
                                    ? ""
                                    : o.isJsonArray()
                                            ? text(o.getAsJsonArray(), at + ".output")
                                            : o.isJsonPrimitive()
                                                    ? o.getAsString()
                                                    : Json.write(o));
                    out.add(m);
                }
                case "reasoning" -> {
                    StringBuilder r = new StringBuilder();
                    for (String key : new String[] {"content", "summary"}) {
                        JsonElement parts = item.get(key);
                        if (r.length() == 0 && parts != null && parts.isJsonArray())
                            r.append(text(parts.getAsJsonArray(), at + "." + key));
                    }
                    reasoning = r.toString();
                }
                default ->
                        throw new Invalid(
                                at + ".type",
                                at
                                        + ": items of type '"
                                        + type
                                        + "' cannot be rendered by the chat template (message, function_call, function_call_output and reasoning can)");
            }
        }
        return out;
    }

    // ---- Anthropic Messages

    private static JsonArray messages(JsonObject body) {
        JsonArray out = new JsonArray();
        JsonElement system = body.get("system");
        if (system != null && !system.isJsonNull())
            out.add(
                    message(
                            "system",
                            system.isJsonArray()
                                    ? text(system.getAsJsonArray(), "system")
                                    : system.getAsString()));
        JsonArray in = body.getAsJsonArray("messages");
        for (int i = 0; i < in.size(); i++) {
            String at = "messages[" + i + "]";
            JsonObject m = in.get(i).getAsJsonObject();
            String role = string(m, "role", at);
            JsonElement content = m.get("content");
            if (content == null || content.isJsonNull() || content.isJsonPrimitive()) {
                out.add(
                        message(
                                role,
                                content == null || content.isJsonNull()
                                        ? ""
                                        : content.getAsString()));
                continue;
            }
            if (!content.isJsonArray())
                throw new Invalid(at + ".content", at + ".content must be a string or an array");
            StringBuilder text = new StringBuilder();
            StringBuilder thinking = new StringBuilder();
            JsonArray calls = new JsonArray();
            JsonArray blocks = content.getAsJsonArray();
            for (int k = 0; k < blocks.size(); k++) {
                String bat = at + ".content[" + k + "]";
                if (!blocks.get(k).isJsonObject())
                    throw new Invalid(bat, bat + " must be an object");
                JsonObject b = blocks.get(k).getAsJsonObject();
                String type = string(b, "type", bat);
                switch (type) {
                    case "text" -> text.append(string(b, "text", bat));
                    case "thinking" -> thinking.append(string(b, "thinking", bat));
                    case "redacted_thinking" -> {}
                    case "tool_use" -> {
                        JsonObject function = new JsonObject();
                        function.addProperty("name", string(b, "name", bat));
                        JsonElement input = b.get("input");
                        function.addProperty(
                                "arguments",
                                input == null || input.isJsonNull() ? "{}" : Json.write(input));
                        arguments(function, bat + ".input");
                        JsonObject call = new JsonObject();
                        call.addProperty("id", string(b, "id", bat));
                        call.addProperty("type", "function");
                        call.add("function", function);
                        calls.add(call);
                    }
                    case "tool_result" -> {
                        JsonObject t = new JsonObject();
                        t.addProperty("role", "tool");
                        t.addProperty("tool_call_id", string(b, "tool_use_id", bat));
                        JsonElement c = b.get("content");
                        t.addProperty(
                                "content",
                                c == null || c.isJsonNull()
                                        ? ""
                                        : c.isJsonArray()
                                                ? text(c.getAsJsonArray(), bat + ".content")
                                                : c.getAsString());
                        out.add(t);
                    }
                    default ->
                            throw new Invalid(
                                    bat + ".type",
                                    bat
                                            + ": content blocks of type '"
                                            + type
                                            + "' cannot be rendered by the chat template (text, thinking, tool_use and tool_result can)");
                }
            }
            boolean onlyResults = text.length() == 0 && calls.isEmpty() && thinking.length() == 0;
            if (role.equals("user") && onlyResults && !blocks.isEmpty()) continue;
            JsonObject msg = message(role, text.toString());
            if (thinking.length() > 0) msg.addProperty("reasoning_content", thinking.toString());
            if (!calls.isEmpty()) msg.add("tool_calls", calls);
            out.add(msg);
        }
        return out;
    }

    // ----

    private static JsonObject message(String role, String content) {
        JsonObject m = new JsonObject();
        m.addProperty("role", role);
        m.add("content", content == null ? JsonNull.INSTANCE : new JsonPrimitive(content));
        return m;
    }

    private static String string(JsonObject o, String key, String at) {
        JsonElement v = o.get(key);
        if (v == null || !JsonChecks.is(v, JsonChecks.Kind.STRING))
            throw new Invalid(at + "." + key, at + "." + key + ": expected a string");
        return v.getAsString();
    }
}
