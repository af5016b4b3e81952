package dev.toolcalls.server;

import com.google.gson.JsonArray;
import com.google.gson.JsonElement;
import com.google.gson.JsonObject;

import dev.toolcalls.Format;
import dev.toolcalls.IdGenerator;
import dev.toolcalls.ParseOptions;
import dev.toolcalls.StreamParser;
import dev.toolcalls.ToolCallParseException;
import dev.toolcalls.Tools;
import dev.toolcalls.protocol.Protocol;
import dev.toolcalls.protocol.WireEvent;
import dev.toolcalls.protocol.WireStream;

import org.eclipse.jetty.http.HttpHeader;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.util.IteratingCallback;
import org.eclipse.jetty.util.thread.Scheduler;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.stream.Stream;

/**
 * The replay: a request body and a recorded output become the protocol's batch body, or its stream
 * of wire events written chunk by chunk. Every use of the protocol classes is here.
 *
 * <p>With a replay directory, the file whose name (without extension) equals the request's {@code
 * model}; a request for the format's own name (or an alias, or no model) takes the files in name
 * order, round-robin; with a replay file, always that file. Streams are cut like {@code parse
 * --stream}.
 */
final class Replay implements Backend {
    private final Format format;
    private final Map<String, Path> files = new LinkedHashMap<>();
    private final boolean single;
    private final int chunkMax;
    private final long chunkSeed;
    private final long delayMs;
    private final Scheduler scheduler;
    private final Deadlines deadlines;
    private final PrintStream log;
    private final Set<Streamed> streams = ConcurrentHashMap.newKeySet();
    private final AtomicInteger next = new AtomicInteger();
    private final OptionalLong idSeed;
    private final AtomicLong responses = new AtomicLong();

