package dev.toolcalls.server;

import com.google.gson.JsonElement;
import com.google.gson.JsonParseException;

import dev.toolcalls.Format;
import dev.toolcalls.ParseEvent;
import dev.toolcalls.ParseOptions;
import dev.toolcalls.StreamParser;
import dev.toolcalls.ToolCallParseException;
import dev.toolcalls.Tools;
import dev.toolcalls.internal.json.Json;
import dev.toolcalls.protocol.Protocol;
import dev.toolcalls.protocol.WireEvent;
import dev.toolcalls.protocol.WireStream;

import org.eclipse.jetty.http.HttpHeader;
import org.eclipse.jetty.util.IteratingCallback;

import java.io.EOFException;
import java.io.IOException;
import java.net.ConnectException;
import java.net.UnknownHostException;
import java.nio.ByteBuffer;
import java.nio.channels.ClosedChannelException;
import java.nio.channels.UnresolvedAddressException;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.TimeoutException;

import javax.net.ssl.SSLException;
import javax.net.ssl.SSLHandshakeException;

/**
 * One request relayed to the engine: its raw completion stream read as it arrives, parsed by the
 * format's {@link StreamParser}, and written to the client as the protocol's events (or, for a
 * request that did not ask to stream, its batch body at the end).
 *
 * <p>The events of all the engine's chunks that one read brought go out in one write (up to {@value
 * #COALESCE} chars; what a read ending inside a chunk leaves waiting goes out when a read finds the
 * connection empty, {@link #drained}), so that an engine (or a gateway) that falls behind pays one
 * client write for many events, not one each. The engine is read no faster than the client takes
 * the events: the next upstream chunk not read yet is asked for once the writes have completed, so
 * a slow client slows the engine's connection, not the gateway's memory. A client that goes away (a
 * failed write, the connection's failure) aborts the upstream request, which closes its connection:
 * the engine stops generating. Until the engine answers 200 nothing is committed, and a failure is
 * the protocol's JSON error (502, or 504 for a timeout); after that, a failure ends the stream with
 * the protocol's error event after what was certain.
 */
final class Relay extends IteratingCallback implements EngineClient.Receiver {
    /** The client went away: the cause of the upstream abort. */
    static final class ClientGone extends IOException {
        ClientGone(Throwable cause) {
            super("the client went away", cause);
        }
    }

    /** The server is shutting down: the cause of the upstream abort at the drain deadline. */
    static final class ShuttingDown extends IOException {
        ShuttingDown() {
            super("the server is shutting down; the stream was ended before its end");
        }
    }

    private static final int MAX_ERROR_BODY = 16 << 10;
    private static final int MAX_LINE = 8 << 20;
    private static final int MAX_BATCH_TEXT = 64 << 20;
    private static final int KEEP_BUFFERED = 16 << 10;

    /** Events queued up to this many chars wait for the rest of the bytes at hand. */
    private static final int COALESCE = 8 << 10;

    private static final byte[] DONE = "[DONE]".getBytes(StandardCharsets.US_ASCII);

    private final Gateway gateway;
    private final Exchange ex;
    private final Upstream upstream;
    private final Protocol protocol;
    private final boolean stream;
    private final boolean usageChunk;
    private final Format format;
    private final Tools tools;
    private final ParseOptions options;
    private final String id;
    private final String model;
    private final long created;
    private final SseReader sse = new SseReader(MAX_LINE);

    /** The engine's events, read where they lie in its bytes; under the lock. */
    private final SseReader.Listener events =
            new SseReader.Listener() {
                @Override
                public void data(byte[] a, int from, int to) {
                    if (!ended) event(a, from, to);
                }

                @Override
                public void error(String text) {
                    if (!ended) fail("the upstream failed: " + text, 502);
                }
            };

    private final Object lock = new Object();
    // guarded by lock
    private EngineClient.Call call;
    private Calls calls;
    private boolean retried; // the one new attempt after a connection closed unanswered
    private StreamParser parser;
    private WireStream wire;
    private final StringBuilder batch = new StringBuilder();
    private final StringBuilder out = new StringBuilder();
    private StringBuilder errorBody;
    private byte[] encoded; // the events' UTF-8, reused
    private ByteBuffer direct; // the last write's bytes, reused for the next
    private int status; // the engine's status; 0 before its headers
    private boolean committed; // our 200 and SSE headers are set
    private boolean ended; // the response's last bytes are queued (or answered whole)
    private boolean lastWritten;
    private boolean writing;
    private boolean answered; // ex is answered whole (a body or an error), not by the pump
    private boolean stopEngine; // ended by a failure: the engine's request is aborted
    private boolean demandLater; // the engine's next chunk, asked for once the writes drain
    private String finishReason;
    private Usage usage;

