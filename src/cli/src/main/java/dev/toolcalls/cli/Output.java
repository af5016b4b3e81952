package dev.toolcalls.cli;

import dev.toolcalls.ChatMessage;
import dev.toolcalls.DeltaMessage;
import dev.toolcalls.Format;
import dev.toolcalls.ParseEvent;
import dev.toolcalls.ParseOptions;
import dev.toolcalls.StreamParser;
import dev.toolcalls.ToolCallParseException;
import dev.toolcalls.Tools;
import dev.toolcalls.Vocabulary;
import dev.toolcalls.protocol.Protocol;
import dev.toolcalls.protocol.ValueJson;
import dev.toolcalls.protocol.WireEvent;
import dev.toolcalls.protocol.WireStream;

import java.util.ArrayList;
import java.util.List;

/**
 * What {@code parse --output} prints: for {@code chat}, the message and its deltas as Chat
 * Completions carries them ({@code choices[0].message} / {@code choices[0].delta}); for {@code
 * responses} and {@code messages}, the protocol's batch object and its stream events ({@link
 * Protocol}); for {@code events}, the parse events. Ids, model and time are fixed ({@code
 * resp_toolcalls} / {@code msg_toolcalls}, the format's name, 0) so that the same input always
 * prints the same output.
 */
enum Output {
    CHAT(Protocol.CHAT_COMPLETIONS),
    RESPONSES(Protocol.RESPONSES),
    MESSAGES(Protocol.MESSAGES),
    EVENTS(null);

    static final String RESPONSE_ID = "resp_toolcalls";
    static final String MESSAGE_ID = "msg_toolcalls";

    /** The protocol whose objects this output prints (null: the parse events themselves). */
    private final Protocol protocol;

    Output(Protocol protocol) {
        this.protocol = protocol;
    }

    /** {@code --output}'s value: a protocol's short name, or {@code events}. */
    static Output byName(String name) {
        if (name.equalsIgnoreCase("events")) return EVENTS;
        Protocol p = Protocol.byName(name).orElse(null);
        if (p == null) return null;
        for (Output o : values()) if (o.protocol == p) return o;
        return null;
    }

    /** The batch object's JSON for a whole output's events. */
    String batch(Format format, List<ParseEvent> events) {
        switch (this) {
            case CHAT:
                return ValueJson.message(ChatMessage.fromEvents(events));
            case EVENTS:
                {
                    List<String> out = new ArrayList<>();
                    for (ParseEvent e : events) out.add(ValueJson.event(e));
                    return "[" + String.join(",", out) + "]";
                }
            default:
                return protocol.response(
                        events,
                        this == RESPONSES ? RESPONSE_ID : MESSAGE_ID,
                        format.name(),
                        0,
                        false);
        }
    }

    /** The batch object's JSON. */
    String batch(Format format, String text, Tools tools, ParseOptions options) {
        if (this == CHAT) return ValueJson.message(format.parse(text, tools, options));
        return batch(format, format.parseEvents(text, tools, options));
    }

    /** One streamed response: each method returns the JSON lines to print. */
    interface Run {
        List<String> feed(String chunk);

        /** One special token of the model's vocabulary. */
        List<String> feedSpecial(String token);

        /** Token ids of the stream's vocabulary. */
        List<String> feedTokens(int[] ids, int from, int to);

        List<String> finish();

        /**
         * What was certain before the error, and the protocol's own error event where it has one.
         */
        List<String> fail(ToolCallParseException e);

        /**
         * The protocol's failure event for a cause outside the parser (nothing where the protocol
         * has none).
         */
        default List<String> abort(String message) {
            return List.of();
        }
    }

    Run stream(Format format, Tools tools, ParseOptions options) {
        return stream(format, tools, options, null);
    }

    /** A stream of token ids of {@code vocabulary} as well as text (null: text only). */
    Run stream(Format format, Tools tools, ParseOptions options, Vocabulary vocabulary) {
        return stream(format, tools, options, vocabulary, null);
    }

