package dev.toolcalls.protocol;

import dev.toolcalls.ParseEvent;
import dev.toolcalls.internal.json.Json;

import java.util.List;
import java.util.Locale;
import java.util.Optional;

/**
 * The wire protocols a server speaks, each with the same two doors: a {@link WireStream} for a
 * streamed response and the batch response body, both made from parse events.
 *
 * <pre>{@code
 * Protocol protocol = Protocol.byName("messages").orElseThrow();
 * // streamed
 * WireStream out = protocol.stream(id, model, created);
 * for (WireEvent e : out.start()) write(e.sse());
 * for (String text : pieces) for (WireEvent e : out.events(parser.feed(text))) write(e.sse());
 * ...
 * // batch
 * String body = protocol.response(format.parseEvents(text, tools, options), id, model, created, false);
 * }</pre>
 */
public enum Protocol {
    /** OpenAI Chat Completions: {@code POST /v1/chat/completions}. */
    CHAT_COMPLETIONS("chat", "/v1/chat/completions"),
    /** OpenAI Responses: {@code POST /v1/responses}. */
    RESPONSES("responses", "/v1/responses"),
    /** Anthropic Messages: {@code POST /v1/messages}. */
    MESSAGES("messages", "/v1/messages");

    private final String id;
    private final String path;

    Protocol(String id, String path) {
        this.id = id;
        this.path = path;
    }

    /**
     * The short name, as the command line's {@code --output} takes it: {@code chat}, {@code
     * responses}, {@code messages}.
     */
    public String id() {
        return id;
    }

    /** The HTTP path of the protocol's endpoint. */
    public String path() {
        return path;
    }

    /** The protocol with this short name ({@link #id()}), case-insensitive. */
    public static Optional<Protocol> byName(String name) {
        String n = name.toLowerCase(Locale.ROOT);
        for (Protocol p : values()) if (p.id.equals(n)) return Optional.of(p);
        return Optional.empty();
    }

    /** The protocol served at this HTTP path. */
    public static Optional<Protocol> byPath(String path) {
        for (Protocol p : values()) if (p.path.equals(path)) return Optional.of(p);
        return Optional.empty();
    }

    /**
     * A streamed response.
     *
     * @param id the response's id ({@code chatcmpl-...}, {@code resp_...}, {@code msg_...})
     * @param model the model name the response reports
     * @param created seconds since the epoch (Anthropic Messages carry none)
     */
    public WireStream stream(String id, String model, long created) {
        return switch (this) {
            case CHAT_COMPLETIONS -> new ChatCompletionsStream(id, model, created);
            case RESPONSES -> new ResponsesStream(id, model, created);
            case MESSAGES -> new MessagesStream(id, model);
        };
    }

    /**
     * The batch response body of a whole output's events ({@code Format.parseEvents}): a {@code
     * chat.completion}, a {@code response} or a {@code message} object.
     *
     * @param truncated generation was cut (max tokens)
     */
    public String response(
            List<ParseEvent> events, String id, String model, long created, boolean truncated) {
        return switch (this) {
            case CHAT_COMPLETIONS ->
                    ChatCompletionsStream.completion(events, id, model, created, truncated);
            case RESPONSES -> ResponsesStream.response(events, id, model, created, truncated);
            case MESSAGES -> MessagesStream.message(events, id, model, truncated);
        };
    }

    /**
     * The protocol's error body for a request that failed before any response: OpenAI's {@code
     * {"error": {"message", "type", "param", "code"}}}, or Anthropic's {@code {"type": "error",
     * "error": {"type", "message"}}}, whose type follows the HTTP status.
     */
    public String error(int status, String message, String type, String code, String param) {
        if (this != MESSAGES)
            return Json.write(ChatCompletionsStream.errorObject(message, type, code, param));
        String anthropicType =
                switch (status) {
                    case 404 -> "not_found_error";
                    case 408 -> "request_timeout";
                    case 413 -> "request_too_large";
                    case 503 -> "overloaded_error";
                    default -> status >= 500 ? "api_error" : "invalid_request_error";
                };
        return Json.write(MessagesStream.errorObject(anthropicType, message));
    }
}