    Relay(
            Gateway gateway,
            Exchange ex,
            Upstream upstream,
            boolean stream,
            boolean usageChunk,
            Tools tools,
            ParseOptions options,
            String id,
            String model,
            long created) {
        this.gateway = gateway;
        this.ex = ex;
        this.upstream = upstream;
        this.protocol = ex.protocol;
        this.stream = stream;
        this.usageChunk = usageChunk;
        this.format = upstream.format();
        this.tools = tools;
        this.options = options;
        this.id = id;
        this.model = model;
        this.created = created;
    }

    /** Makes the engine's request (again for the one retry) for a receiver. */
    interface Calls {
        EngineClient.Call newCall(EngineClient.Receiver receiver);
    }

    /**
     * Sends the upstream request (made by {@code calls}, again for the one retry on a new
     * connection); everything after happens in its callbacks.
     */
    void start(Calls calls) {
        this.calls = calls;
        ex.request.addFailureListener(x -> clientGone(x));
        ex.request.addIdleTimeoutListener(
                x -> {
                    synchronized (lock) {
                        return writing; // a stalled reader; while the engine thinks, wait for it
                    }
                });
        send(false);
    }

    private void send(boolean fresh) {
        EngineClient.Call c = calls.newCall(this);
        synchronized (lock) {
            if (ended) return; // the client went away meanwhile
            call = c;
        }
        c.send(fresh);
    }

    // ---- the engine's side

    @Override
    public void headers(int engineStatus) {
        synchronized (lock) {
            if (ended) return;
            status = engineStatus;
            if (status != 200) {
                errorBody = new StringBuilder();
                return;
            }
            if (!stream) return;
            committed = true;
            ex.response.setStatus(200);
            ex.response
                    .getHeaders()
                    .put(HttpHeader.CONTENT_TYPE, "text/event-stream; charset=utf-8");
            ex.response.getHeaders().put(HttpHeader.CACHE_CONTROL, "no-cache");
            wire = protocol.stream(id, model, created);
            parser = format.newStream(tools, options);
            sse(wire.start()); // written with what follows in the same read ({@link #drained})
        }
    }

    @Override
    public void content(ByteBuffer b, boolean more) {
        boolean now = false;
        boolean pump = false;
        boolean abort;
        synchronized (lock) {
            if (!ended) {
                if (status != 200) {
                    if (errorBody.length() < MAX_ERROR_BODY) {
                        String text = StandardCharsets.UTF_8.decode(b).toString();
                        errorBody.append(
                                text,
                                0,
                                Math.min(text.length(), MAX_ERROR_BODY - errorBody.length()));
                    }
                } else {
                    try {
                        sse.push(b, events);
                    } catch (IOException e) {
                        fail("the upstream sent a malformed event stream: " + e.getMessage(), 502);
                    }
                }
            }
            abort = stopEngine;
            if (committed && !ended) {
                if (more && !writing && out.length() < COALESCE) {
                    now = true; // the events of all the bytes read go out together
                } else {
                    // written before the connection is read again: the engine's next piece
                    // arrives meanwhile more often than not
                    pump = true;
                    demandLater = true; // once the writes drain
                }
            } else {
                pump = committed;
                now = !abort; // reading on, or draining what follows the end
            }
        }
        if (abort) abortUpstream(null);
        if (pump) iterate();
        if (now) demand();
    }

    @Override
    public void drained() {
        boolean pump;
        synchronized (lock) {
            pump = committed && out.length() > 0;
        }
        if (pump) iterate();
    }

    /** Reads the engine's answer on. */
    private void demand() {
        EngineClient.Call c;
        synchronized (lock) {
            c = call;
        }
        if (c != null) c.demand();
    }

    @Override
    public void complete(Throwable failure) {
        // on the selector's thread: a batch answer's parse of the whole output goes to the pool
        if (!stream && failure == null) gateway.execute(() -> completed(null));
        else completed(failure);
    }

