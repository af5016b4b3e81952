package dev.toolcalls;

import dev.toolcalls.internal.assemble.TextPieces;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * A parsed assistant message: {@code {"content": string|null, "tool_calls": [...]}}, plus {@code
 * "reasoning_content"} when the format has reasoning and the output some. Content is the text
 * outside calls; it is null when there is none but whitespace. Its JSON: {@link
 * dev.toolcalls.protocol.ValueJson#message}.
 */
public record ChatMessage(String content, String reasoningContent, List<ToolCall> toolCalls) {
    public ChatMessage {
        toolCalls = List.copyOf(toolCalls);
    }

    public ChatMessage(String content, List<ToolCall> toolCalls) {
        this(content, null, toolCalls);
    }

    /** Reassembles a message from deltas, as an OpenAI client does. */
    public static ChatMessage fromDeltas(List<DeltaMessage> deltas) {
        StringBuilder content = new StringBuilder();
        StringBuilder reasoning = new StringBuilder();
        List<String> ids = new ArrayList<>();
        List<String> names = new ArrayList<>();
        List<StringBuilder> args = new ArrayList<>();
        for (DeltaMessage d : deltas) {
            if (d.content() != null) content.append(d.content());
            if (d.reasoningContent() != null) reasoning.append(d.reasoningContent());
            ToolCallDelta t = d.toolCall();
            if (t == null) continue;
            while (ids.size() <= t.index()) {
                ids.add(null);
                names.add(null);
                args.add(new StringBuilder());
            }
            if (t.id() != null) ids.set(t.index(), t.id());
            if (t.name() != null) names.set(t.index(), t.name());
            if (t.arguments() != null) args.get(t.index()).append(t.arguments());
        }
        List<ToolCall> calls = new ArrayList<>();
        for (int i = 0; i < ids.size(); i++)
            calls.add(new ToolCall(ids.get(i), names.get(i), args.get(i).toString()));
        return new ChatMessage(orNull(content.toString()), orNull(reasoning.toString()), calls);
    }

    /** The message that events make: text, reasoning, and the calls that ended. */
    public static ChatMessage fromEvents(List<ParseEvent> events) {
        TextPieces content = new TextPieces();
        TextPieces reasoning = null;
        ToolCall one = null; // the first call: a message of one call makes no array
        ToolCall[] calls = null;
        int n = 0;
        for (int i = 0, size = events.size(); i < size; i++) {
            ParseEvent e = events.get(i);
            if (e instanceof ParseEvent.Text t) {
                content.add(t.text());
            } else if (e instanceof ParseEvent.Reasoning r) {
                if (reasoning == null) reasoning = new TextPieces();
                reasoning.add(r.text());
            } else if (e instanceof ParseEvent.ToolCallEnd end) {
                ToolCall call = end.toolCall();
                if (n == 0) one = call;
                else {
                    if (calls == null) {
                        calls = new ToolCall[Math.min(size, 16)];
                        calls[0] = one;
                    } else if (n == calls.length) calls = Arrays.copyOf(calls, n * 2);
                    calls[n] = call;
                }
                n++;
            }
        }
        // immutable lists, which the constructor's List.copyOf keeps as they are
        return new ChatMessage(
                content.textOrNull(),
                reasoning == null ? null : reasoning.textOrNull(),
                n == 0
                        ? List.of()
                        : n == 1
                                ? List.of(one)
                                : List.of(calls.length == n ? calls : Arrays.copyOf(calls, n)));
    }

    private static String orNull(String text) {
        return text.isBlank() ? null : text;
    }
}
