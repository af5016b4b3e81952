package dev.toolcalls;

/**
 * One entry of a delta's {@code tool_calls}. The first delta of a call carries {@code id}, {@code
 * type} and the complete {@code name} (and an {@code arguments} fragment, possibly empty); later
 * ones carry only {@code index} and an {@code arguments} fragment, so {@code id} and {@code name}
 * are null there.
 */
public record ToolCallDelta(int index, String id, String name, String arguments) {
    /** {@code "function"} on a call's first delta, else null. */
    public String type() {
        return id == null ? null : "function";
    }
}