    private void completed(Throwable failure) {
        boolean again = false;
        synchronized (lock) {
            if (ended) return;
            if (failure == null && status != 200) {
                upstreamStatus();
            } else if (failure != null) {
                if (failure instanceof ClientGone) return;
                if (status == 0 && !retried && closedUnanswered(failure)) {
                    // An engine closes a kept-alive connection it deems idle (uvicorn after 5 s)
                    // just as the gateway reuses it: the request is sent again, once, on a new
                    // connection. Nothing was answered, so nothing was generated for it.
                    retried = true;
                    again = true;
                } else if (failure instanceof ShuttingDown) {
                    ended = true;
                    if (committed) sse(wire.shutdown(failure.getMessage()));
                    else answerError(503, failure.getMessage(), "shutting_down");
                } else {
                    boolean timeout = timeout(failure);
                    fail(
                            timeout
                                    ? "the upstream sent nothing for "
                                            + gateway.upstreamTimeoutMs()
                                            + " ms (serve --upstream-timeout-ms)"
                                    : failure instanceof ResponseReader.Malformed
                                            ? "the upstream at "
                                                    + upstream.baseUrl()
                                                    + " sent a malformed HTTP answer: "
                                                    + failure.getMessage()
                                            : "the upstream at "
                                                    + upstream.baseUrl()
                                                    + " cannot be reached: "
                                                    + describe(failure),
                            timeout ? 504 : 502);
                }
            } else {
                try {
                    sse.end(events);
                } catch (IOException e) {
                    fail("the upstream sent a malformed event stream: " + e.getMessage(), 502);
                }
                if (!ended) {
                    if (finishReason != null) finish();
                    else fail("the upstream closed the stream before its end", 502);
                }
            }
        }
        if (again) send(true);
        else iterate();
    }

    /**
     * The connection was closed or reset before any answer: not a refused connection, a timeout, or
     * an unknown host, which a new connection would meet again.
     */
    private static boolean closedUnanswered(Throwable failure) {
        if (timeout(failure)
                || failure instanceof ShuttingDown
                || failure instanceof ResponseReader.Malformed) return false;
        Throwable root = failure;
        while (root.getCause() != null && root.getCause() != root) root = root.getCause();
        if (root instanceof ConnectException
                || root instanceof UnknownHostException
                || root instanceof UnresolvedAddressException) return false;
        return root instanceof IOException;
    }

    private static boolean timeout(Throwable t) {
        for (Throwable c = t; c != null; c = c.getCause())
            if (c instanceof TimeoutException) return true;
        return false;
    }

    private static String describe(Throwable t) {
        String tls = "";
        for (Throwable c = t; c != null && tls.isEmpty(); c = c.getCause())
            if (c instanceof SSLHandshakeException) tls = "the TLS handshake failed: ";
            else if (c instanceof SSLException) tls = "TLS: ";
        Throwable root = t;
        while (root.getCause() != null && root.getCause() != root) root = root.getCause();
        if (root instanceof ConnectException) return "connection refused";
        if (root instanceof UnknownHostException || root instanceof UnresolvedAddressException)
            return "unknown host";
        if (root instanceof EOFException || root instanceof ClosedChannelException)
            return "the connection was closed before an answer";
        String m = root.getMessage();
        m = m == null || m.isBlank() ? root.getClass().getSimpleName() : m;
        return tls + m;
    }

    /** The engine answered an error status: 502 with its message. */
    private void upstreamStatus() {
        String message = errorBody == null ? "" : errorBody.toString().strip();
        try {
            JsonElement e = Json.parseStrict(message);
            if (e.isJsonObject()) {
                JsonElement err = e.getAsJsonObject().get("error");
                if (err != null && err.isJsonObject() && err.getAsJsonObject().has("message"))
                    message = err.getAsJsonObject().get("message").getAsString();
                else if (err != null && err.isJsonPrimitive()) message = err.getAsString();
                else if (e.getAsJsonObject().has("message"))
                    message = e.getAsJsonObject().get("message").getAsString();
            }
        } catch (Json.NotJson | RuntimeException x) {
            // not JSON: its text as it is
        }
        if (message.length() > 2000) message = message.substring(0, 2000) + "...";
        gateway.log(
                "upstream "
                        + upstream.baseUrl()
                        + " answered status "
                        + status
                        + " for model '"
                        + upstream.name()
                        + "'");
        answerError(
                502,
                "the upstream answered status "
                        + status
                        + (message.isEmpty() ? "" : ": " + message),
                "upstream_error");
    }

