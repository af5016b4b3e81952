package dev.toolcalls;

import java.util.List;

import dev.toolcalls.internal.json.Json;
import dev.toolcalls.internal.json.WireJson;

/**
 * What one chunk of output adds to the message, in the shape of OpenAI's
 * {@code choices[0].delta}: exactly one of {@code {"content": "..."}},
 * {@code {"reasoning_content": "..."}} (the field vLLM and SGLang use for reasoning text) or
 * {@code {"tool_calls": [ one entry ]}}.
 */
public record DeltaMessage(String content, String reasoningContent, ToolCallDelta toolCall) {
    public boolean isContent() { return content != null; }

    public boolean isReasoning() { return reasoningContent != null; }

    public boolean isToolCall() { return toolCall != null; }

    /** The {@code tool_calls} list of this delta: empty unless it is a tool-call delta. */
    public List<ToolCallDelta> toolCalls() { return toolCall == null ? List.of() : List.of(toolCall); }

    /** Compact JSON with OpenAI field names. */
    public String toJson() { return Json.write(WireJson.delta(this)); }
}
