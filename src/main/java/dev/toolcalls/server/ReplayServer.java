package dev.toolcalls.server;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.Stream;

import com.google.gson.JsonArray;
import com.google.gson.JsonElement;
import com.google.gson.JsonObject;
import com.google.gson.JsonParseException;
import com.google.gson.JsonParser;
import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;

import dev.toolcalls.ChatMessage;
import dev.toolcalls.Format;
import dev.toolcalls.IdGenerator;
import dev.toolcalls.ParseOptions;
import dev.toolcalls.StreamParser;
import dev.toolcalls.ToolCallParseException;
import dev.toolcalls.Tools;
import dev.toolcalls.internal.json.Json;
import dev.toolcalls.internal.json.WireJson;
import dev.toolcalls.ParseEvent;
import dev.toolcalls.protocol.CompletionChunks;
import dev.toolcalls.protocol.MessagesStream;
import dev.toolcalls.protocol.ResponsesStream;
import dev.toolcalls.protocol.WireEvent;
import dev.toolcalls.protocol.WireStream;
import dev.toolcalls.protocol.SseWriter;

/**
 * A mock OpenAI endpoint that replays recorded raw model outputs through a format's parser, for
 * testing agents and client code against real model conventions without a GPU.
 * <ul>
 * <li>{@code POST /v1/chat/completions}: with a replay directory, the file whose name (without
 *     extension) equals the request's {@code model}; a request for the format's own name (or an
 *     alias, or no model) takes the files in name order, round-robin; with a replay file, always that
 *     file. {@code stream: true} answers SSE chunks cut like {@code parse --stream}; otherwise a
 *     {@code chat.completion}. The request's {@code tools} reach the parser.</li>
 * <li>{@code GET /v1/models}: the replayable names.</li>
 * <li>Errors are OpenAI error objects ({@code {"error": {"message", "type", "param", "code"}}}) with
 *     a 4xx/5xx status; the server keeps serving.</li>
 * </ul>
 * Ids come from a fixed seed per request, so a replay answers the same way every time. A request's
 * {@code chat_template_kwargs.enable_thinking} (as vLLM and SGLang take it) sets thinking on or off.
 */
public final class ReplayServer implements AutoCloseable {
    private final Format format;
    private final Map<String, Path> files;
    private final boolean single;
    private final int chunkMax;
    private final long chunkSeed;
    private final long delayMs;
    private final HttpServer http;
    private final ExecutorService pool = Executors.newFixedThreadPool(8);
    private final AtomicInteger next = new AtomicInteger();
    private final AtomicInteger requests = new AtomicInteger();

    public ReplayServer(Format format, Path replay, String host, int port, int chunkMax, long chunkSeed, long delayMs) throws IOException {
        this.format = format;
        this.chunkMax = chunkMax;
        this.chunkSeed = chunkSeed;
        this.delayMs = delayMs;
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
        http = HttpServer.create(new InetSocketAddress(host, port), 0);
        http.setExecutor(pool);
        http.createContext("/", this::handle);
    }

    public void start() { http.start(); }

    public int port() { return http.getAddress().getPort(); }

    public List<String> models() { return new ArrayList<>(files.keySet()); }

