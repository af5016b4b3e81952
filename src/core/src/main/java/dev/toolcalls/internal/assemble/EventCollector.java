package dev.toolcalls.internal.assemble;

import dev.toolcalls.ChatMessage;
import dev.toolcalls.ParseEvent;
import dev.toolcalls.ToolCall;

import java.util.AbstractList;
import java.util.ArrayList;
import java.util.List;
import java.util.RandomAccess;

/**
 * Collects the events of one feed, merging consecutive pieces of the same kind: text after text,
 * reasoning after reasoning, argument fragments of the same call after each other.
 *
 * <p>For a whole output parsed into a message ({@link #collectMessage}) it makes no events: it
 * gathers the message's text, reasoning and ended calls, as {@code ChatMessage.fromEvents} would
 * read them from the events.
 */
public final class EventCollector {
    /*
     * What is being collected: a number, not an enum constant, so that the parts kept from parse to
     * parse store no reference when it changes (with G1, a reference stored into an object that
     * survived a collection pays the write barrier's fence).
     */
    private static final int NONE = 0;
    private static final int TEXT = 1;
    private static final int REASONING = 2;
    private static final int ARGUMENTS = 3;

    private final ArrayList<ParseEvent> done = new ArrayList<>();
    private int kind = NONE;

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
     * A call whose argument pieces have arrived but are not collected yet ({@code owed}): they are
     * collected before anything else is, and before the events are drained, so that many pieces of
     * one feed make one fragment without a string per piece. The call is kept once known (a flag
     * marks the debt, rather than a reference stored and cleared per piece).
     */
    private CallAssembler owing;

    private boolean owed;

    /** Gathering a message instead of events ({@link #collectMessage}). */
    private boolean message;

    private final TextPieces messageText = new TextPieces();
    private final TextPieces messageReasoning = new TextPieces();

    /** The message's first call, and the ones after it. */
    private ToolCall firstCall;

    private final ArrayList<ToolCall> moreCalls = new ArrayList<>();

    /** Empty, as new (for a parser that reuses this one). */
    public void reset() {
        done.clear();
        more.clear();
        message = false;
        messageText.clear();
        messageReasoning.clear();
        firstCall = null;
        if (moreCalls.size() > 1024) {
            moreCalls.clear();
            moreCalls.trimToSize();
        }
        moreCalls.clear();
        kind = NONE;
        first = null;
        length = 0;
        index = 0;
        justStarted = -1;
        wholeCall = false;
        owed = false;
    }

    /**
     * Until {@link #reset}, the pieces of the message a whole output makes are gathered ({@link
     * #message}) and no event is made: {@link #drain} gives nothing.
     */
    public void collectMessage() {
        message = true;
    }

    /** Whether events are collected (else only a message, whose calls need no argument events). */
    boolean collectsEvents() {
        return !message;
    }

    /**
     * The message of what was gathered since {@link #collectMessage}: its text, reasoning and the
     * calls that ended, in order (what {@code ChatMessage.fromEvents} makes of the events).
     */
    public ChatMessage message() {
        int n = firstCall == null ? 0 : 1 + moreCalls.size();
        List<ToolCall> calls;
        if (n == 0) calls = List.of();
        else if (n == 1) calls = List.of(firstCall);
        else {
            ToolCall[] all = new ToolCall[n];
            all[0] = firstCall;
            for (int i = 1; i < n; i++) all[i] = moreCalls.get(i - 1);
            calls = List.of(all);
        }
        return new ChatMessage(messageText.textOrNull(), messageReasoning.textOrNull(), calls);
    }

    /** {@code calls} has argument pieces to send, collected when {@link #settle} is due. */
    void owe(CallAssembler calls) {
        if (message) return;
        if (owing != calls) owing = calls;
        owed = true;
    }

    /** Collects the argument pieces a call owes, before any other event and any drain. */
    void settle() {
        if (owed) {
            owed = false;
            owing.sendPending();
        }
    }

    public void content(String piece) {
        text(TEXT, piece);
    }

    /**
     * Text of [from, to) of {@code source}: gathered as a range where a message is gathered (no
     * string made of it here), else cut for its event.
     */
    public void text(boolean reasoning, String source, int from, int to) {
        if (from == to) return;
        if (message) (reasoning ? messageReasoning : messageText).add(source, from, to);
        else text(reasoning ? REASONING : TEXT, source.substring(from, to));
    }

    public void reasoning(String piece) {
        text(REASONING, piece);
    }

    private void text(int k, String piece) {
        if (piece.isEmpty()) return;
        if (message) {
            (k == TEXT ? messageText : messageReasoning).add(piece);
            return;
        }
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
        if (message) return;
        settle();
        flush();
        done.add(new ParseEvent.ToolCallStart(index, id, name));
        justStarted = index;
    }

    public void arguments(int index, String fragment) {
        if (fragment.isEmpty() || message) return;
        if (kind != ARGUMENTS || this.index != index) {
            flush();
            kind = ARGUMENTS;
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
        if (message) {
            ToolCall call = new ToolCall(id, name, arguments);
            if (firstCall == null) firstCall = call;
            else moreCalls.add(call);
            return;
        }
        settle();
        if (kind == ARGUMENTS && this.index == index && wholeCall) {
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
        if (kind != NONE || !done.isEmpty() || piece.isEmpty()) {
            text(reasoning ? REASONING : TEXT, piece);
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
        int k = kind;
        kind = NONE;
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
