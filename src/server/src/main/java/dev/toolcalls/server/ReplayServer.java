package dev.toolcalls.server;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.ByteBuffer;
import java.nio.CharBuffer;
import java.nio.charset.CharsetDecoder;
import java.nio.charset.CoderResult;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.Stream;

import com.google.gson.JsonArray;
import com.google.gson.JsonElement;
import com.google.gson.JsonObject;
import org.eclipse.jetty.http.HttpFields;
import org.eclipse.jetty.http.HttpHeader;
import org.eclipse.jetty.io.Connection;
import org.eclipse.jetty.io.Content;
import org.eclipse.jetty.server.Handler;
import org.eclipse.jetty.server.HttpConfiguration;
import org.eclipse.jetty.server.HttpConnectionFactory;
import org.eclipse.jetty.server.NetworkConnectionLimit;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.server.Server;
import org.eclipse.jetty.server.ServerConnector;
import org.eclipse.jetty.server.handler.ErrorHandler;
import org.eclipse.jetty.util.Callback;
import org.eclipse.jetty.util.IteratingCallback;
import org.eclipse.jetty.util.thread.QueuedThreadPool;
import org.eclipse.jetty.util.thread.ScheduledExecutorScheduler;
import org.eclipse.jetty.util.thread.Scheduler;

import dev.toolcalls.ChatMessage;
import dev.toolcalls.Format;
import dev.toolcalls.IdGenerator;
import dev.toolcalls.ParseEvent;
import dev.toolcalls.ParseOptions;
import dev.toolcalls.StreamParser;
import dev.toolcalls.ToolCallParseException;
import dev.toolcalls.Tools;
import dev.toolcalls.internal.json.Json;
import dev.toolcalls.protocol.CompletionChunks;
import dev.toolcalls.protocol.MessagesStream;
import dev.toolcalls.protocol.ResponsesStream;
import dev.toolcalls.protocol.WireEvent;

/**
 * A mock OpenAI endpoint that replays recorded raw model outputs through a format's parser, for
 * testing agents and client code against real model conventions without a GPU.
 * <ul>
 * <li>{@code POST /v1/chat/completions}, {@code /v1/responses}, {@code /v1/messages}: with a replay
 *     directory, the file whose name (without extension) equals the request's {@code model}; a
 *     request for the format's own name (or an alias, or no model) takes the files in name order,
 *     round-robin; with a replay file, always that file. {@code stream: true} answers SSE chunks cut
 *     like {@code parse --stream}; otherwise the protocol's object. The request's {@code tools} reach
 *     the parser.</li>
 * <li>{@code GET /v1/models}: the replayable names.</li>
 * <li>Every failure is the protocol's JSON error object with a 4xx/5xx status, including those of
 *     HTTP itself (a malformed request, headers too large); the server keeps serving.</li>
 * </ul>
 * It keeps serving whatever the clients do (see {@link Limits}): requests are read without holding
 * a thread, streams are written without one between chunks, a connection that does not deliver a
 * whole request within the request timeout is closed, a stalled reader is dropped after the idle
 * timeout, bodies are limited. {@link #close} is graceful: no new requests, in-flight ones get until
 * the shutdown deadline, and a stream still running then ends with its protocol's failure event.
 * <p>
 * Ids come from a fixed seed per request, so a replay answers the same way every time. A request's
 * {@code chat_template_kwargs.enable_thinking} (as vLLM and SGLang take it) sets thinking on or off.
 */
public final class ReplayServer implements AutoCloseable {
    /**
     * What the server allows a client.
     *
     * @param maxBodyBytes      largest request body; a larger one is answered 413
     * @param idleTimeoutMs     a connection with no traffic at all (a stalled reader or writer) this long is closed
     * @param requestTimeoutMs  a request's headers and body must arrive within this time from the connection's
     *                          open or its previous response; else a 408 (body) or the connection is closed (headers)
     * @param shutdownTimeoutMs how long {@link #close} lets in-flight requests finish
     * @param maxConnections    connections open at once; more wait in the accept queue
     */
    public record Limits(long maxBodyBytes, long idleTimeoutMs, long requestTimeoutMs, long shutdownTimeoutMs, int maxConnections) {
        public Limits {
            if (maxBodyBytes < 1 || maxBodyBytes > 1L << 30) throw new IllegalArgumentException("the body limit must be 1 byte to 1 GiB");
            if (idleTimeoutMs < 1) throw new IllegalArgumentException("the idle timeout must be at least 1 ms");
            if (requestTimeoutMs < 1) throw new IllegalArgumentException("the request timeout must be at least 1 ms");
            if (shutdownTimeoutMs < 0) throw new IllegalArgumentException("the shutdown timeout must not be negative");
            if (maxConnections < 1) throw new IllegalArgumentException("at least 1 connection must be allowed");
        }

