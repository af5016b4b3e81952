package dev.toolcalls.protocol;

import java.util.ArrayList;
import java.util.List;

import dev.toolcalls.ParseEvent;
import dev.toolcalls.StreamParser;
import dev.toolcalls.ToolCallParseException;

/**
 * One response in a streaming wire protocol with named events, from a stream parser's events:
 * {@link ResponsesStream} (OpenAI Responses API) or {@link MessagesStream} (Anthropic Messages
 * API). A server programs against this type whichever protocol a request chose:
 * <pre>{@code
 * WireStream out = anthropic ? new MessagesStream(parser, id, model) : new ResponsesStream(parser, id, model, created);
 * send(out.start());
 * try {
 *     for (String text : pieces) send(out.feed(text));
 *     send(out.finish(hitMaxTokens));
 * } catch (ToolCallParseException e) {
 *     send(out.fail(e));                       // the protocol's error event ends the stream
 * }
 * }</pre>
 * Every method returns the events it makes certain, in order; the opening events come with the
 * first call of any of them. Not thread-safe: one per response.
 */
public abstract sealed class WireStream permits ResponsesStream, MessagesStream {
    private final StreamParser parser;
    private final List<WireEvent> out = new ArrayList<>();
    private boolean started, ended;

    WireStream(StreamParser parser) { this.parser = parser; }

    /** The opening events ({@code response.created}/{@code response.in_progress}, or {@code message_start}). */
    public final List<WireEvent> start() {
        begin();
        return drain();
    }

    /** The events this text makes certain. @throws ToolCallParseException as {@link StreamParser#feedEvents} */
    public final List<WireEvent> feed(String text) {
        begin();
        convert(parser.feedEvents(text));
        return drain();
    }

    /** The same for a chunk said to be, or not to be, one special token ({@link StreamParser#feedEvents(String, boolean)}). */
    public final List<WireEvent> feed(String text, boolean special) {
        begin();
        convert(parser.feedEvents(text, special));
        return drain();
    }

    /** The remaining events and the terminal ones; {@code truncated}: generation was cut (max tokens). */
    public final List<WireEvent> finish(boolean truncated) {
        begin();
        convert(parser.finishEvents());
        return end(truncated);
    }

    /** The events a failing feed or finish had produced, the open item closed, then the protocol's error event. */
    public final List<WireEvent> fail(ToolCallParseException e) {
        begin();
        convert(e.eventsBeforeError());
        if (!ended) {
            ended = true;
            aborted(null, e.getMessage());
        }
        return drain();
    }

    /**
     * Ends the stream for a cause outside the parser (unreadable input, a server shutting down):
     * the open item closed, then the protocol's error event with the message. Nothing when the
     * stream has already ended.
     */
    public final List<WireEvent> abort(String message) { return abort(null, message); }

    /** The same with the protocol's own error type where it has one (Anthropic: e.g. {@code overloaded_error}). */
    List<WireEvent> abort(String type, String message) {
        begin();
        if (!ended) {
            ended = true;
            aborted(type, message);
        }
        return drain();
    }

    /** Wire events for parse events, for callers that drive the parser themselves. */
    public final List<WireEvent> events(List<ParseEvent> events) {
        begin();
        convert(events);
        return drain();
    }

    /** Closes the open item and sends the terminal events (once). */
    public final List<WireEvent> end(boolean truncated) {
        begin();
        if (!ended) {
            ended = true;
            ended(truncated);
        }
        return drain();
    }

    private void begin() {
        if (started) return;
        started = true;
        opened();
    }

    /** Queues the opening events. */
    abstract void opened();

    /** Queues the wire events of parse events. */
    abstract void convert(List<ParseEvent> events);

    /** Closes what is open and queues the terminal events. */
    abstract void ended(boolean truncated);

    /** Closes what is open and queues the error event; {@code type} null for the protocol's generic one. */
    abstract void aborted(String type, String message);

    final void queue(WireEvent e) { out.add(e); }

    private List<WireEvent> drain() {
        List<WireEvent> r = List.copyOf(out);
        out.clear();
        return r;
    }
}
