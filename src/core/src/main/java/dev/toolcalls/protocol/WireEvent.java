package dev.toolcalls.protocol;

/**
 * One event of a wire protocol: its SSE event name (null where the protocol sends none, as Chat
 * Completions) and its JSON.
 */
public record WireEvent(String name, String json) {
    /** {@code event: NAME\ndata: JSON\n\n}, or {@code data: JSON\n\n} without a name. */
    public String sse() {
        return (name == null ? "" : "event: " + name + "\n") + "data: " + json + "\n\n";
    }
}