        /** 4 MiB bodies, 30 s idle and request timeouts, 10 s to shut down, 512 connections. */
        public static Limits defaults() { return new Limits(4L << 20, 30_000, 30_000, 10_000, 512); }
    }

    /** The three wire protocols the server speaks from the same parser. */
    enum Protocol { CHAT, RESPONSES, MESSAGES }

    private static final int THREADS = 32;

    private final Format format;
    private final Map<String, Path> files;
    private final boolean single;
    private final int chunkMax;
    private final long chunkSeed;
    private final long delayMs;
    private final Limits limits;
    private final PrintStream log;
    private final Server server;
    private final ServerConnector connector;
    private final Scheduler scheduler;
    private final Deadlines deadlines = new Deadlines();
    private final Set<Replay> streams = ConcurrentHashMap.newKeySet();
    private final AtomicInteger next = new AtomicInteger();
    private final AtomicInteger inFlight = new AtomicInteger();
    private final AtomicBoolean closing = new AtomicBoolean();
    private volatile long drainDeadline; // System.nanoTime() by which in-flight requests must end; 0 while serving
    private final int port;

    public ReplayServer(Format format, Path replay, String host, int port, int chunkMax, long chunkSeed, long delayMs) throws IOException {
        this(format, replay, host, port, chunkMax, chunkSeed, delayMs, Limits.defaults(), System.err);
    }

    /**
     * Binds the port (0: a free one) and reads the replay directory; {@link #start} starts serving.
     *
     * @param log where failures the client cannot see in full are reported (unreadable replay files, internal errors)
     * @throws IOException the replay path has no files, or the address cannot be bound
     */
    public ReplayServer(Format format, Path replay, String host, int port, int chunkMax, long chunkSeed, long delayMs,
            Limits limits, PrintStream log) throws IOException {
        if (chunkMax < 1) throw new IllegalArgumentException("chunks are at least 1 code point long");
        if (delayMs < 0) throw new IllegalArgumentException("the delay must not be negative");
        this.format = format;
        this.chunkMax = chunkMax;
        this.chunkSeed = chunkSeed;
        this.delayMs = delayMs;
        this.limits = limits;
        this.log = log;
        this.files = new LinkedHashMap<>();
        if (Files.isDirectory(replay)) {
            single = false;
            try (Stream<Path> list = Files.list(replay)) {
                for (Path p : list.filter(Files::isRegularFile).sorted().toList()) {
                    String name = p.getFileName().toString();
                    if (name.endsWith(".json")) continue; // expectation files beside recorded outputs
                    files.put(name.contains(".") ? name.substring(0, name.lastIndexOf('.')) : name, p);
                }
            }
            if (files.isEmpty()) throw new IOException("no replay files in " + replay);
        } else if (Files.isRegularFile(replay)) {
            single = true;
            String name = replay.getFileName().toString();
            files.put(name.contains(".") ? name.substring(0, name.lastIndexOf('.')) : name, replay);
        } else {
            throw new IOException("no such replay file or directory: " + replay);
        }

        QueuedThreadPool pool = new QueuedThreadPool(THREADS, 2);
        pool.setName("toolcalls-serve");
        pool.setDaemon(true);
        scheduler = new ScheduledExecutorScheduler("toolcalls-serve-timer", true);
        server = new Server(pool, scheduler, null);
        HttpConfiguration http = new HttpConfiguration();
        http.setSendServerVersion(false);
        http.setSendXPoweredBy(false);
        http.setIdleTimeout(limits.idleTimeoutMs());
        connector = new ServerConnector(server, 1, 1, new HttpConnectionFactory(http));
        connector.setHost(host);
        connector.setPort(port);
        connector.setIdleTimeout(limits.idleTimeoutMs());
        connector.addBean(deadlines);
        server.addConnector(connector);
        server.addBean(new NetworkConnectionLimit(limits.maxConnections(), server));
        server.setErrorHandler(new JsonErrors());
        server.setHandler(new Routes());
        server.setStopTimeout(0);
        try {
            connector.open();
        } catch (IOException e) {
            throw new IOException("cannot listen on " + host + ":" + port + ": " + e.getMessage(), e);
        } catch (RuntimeException e) { // an address that does not resolve
            throw new IOException("cannot listen on " + host + ":" + port + ": " + e, e);
        }
        this.port = connector.getLocalPort();
    }