    /** One event of the engine's stream: its data, {@code a[from..to)}. */
    private void event(byte[] a, int from, int to) {
        if (Arrays.equals(a, from, to, DONE, 0, DONE.length)) {
            finish();
            return;
        }
        EngineChunk chunk;
        try {
            // the engine's JSON is read as it is; what the client gets is written by the gateway
            chunk = EngineChunk.read(a, from, to);
        } catch (JsonParseException x) {
            fail(
                    "the upstream sent an event that is not a JSON object: "
                            + JsonChecks.plain(x.getMessage()),
                    502);
            return;
        }
        JsonElement error = chunk.error();
        if (error != null) {
            String m =
                    error.isJsonObject() && error.getAsJsonObject().has("message")
                            ? error.getAsJsonObject().get("message").getAsString()
                            : Json.write(error);
            fail("the upstream failed: " + m, 502);
            return;
        }
        Usage u = Usage.of(chunk.usage());
        if (u != null) usage = u;
        for (EngineChunk.Choice c : chunk.choices()) {
            if (c.other()) continue;
            if (c.text() != null) text(c.text());
            if (ended) return;
            if (c.finishReason() != null) finishReason = c.finishReason();
        }
    }

    private void text(String text) {
        if (text.isEmpty()) return;
        if (!stream) {
            if (batch.length() + text.length() > MAX_BATCH_TEXT)
                fail("the upstream's output is longer than " + MAX_BATCH_TEXT + " characters", 502);
            else batch.append(text);
            return;
        }
        try {
            sse(wire.events(parser.feed(text)));
        } catch (ToolCallParseException x) {
            ended = true;
            sse(wire.fail(x));
        }
    }

    /** The engine's stream ended normally. */
    private void finish() {
        boolean truncated = "length".equals(finishReason);
        if (!stream) {
            ended = true;
            answered = true;
            String body;
            try {
                List<ParseEvent> events = format.parseEvents(batch.toString(), tools, options);
                body = protocol.response(events, id, model, created, truncated);
            } catch (ToolCallParseException e) {
                ex.error(502, e.getMessage(), "tool_call_parse_error", e.kind().type(), null);
                gateway.ended(this);
                return;
            }
            if (usage != null) body = usage.addTo(protocol, body);
            ex.send(200, body);
            gateway.ended(this);
            return;
        }
        ended = true;
        List<WireEvent> last;
        try {
            List<WireEvent> events = wire.events(parser.finish());
            last = wire.complete(truncated);
            if (!events.isEmpty()) sse(events);
        } catch (ToolCallParseException x) {
            sse(wire.fail(x));
            return;
        }
        if (usage != null) last = usage.addTo(protocol, last, id, model, created, usageChunk);
        sse(last);
    }

    /**
     * A failure outside the parser: the JSON error, or after the 200 the protocol's error event.
     */
    private void fail(String message, int httpStatus) {
        if (ended) return;
        ended = true;
        stopEngine = true;
        gateway.log(
                "upstream "
                        + upstream.baseUrl()
                        + " for model '"
                        + upstream.name()
                        + "': "
                        + (httpStatus == 504 ? "timed out" : "failed"));
        if (committed) sse(wire.abort(message));
        else
            answerError(
                    httpStatus, message, httpStatus == 504 ? "upstream_timeout" : "upstream_error");
    }

    /** The whole answer is this error (nothing was committed); under the lock. */
    private void answerError(int httpStatus, String message, String code) {
        ended = true;
        answered = true;
        ex.error(httpStatus, message, "server_error", code, null);
        gateway.ended(this);
    }

    private void sse(List<WireEvent> events) {
        for (WireEvent e : events) {
            if (e.name() != null) out.append("event: ").append(e.name()).append('\n');
            out.append("data: ").append(e.json()).append("\n\n");
        }
    }

    // ---- the client's side

    /** The client's connection failed: stop the engine. */
    private void clientGone(Throwable cause) {
        boolean pump;
        synchronized (lock) {
            if (answered || (lastWritten && !writing)) return;
            ended = true;
            out.setLength(0);
            pump = committed;
            if (!pump) answered = true;
        }
        abortUpstream(new ClientGone(cause));
        if (pump) {
            abort(cause); // the pump ends: onCompleteFailure
        } else {
            gateway.ended(this);
            ex.done.failed(cause);
        }
    }

