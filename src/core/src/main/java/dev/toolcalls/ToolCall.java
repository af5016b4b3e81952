package dev.toolcalls;

/**
 * One complete tool call of a message: {@code {"id", "type": "function", "function": {"name",
 * "arguments"}}} as JSON ({@link dev.toolcalls.protocol.ValueJson#toolCall}).
 *
 * @param arguments the arguments as a JSON object text, exactly the concatenation of the streamed
 *     fragments
 */
public record ToolCall(String id, String name, String arguments) {
    public String type() {
        return "function";
    }
}