    public void start() {
        try {
            server.start();
        } catch (Exception e) {
            throw new IllegalStateException("the replay server did not start: " + e.getMessage(), e);
        }
        long every = Math.max(10, Math.min(1000, limits.requestTimeoutMs() / 4));
        scheduler.schedule(new Runnable() {
            @Override public void run() {
                if (!server.isRunning()) return;
                deadlines.sweep();
                scheduler.schedule(this, every, TimeUnit.MILLISECONDS);
            }
        }, every, TimeUnit.MILLISECONDS);
    }

    /** The port bound (the one picked when 0 was asked). */
    public int port() { return port; }

    public List<String> models() { return new ArrayList<>(files.keySet()); }

    /** Requests being answered now (streams included). */
    int inFlight() { return inFlight.get(); }

    /**
     * Stops gracefully: no new connections, new requests on open ones answered 503; in-flight requests
     * get until the shutdown deadline, then a stream still running ends with its protocol's failure
     * event; then every connection is closed.
     */
    @Override public void close() {
        if (!closing.compareAndSet(false, true)) return;
        long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(limits.shutdownTimeoutMs());
        drainDeadline = deadline == 0 ? 1 : deadline;
        connector.shutdown(); // stops accepting; open connections stay
        waitForRequests(deadline);
        if (inFlight.get() > 0) {
            int ended = 0;
            for (Replay r : streams) if (r.endNow()) ended++;
            if (ended > 0) log.println("toolcalls serve: shutdown deadline: " + ended + " stream(s) ended early with a failure event");
            waitForRequests(System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(Math.min(1000, Math.max(100, limits.shutdownTimeoutMs()))));
        }
        try {
            server.stop();
        } catch (Exception e) {
            log.println("toolcalls serve: stopping: " + e);
        }
    }

    private void waitForRequests(long until) {
        while (inFlight.get() > 0 && System.nanoTime() - until < 0) {
            try {
                Thread.sleep(5);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return;
            }
        }
    }

    private boolean draining() { return drainDeadline != 0; }

    private boolean pastDeadline() { return draining() && System.nanoTime() - drainDeadline >= 0; }

    // ---- routing -------------------------------------------------------------------------------

    private final class Routes extends Handler.Abstract {
        @Override public boolean handle(Request request, Response response, Callback callback) {
            Connection connection = request.getConnectionMetaData().getConnection();
            inFlight.incrementAndGet();
            deadlines.processing(connection);
            Callback done = new Callback() {
                @Override public void succeeded() {
                    end();
                    callback.succeeded();
                }

                @Override public void failed(Throwable x) {
                    end();
                    callback.failed(x);
                }

                private void end() {
                    deadlines.waiting(connection);
                    inFlight.decrementAndGet();
                }
            };
            Exchange ex = new Exchange(request, response, done, connection);
            ex.guarded(() -> route(ex));
            return true;
        }
    }

    /** One request being answered: its response is settled once, by whoever gets there first. */
    private final class Exchange {
        final Request request;
        final Response response;
        final Callback done;
        final Connection connection;
        Protocol protocol;
        private final AtomicBoolean settled = new AtomicBoolean();

        Exchange(Request request, Response response, Callback done, Connection connection) {
            this.request = request;
            this.response = response;
            this.done = done;
            this.connection = connection;
            String path = Request.getPathInContext(request);
            this.protocol = path.equals("/v1/messages") ? Protocol.MESSAGES : Protocol.CHAT;
        }

        /** True the first time: the caller now owns the response. */
        boolean settle() { return settled.compareAndSet(false, true); }

