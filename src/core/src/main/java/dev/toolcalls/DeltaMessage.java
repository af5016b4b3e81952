package dev.toolcalls;

import java.util.ArrayList;
import java.util.List;

/**
 * What one piece of output adds to the message, in the shape of OpenAI's {@code choices[0].delta}:
 * exactly one of {@code {"content": "..."}}, {@code {"reasoning_content": "..."}} (the field vLLM
 * and SGLang use for reasoning text) or {@code {"tool_calls": [ one entry ]}}. Deltas are a view of
 * {@link ParseEvent}s:
 *
 * <pre>{@code
 * for (DeltaMessage d : DeltaMessage.of(parser.feed(chunk))) send(ValueJson.delta(d));
 * }</pre>
 */
public record DeltaMessage(String content, String reasoningContent, ToolCallDelta toolCall) {
    public boolean isContent() {
        return content != null;
    }

    public boolean isReasoning() {
        return reasoningContent != null;
    }

    public boolean isToolCall() {
        return toolCall != null;
    }

    /** The {@code tool_calls} list of this delta: empty unless it is a tool-call delta. */
    public List<ToolCallDelta> toolCalls() {
        return toolCall == null ? List.of() : List.of(toolCall);
    }

    /**
     * The Chat Completions deltas of events: text and reasoning as they are; a call's start as its
     * first delta (id, type, complete name) carrying the argument fragment that directly follows
     * it, if any; later fragments as {@code index} + {@code arguments}; a call's end adds nothing.
     */
    public static List<DeltaMessage> of(List<ParseEvent> events) {
        int n = events.size();
        if (n == 0) return List.of();
        if (n == 1) { // the common case while streaming: no list to build
            DeltaMessage d = of(events.get(0), "");
            return d == null ? List.of() : List.of(d);
        }
        List<DeltaMessage> out = new ArrayList<>(n);
        for (int i = 0; i < n; i++) {
            ParseEvent e = events.get(i);
            String first = "";
            if (e instanceof ParseEvent.ToolCallStart s
                    && i + 1 < n
                    && events.get(i + 1) instanceof ParseEvent.ToolCallArguments a
                    && a.index() == s.index()) {
                first = a.fragment();
                i++;
            }
            DeltaMessage d = of(e, first);
            if (d != null) out.add(d);
        }
        return out;
    }

    /**
     * The delta of one event (a call's start carrying {@code firstArguments}); null for a call's
     * end.
     */
    private static DeltaMessage of(ParseEvent e, String firstArguments) {
        if (e instanceof ParseEvent.Text t) return new DeltaMessage(t.text(), null, null);
        if (e instanceof ParseEvent.Reasoning r) return new DeltaMessage(null, r.text(), null);
        if (e instanceof ParseEvent.ToolCallStart s)
            return new DeltaMessage(
                    null, null, new ToolCallDelta(s.index(), s.id(), s.name(), firstArguments));
        if (e instanceof ParseEvent.ToolCallArguments a)
            return new DeltaMessage(
                    null, null, new ToolCallDelta(a.index(), null, null, a.fragment()));
        return null;
    }
}
