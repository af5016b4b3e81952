package dev.toolcalls.springai;

import dev.toolcalls.templates.raw.JsonValues;
import dev.toolcalls.templates.raw.MessageShape;

import org.springframework.ai.chat.messages.AssistantMessage;
import org.springframework.ai.chat.messages.Message;
import org.springframework.ai.chat.messages.SystemMessage;
import org.springframework.ai.chat.messages.ToolResponseMessage;
import org.springframework.ai.chat.messages.UserMessage;
import org.springframework.ai.tool.ToolCallback;
import org.springframework.ai.tool.definition.ToolDefinition;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Spring AI's messages and tool definitions as the OpenAI-shaped plain values that chat templates
 * read: {@code role}, {@code content}, {@code tool_calls} with arguments as objects, {@code
 * tool_call_id}, {@code reasoning_content}; tools as {@code {"type": "function", "function": {name,
 * description, parameters}}}.
 */
final class Conversation {
    /**
     * The assistant message property that holds reasoning, as Spring AI's OpenAI model names it.
     */
    static final String REASONING = "reasoningContent";

    private Conversation() {}

    static List<Map<String, Object>> messages(List<Message> messages, MessageShape shape) {
        List<Map<String, Object>> out = new ArrayList<>(messages.size());
        for (Message m : messages) {
            if (m instanceof ToolResponseMessage t) {
                for (ToolResponseMessage.ToolResponse r : t.getResponses()) {
                    Map<String, Object> tool = new LinkedHashMap<>();
                    tool.put("role", "tool");
                    tool.put("tool_call_id", r.id());
                    tool.put("name", r.name());
                    tool.put("content", r.responseData());
                    out.add(tool);
                }
            } else {
                out.add(message(m, shape));
            }
        }
        return out;
    }

    private static Map<String, Object> message(Message m, MessageShape shape) {
        Map<String, Object> out = new LinkedHashMap<>();
        if (m instanceof SystemMessage s) {
            out.put("role", "system");
            out.put("content", s.getText());
        } else if (m instanceof UserMessage u) {
            if (!u.getMedia().isEmpty())
                throw new IllegalArgumentException(
                        "a text chat template cannot render media; only text reaches the model");
            out.put("role", "user");
            out.put("content", u.getText());
        } else if (m instanceof AssistantMessage a) {
            out.put("role", "assistant");
            String text = a.getText();
            out.put(
                    "content",
                    shape.content(
                            text == null || text.isEmpty() && a.hasToolCalls() ? null : text));
            Object reasoning = a.getMetadata().get(REASONING);
            if (reasoning instanceof String r && !r.isEmpty()) out.put("reasoning_content", r);
            if (a.hasToolCalls()) {
                List<Map<String, Object>> calls = new ArrayList<>();
                for (AssistantMessage.ToolCall c : a.getToolCalls()) {
                    Map<String, Object> function = new LinkedHashMap<>();
                    function.put("name", c.name());
                    function.put("arguments", shape.arguments(c.arguments()));
                    Map<String, Object> call = new LinkedHashMap<>();
                    call.put("id", c.id());
                    call.put("type", "function");
                    call.put("function", function);
                    calls.add(call);
                }
                out.put("tool_calls", calls);
            }
        } else {
            throw new IllegalArgumentException(
                    "a chat template cannot render a message of type " + m.getMessageType());
        }
        return out;
    }

    /** The tools of the callbacks, in OpenAI's shape. */
    static List<Map<String, Object>> tools(List<ToolCallback> callbacks) {
        List<Map<String, Object>> tools = new ArrayList<>();
        for (ToolCallback c : callbacks) {
            ToolDefinition d = c.getToolDefinition();
            Map<String, Object> function = new LinkedHashMap<>();
            function.put("name", d.name());
            if (d.description() != null && !d.description().isEmpty())
                function.put("description", d.description());
            Object schema = JsonValues.parse(d.inputSchema());
            if (!(schema instanceof Map))
                throw new IllegalArgumentException(
                        "the input schema of tool " + d.name() + " is not a JSON object");
            function.put("parameters", schema);
            Map<String, Object> tool = new LinkedHashMap<>();
            tool.put("type", "function");
            tool.put("function", function);
            tools.add(tool);
        }
        return tools;
    }
}