        /** Runs a step of the answer; a bug in it is logged and answered 500 (or ends a response under way). */
        void guarded(Runnable step) {
            try {
                step.run();
            } catch (RuntimeException | Error e) {
                log.println("toolcalls serve: internal error on " + request.getMethod() + " " + Request.getPathInContext(request) + ": " + e);
                settle();
                if (response.isCommitted()) done.failed(e);
                else error(500, "internal error: " + e, "server_error", "internal_error", null);
            }
        }

        void send(int status, String body) {
            response.setStatus(status);
            response.getHeaders().put(HttpHeader.CONTENT_TYPE, "application/json; charset=utf-8");
            Content.Sink.write(response, true, body, done);
        }

        /** Each protocol's error object: OpenAI's {@code {"error": {...}}}, or Anthropic's {@code {"type": "error", "error": {...}}}. */
        void error(int status, String message, String type, String code, String param) {
            if (status == 413 || status == 408 || status == 503) response.getHeaders().put(HttpHeader.CONNECTION, "close");
            send(status, errorBody(protocol, status, message, type, code, param));
        }
    }

    private void route(Exchange ex) {
        String path = Request.getPathInContext(ex.request);
        String method = ex.request.getMethod();
        boolean known = path.equals("/v1/models") || path.equals("/v1/chat/completions") || path.equals("/v1/responses") || path.equals("/v1/messages");
        if (known && !path.equals("/v1/models") && method.equals("POST") && !draining()) {
            ex.protocol = path.equals("/v1/chat/completions") ? Protocol.CHAT : path.equals("/v1/responses") ? Protocol.RESPONSES : Protocol.MESSAGES;
            receive(ex); // the body reader settles the response
            return;
        }
        ex.settle();
        if (draining()) {
            ex.error(503, "the server is shutting down", "server_error", "shutting_down", null);
        } else if (path.equals("/v1/models") && method.equals("GET")) {
            models(ex);
        } else if (known) {
            ex.response.getHeaders().put(HttpHeader.ALLOW, path.equals("/v1/models") ? "GET" : "POST");
            ex.error(405, "method " + method + " is not allowed on " + path, "invalid_request_error", "method_not_allowed", null);
        } else {
            ex.error(404, "no route " + method + " " + path, "invalid_request_error", "not_found", null);
        }
    }

    private void models(Exchange ex) {
        JsonArray data = new JsonArray();
        for (String name : files.keySet()) {
            JsonObject m = new JsonObject();
            m.addProperty("id", name);
            m.addProperty("object", "model");
            m.addProperty("created", 0);
            m.addProperty("owned_by", "toolcalls-replay");
            data.add(m);
        }
        JsonObject o = new JsonObject();
        o.addProperty("object", "list");
        o.add("data", data);
        ex.send(200, Json.write(o));
    }

    // ---- the request body: read without a thread, limited in size and time ---------------------

    private void receive(Exchange ex) {
        long length = ex.request.getHeaders().getLongField(HttpHeader.CONTENT_LENGTH);
        if (length > limits.maxBodyBytes()) {
            if (ex.settle()) ex.error(413, tooLarge(length), "invalid_request_error", "request_too_large", null);
            return;
        }
        BodyReader reader = new BodyReader(ex, length > 0 ? (int) length : 1024);
        deadlines.body(ex.connection, reader);
        reader.run();
    }

    private String tooLarge(long length) {
        return "the request body" + (length >= 0 ? " (" + length + " bytes)" : "") + " is larger than the server's limit of "
                + limits.maxBodyBytes() + " bytes (serve --max-body)";
    }

    private final class BodyReader implements Runnable {
        private final Exchange ex;
        private final ByteArrayOutputStream body;

        BodyReader(Exchange ex, int expected) {
            this.ex = ex;
            this.body = new ByteArrayOutputStream(Math.min(expected, 1 << 16));
        }

        @Override public void run() { ex.guarded(this::read); }