    @Override public void close() {
        http.stop(0);
        pool.shutdown();
        try {
            pool.awaitTermination(5, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private void handle(HttpExchange ex) throws IOException {
        try (ex) {
            String path = ex.getRequestURI().getPath();
            String method = ex.getRequestMethod();
            if (path.equals("/v1/models") && method.equals("GET")) models(ex);
            else if (path.equals("/v1/chat/completions") && method.equals("POST")) reply(ex, Protocol.CHAT);
            else if (path.equals("/v1/responses") && method.equals("POST")) reply(ex, Protocol.RESPONSES);
            else if (path.equals("/v1/messages") && method.equals("POST")) reply(ex, Protocol.MESSAGES);
            else if (path.equals("/v1/models") || path.equals("/v1/chat/completions") || path.equals("/v1/responses"))
                error(ex, Protocol.CHAT, 405, "method " + method + " is not allowed on " + path, "invalid_request_error", "method_not_allowed");
            else if (path.equals("/v1/messages"))
                error(ex, Protocol.MESSAGES, 405, "method " + method + " is not allowed on " + path, "invalid_request_error", "method_not_allowed");
            else error(ex, Protocol.CHAT, 404, "no route " + method + " " + path, "invalid_request_error", "not_found");
        } catch (RuntimeException e) {
            try {
                error(ex, Protocol.CHAT, 500, "internal error: " + e, "server_error", "internal_error");
            } catch (IOException | RuntimeException ignored) {
                // the response was already under way; nothing more to tell the client
            }
        }
    }

    private void models(HttpExchange ex) throws IOException {
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
        send(ex, 200, "application/json", Json.write(o));
    }

    /** The three wire protocols the server speaks from the same parser. */
    enum Protocol { CHAT, RESPONSES, MESSAGES }

    private void reply(HttpExchange ex, Protocol protocol) throws IOException {
        JsonObject body;
        try (InputStream in = ex.getRequestBody()) {
            JsonElement e = JsonParser.parseString(new String(in.readAllBytes(), StandardCharsets.UTF_8));
            if (!e.isJsonObject()) throw new JsonParseException("the body is not a JSON object");
            body = e.getAsJsonObject();
        } catch (JsonParseException | IllegalStateException e) {
            error(ex, protocol, 400, "request body is not valid JSON: " + e.getMessage(), "invalid_request_error", "invalid_json");
            return;
        }
        String model = body.has("model") && body.get("model").isJsonPrimitive() ? body.get("model").getAsString() : "";
        Path file = pick(model);
        if (file == null) {
            error(ex, protocol, 404, "The model '" + model + "' does not exist; replayable: " + String.join(", ", files.keySet())
                    + " (or '" + format.name() + "' for all, round-robin)", "invalid_request_error", "model_not_found");
            return;
        }
        Tools tools;
        try {
            tools = WireJson.tools(chatTools(protocol, body.get("tools")));
        } catch (IllegalArgumentException e) {
            error(ex, protocol, 400, "invalid tools: " + e.getMessage(), "invalid_request_error", "invalid_tools");
            return;
        }
        boolean stream = body.has("stream") && body.get("stream").isJsonPrimitive() && body.get("stream").getAsBoolean();
        String output = Files.readString(file, StandardCharsets.UTF_8);
        String id = (protocol == Protocol.CHAT ? "chatcmpl-" : protocol == Protocol.RESPONSES ? "resp_" : "msg_")
                + IdGenerator.random().alphanumeric(24);
        long created = System.currentTimeMillis() / 1000;
        String replyModel = model.isEmpty() ? format.name() : model;
        ParseOptions options = ParseOptions.defaults().withIds(() -> IdGenerator.seeded(0)).withThinking(thinking(body));
        requests.incrementAndGet();
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
                error(ex, protocol, 500, e.getMessage(), "tool_call_parse_error", e.kind().type);
                return;
            }
            send(ex, 200, "application/json", answer);
            return;
        }
        ex.getResponseHeaders().set("Content-Type", "text/event-stream; charset=utf-8");
        ex.getResponseHeaders().set("Cache-Control", "no-cache");
        ex.sendResponseHeaders(200, 0);
        OutputStream out = ex.getResponseBody();
        StreamParser parser = format.newStream(tools, options);
        if (protocol == Protocol.CHAT) {
            SseWriter sse = new SseWriter(out);
            CompletionChunks chunks = new CompletionChunks(parser, id, replyModel, created);
            try {
                for (String piece : Chunker.split(output, chunkMax, chunkSeed)) {
                    for (String c : chunks.feed(piece)) sse.event(c);
                    pause();
                }
                for (String c : chunks.finish(false)) sse.event(c);
                sse.done();
            } catch (ToolCallParseException e) {
                for (String c : chunks.wrap(e.deltasBeforeError())) sse.event(c);
                sse.event(errorJson(e.getMessage(), "tool_call_parse_error", e.kind().type));
            }
            return;
        }
        // Responses and Messages: named events, no [DONE]; a failure ends with the protocol's own error event
        WireStream wire = protocol == Protocol.RESPONSES ? new ResponsesStream(parser, id, replyModel, created)
                : new MessagesStream(parser, id, replyModel);
        try {
            send(out, wire.start());
            for (String piece : Chunker.split(output, chunkMax, chunkSeed)) {
                send(out, wire.feed(piece));
                pause();
            }
            send(out, wire.finish(false));
        } catch (ToolCallParseException e) {
            send(out, wire.fail(e));
        }
    }

    private static void send(OutputStream out, List<WireEvent> events) throws IOException {
        for (WireEvent e : events) out.write(e.sse().getBytes(StandardCharsets.UTF_8));
        out.flush();
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
            if (protocol == Protocol.RESPONSES && o.has("type") && !"function".equals(o.get("type").getAsString())) continue; // built-in tools
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

    private void pause() {
        if (delayMs <= 0) return;
        try {
            Thread.sleep(delayMs);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private static String errorJson(String message, String type, String code) {
        JsonObject err = new JsonObject();
        err.addProperty("message", message);
        err.addProperty("type", type);
        err.add("param", com.google.gson.JsonNull.INSTANCE);
        err.addProperty("code", code);
        JsonObject o = new JsonObject();
        o.add("error", err);
        return Json.write(o);
    }

    /** Each protocol's error object: OpenAI's {@code {"error": {...}}}, or Anthropic's {@code {"type": "error", "error": {...}}}. */
    private static void error(HttpExchange ex, Protocol protocol, int status, String message, String type, String code) throws IOException {
        if (protocol != Protocol.MESSAGES) {
            send(ex, status, "application/json", errorJson(message, type, code));
            return;
        }
        String anthropicType = status == 404 ? "not_found_error" : status == 405 ? "invalid_request_error" : status >= 500 ? "api_error" : "invalid_request_error";
        send(ex, status, "application/json", MessagesStream.error(anthropicType, message));
    }

    private static void send(HttpExchange ex, int status, String contentType, String body) throws IOException {
        byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
        ex.getResponseHeaders().set("Content-Type", contentType + "; charset=utf-8");
        ex.sendResponseHeaders(status, bytes.length);
        try (OutputStream out = ex.getResponseBody()) {
            out.write(bytes);
        }
    }
}