    /** At the shutdown deadline: end the stream now with the protocol's failure event. */
    boolean endNow() {
        synchronized (lock) {
            if (ended) return false;
        }
        abortUpstream(new ShuttingDown());
        return true;
    }

    private void abortUpstream(Throwable cause) {
        EngineClient.Call c;
        synchronized (lock) {
            c = call;
        }
        if (c != null) c.abort(cause == null ? new IOException("the response has ended") : cause);
    }

    @Override
    protected Action process() {
        ByteBuffer text;
        boolean last;
        boolean demand = false;
        synchronized (lock) {
            writing = false;
            if (!committed) return Action.IDLE; // answered whole by ex.send / ex.error, if at all
            if (out.length() > 0) {
                text = utf8();
                last = ended;
                if (last) lastWritten = true;
                writing = true;
            } else if (lastWritten) {
                return Action.SUCCEEDED;
            } else {
                text = null;
                last = false;
                demand = demandLater;
                demandLater = false;
            }
        }
        if (text != null) {
            ex.response.write(last, text, this);
            return Action.SCHEDULED;
        }
        if (demand) demand();
        return Action.IDLE;
    }

    /**
     * The events queued, as UTF-8 in the stream's reused direct buffer (free again once the write
     * it is handed to completes: the pump writes one at a time; a heap buffer would be copied into
     * a temporary direct one by every socket write), and the queue emptied; under the lock. A lone
     * surrogate is written as {@code ?}, as {@link String#getBytes} writes it.
     */
    private ByteBuffer utf8() {
        int n = out.length();
        byte[] a = encoded;
        if (a == null || a.length < 3 * n) a = new byte[Math.max(3 * n, 1024)];
        int j = encode(out, a);
        out.setLength(0);
        if (out.capacity() > KEEP_BUFFERED) out.trimToSize(); // after a large event
        encoded = a.length <= KEEP_BUFFERED ? a : null; // a large one is not kept
        if (j > KEEP_BUFFERED) return ByteBuffer.wrap(a, 0, j); // rare: not kept either
        ByteBuffer d = direct;
        if (d == null || d.capacity() < j)
            direct = d = ByteBuffer.allocateDirect(Math.max(Integer.highestOneBit(j) << 1, 1024));
        d.clear();
        d.put(a, 0, j).flip();
        return d;
    }

    /**
     * The text as UTF-8 into {@code a} (at least 3 bytes per char), as {@link String#getBytes}
     * writes it (a lone surrogate as {@code ?}); the number of bytes.
     */
    static int encode(CharSequence text, byte[] a) {
        int n = text.length();
        int j = 0;
        for (int i = 0; i < n; i++) {
            char c = text.charAt(i);
            if (c < 0x80) {
                a[j++] = (byte) c;
            } else if (c < 0x800) {
                a[j++] = (byte) (0xC0 | (c >> 6));
                a[j++] = (byte) (0x80 | (c & 0x3F));
            } else if (Character.isHighSurrogate(c)
                    && i + 1 < n
                    && Character.isLowSurrogate(text.charAt(i + 1))) {
                int cp = Character.toCodePoint(c, text.charAt(++i));
                a[j++] = (byte) (0xF0 | (cp >> 18));
                a[j++] = (byte) (0x80 | ((cp >> 12) & 0x3F));
                a[j++] = (byte) (0x80 | ((cp >> 6) & 0x3F));
                a[j++] = (byte) (0x80 | (cp & 0x3F));
            } else if (Character.isSurrogate(c)) {
                a[j++] = '?';
            } else {
                a[j++] = (byte) (0xE0 | (c >> 12));
                a[j++] = (byte) (0x80 | ((c >> 6) & 0x3F));
                a[j++] = (byte) (0x80 | (c & 0x3F));
            }
        }
        return j;
    }

    @Override
    protected void onCompleteSuccess() {
        gateway.ended(this);
        ex.done.succeeded();
    }

    @Override
    protected void onCompleteFailure(Throwable cause) {
        synchronized (lock) {
            ended = true;
        }
        abortUpstream(new ClientGone(cause));
        gateway.ended(this);
        ex.done.failed(cause);
    }
}