        private void read() {
            while (true) {
                if (ex.settled.get()) return; // timed out or failed meanwhile
                Content.Chunk chunk = ex.request.read();
                if (chunk == null) {
                    ex.request.demand(this);
                    return;
                }
                if (Content.Chunk.isFailure(chunk)) {
                    Throwable failure = chunk.getFailure();
                    chunk.release();
                    if (ex.settle()) ex.done.failed(failure); // the client went away or broke HTTP; no one to answer
                    return;
                }
                ByteBuffer b = chunk.getByteBuffer();
                if (body.size() + (long) b.remaining() > limits.maxBodyBytes()) {
                    chunk.release();
                    if (ex.settle()) ex.error(413, tooLarge(-1), "invalid_request_error", "request_too_large", null);
                    return;
                }
                byte[] bytes = new byte[b.remaining()];
                b.get(bytes);
                body.write(bytes, 0, bytes.length);
                boolean last = chunk.isLast();
                chunk.release();
                if (last) {
                    if (!ex.settle()) return;
                    deadlines.processing(ex.connection);
                    reply(ex, body.toByteArray());
                    return;
                }
            }
        }

        /** The request timeout passed before the whole body arrived. */
        void timeout() {
            if (ex.settle()) ex.error(408, "the request body did not arrive within " + limits.requestTimeoutMs() + " ms",
                    "invalid_request_error", "request_timeout", null);
        }
    }

    // ---- the reply -----------------------------------------------------------------------------

    private void reply(Exchange ex, byte[] bytes) {
        Protocol protocol = ex.protocol;
        JsonObject body;
        try {
            JsonElement e = Json.parseStrict(decode(bytes, "the request body"));
            if (!e.isJsonObject()) {
                ex.error(400, "the request body must be a JSON object", "invalid_request_error", "invalid_json", null);
                return;
            }
            body = e.getAsJsonObject();
        } catch (Json.NotJson | IOException e) {
            ex.error(400, "the request body is not valid JSON: " + JsonChecks.plain(e.getMessage()), "invalid_request_error", "invalid_json", null);
            return;
        }
        RequestCheck.Invalid invalid = RequestCheck.check(protocol, body);
        if (invalid != null) {
            ex.error(400, invalid.message(), "invalid_request_error", "invalid_type", invalid.param());
            return;
        }
        String model = body.has("model") ? body.get("model").getAsString() : "";
        Path file = pick(model);
        if (file == null) {
            ex.error(404, "The model '" + model + "' does not exist; replayable: " + String.join(", ", files.keySet())
                    + " (or '" + format.name() + "' for all, round-robin)", "invalid_request_error", "model_not_found", "model");
            return;
        }
        Tools tools;
        try {
            tools = Tools.parse(String.valueOf(chatTools(protocol, body.get("tools"))));
        } catch (IllegalArgumentException e) {
            ex.error(400, "invalid tools: " + e.getMessage(), "invalid_request_error", "invalid_tools", "tools");
            return;
        }
        String output;
        try {
            output = decode(Files.readAllBytes(file), "replay file " + file.getFileName());
        } catch (IOException | RuntimeException e) {
            log.println("toolcalls serve: cannot read replay file " + file + ": " + e.getMessage());
            ex.error(500, "the replay file for model '" + (model.isEmpty() ? format.name() : model) + "' cannot be read: "
                    + e.getMessage() + " (the server log has the path)", "server_error", "replay_unreadable", null);
            return;
        }
        boolean stream = body.has("stream") && !body.get("stream").isJsonNull() && body.get("stream").getAsBoolean();
        String id = (protocol == Protocol.CHAT ? "chatcmpl-" : protocol == Protocol.RESPONSES ? "resp_" : "msg_")
                + IdGenerator.random().alphanumeric(24);
        long created = System.currentTimeMillis() / 1000;
        String replyModel = model.isEmpty() ? format.name() : model;
        ParseOptions options = ParseOptions.defaults().withIds(() -> IdGenerator.seeded(0)).withThinking(thinking(body));
        if (!stream) {
            String answer;
            try {
                List<ParseEvent> events = format.parseEvents(output, tools, options);
                answer = switch (protocol) {
                    case CHAT -> CompletionChunks.completion(ChatMessage.fromEvents(events), id, replyModel, created, false);
                    case RESPONSES -> ResponsesStream.response(events, id, replyModel, created, false);
                    case MESSAGES -> MessagesStream.message(events, id, replyModel, false);
                };
            } catch (ToolCallParseException e) {
                ex.error(500, e.getMessage(), "tool_call_parse_error", e.kind().type(), null);
                return;
            }
            ex.send(200, answer);
            return;
        }
        ex.response.setStatus(200);
        ex.response.getHeaders().put(HttpHeader.CONTENT_TYPE, "text/event-stream; charset=utf-8");
        ex.response.getHeaders().put(HttpHeader.CACHE_CONTROL, "no-cache");
        Replay replay = new Replay(ex, format.newStream(tools, options), protocol, id, replyModel, created, Chunker.split(output, chunkMax, chunkSeed));
        streams.add(replay);
        replay.iterate();
    }