    /**
     * A stream whose calls' arguments are held to {@code budget} (null: no limit but the heap's);
     * past it, every method throws {@link ArgumentBudget.TooLarge}.
     */
    Run stream(
            Format format,
            Tools tools,
            ParseOptions options,
            Vocabulary vocabulary,
            ArgumentBudget budget) {
        StreamParser streamParser =
                vocabulary == null
                        ? format.newStream(tools, options)
                        : format.newStream(tools, options, vocabulary);
        Counted parser = new Counted(streamParser, budget);
        switch (this) {
            case CHAT:
                return new Run() {
                    public List<String> feed(String chunk) {
                        return deltas(parser.feed(chunk));
                    }

                    public List<String> feedSpecial(String token) {
                        return deltas(parser.feedSpecial(token));
                    }

                    public List<String> feedTokens(int[] ids, int from, int to) {
                        return deltas(parser.feedTokens(ids, from, to));
                    }

                    public List<String> finish() {
                        return deltas(parser.finish());
                    }

                    public List<String> fail(ToolCallParseException e) {
                        return deltas(e.eventsBeforeError());
                    }
                };
            case EVENTS:
                return new Run() {
                    public List<String> feed(String chunk) {
                        return events(parser.feed(chunk));
                    }

                    public List<String> feedSpecial(String token) {
                        return events(parser.feedSpecial(token));
                    }

                    public List<String> feedTokens(int[] ids, int from, int to) {
                        return events(parser.feedTokens(ids, from, to));
                    }

                    public List<String> finish() {
                        return events(parser.finish());
                    }

                    public List<String> fail(ToolCallParseException e) {
                        return events(e.eventsBeforeError());
                    }
                };
            default:
                {
                    WireStream w =
                            protocol.stream(
                                    this == RESPONSES ? RESPONSE_ID : MESSAGE_ID, format.name(), 0);
                    return new Run() {
                        public List<String> feed(String chunk) {
                            return wire(
                                    w.events(
                                            parser.feed(
                                                    chunk))); // the opening events come with the
                            // first
                        }

                        public List<String> feedSpecial(String token) {
                            return wire(w.events(parser.feedSpecial(token)));
                        }

                        public List<String> feedTokens(int[] ids, int from, int to) {
                            return wire(w.events(parser.feedTokens(ids, from, to)));
                        }

                        public List<String> finish() {
                            return wire(w.events(parser.finish()), w.complete(false));
                        }

                        public List<String> fail(ToolCallParseException e) {
                            return wire(w.fail(e));
                        }

                        public List<String> abort(String message) {
                            return wire(w.abort(message));
                        }
                    };
                }
        }
    }

    /** A stream parser whose events go through an argument budget. */
    private static final class Counted {
        private final StreamParser parser;
        private final ArgumentBudget budget;

        Counted(StreamParser parser, ArgumentBudget budget) {
            this.parser = parser;
            this.budget = budget;
        }

        private List<ParseEvent> counted(List<ParseEvent> events) {
            return budget == null ? events : budget.count(events);
        }

        List<ParseEvent> feed(String chunk) {
            return counted(parser.feed(chunk));
        }

        List<ParseEvent> feedSpecial(String token) {
            return counted(parser.feedSpecial(token));
        }

        List<ParseEvent> feedTokens(int[] ids, int from, int to) {
            return counted(parser.feedTokens(ids, from, to));
        }

        List<ParseEvent> finish() {
            return counted(parser.finish());
        }
    }

    private static List<String> deltas(List<ParseEvent> events) {
        List<DeltaMessage> deltas = DeltaMessage.of(events);
        List<String> out = new ArrayList<>(deltas.size());
        for (DeltaMessage d : deltas) out.add(ValueJson.delta(d));
        return out;
    }

    private static List<String> events(List<ParseEvent> events) {
        List<String> out = new ArrayList<>(events.size());
        for (ParseEvent e : events) out.add(ValueJson.event(e));
        return out;
    }

    @SafeVarargs
    private static List<String> wire(List<WireEvent>... parts) {
        List<String> out = new ArrayList<>();
        for (List<WireEvent> part : parts) for (WireEvent e : part) out.add(e.json());
        return out;
    }
}
