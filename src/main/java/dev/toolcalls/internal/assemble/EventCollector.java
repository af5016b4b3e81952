package dev.toolcalls.internal.assemble;

import java.util.ArrayList;
import java.util.List;

import dev.toolcalls.ParseEvent;

/**
 * Collects the events of one feed, merging consecutive pieces of the same kind: text after text,
 * reasoning after reasoning, argument fragments of the same call after each other.
 */
public final class EventCollector {
    private enum Kind { NONE, TEXT, REASONING, ARGUMENTS }

    private final List<ParseEvent> done = new ArrayList<>();
    private Kind kind = Kind.NONE;
    private final StringBuilder text = new StringBuilder();
    /** The first piece of the current kind, kept as is: a single piece is never copied. */
    private String first;
    private int index;

    public void content(String piece) { text(Kind.TEXT, piece); }

    public void reasoning(String piece) { text(Kind.REASONING, piece); }

    private void text(Kind k, String piece) {
        if (piece.isEmpty()) return;
        if (kind != k) { flush(); kind = k; }
        add(piece);
    }

    private void add(String piece) {
        if (first == null && text.length() == 0) { first = piece; return; }
        if (first != null) { text.append(first); first = null; }
        text.append(piece);
    }

    private String taken() {
        String s = first != null ? first : text.toString();
        first = null;
        text.setLength(0);
        return s;
    }

    public void start(int index, String id, String name) {
        flush();
        done.add(new ParseEvent.ToolCallStart(index, id, name));
    }

    public void arguments(int index, String fragment) {
        if (fragment.isEmpty()) return;
        if (kind != Kind.ARGUMENTS || this.index != index) {
            flush();
            kind = Kind.ARGUMENTS;
            this.index = index;
        }
        add(fragment);
    }

    public void end(int index, String id, String name, String arguments) {
        flush();
        done.add(new ParseEvent.ToolCallEnd(index, id, name, arguments));
    }

    public List<ParseEvent> drain() {
        if (done.isEmpty()) {                      // the common case while streaming: one piece, or nothing
            if (kind == Kind.NONE) return List.of();
            if (kind == Kind.TEXT && first != null) {
                ParseEvent e = new ParseEvent.Text(first);
                first = null;
                kind = Kind.NONE;
                return List.of(e);
            }
        }
        flush();
        int n = done.size();
        if (n == 0) return List.of();
        List<ParseEvent> out = n == 1 ? List.of(done.get(0)) : List.copyOf(done);
        done.clear();
        return out;
    }

    private void flush() {
        switch (kind) {
            case TEXT: done.add(new ParseEvent.Text(taken())); break;
            case REASONING: done.add(new ParseEvent.Reasoning(taken())); break;
            case ARGUMENTS: done.add(new ParseEvent.ToolCallArguments(index, taken())); break;
            default: break;
        }
        kind = Kind.NONE;
    }
}