    /** Strict UTF-8, as the command line reads its input: bad bytes are an error that says where, never U+FFFD. */
    static String decode(byte[] bytes, String what) throws IOException {
        CharsetDecoder decoder = StandardCharsets.UTF_8.newDecoder()
                .onMalformedInput(CodingErrorAction.REPORT).onUnmappableCharacter(CodingErrorAction.REPORT);
        ByteBuffer in = ByteBuffer.wrap(bytes);
        CharBuffer out = CharBuffer.allocate(bytes.length);
        CoderResult r = decoder.decode(in, out, true);
        if (!r.isError()) r = decoder.flush(out);
        if (r.isError()) throw new IOException(what + " is not valid UTF-8: byte " + String.format("0x%02X", bytes[in.position()] & 0xFF)
                + " at byte offset " + in.position());
        return out.flip().toString();
    }

    /**
     * One streamed reply, written chunk by chunk without holding a thread: each write's completion
     * (or the delay's timer) runs the next step. A client that stops reading is dropped by the idle
     * timeout; one that disconnects fails the pending write; either ends the exchange.
     */
    private final class Replay extends IteratingCallback {
        private final Exchange ex;
        private final Protocol protocol;
        private final List<String> pieces;
        private final CompletionChunks chunks;
        private final ResponsesStream responses;
        private final MessagesStream messages;
        private int next;
        private boolean started, finished, pause;
        private volatile Scheduler.Task timer;

        Replay(Exchange ex, StreamParser parser, Protocol protocol, String id, String model, long created, List<String> pieces) {
            this.ex = ex;
            this.protocol = protocol;
            this.pieces = pieces;
            this.chunks = protocol == Protocol.CHAT ? new CompletionChunks(parser, id, model, created) : null;
            this.responses = protocol == Protocol.RESPONSES ? new ResponsesStream(parser, id, model, created) : null;
            this.messages = protocol == Protocol.MESSAGES ? new MessagesStream(parser, id, model) : null;
        }

        @Override protected Action process() {
            while (true) {
                if (finished) return Action.SUCCEEDED;
                if (pause) {
                    pause = false;
                    if (delayMs > 0 && !pastDeadline()) {
                        timer = scheduler.schedule(this::succeeded, delayMs, TimeUnit.MILLISECONDS);
                        return Action.SCHEDULED;
                    }
                }
                String text = step();
                if (text.isEmpty() && !finished) continue;
                ex.response.write(finished, ByteBuffer.wrap(text.getBytes(StandardCharsets.UTF_8)), this);
                return Action.SCHEDULED;
            }
        }

        /** The SSE text of the next step; sets {@code finished} at the last one. */
        private String step() {
            StringBuilder sse = new StringBuilder();
            if (pastDeadline()) {
                finished = true;
                String message = "the server is shutting down; the stream was ended before its end";
                if (protocol == Protocol.CHAT) sse.append(chatEvent(errorJson(message, "server_error", "shutting_down", null)));
                else events(sse, responses != null ? responses.abort(message) : messages.abort("overloaded_error", message));
                return sse.toString();
            }
            try {
                if (!started) {
                    started = true;
                    if (protocol != Protocol.CHAT) events(sse, responses != null ? responses.start() : messages.start());
                } else if (next < pieces.size()) {
                    String piece = pieces.get(next++);
                    if (protocol == Protocol.CHAT) for (String c : chunks.feed(piece)) sse.append(chatEvent(c));
                    else events(sse, responses != null ? responses.feed(piece) : messages.feed(piece));
                    pause = true;
                } else {
                    finished = true;
                    if (protocol == Protocol.CHAT) {
                        for (String c : chunks.finish(false)) sse.append(chatEvent(c));
                        sse.append("data: [DONE]\n\n");
                    } else {
                        events(sse, responses != null ? responses.finish(false) : messages.finish(false));
                    }
                }
            } catch (ToolCallParseException e) {
                finished = true;
                if (protocol == Protocol.CHAT) {
                    for (String c : chunks.wrap(e.deltasBeforeError())) sse.append(chatEvent(c));
                    sse.append(chatEvent(errorJson(e.getMessage(), "tool_call_parse_error", e.kind().type(), null)));
                } else {
                    events(sse, responses != null ? responses.fail(e) : messages.fail(e));
                }
            }
            return sse.toString();
        }

