package dev.toolcalls.langchain4j;

import dev.langchain4j.agent.tool.ToolExecutionRequest;
import dev.langchain4j.agent.tool.ToolSpecification;
import dev.langchain4j.data.message.AiMessage;
import dev.langchain4j.data.message.ChatMessage;
import dev.langchain4j.data.message.Content;
import dev.langchain4j.data.message.CustomMessage;
import dev.langchain4j.data.message.SystemMessage;
import dev.langchain4j.data.message.TextContent;
import dev.langchain4j.data.message.ToolExecutionResultMessage;
import dev.langchain4j.data.message.UserMessage;
import dev.langchain4j.model.chat.request.json.JsonAnyOfSchema;
import dev.langchain4j.model.chat.request.json.JsonArraySchema;
import dev.langchain4j.model.chat.request.json.JsonBooleanSchema;
import dev.langchain4j.model.chat.request.json.JsonEnumSchema;
import dev.langchain4j.model.chat.request.json.JsonIntegerSchema;
import dev.langchain4j.model.chat.request.json.JsonNullSchema;
import dev.langchain4j.model.chat.request.json.JsonNumberSchema;
import dev.langchain4j.model.chat.request.json.JsonObjectSchema;
import dev.langchain4j.model.chat.request.json.JsonRawSchema;
import dev.langchain4j.model.chat.request.json.JsonReferenceSchema;
import dev.langchain4j.model.chat.request.json.JsonSchemaElement;
import dev.langchain4j.model.chat.request.json.JsonStringSchema;
import dev.toolcalls.templates.raw.JsonValues;
import dev.toolcalls.templates.raw.MessageShape;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * LangChain4j's messages and tool specifications as the OpenAI-shaped plain values that chat
 * templates read: {@code role}, {@code content}, {@code tool_calls} with arguments as objects,
 * {@code tool_call_id}, {@code reasoning_content}; tools as {@code {"type": "function", "function":
 * {name, description, parameters}}} with JSON schemas.
 */
final class Conversation {
    private Conversation() {}

    static List<Map<String, Object>> messages(List<ChatMessage> messages, MessageShape shape) {
        List<Map<String, Object>> out = new ArrayList<>(messages.size());
        for (ChatMessage m : messages) out.add(message(m, shape));
        return out;
    }

    static Map<String, Object> message(ChatMessage m, MessageShape shape) {
        Map<String, Object> out = new LinkedHashMap<>();
        if (m instanceof SystemMessage s) {
            out.put("role", "system");
            out.put("content", s.text());
        } else if (m instanceof UserMessage u) {
            out.put("role", "user");
            out.put("content", text(u.contents()));
            if (u.name() != null) out.put("name", u.name());
        } else if (m instanceof AiMessage a) {
            out.put("role", "assistant");
            out.put("content", shape.content(a.text()));
            if (a.thinking() != null) out.put("reasoning_content", a.thinking());
            if (a.hasToolExecutionRequests()) {
                List<Map<String, Object>> calls = new ArrayList<>();
                for (ToolExecutionRequest r : a.toolExecutionRequests())
                    calls.add(toolCall(r, shape));
                out.put("tool_calls", calls);
            }
        } else if (m instanceof ToolExecutionResultMessage t) {
            out.put("role", "tool");
            out.put("tool_call_id", t.id());
            out.put("name", t.toolName());
            out.put("content", t.hasSingleText() ? t.text() : text(t.contents()));
        } else if (m instanceof CustomMessage c) {
            out.putAll(c.attributes());
        } else {
            throw new IllegalArgumentException(
                    "a chat template cannot render a message of type " + m.type());
        }
        return out;
    }

    private static Map<String, Object> toolCall(ToolExecutionRequest r, MessageShape shape) {
        Map<String, Object> function = new LinkedHashMap<>();
        function.put("name", r.name());
        function.put("arguments", shape.arguments(r.arguments()));
        Map<String, Object> call = new LinkedHashMap<>();
        call.put("id", r.id());
        call.put("type", "function");
        call.put("function", function);
        return call;
    }

