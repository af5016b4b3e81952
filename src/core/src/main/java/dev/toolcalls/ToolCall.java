package dev.toolcalls;

import dev.toolcalls.internal.json.Json;
import dev.toolcalls.internal.json.WireJson;

/**
 * One complete tool call of a message: {@code {"id", "type": "function", "function": {"name", "arguments"}}}.
 *
 * @param arguments the arguments as a JSON object text, exactly the concatenation of the streamed fragments
 */
public record ToolCall(String id, String name, String arguments) {
    public String type() { return "function"; }

    /** Compact JSON with OpenAI field names. */
    public String toJson() { return Json.write(WireJson.toolCall(this)); }
}
