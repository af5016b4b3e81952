package dev.toolcalls.cli;

import java.util.ArrayList;
import java.util.List;

import dev.toolcalls.DeltaMessage;
import dev.toolcalls.Format;
import dev.toolcalls.ParseEvent;
import dev.toolcalls.ParseOptions;
import dev.toolcalls.StreamParser;
import dev.toolcalls.ToolCallParseException;
import dev.toolcalls.Tools;
import dev.toolcalls.protocol.MessagesStream;
import dev.toolcalls.protocol.ResponsesStream;
import dev.toolcalls.protocol.WireEvent;
import dev.toolcalls.protocol.WireStream;

/**
 * What {@code parse --output} prints: the batch object and the streamed lines of each protocol.
 * Ids, model and time are fixed ({@code resp_toolcalls} / {@code msg_toolcalls}, the format's
 * name, 0) so that the same input always prints the same output.
 */
enum Output {
    CHAT, RESPONSES, MESSAGES, EVENTS;

    static final String RESPONSE_ID = "resp_toolcalls", MESSAGE_ID = "msg_toolcalls";

    /** The batch object's JSON for events already parsed (e.g. from chunks with special-token flags). */
    String batch(Format format, List<ParseEvent> events) {
        switch (this) {
            case CHAT: return dev.toolcalls.ChatMessage.fromEvents(events).toJson();
            case RESPONSES: return ResponsesStream.response(events, RESPONSE_ID, format.name(), 0, false);
            case MESSAGES: return MessagesStream.message(events, MESSAGE_ID, format.name(), false);
            default: {
                List<String> out = new ArrayList<>();
                for (ParseEvent e : events) out.add(e.toJson());
                return "[" + String.join(",", out) + "]";
            }
        }
    }

    /** The batch object's JSON. */
    String batch(Format format, String text, Tools tools, ParseOptions options) {
        switch (this) {
            case CHAT: return format.parse(text, tools, options).toJson();
            case RESPONSES: return ResponsesStream.response(format.parseEvents(text, tools, options), RESPONSE_ID, format.name(), 0, false);
            case MESSAGES: return MessagesStream.message(format.parseEvents(text, tools, options), MESSAGE_ID, format.name(), false);
            default: {
                List<String> events = new ArrayList<>();
                for (ParseEvent e : format.parseEvents(text, tools, options)) events.add(e.toJson());
                return "[" + String.join(",", events) + "]";
            }
        }
    }

    /** One streamed response: each method returns the JSON lines to print. */
    interface Run {
        List<String> feed(String chunk);

        /** A chunk said to be, or not to be, one special token. */
        List<String> feed(String chunk, boolean special);

        List<String> finish();

        /** What was certain before the error, and the protocol's own error event where it has one. */
        List<String> fail(ToolCallParseException e);

        /** The protocol's failure event for a cause outside the parser (nothing where the protocol has none). */
        default List<String> abort(String message) { return List.of(); }
    }

    Run stream(Format format, Tools tools, ParseOptions options) {
        StreamParser parser = format.newStream(tools, options);
        switch (this) {
            case CHAT: return new Run() {
                public List<String> feed(String chunk) { return deltas(parser.feed(chunk)); }
                public List<String> feed(String chunk, boolean special) { return deltas(parser.feed(chunk, special)); }
                public List<String> finish() { return deltas(parser.finish()); }
                public List<String> fail(ToolCallParseException e) { return deltas(e.deltasBeforeError()); }
            };
            case EVENTS: return new Run() {
                public List<String> feed(String chunk) { return events(parser.feedEvents(chunk)); }
                public List<String> feed(String chunk, boolean special) { return events(parser.feedEvents(chunk, special)); }
                public List<String> finish() { return events(parser.finishEvents()); }
                public List<String> fail(ToolCallParseException e) { return events(e.eventsBeforeError()); }
            };
            default: {
                WireStream w = this == RESPONSES ? new ResponsesStream(parser, RESPONSE_ID, format.name(), 0)
                        : new MessagesStream(parser, MESSAGE_ID, format.name());
                return new Run() {
                    public List<String> feed(String chunk) { return wire(w.feed(chunk)); }
                    public List<String> feed(String chunk, boolean special) { return wire(w.feed(chunk, special)); }
                    public List<String> finish() { return wire(w.finish(false)); }
                    public List<String> fail(ToolCallParseException e) { return wire(w.fail(e)); }
                    public List<String> abort(String message) { return wire(w.abort(message)); }
                };
            }
        }
    }

    private static List<String> deltas(List<DeltaMessage> deltas) {
        List<String> out = new ArrayList<>(deltas.size());
        for (DeltaMessage d : deltas) out.add(d.toJson());
        return out;
    }

    private static List<String> events(List<ParseEvent> events) {
        List<String> out = new ArrayList<>(events.size());
        for (ParseEvent e : events) out.add(e.toJson());
        return out;
    }

    private static List<String> wire(List<WireEvent> events) {
        List<String> out = new ArrayList<>(events.size());
        for (WireEvent e : events) out.add(e.json());
        return out;
    }
}