    /**
     * Reads the replay directory (or takes the one file).
     *
     * @param idSeed empty: every response's ids from the library's strong default; a seed: each
     *     response's ids from a generator of its own, seeded from this seed and the response's
     *     number
     */
    Replay(
            Format format,
            Path replay,
            int chunkMax,
            long chunkSeed,
            long delayMs,
            OptionalLong idSeed,
            Scheduler scheduler,
            Deadlines deadlines,
            PrintStream log)
            throws IOException {
        if (chunkMax < 1)
            throw new IllegalArgumentException("chunks are at least 1 code point long");
        if (delayMs < 0) throw new IllegalArgumentException("the delay must not be negative");
        this.format = format;
        this.chunkMax = chunkMax;
        this.chunkSeed = chunkSeed;
        this.delayMs = delayMs;
        this.idSeed = idSeed;
        this.scheduler = scheduler;
        this.deadlines = deadlines;
        this.log = log;
        if (Files.isDirectory(replay)) {
            single = false;
            try (Stream<Path> list = Files.list(replay)) {
                for (Path p : list.filter(Files::isRegularFile).sorted().toList()) {
                    String name = p.getFileName().toString();
                    if (name.endsWith(".json"))
                        continue; // expectation files beside recorded outputs
                    files.put(
                            name.contains(".") ? name.substring(0, name.lastIndexOf('.')) : name,
                            p);
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
    }

    /** The replayable names. */
    @Override
    public List<String> models() {
        return new ArrayList<>(files.keySet());
    }

    @Override
    public String owner() {
        return "toolcalls-replay";
    }

    @Override
    public void reply(Exchange ex, JsonObject body) {
        Protocol protocol = ex.protocol;
        String model = body.has("model") ? body.get("model").getAsString() : "";
        Path file = pick(model);
        if (file == null) {
            ex.error(
                    404,
                    "The model '"
                            + model
                            + "' does not exist; replayable: "
                            + String.join(", ", files.keySet())
                            + " (or '"
                            + format.name()
                            + "' for all, round-robin)",
                    "invalid_request_error",
                    "model_not_found",
                    "model");
            return;
        }
        Tools tools;
        try {
            tools = Tools.parse(String.valueOf(chatTools(protocol, body.get("tools"))));
        } catch (IllegalArgumentException e) {
            ex.error(
                    400,
                    "invalid tools: " + e.getMessage(),
                    "invalid_request_error",
                    "invalid_tools",
                    "tools");
            return;
        }
        String output;
        try {
            output =
                    BodyReader.decode(
                            Files.readAllBytes(file), "replay file " + file.getFileName());
        } catch (IOException | RuntimeException e) {
            log.println("toolcalls serve: cannot read replay file " + file + ": " + e.getMessage());
            ex.error(
                    500,
                    "the replay file for model '"
                            + (model.isEmpty() ? format.name() : model)
                            + "' cannot be read: "
                            + e.getMessage()
                            + " (the server log has the path)",
                    "server_error",
                    "replay_unreadable",
                    null);
            return;
        }
        boolean stream =
                body.has("stream")
                        && !body.get("stream").isJsonNull()
                        && body.get("stream").getAsBoolean();
        IdGenerator ids = ids();
        String id =
                (protocol == Protocol.CHAT_COMPLETIONS
                                ? "chatcmpl-"
                                : protocol == Protocol.RESPONSES ? "resp_" : "msg_")
                        + ids.alphanumeric(24);
        long created = System.currentTimeMillis() / 1000;
        String replyModel = model.isEmpty() ? format.name() : model;
        ParseOptions options =
                ParseOptions.defaults().withIds(() -> ids).withThinking(thinking(body));
        if (!stream) {
            String answer;
            try {
                answer =
                        protocol.response(
                                format.parseEvents(output, tools, options),
                                id,
                                replyModel,
                                created,
                                false);
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
        Streamed streamed =
                new Streamed(
                        ex,
                        format.newStream(tools, options),
                        protocol,
                        id,
                        replyModel,
                        created,
                        Chunker.split(output, chunkMax, chunkSeed));
        streams.add(streamed);
        streamed.iterate();
    }

    /**
     * The ids of one response (its own id, then its calls'): the library's strong default; or, with
     * a seed, a generator of the response's own, so that the responses of a run, in the order they
     * are answered, get the same ids in every run, and no two responses the same.
     */
    private IdGenerator ids() {
        if (idSeed.isEmpty()) return IdGenerator.random();
        long z =
                idSeed.getAsLong()
                        + responses.getAndIncrement()
                                * 0x9E3779B97F4A7C15L; // SplitMix64: unrelated seeds for neighbours
        z = (z ^ (z >>> 30)) * 0xBF58476D1CE4E5B9L;
        z = (z ^ (z >>> 27)) * 0x94D049BB133111EBL;
        return IdGenerator.seeded(z ^ (z >>> 31));
    }

    /**
     * At the shutdown deadline: a stream waiting out its delay goes on now, to its failure event.
     *
     * @return the streams still running, which end with their protocol's failure event
     */
    @Override
    public int endStreams() {
        int ended = 0;
        for (Streamed s : streams) if (s.endNow()) ended++;
        return ended;
    }

    /**
     * One streamed reply, written chunk by chunk without holding a thread: each write's completion
     * (or the delay's timer) runs the next step. A client that stops reading is dropped by the idle
     * timeout; one that disconnects fails the pending write; either ends the exchange.
     */
    private final class Streamed extends IteratingCallback {
        private final Exchange ex;
        private final Protocol protocol;
        private final List<String> pieces;
        private final StreamParser parser;
        private final WireStream wire;
        private int nextPiece;
        private boolean started;
        private boolean finished;
        private boolean pause;
        private volatile Scheduler.Task timer;

        Streamed(
                Exchange ex,
                StreamParser parser,
                Protocol protocol,
                String id,
                String model,
                long created,
                List<String> pieces) {
            this.ex = ex;
            this.protocol = protocol;
            this.pieces = pieces;
            this.parser = parser;
            this.wire = protocol.stream(id, model, created);
        }

        @Override
        protected Action process() {
            while (true) {
                if (finished) return Action.SUCCEEDED;
                if (pause) {
                    pause = false;
                    if (delayMs > 0 && !deadlines.pastDrainDeadline()) {
                        timer = scheduler.schedule(this::succeeded, delayMs, TimeUnit.MILLISECONDS);
                        return Action.SCHEDULED;
                    }
                }
                String text = step();
                if (text.isEmpty() && !finished) continue;
                ex.response.write(
                        finished, ByteBuffer.wrap(text.getBytes(StandardCharsets.UTF_8)), this);
                return Action.SCHEDULED;
            }
        }

        /** The SSE text of the next step; sets {@code finished} at the last one. */
        private String step() {
            if (deadlines.pastDrainDeadline()) {
                finished = true;
                return sse(
                        wire.shutdown(
                                "the server is shutting down; the stream was ended before its end"));
            }
            try {
                if (!started) {
                    started = true;
                    return sse(wire.start());
                }
                if (nextPiece < pieces.size()) {
                    pause = true;
                    return sse(wire.events(parser.feed(pieces.get(nextPiece++))));
                }
                finished = true;
                return sse(wire.events(parser.finish())) + sse(wire.complete(false));
            } catch (ToolCallParseException e) {
                finished = true;
                return sse(wire.fail(e));
            }
        }

        /**
         * At the shutdown deadline: a stream waiting out its delay goes on now, to its failure
         * event.
         */
        boolean endNow() {
            Scheduler.Task t = timer;
            if (t != null && t.cancel()) {
                succeeded();
                return true;
            }
            return !finished;
        }

        @Override
        protected void onCompleteSuccess() {
            streams.remove(this);
            ex.done.succeeded();
        }

        @Override
        protected void onCompleteFailure(Throwable cause) {
            streams.remove(this);
            // the client went away or stalled past the idle timeout; anything else is a bug worth a
            // line on stderr
            if (!(cause instanceof IOException || cause instanceof TimeoutException))
                log.println(
                        "toolcalls serve: internal error while streaming "
                                + Request.getPathInContext(ex.request)
                                + ": "
                                + cause);
            ex.done.failed(cause);
        }
    }

    private static String sse(List<WireEvent> events) {
        if (events.size() == 1) return events.get(0).sse();
        StringBuilder sse = new StringBuilder();
        for (WireEvent e : events) sse.append(e.sse());
        return sse.toString();
    }

    /**
     * A request's tools in Chat Completions shape: Responses tools are {@code {"type": "function",
     * "name", "description", "parameters"}}, Anthropic tools {@code {"name", "description",
     * "input_schema"}}.
     */
    static JsonElement chatTools(Protocol protocol, JsonElement tools) {
        if (protocol == Protocol.CHAT_COMPLETIONS || tools == null || !tools.isJsonArray())
            return tools;
        JsonArray out = new JsonArray();
        for (JsonElement t : tools.getAsJsonArray()) {
            if (!t.isJsonObject()) throw new IllegalArgumentException("a tool must be an object");
            JsonObject o = t.getAsJsonObject();
            JsonElement type = o.get("type");
            if (type != null && !JsonChecks.is(type, JsonChecks.Kind.STRING))
                throw new IllegalArgumentException("a tool's type must be a string");
            if (protocol == Protocol.RESPONSES
                    && type != null
                    && !"function".equals(type.getAsString())) continue; // built-in tools
            JsonObject function = new JsonObject();
            for (String key : new String[] {"name", "description"})
                if (o.has(key)) function.add(key, o.get(key));
            JsonElement schema =
                    o.get(protocol == Protocol.RESPONSES ? "parameters" : "input_schema");
            if (schema != null) function.add("parameters", schema);
            JsonObject wrapped = new JsonObject();
            wrapped.addProperty("type", "function");
            wrapped.add("function", function);
            out.add(wrapped);
        }
        return out;
    }

    /**
     * vLLM's and SGLang's way to say it: {@code "chat_template_kwargs": {"enable_thinking":
     * false}}; Anthropic's: {@code "thinking": {"type": "enabled"|"disabled"}}.
     */
    static Boolean thinking(JsonObject body) {
        JsonElement anthropic = body.get("thinking");
        if (anthropic != null
                && anthropic.isJsonObject()
                && anthropic.getAsJsonObject().has("type"))
            return !"disabled".equals(anthropic.getAsJsonObject().get("type").getAsString());
        JsonElement kwargs = body.get("chat_template_kwargs");
        if (kwargs == null || !kwargs.isJsonObject()) return null;
        for (String key : new String[] {"enable_thinking", "thinking"}) {
            JsonElement v = kwargs.getAsJsonObject().get(key);
            if (v != null && v.isJsonPrimitive() && v.getAsJsonPrimitive().isBoolean())
                return v.getAsBoolean();
        }
        return null;
    }

    private Path pick(String model) {
        if (single) return files.values().iterator().next();
        Path exact = files.get(model);
        if (exact != null) return exact;
        boolean all =
                model.isEmpty()
                        || model.equalsIgnoreCase(format.name())
                        || format.aliases().stream().anyMatch(a -> a.equalsIgnoreCase(model));
        if (!all) return null;
        List<Path> list = new ArrayList<>(files.values());
        return list.get(Math.floorMod(next.getAndIncrement(), list.size()));
    }
}
