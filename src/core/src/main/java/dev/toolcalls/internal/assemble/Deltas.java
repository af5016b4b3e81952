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
        int n = events.size();
        if (n == 0) return List.of();
        if (n == 1) {                              // the common case while streaming: no list to build
            DeltaMessage d = delta(events.get(0), "");
            return d == null ? List.of() : List.of(d);
        }
        List<DeltaMessage> out = new ArrayList<>(n);
        for (int i = 0; i < n; i++) {
            ParseEvent e = events.get(i);
            String first = "";
            if (e instanceof ParseEvent.ToolCallStart s && i + 1 < n
                    && events.get(i + 1) instanceof ParseEvent.ToolCallArguments a && a.index() == s.index()) {
                first = a.fragment();
                i++;
            }
            DeltaMessage d = delta(e, first);
            if (d != null) out.add(d);
        }
        return out;
    }

    /** The delta of one event (a call's start carrying {@code firstArguments}); null for a call's end. */
    private static DeltaMessage delta(ParseEvent e, String firstArguments) {
        if (e instanceof ParseEvent.Text t) return new DeltaMessage(t.text(), null, null);
        if (e instanceof ParseEvent.Reasoning r) return new DeltaMessage(null, r.text(), null);
        if (e instanceof ParseEvent.ToolCallStart s) return new DeltaMessage(null, null, new ToolCallDelta(s.index(), s.id(), s.name(), firstArguments));
        if (e instanceof ParseEvent.ToolCallArguments a) return new DeltaMessage(null, null, new ToolCallDelta(a.index(), null, null, a.fragment()));
        return null;
    }
}