        /** At the shutdown deadline: a stream waiting out its delay goes on now, to its failure event. */
        boolean endNow() {
            Scheduler.Task t = timer;
            if (t != null && t.cancel()) {
                succeeded();
                return true;
            }
            return !finished;
        }

        @Override protected void onCompleteSuccess() {
            streams.remove(this);
            ex.done.succeeded();
        }

        @Override protected void onCompleteFailure(Throwable cause) {
            streams.remove(this);
            // the client went away or stalled past the idle timeout; anything else is a bug worth a line on stderr
            if (!(cause instanceof IOException || cause instanceof java.util.concurrent.TimeoutException))
                log.println("toolcalls serve: internal error while streaming " + Request.getPathInContext(ex.request) + ": " + cause);
            ex.done.failed(cause);
        }
    }

    private static String chatEvent(String json) { return "data: " + json + "\n\n"; }

    private static void events(StringBuilder sse, List<WireEvent> events) {
        for (WireEvent e : events) sse.append(e.sse());
    }

    /**
     * A request's tools in Chat Completions shape: Responses tools are {@code {"type": "function",
     * "name", "description", "parameters"}}, Anthropic tools {@code {"name", "description", "input_schema"}}.
     */
    static JsonElement chatTools(Protocol protocol, JsonElement tools) {
        if (protocol == Protocol.CHAT || tools == null || !tools.isJsonArray()) return tools;
        JsonArray out = new JsonArray();
        for (JsonElement t : tools.getAsJsonArray()) {
            if (!t.isJsonObject()) throw new IllegalArgumentException("a tool must be an object");
            JsonObject o = t.getAsJsonObject();
            JsonElement type = o.get("type");
            if (type != null && !JsonChecks.is(type, JsonChecks.Kind.STRING)) throw new IllegalArgumentException("a tool's type must be a string");
            if (protocol == Protocol.RESPONSES && type != null && !"function".equals(type.getAsString())) continue; // built-in tools
            JsonObject function = new JsonObject();
            for (String key : new String[] {"name", "description"}) if (o.has(key)) function.add(key, o.get(key));
            JsonElement schema = o.get(protocol == Protocol.RESPONSES ? "parameters" : "input_schema");
            if (schema != null) function.add("parameters", schema);
            JsonObject wrapped = new JsonObject();
            wrapped.addProperty("type", "function");
            wrapped.add("function", function);
            out.add(wrapped);
        }
        return out;
    }

    /**
     * vLLM's and SGLang's way to say it: {@code "chat_template_kwargs": {"enable_thinking": false}};
     * Anthropic's: {@code "thinking": {"type": "enabled"|"disabled"}}.
     */
    static Boolean thinking(JsonObject body) {
        JsonElement anthropic = body.get("thinking");
        if (anthropic != null && anthropic.isJsonObject() && anthropic.getAsJsonObject().has("type"))
            return !"disabled".equals(anthropic.getAsJsonObject().get("type").getAsString());
        JsonElement kwargs = body.get("chat_template_kwargs");
        if (kwargs == null || !kwargs.isJsonObject()) return null;
        for (String key : new String[] {"enable_thinking", "thinking"}) {
            JsonElement v = kwargs.getAsJsonObject().get(key);
            if (v != null && v.isJsonPrimitive() && v.getAsJsonPrimitive().isBoolean()) return v.getAsBoolean();
        }
        return null;
    }

    private Path pick(String model) {
        if (single) return files.values().iterator().next();
        Path exact = files.get(model);
        if (exact != null) return exact;
        boolean all = model.isEmpty() || model.equalsIgnoreCase(format.name())
                || format.aliases().stream().anyMatch(a -> a.equalsIgnoreCase(model));
        if (!all) return null;
        List<Path> list = new ArrayList<>(files.values());
        return list.get(Math.floorMod(next.getAndIncrement(), list.size()));
    }

