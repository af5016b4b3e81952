package dev.toolcalls.internal.assemble;

import dev.toolcalls.ParseEvent;

import java.util.AbstractList;
import java.util.ArrayList;
import java.util.List;
import java.util.RandomAccess;

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

    private final ArrayList<ParseEvent> done = new ArrayList<>();
    private Kind kind = Kind.NONE;

    /** The first piece of the current kind, kept as is: a single piece is never copied. */
    private String first;

    /** The pieces after the first, joined once when the event is made. */
    private final ArrayList<String> more = new ArrayList<>();

    private int length;

    private int index;

    /** The index of the call whose start was the last thing collected, else -1. */
    private int justStarted = -1;

    /**
     * The argument pieces being collected are all of their call's so far: at its end they are its
     * whole arguments, which the end brings as one string.
     */
    private boolean wholeCall;

    /**
     * A call whose argument pieces have arrived but are not collected yet (else null): they are
     * collected before anything else is, and before the events are drained, so that many pieces of
     * one feed make one fragment without a string per piece.
     */
    private CallAssembler owing;

    /** Empty, as new (for a parser that reuses this one). */
    public void reset() {
        done.clear();
        more.clear();
        kind = Kind.NONE;
        first = null;
        length = 0;
        index = 0;
        justStarted = -1;
        wholeCall = false;
        owing = null;
    }

    /** {@code calls} has argument pieces to send, collected when {@link #settle} is due. */
    void owe(CallAssembler calls) {
        owing = calls;
    }

    /** Collects the argument pieces a call owes, before any other event and any drain. */
    void settle() {
        CallAssembler c = owing;
        if (c != null) {
            owing = null;
            c.sendPending();
        }
    }

    public void content(String piece) {
        text(Kind.TEXT, piece);
    }

    public void reasoning(String piece) {
        text(Kind.REASONING, piece);
    }

    private void text(Kind k, String piece) {
        if (piece.isEmpty()) return;
        settle();
        justStarted = -1;
        if (kind != k) {
            flush();
            kind = k;
        }
        add(piece);
    }

    private void add(String piece) {
        if (first == null) first = piece;
        else more.add(piece);
        length += piece.length();
    }

    private String taken() {
        String s = first;
        if (more.size() == 1) {
            s = first.concat(more.get(0)); // one copy, where a builder makes two
            more.clear();
        } else if (!more.isEmpty()) {
            StringBuilder b = new StringBuilder(length).append(first);
            int n = more.size();
            for (int i = 0; i < n; i++) b.append(more.get(i));
            s = b.toString();
            more.clear();
            if (n > 1024) more.trimToSize(); // a long output's list is not kept for the next parser
        }
        first = null;
        length = 0;
        return s;
    }

    public void start(int index, String id, String name) {
        settle();
        flush();
        done.add(new ParseEvent.ToolCallStart(index, id, name));
        justStarted = index;
    }

    public void arguments(int index, String fragment) {
        if (fragment.isEmpty()) return;
        if (kind != Kind.ARGUMENTS || this.index != index) {
            flush();
            kind = Kind.ARGUMENTS;
            this.index = index;
            wholeCall = justStarted == index;
        }
        justStarted = -1;
        add(fragment);
    }

    /**
     * @param arguments the call's whole arguments: the concatenation of all its fragments
     */
    public void end(int index, String id, String name, String arguments) {
        settle();
        if (kind == Kind.ARGUMENTS && this.index == index && wholeCall) {
            // the pieces collected are all of them: their event is the whole arguments, not a copy
            more.clear();
            first = arguments;
            length = arguments.length();
        }
        flush();
        justStarted = -1;
        done.add(new ParseEvent.ToolCallEnd(index, id, name, arguments));
    }

    /**
     * The events of a feed that brought only {@code piece} of text (or of reasoning): as {@link
     * #content} (or {@link #reasoning}) and then {@link #drain}, without collecting it first.
     */
    public List<ParseEvent> drainText(String piece, boolean reasoning) {
        settle();
        if (kind != Kind.NONE || !done.isEmpty() || piece.isEmpty()) {
            text(reasoning ? Kind.REASONING : Kind.TEXT, piece);
            return drain();
        }
        justStarted = -1;
        return List.of(reasoning ? new ParseEvent.Reasoning(piece) : new ParseEvent.Text(piece));
    }

    public List<ParseEvent> drain() {
        settle();
        justStarted = -1;
        if (done.isEmpty()) { // the common case while streaming: one piece, or nothing
            ParseEvent e = pending();
            return e == null ? List.of() : List.of(e);
        }
        flush();
        List<ParseEvent> out = new Events(done.toArray(new ParseEvent[0]));
        int n = done.size();
        done.clear();
        if (n > 1024) done.trimToSize(); // a long output's list is not kept for the next parser
        return out;
    }

    /**
     * The events of a drain: an unmodifiable list over the one array they were copied into (where
     * {@code List.copyOf} copies them twice).
     */
    private static final class Events extends AbstractList<ParseEvent> implements RandomAccess {
        private final ParseEvent[] events;

        Events(ParseEvent[] events) {
            this.events = events;
        }

        @Override
        public ParseEvent get(int index) {
            return events[index];
        }

        @Override
        public int size() {
            return events.length;
        }
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
