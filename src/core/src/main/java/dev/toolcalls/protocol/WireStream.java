package dev.toolcalls.protocol;

import dev.toolcalls.ParseEvent;
import dev.toolcalls.ToolCallParseException;

import java.util.ArrayList;
import java.util.List;

/**
 * One response in a streaming wire protocol: parse events in, the protocol's wire events out. The
 * same shape for every {@link Protocol}, so a server programs against this type whichever protocol
 * a request chose:
 *
 * <pre>{@code
 * WireStream out = protocol.stream(id, model, created);
 * StreamParser parser = format.newStream(tools);
 * send(out.start());
 * try {
 *     for (String text : pieces) send(out.events(parser.feed(text)));
 *     send(out.events(parser.finish()));
 *     send(out.complete(hitMaxTokens));
 * } catch (ToolCallParseException e) {
 *     send(out.fail(e));                       // what was certain, then the protocol's error event
 * }
 * }</pre>
 *
 * Every method returns the wire events it makes certain, in order; the opening events come with the
 * first call of any of them. A stream ends once, in one of three ways: {@link #complete}, {@link
 * #fail} or {@link #abort}; later endings return nothing. Not thread-safe: one per response.
 */
public abstract sealed class WireStream
        permits ChatCompletionsStream, ResponsesStream, MessagesStream {
    private final List<WireEvent> out = new ArrayList<>();
    private boolean started;
    private boolean ended;

    WireStream() {}

    /**
     * The opening events (Chat Completions: the {@code role} chunk; Responses: {@code
     * response.created}, {@code response.in_progress}; Messages: {@code message_start}).
     */
    public final List<WireEvent> start() {
        begin();
        return drain();
    }

    /**
     * The wire events of parse events (from {@code StreamParser.feed}, {@code feedSpecial} or
     * {@code finish}).
     */
    public final List<WireEvent> events(List<ParseEvent> events) {
        begin();
        if (!ended) convert(events);
        return drain();
    }

    /**
     * Ends the response normally: closes the open item and sends the terminal events.
     *
     * @param truncated generation was cut (max tokens): the protocol's "length" finish
     */
    public final List<WireEvent> complete(boolean truncated) {
        begin();
        if (!ended) {
            ended = true;
            ended(truncated);
        }
        return drain();
    }

    /**
     * Ends the response on a parse error: the events the failing call had produced before it, the
     * open item closed, then the protocol's error event (Chat Completions: an {@code error} chunk).
     */
    public final List<WireEvent> fail(ToolCallParseException e) {
        begin();
        if (!ended) {
            convert(e.eventsBeforeError());
            ended = true;
            failed(e);
        }
        return drain();
    }

    /**
     * Ends the response for a cause outside the parser (unreadable input, an upstream that failed):
     * the open item closed, then the protocol's error event with the message.
     */
    public final List<WireEvent> abort(String message) {
        return abortWith(Abort.ERROR, message);
    }

    /**
     * Ends the response because the server is going away: as {@link #abort}, with the protocol's
     * error for an overloaded or stopping server where it has one (Anthropic: {@code
     * overloaded_error}).
     */
    public final List<WireEvent> shutdown(String message) {
        return abortWith(Abort.SHUTDOWN, message);
    }

    /** Why a stream was ended from outside. */
    enum Abort {
        ERROR,
        SHUTDOWN
    }

    private List<WireEvent> abortWith(Abort why, String message) {
        begin();
        if (!ended) {
            ended = true;
            aborted(why, message);
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

    /** Closes what is open and queues the error event of a parse error. */
    abstract void failed(ToolCallParseException e);

    /** Closes what is open and queues the error event of an outside cause. */
    abstract void aborted(Abort why, String message);

    final void queue(WireEvent e) {
        out.add(e);
    }

    private List<WireEvent> drain() {
        if (out.isEmpty()) return List.of();
        List<WireEvent> r = List.copyOf(out);
        out.clear();
        return r;
    }
}