    private static String errorJson(String message, String type, String code, String param) {
        JsonObject err = new JsonObject();
        err.addProperty("message", message);
        err.addProperty("type", type);
        err.addProperty("param", param);
        err.addProperty("code", code);
        JsonObject o = new JsonObject();
        o.add("error", err);
        return Json.write(o);
    }

    static String errorBody(Protocol protocol, int status, String message, String type, String code, String param) {
        if (protocol != Protocol.MESSAGES) return errorJson(message, type, code, param);
        String anthropicType = switch (status) {
            case 404 -> "not_found_error";
            case 413 -> "request_too_large";
            case 503 -> "overloaded_error";
            default -> status >= 500 ? "api_error" : "invalid_request_error";
        };
        return MessagesStream.error(anthropicType, message);
    }

    // ---- errors Jetty answers itself (malformed requests, headers too large, ...) ---------------

    /** Jetty's own error responses, in the protocols' JSON instead of its HTML page. */
    private static final class JsonErrors extends ErrorHandler {
        @Override public boolean errorPageForMethod(String method) { return true; }

        @Override public ByteBuffer badMessageError(int status, String reason, HttpFields.Mutable fields) {
            fields.put(HttpHeader.CONTENT_TYPE, "application/json; charset=utf-8");
            return ByteBuffer.wrap(errorJson(reason(status, reason), type(status), "http_" + status, null).getBytes(StandardCharsets.UTF_8));
        }

        @Override protected void generateResponse(Request request, Response response, int code, String message, Throwable cause, Callback callback) {
            Protocol protocol = "/v1/messages".equals(Request.getPathInContext(request)) ? Protocol.MESSAGES : Protocol.CHAT;
            response.getHeaders().put(HttpHeader.CONTENT_TYPE, "application/json; charset=utf-8");
            Content.Sink.write(response, true, errorBody(protocol, code, reason(code, message), type(code), "http_" + code, null), callback);
        }

        private static String reason(int status, String reason) {
            String standard = org.eclipse.jetty.http.HttpStatus.getMessage(status);
            return reason == null || reason.isBlank() || reason.equals(standard) ? status + " " + standard : status + " " + standard + ": " + reason;
        }

        private static String type(int status) { return status >= 500 ? "server_error" : "invalid_request_error"; }
    }

    // ---- request deadlines: slow and stalled clients cannot hold a connection ----------------

    /**
     * Each connection's deadline for delivering a whole request: from its open, or the end of its
     * previous response. A connection still sending headers at the deadline is closed; a request
     * still sending its body is answered 408.
     */
    private final class Deadlines implements Connection.Listener {
        private final class State {
            volatile long since = System.nanoTime(); // waiting for a request (or its body) since
            volatile BodyReader body;                // the body being read, if any
            volatile boolean busy;                   // the request is read; the reply is being made
        }

        private final Map<Connection, State> states = new ConcurrentHashMap<>();

        @Override public void onOpened(Connection connection) { states.put(connection, new State()); }

        @Override public void onClosed(Connection connection) { states.remove(connection); }

        void body(Connection c, BodyReader reader) {
            State s = states.get(c);
            if (s != null) {
                s.body = reader;
                s.busy = false;
            }
        }

        void processing(Connection c) {
            State s = states.get(c);
            if (s != null) {
                s.body = null;
                s.busy = true;
            }
        }

        void waiting(Connection c) {
            State s = states.get(c);
            if (s != null) {
                s.body = null;
                s.busy = false;
                s.since = System.nanoTime();
            }
        }

        void sweep() {
            long now = System.nanoTime(), limit = TimeUnit.MILLISECONDS.toNanos(limits.requestTimeoutMs());
            for (Map.Entry<Connection, State> e : states.entrySet()) {
                State s = e.getValue();
                if (s.busy || now - s.since < limit) continue;
                BodyReader body = s.body;
                if (body != null) {
                    s.body = null;
                    body.timeout();
                } else {
                    e.getKey().getEndPoint().close(); // headers never completed (or an idle keep-alive connection)
                }
            }
        }
    }
}
