package dev.toolcalls.internal.assemble;

import java.util.ArrayList;
import java.util.List;

import dev.toolcalls.DeltaMessage;
import dev.toolcalls.ParseEvent;
import dev.toolcalls.ToolCallDelta;

/**
 * Chat Completions deltas from parse events: text and reasoning as they are; a call's start as its
 * first delta (id, type, name) carrying the argument fragment that directly follows it, if any;
 * later fragments as {@code index} + {@code arguments}; a call's end adds nothing.
 */
public final class Deltas {
    private Deltas() { }

    public static List<DeltaMessage> of(List<ParseEvent> events) {
        if (events.isEmpty()) return List.of();
        if (events.size() == 1) {                  // the common case while streaming: one piece of text
            ParseEvent e = events.get(0);
            if (e instanceof ParseEvent.Text t) return List.of(new DeltaMessage(t.text(), null, null));
            if (e instanceof ParseEvent.Reasoning r) return List.of(new DeltaMessage(null, r.text(), null));
        }
        List<DeltaMessage> out = new ArrayList<>(events.size());
        for (int i = 0; i < events.size(); i++) {
            ParseEvent e = events.get(i);
            if (e instanceof ParseEvent.Text t) out.add(new DeltaMessage(t.text(), null, null));
            else if (e instanceof ParseEvent.Reasoning r) out.add(new DeltaMessage(null, r.text(), null));
            else if (e instanceof ParseEvent.ToolCallStart s) {
                String first = "";
                if (i + 1 < events.size() && events.get(i + 1) instanceof ParseEvent.ToolCallArguments a && a.index() == s.index()) {
                    first = a.fragment();
                    i++;
                }
                out.add(new DeltaMessage(null, null, new ToolCallDelta(s.index(), s.id(), s.name(), first)));
            } else if (e instanceof ParseEvent.ToolCallArguments a) {
                out.add(new DeltaMessage(null, null, new ToolCallDelta(a.index(), null, null, a.fragment())));
            }
        }
        return List.copyOf(out);
    }
}