    private static String text(List<Content> contents) {
        StringBuilder text = new StringBuilder();
        for (Content c : contents) {
            if (!(c instanceof TextContent t))
                throw new IllegalArgumentException(
                        "a text chat template cannot render "
                                + c.type()
                                + " content; only text reaches the model");
            text.append(t.text());
        }
        return text.toString();
    }

    /** The tools of a request, in OpenAI's shape. */
    static List<Map<String, Object>> tools(List<ToolSpecification> specifications) {
        List<Map<String, Object>> tools = new ArrayList<>();
        if (specifications == null) return tools;
        for (ToolSpecification s : specifications) {
            Map<String, Object> function = new LinkedHashMap<>();
            function.put("name", s.name());
            if (s.description() != null) function.put("description", s.description());
            function.put(
                    "parameters",
                    s.parameters() != null
                            ? schema(s.parameters())
                            : new LinkedHashMap<>(
                                    Map.of("type", "object", "properties", Map.of())));
            Map<String, Object> tool = new LinkedHashMap<>();
            tool.put("type", "function");
            tool.put("function", function);
            tools.add(tool);
        }
        return tools;
    }

    /** A LangChain4j JSON schema element as a JSON Schema object. */
    static Map<String, Object> schema(JsonSchemaElement e) {
        Map<String, Object> out = new LinkedHashMap<>();
        if (e instanceof JsonObjectSchema o) {
            out.put("type", "object");
            describe(out, o.description());
            Map<String, Object> properties = new LinkedHashMap<>();
            if (o.properties() != null)
                o.properties().forEach((k, v) -> properties.put(k, schema(v)));
            out.put("properties", properties);
            if (o.required() != null && !o.required().isEmpty()) out.put("required", o.required());
            if (o.additionalProperties() != null)
                out.put("additionalProperties", o.additionalProperties());
            if (o.definitions() != null && !o.definitions().isEmpty()) {
                Map<String, Object> defs = new LinkedHashMap<>();
                o.definitions().forEach((k, v) -> defs.put(k, schema(v)));
                out.put("$defs", defs);
            }
        } else if (e instanceof JsonStringSchema s) {
            out.put("type", "string");
            describe(out, s.description());
        } else if (e instanceof JsonIntegerSchema i) {
            out.put("type", "integer");
            describe(out, i.description());
        } else if (e instanceof JsonNumberSchema n) {
            out.put("type", "number");
            describe(out, n.description());
        } else if (e instanceof JsonBooleanSchema b) {
            out.put("type", "boolean");
            describe(out, b.description());
        } else if (e instanceof JsonEnumSchema en) {
            out.put("type", "string");
            describe(out, en.description());
            out.put("enum", en.enumValues());
        } else if (e instanceof JsonArraySchema a) {
            out.put("type", "array");
            describe(out, a.description());
            if (a.items() != null) out.put("items", schema(a.items()));
        } else if (e instanceof JsonAnyOfSchema any) {
            describe(out, any.description());
            List<Object> anyOf = new ArrayList<>();
            for (JsonSchemaElement x : any.anyOf()) anyOf.add(schema(x));
            out.put("anyOf", anyOf);
        } else if (e instanceof JsonNullSchema) {
            out.put("type", "null");
        } else if (e instanceof JsonReferenceSchema r) {
            out.put("$ref", "#/$defs/" + r.reference());
            describe(out, r.description());
        } else if (e instanceof JsonRawSchema raw) {
            Object value = JsonValues.parse(raw.schema());
            if (!(value instanceof Map<?, ?> map))
                throw new IllegalArgumentException("a raw JSON schema is not an object");
            map.forEach((k, v) -> out.put(String.valueOf(k), v));
        } else {
            throw new IllegalArgumentException(
                    "unknown JSON schema element " + e.getClass().getName());
        }
        return out;
    }

    private static void describe(Map<String, Object> out, String description) {
        if (description != null) out.put("description", description);
    }
}
