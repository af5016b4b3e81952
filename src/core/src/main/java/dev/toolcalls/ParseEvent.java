package dev.toolcalls;

/**
 * What parsing an output yields, neutral of any wire protocol: text, reasoning, and each tool call
 * as a start (index, id, complete name), argument fragments, and an end with the whole call.
 *
 * <pre>{@code
 * StreamParser s = format.newStream(tools);
 * for (String chunk : chunks)
 *     for (ParseEvent e : s.feed(chunk))
 *         if (e instanceof ParseEvent.ToolCallEnd end) execute(end.name(), end.arguments()); // while the model goes on
 * s.finish();
 * }</pre>
 *
 * <p>A call's {@link ToolCallEnd} comes in the same {@code feed} in which its end becomes certain
 * (its end marker was read; in formats without one, when what follows shows it ended, or at {@code
 * finish}). Every chunking gives the same events as batch parsing, except that adjacent text,
 * reasoning or argument pieces may be split differently; the argument fragments of a call
 * concatenate to its end's {@code arguments}.
 */
public sealed interface ParseEvent {
    /** Text outside calls (the message's content). */
    record Text(String text) implements ParseEvent {}

    /** Reasoning text. */
    record Reasoning(String text) implements ParseEvent {}

    /** A call begins: its index (from 0, in order), id and complete name. */
    record ToolCallStart(int index, String id, String name) implements ParseEvent {}

    /** A fragment of a call's arguments JSON. */
    record ToolCallArguments(int index, String fragment) implements ParseEvent {}

    /** A call is complete: its arguments are one JSON object (the concatenated fragments). */
    record ToolCallEnd(int index, String id, String name, String arguments) implements ParseEvent {
        /** The call as a message's tool call. */
        public ToolCall toolCall() {
            return new ToolCall(id, name, arguments);
        }
    }
}
