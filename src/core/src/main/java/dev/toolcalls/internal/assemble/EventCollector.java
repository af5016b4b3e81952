package dev.toolcalls.internal.assemble;

import dev.toolcalls.ParseEvent;

import java.util.ArrayList;
import java.util.List;

/**
 * Collects the events of one feed, merging consecutive pieces of the same kind: text after text,
 * reasoning after reasoning, argument fragments of the same call after each other.
 */
public final class EventCollector {
    private enum Kind {
        NONE,
        TEXT,
        REASONING,
        ARGUMENTS
    }

    private final List<ParseEvent> done = new ArrayList<>();
    private Kind kind = Kind.NONE;
    private final StringBuilder text = new StringBuilder();

    /** The first piece of the current kind, kept as is: a single piece is never copied. */
    private String first;

    private int index;

    public void content(String piece) {
        text(Kind.TEXT, piece);
    }

    public void reasoning(String piece) {
        text(Kind.REASONING, piece);
    }

    private void text(Kind k, String piece) {
        if (piece.isEmpty()) return;
        if (kind != k) {
            flush();
            kind = k;
        }
        add(piece);
    }

    private void add(String piece) {
        if (first == null && text.length() == 0) {
            first = piece;
            return;
        }
        if (first != null) {
            text.append(first);
            first = null;
        }
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
        if (done.isEmpty()) { // the common case while streaming: one piece, or nothing
            ParseEvent e = pending();
            return e == null ? List.of() : List.of(e);
        }
        flush();
        List<ParseEvent> out = List.copyOf(done);
        done.clear();
        return out;
    }

    private void flush() {
        ParseEvent e = pending();
        if (e != null) done.add(e);
    }

    /** The piece being collected as an event (null if none), and collecting starts over. */
    private ParseEvent pending() {
        Kind k = kind;
        kind = Kind.NONE;
        switch (k) {
            case TEXT:
                return new ParseEvent.Text(taken());
            case REASONING:
                return new ParseEvent.Reasoning(taken());
            case ARGUMENTS:
                return new ParseEvent.ToolCallArguments(index, taken());
            default:
                return null;
        }
    }
}
