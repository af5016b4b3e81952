package dev.toolcalls.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.google.gson.JsonElement;
import com.google.gson.JsonObject;
import com.google.gson.JsonParser;

import dev.toolcalls.Formats;
import dev.toolcalls.templates.ChatTemplate;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.io.InputStream;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The gateway when things go wrong: an engine that is down, refuses, times out, breaks its stream
 * or writes a malformed call; a client that disconnects (the engine sees its connection closed);
 * the stream limit; truncation and usage in every protocol; and 200 concurrent streams, each the
 * same as its batch answer.
 */
class GatewayReliabilityTest {
    static final ChatTemplate TEMPLATE =
            ChatTemplate.of(
                    "{% for m in messages %}<|{{ m.role }}|>{{ m.content }}\n{% endfor %}<|assistant|>",
                    Map.of());
    static final String[] PATHS = {"/v1/chat/completions", "/v1/responses", "/v1/messages"};
    static final List<String> FORMATS =
            List.of("hermes", "qwen3_coder", "gpt_oss", "deepseek_v31", "mistral");

    final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
    StandInEngine engine;
    GatewayServer gateway;

    /** A gateway (not started) for one hermes model over {@code upstream}, on any free port. */
    static GatewayServer hermesGateway(
            String upstream,
            Upstream.Kind kind,
            ReplayServer.Limits limits,
            GatewayServer.Options options)
            throws IOException {
        return new GatewayServer(
                List.of(
                        new Upstream(
                                "hermes",
                                URI.create(upstream),
                                null,
                                Formats.get("hermes"),
                                TEMPLATE,
                                kind,
                                Map.of(),
                                null)),
                "127.0.0.1",
                0,
                limits,
                options,
                System.err);
    }

    GatewayServer start(String upstream, GatewayServer.Options options) throws Exception {
        gateway =
                hermesGateway(
                        upstream, Upstream.Kind.OPENAI, ReplayServer.Limits.defaults(), options);
        gateway.start();
        return gateway;
    }

    GatewayServer start() throws Exception {
        engine = new StandInEngine();
        return start(engine.baseUrl(), GatewayServer.Options.defaults());
    }

    @AfterEach
    void stop() {
        if (gateway != null) gateway.close();
        if (engine != null) engine.close();
    }

    static String body(String path, boolean stream, String extra) {
        String messages = "\"messages\": [{\"role\": \"user\", \"content\": \"hi\"}]";
        String common =
                "\"model\": \"hermes\", \"stream\": "
                        + stream
                        + (extra.isEmpty() ? "" : ", " + extra);
        return switch (path) {
            case "/v1/chat/completions" -> "{" + common + ", " + messages + "}";
            case "/v1/responses" -> "{" + common + ", \"input\": \"hi\"}";
            default -> "{" + common + ", \"max_tokens\": 100, " + messages + "}";
        };
    }

    HttpResponse<String> post(String path, String body) throws Exception {
        return post(http, gateway, path, body);
    }

    /** A JSON POST to the gateway's {@code path}, its answer as text. */
    static HttpResponse<String> post(
            HttpClient http, GatewayServer gateway, String path, String body) throws Exception {
        return http.send(
                HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + gateway.port() + path))
                        .header("Content-Type", "application/json")
                        .POST(HttpRequest.BodyPublishers.ofString(body))
                        .timeout(Duration.ofSeconds(20))
                        .build(),
                HttpResponse.BodyHandlers.ofString());
    }

    /** The error's code (OpenAI shape) or type (Anthropic shape), checking the shape. */
    static String errorCode(String path, String body) {
        JsonObject o = JsonParser.parseString(body).getAsJsonObject();
        if (path.equals("/v1/messages")) {
            assertEquals("error", o.get("type").getAsString(), body);
            return o.getAsJsonObject("error").get("type").getAsString();
        }
        JsonObject e = o.getAsJsonObject("error");
        assertEquals("server_error", e.get("type").getAsString(), body);
        assertTrue(e.get("message").getAsString().length() > 10, body);
        return e.get("code").getAsString();
    }

    @Test
    void anEngineThatIsDownIsA502InEachProtocolsShape() throws Exception {
        int port;
        try (ServerSocket s = new ServerSocket(0)) {
            port = s.getLocalPort();
        }
        start("http://127.0.0.1:" + port + "/v1", GatewayServer.Options.defaults());
        for (String path : PATHS)
            for (boolean stream : new boolean[] {false, true}) {
                HttpResponse<String> r = post(path, body(path, stream, ""));
                assertEquals(502, r.statusCode(), path + " " + r.body());
                assertTrue(
                        r.headers()
                                .firstValue("content-type")
                                .orElse("")
                                .startsWith("application/json"));
                assertEquals(
                        path.equals("/v1/messages") ? "api_error" : "upstream_error",
                        errorCode(path, r.body()));
                assertTrue(r.body().contains("connection refused"), r.body());
            }
    }

    @Test
    void anEngineThatTimesOutIsA504() throws Exception {
        engine = new StandInEngine();
        engine.script = r -> new StandInEngine.Script("x", "stop", 4, 0, 200, 3000, null);
        start(engine.baseUrl(), new GatewayServer.Options(16, 300, 5000));
        for (String path : PATHS) {
            long t0 = System.nanoTime();
            HttpResponse<String> r = post(path, body(path, true, ""));
            assertEquals(504, r.statusCode(), path + " " + r.body());
            assertEquals(
                    path.equals("/v1/messages") ? "api_error" : "upstream_timeout",
                    errorCode(path, r.body()));
            assertTrue(
                    System.nanoTime() - t0 < TimeUnit.SECONDS.toNanos(2),
                    "answered at the timeout, not the engine's pace");
        }
    }

    @Test
    void anEngineThatRefusesIsA502WithItsMessage() throws Exception {
        start();
        engine.script = r -> new StandInEngine.Script("x", "stop", 4, 0, 400, 0, null);
        for (String path : PATHS) {
            HttpResponse<String> r = post(path, body(path, false, ""));
            assertEquals(502, r.statusCode(), r.body());
            assertTrue(
                    r.body().contains("status 400") && r.body().contains("the engine refuses"),
                    r.body());
        }
    }

    /** The data payloads of an SSE body (event names and [DONE] kept as they are). */
    static List<String> data(String sse) {
        List<String> out = new ArrayList<>();
        for (String line : sse.split("\n"))
            if (line.startsWith("data: ")) out.add(line.substring(6));
        return out;
    }

    @Test
    void aBrokenEngineStreamEndsWithTheProtocolsErrorEventAfterWhatWasCertain() throws Exception {
        start();
        engine.script =
                r ->
                        new StandInEngine.Script(
                                null,
                                null,
                                0,
                                0,
                                200,
                                0,
                                "data: {\"choices\": [{\"index\": 0, \"text\": \"Hello there\", \"finish_reason\": null}]}\n\ndata: {not json\n\n");
        HttpResponse<String> r = post(PATHS[0], body(PATHS[0], true, ""));
        assertEquals(200, r.statusCode());
        List<String> d = data(r.body());
        assertTrue(r.body().contains("Hello there"), r.body());
        assertEquals("[DONE]", d.get(d.size() - 1));
        assertTrue(
                d.get(d.size() - 2).contains("\"error\"")
                        && d.get(d.size() - 2).contains("not a JSON object"),
                r.body());

        // closed before its end (no finish_reason, no [DONE])
        engine.script =
                r2 ->
                        new StandInEngine.Script(
                                null,
                                null,
                                0,
                                0,
                                200,
                                0,
                                "data: {\"choices\": [{\"index\": 0, \"text\": \"Hel\", \"finish_reason\": null}]}\n\n");
        r = post(PATHS[1], body(PATHS[1], true, ""));
        assertTrue(
                r.body().contains("event: response.failed") && r.body().contains("before its end"),
                r.body());
        r = post(PATHS[2], body(PATHS[2], true, ""));
        assertTrue(
                r.body().contains("event: error") && r.body().contains("before its end"), r.body());
        r = post(PATHS[2], body(PATHS[2], false, ""));
        assertEquals(502, r.statusCode());
    }

    @Test
    void aMalformedCallIsTheParseErrorEventAfterTheTextBeforeIt() throws Exception {
        start();
        engine.script =
                r ->
                        StandInEngine.Script.of(
                                "Checking.\n<tool_call>\n{\"name\": \"f\", \"arguments\": {\"a\": }}\n</tool_call>");
        HttpResponse<String> r = post(PATHS[0], body(PATHS[0], true, ""));
        List<String> d = data(r.body());
        assertTrue(r.body().contains("Checking."), r.body());
        assertTrue(d.get(d.size() - 2).contains("\"error\""), r.body());
        r = post(PATHS[0], body(PATHS[0], false, ""));
        assertEquals(502, r.statusCode(), r.body());
        assertEquals(
                "tool_call_parse_error",
                JsonParser.parseString(r.body())
                        .getAsJsonObject()
                        .getAsJsonObject("error")
                        .get("type")
                        .getAsString());
    }

    @Test
    void aClientThatDisconnectsStopsTheEngine() throws Exception {
        start();
        engine.script = r -> StandInEngine.Script.of("word ".repeat(3000)).delay(5);
        for (String path : PATHS) {
            engine.closed = new CountDownLatch(1);
            int before = engine.closedEarly.get();
            HttpResponse<InputStream> r =
                    http.send(
                            HttpRequest.newBuilder(
                                            URI.create("http://127.0.0.1:" + gateway.port() + path))
                                    .POST(HttpRequest.BodyPublishers.ofString(body(path, true, "")))
                                    .build(),
                            HttpResponse.BodyHandlers.ofInputStream());
            InputStream in = r.body();
            StringBuilder some = new StringBuilder();
            while (!some.toString().contains("word") && some.length() < 20_000) {
                byte[] b = in.readNBytes(64);
                assertTrue(b.length > 0, "the stream ended: " + some);
                some.append(new String(b, StandardCharsets.ISO_8859_1));
            }
            assertTrue(some.toString().contains("word"), some.toString());
            in.close(); // the client goes away mid-stream
            assertTrue(
                    engine.closed.await(5, TimeUnit.SECONDS),
                    path + ": the engine's connection was not closed");
            assertEquals(before + 1, engine.closedEarly.get());
            long until = System.nanoTime() + TimeUnit.SECONDS.toNanos(5);
            while (gateway.relaying() > 0 && System.nanoTime() < until) Thread.sleep(10);
            assertEquals(0, gateway.relaying(), "no relay left behind");
        }
        assertEquals(0, engine.completed.get(), "no generation ran to its end");
    }

    @Test
    void atTheShutdownDeadlineAStreamEndsWithItsFailureEventAndTheEngineIsStopped()
            throws Exception {
        engine = new StandInEngine();
        engine.script = r -> StandInEngine.Script.of("word ".repeat(3000)).delay(5);
        gateway =
                hermesGateway(
                        engine.baseUrl(),
                        Upstream.Kind.OPENAI,
                        new ReplayServer.Limits(4L << 20, 30_000, 30_000, 300, 512),
                        GatewayServer.Options.defaults());
        gateway.start();
        HttpResponse<InputStream> r =
                http.send(
                        HttpRequest.newBuilder(
                                        URI.create("http://127.0.0.1:" + gateway.port() + PATHS[0]))
                                .POST(HttpRequest.BodyPublishers.ofString(body(PATHS[0], true, "")))
                                .build(),
                        HttpResponse.BodyHandlers.ofInputStream());
        assertEquals(200, r.statusCode());
        InputStream in = r.body();
        StringBuilder seen = new StringBuilder();
        while (!seen.toString().contains("word")) {
            byte[] b = in.readNBytes(64);
            assertTrue(b.length > 0, "the stream ended: " + seen);
            seen.append(new String(b, StandardCharsets.ISO_8859_1));
        }
        GatewayServer closing = gateway;
        Thread closer = new Thread(closing::close); // waits for the deadline, then ends the stream
        closer.start();
        String sse = seen + new String(in.readAllBytes(), StandardCharsets.ISO_8859_1);
        closer.join(10_000);
        List<String> d = data(sse);
        assertTrue(d.size() > 2, sse);
        assertEquals("[DONE]", d.get(d.size() - 1));
        assertTrue(d.get(d.size() - 2).contains("shutting_down"), d.get(d.size() - 2));
        assertTrue(sse.contains("word"));
        assertTrue(engine.closed.await(5, TimeUnit.SECONDS), "the engine's request was aborted");
        gateway = null;
    }

    /**
     * An engine that closes a kept-alive connection just as the gateway reuses it (uvicorn closes
     * those it deems idle): the request goes again, once, on a new connection, and the client sees
     * nothing of it. The engine here answers each connection's first request and closes the
     * connection at its second, unanswered.
     */
    @Test
    void aKeptAliveConnectionTheEngineClosesUnansweredIsRetriedOnANewOne() throws Exception {
        String event =
                "data: {\"choices\": [{\"index\": 0, \"text\": \"Hello\", \"finish_reason\": \"stop\"}]}\n\n"
                        + "data: [DONE]\n\n";
        byte[] answer =
                ("HTTP/1.1 200 OK\r\nContent-Type: text/event-stream\r\nContent-Length: "
                                + event.getBytes(StandardCharsets.UTF_8).length
                                + "\r\n\r\n"
                                + event)
                        .getBytes(StandardCharsets.UTF_8);
        AtomicInteger connections = new AtomicInteger();
        AtomicInteger requests = new AtomicInteger();
        try (ServerSocket engineSocket =
                socketEngine(
                        c -> {
                            connections.incrementAndGet();
                            InputStream in = c.getInputStream();
                            for (int k = 1; ; k++) {
                                if (!readRequest(in)) return;
                                requests.incrementAndGet();
                                if (k == 2) return; // closed
                                c.getOutputStream().write(answer);
                                c.getOutputStream().flush();
                            }
                        })) {
            for (int i = 0; i < 3; i++) {
                HttpResponse<String> r = post(PATHS[0], body(PATHS[0], false, ""));
                assertEquals(200, r.statusCode(), r.body());
                assertEquals(
                        "Hello",
                        JsonParser.parseString(r.body())
                                .getAsJsonObject()
                                .getAsJsonArray("choices")
                                .get(0)
                                .getAsJsonObject()
                                .getAsJsonObject("message")
                                .get("content")
                                .getAsString(),
                        r.body());
            }
        }
        // answered on connections 1, 2, 3; each later one after the one before closed unanswered
        assertEquals(3, connections.get());
        assertEquals(5, requests.get());
    }

    /** An engine whose answer is not HTTP/1.x: a 502 naming what was wrong, not sent again. */
    @Test
    void anEngineThatAnswersSomethingElseThanHttpIsA502SayingSo() throws Exception {
        AtomicInteger requests = new AtomicInteger();
        try (ServerSocket engineSocket =
                socketEngine(
                        c -> {
                            if (!readRequest(c.getInputStream())) return;
                            requests.incrementAndGet();
                            c.getOutputStream()
                                    .write(
                                            "SSH-2.0-OpenSSH_9.6\r\n\r\n"
                                                    .getBytes(StandardCharsets.UTF_8));
                            c.getOutputStream().flush();
                        })) {
            HttpResponse<String> r = post(PATHS[0], body(PATHS[0], true, ""));
            assertEquals(502, r.statusCode(), r.body());
            assertTrue(
                    r.body().contains("malformed HTTP answer") && r.body().contains("not HTTP/1.x"),
                    r.body());
        }
        assertEquals(1, requests.get(), "not sent again");
    }

    /** What a socket engine does with one connection (closed after). */
    interface ConnectionHandler {
        void handle(Socket connection) throws IOException;
    }

    /**
     * An engine written on a socket, each connection handled on a thread of its own, and the
     * gateway started in front of it.
     */
    ServerSocket socketEngine(ConnectionHandler handler) throws Exception {
        ServerSocket engineSocket = new ServerSocket(0);
        Thread accept =
                new Thread(
                        () -> {
                            while (!engineSocket.isClosed()) {
                                try {
                                    Socket c = engineSocket.accept();
                                    Thread t =
                                            new Thread(
                                                    () -> {
                                                        try (c) {
                                                            handler.handle(c);
                                                        } catch (IOException e) {
                                                            // the gateway closed it
                                                        }
                                                    });
                                    t.setDaemon(true);
                                    t.start();
                                } catch (IOException closed) {
                                    return;
                                }
                            }
                        });
        accept.setDaemon(true);
        accept.start();
        start(
                "http://127.0.0.1:" + engineSocket.getLocalPort() + "/v1",
                GatewayServer.Options.defaults());
        return engineSocket;
    }

    /** One HTTP/1.1 request with a Content-Length body; false at the end of the stream. */
    static boolean readRequest(InputStream in) throws IOException {
        StringBuilder head = new StringBuilder();
        int b;
        while (!head.toString().endsWith("\r\n\r\n")) {
            if ((b = in.read()) < 0) return false;
            head.append((char) b);
        }
        Matcher m = Pattern.compile("(?i)content-length:\\s*(\\d+)").matcher(head.toString());
        int length = m.find() ? Integer.parseInt(m.group(1)) : 0;
        return in.readNBytes(length).length == length;
    }

    @Test
    void moreStreamsThanTheLimitAreA503() throws Exception {
        engine = new StandInEngine();
        engine.script = r -> StandInEngine.Script.of("word ".repeat(200)).delay(10);
        start(engine.baseUrl(), new GatewayServer.Options(1, 10_000, 5000));
        CompletableFuture<HttpResponse<String>> first =
                http.sendAsync(
                        HttpRequest.newBuilder(
                                        URI.create("http://127.0.0.1:" + gateway.port() + PATHS[0]))
                                .POST(HttpRequest.BodyPublishers.ofString(body(PATHS[0], true, "")))
                                .build(),
                        HttpResponse.BodyHandlers.ofString());
        long until = System.nanoTime() + TimeUnit.SECONDS.toNanos(5);
        while (gateway.relaying() == 0 && System.nanoTime() < until) Thread.sleep(5);
        HttpResponse<String> second = post(PATHS[2], body(PATHS[2], true, ""));
        assertEquals(503, second.statusCode(), second.body());
        assertEquals("overloaded_error", errorCode(PATHS[2], second.body()));
        assertEquals(200, first.get(20, TimeUnit.SECONDS).statusCode());
    }

    @Test
    void theRequestsFieldsReachTheEngine() throws Exception {
        start();
        engine.script = r -> StandInEngine.Script.of("ok");
        post(
                PATHS[0],
                body(
                        PATHS[0],
                        false,
                        "\"max_tokens\": 77, \"temperature\": 0.25, \"top_p\": 0.5, \"seed\": 9, \"stop\": [\"END\"]"));
        JsonObject up = engine.lastRequest();
        assertEquals(77, up.get("max_tokens").getAsInt());
        assertEquals(0.25, up.get("temperature").getAsDouble());
        assertEquals(0.5, up.get("top_p").getAsDouble());
        assertEquals(9, up.get("seed").getAsInt());
        assertEquals("[\"END\"]", up.get("stop").toString());
        assertTrue(up.get("stream").getAsBoolean());
        assertTrue(up.getAsJsonObject("stream_options").get("include_usage").getAsBoolean());
        assertEquals(false, up.get("skip_special_tokens").getAsBoolean());
        assertEquals("<|user|>hi\n<|assistant|>", up.get("prompt").getAsString());
        assertTrue(!up.has("model"), "no upstream model configured: none sent");

        post(
                PATHS[1],
                body(PATHS[1], false, "\"max_output_tokens\": 55, \"instructions\": \"be brief\""));
        up = engine.lastRequest();
        assertEquals(55, up.get("max_tokens").getAsInt());
        assertEquals(
                "<|system|>be brief\n<|user|>hi\n<|assistant|>", up.get("prompt").getAsString());

        post(
                PATHS[2],
                body(
                        PATHS[2],
                        false,
                        "\"stop_sequences\": [\"S\"], \"top_k\": 5, \"system\": \"sys\""));
        up = engine.lastRequest();
        assertEquals(100, up.get("max_tokens").getAsInt());
        assertEquals(5, up.get("top_k").getAsInt());
        assertEquals("[\"S\"]", up.get("stop").toString());
        assertEquals("<|system|>sys\n<|user|>hi\n<|assistant|>", up.get("prompt").getAsString());
    }

    @Test
    void aCutGenerationAndTheEnginesUsageReachEveryProtocol() throws Exception {
        start();
        engine.script = r -> StandInEngine.Script.of("The story was cut").finish("length");
        // Chat Completions
        JsonObject c =
                JsonParser.parseString(post(PATHS[0], body(PATHS[0], false, "")).body())
                        .getAsJsonObject();
        assertEquals(
                "length",
                c.getAsJsonArray("choices")
                        .get(0)
                        .getAsJsonObject()
                        .get("finish_reason")
                        .getAsString());
        assertTrue(c.getAsJsonObject("usage").get("prompt_tokens").getAsInt() > 0);
        String sse =
                post(
                                PATHS[0],
                                body(
                                        PATHS[0],
                                        true,
                                        "\"stream_options\": {\"include_usage\": true}"))
                        .body();
        List<String> d = data(sse);
        assertTrue(d.get(d.size() - 3).contains("\"finish_reason\":\"length\""), sse);
        JsonObject usage = JsonParser.parseString(d.get(d.size() - 2)).getAsJsonObject();
        assertEquals(0, usage.getAsJsonArray("choices").size());
        assertTrue(usage.getAsJsonObject("usage").get("completion_tokens").getAsInt() > 0);
        assertTrue(
                !post(PATHS[0], body(PATHS[0], true, "")).body().contains("\"usage\""),
                "no usage chunk unless asked");
        // Responses
        JsonObject r =
                JsonParser.parseString(post(PATHS[1], body(PATHS[1], false, "")).body())
                        .getAsJsonObject();
        assertEquals("incomplete", r.get("status").getAsString());
        assertTrue(r.getAsJsonObject("usage").get("output_tokens").getAsInt() > 0);
        sse = post(PATHS[1], body(PATHS[1], true, "")).body();
        d = data(sse);
        JsonObject last = JsonParser.parseString(d.get(d.size() - 1)).getAsJsonObject();
        assertEquals("response.incomplete", last.get("type").getAsString());
        assertTrue(
                last.getAsJsonObject("response")
                                .getAsJsonObject("usage")
                                .get("input_tokens")
                                .getAsInt()
                        > 0);
        // Messages
        JsonObject m =
                JsonParser.parseString(post(PATHS[2], body(PATHS[2], false, "")).body())
                        .getAsJsonObject();
        assertEquals("max_tokens", m.get("stop_reason").getAsString());
        assertTrue(m.getAsJsonObject("usage").get("input_tokens").getAsInt() > 0);
        sse = post(PATHS[2], body(PATHS[2], true, "")).body();
        JsonObject delta = null;
        for (String x : data(sse))
            if (x.contains("\"message_delta\""))
                delta = JsonParser.parseString(x).getAsJsonObject();
        assertEquals("max_tokens", delta.getAsJsonObject("delta").get("stop_reason").getAsString());
        assertTrue(delta.getAsJsonObject("usage").get("output_tokens").getAsInt() > 0);
    }

    /** Content and calls (name, arguments) a Chat Completions stream adds up to. */
    static String accumulate(String sse) {
        StringBuilder content = new StringBuilder();
        List<StringBuilder> calls = new ArrayList<>();
        for (String d : data(sse)) {
            if (d.equals("[DONE]")) continue;
            JsonObject o = JsonParser.parseString(d).getAsJsonObject();
            if (o.has("error")) return "error " + o.get("error");
            for (JsonElement ch : o.getAsJsonArray("choices")) {
                JsonObject delta = ch.getAsJsonObject().getAsJsonObject("delta");
                if (delta == null) continue;
                if (delta.has("content") && !delta.get("content").isJsonNull())
                    content.append(delta.get("content").getAsString());
                if (delta.has("tool_calls"))
                    for (JsonElement t : delta.getAsJsonArray("tool_calls")) {
                        JsonObject tc = t.getAsJsonObject();
                        int i = tc.get("index").getAsInt();
                        while (calls.size() <= i) calls.add(new StringBuilder());
                        JsonObject f = tc.getAsJsonObject("function");
                        if (f.has("name"))
                            calls.get(i).append(f.get("name").getAsString()).append(' ');
                        if (f.has("arguments"))
                            calls.get(i).append(f.get("arguments").getAsString());
                    }
            }
        }
        StringBuilder out = new StringBuilder(content.toString().strip());
        for (StringBuilder c : calls) {
            String s = c.toString();
            int sp = s.indexOf(' ');
            out.append(" | ")
                    .append(s, 0, sp + 1)
                    .append(JsonParser.parseString(s.substring(sp + 1)));
        }
        return out.toString();
    }

    static String batch(String body) {
        JsonObject m =
                JsonParser.parseString(body)
                        .getAsJsonObject()
                        .getAsJsonArray("choices")
                        .get(0)
                        .getAsJsonObject()
                        .getAsJsonObject("message");
        StringBuilder out =
                new StringBuilder(
                        m.has("content") && !m.get("content").isJsonNull()
                                ? m.get("content").getAsString().strip()
                                : "");
        if (m.has("tool_calls"))
            for (JsonElement t : m.getAsJsonArray("tool_calls")) {
                JsonObject f = t.getAsJsonObject().getAsJsonObject("function");
                out.append(" | ")
                        .append(f.get("name").getAsString())
                        .append(' ')
                        .append(JsonParser.parseString(f.get("arguments").getAsString()));
            }
        return out.toString();
    }

    /** A recorded output of a format to replay, and its number among all. */
    record Recorded(String format, String text) {}

    /**
     * Outputs of several formats that parse without options (no tools, thinking or leniency
     * needed).
     */
    /** The stand-in engine's answer to a prompt that says which output to write: "case N". */
    static StandInEngine.Script promptedOutput(List<Recorded> outputs, JsonObject request) {
        int n = Integer.parseInt(request.get("prompt").getAsString().replaceAll("\\D", ""));
        return StandInEngine.Script.of(outputs.get(n % outputs.size()).text());
    }

    static List<Recorded> recorded() throws Exception {
        List<Recorded> out = new ArrayList<>();
        for (String format : FORMATS) {
            int taken = 0;
            try (var files = Files.list(Path.of("tests-data", format))) {
                for (Path p : files.sorted().toList()) {
                    if (!p.toString().endsWith(".txt") || taken >= 12) continue;
                    Path json = Path.of(p.toString().replace(".txt", ".json"));
                    if (!Files.exists(json)) continue;
                    JsonObject expected =
                            JsonParser.parseString(Files.readString(json)).getAsJsonObject();
                    if (expected.has("error")
                            || expected.has("stream_error")
                            || expected.has("_problem")
                            || expected.has("tools")
                            || expected.has("lenient")
                            || expected.has("thinking")
                            || expected.has("options")) continue;
                    out.add(new Recorded(format, Files.readString(p)));
                    taken++;
                }
            }
        }
        return out;
    }

    @Test
    void twoHundredConcurrentStreamsOfSeveralFormatsEachEqualTheirBatchAnswer() throws Exception {
        engine = new StandInEngine();
        List<Upstream> ups = new ArrayList<>();
        for (String f : FORMATS)
            ups.add(
                    new Upstream(
                            f,
                            URI.create(engine.baseUrl()),
                            f,
                            Formats.get(f),
                            TEMPLATE,
                            Upstream.Kind.OPENAI,
                            Map.of(),
                            null));
        gateway =
                new GatewayServer(
                        ups,
                        "127.0.0.1",
                        0,
                        ReplayServer.Limits.defaults(),
                        GatewayServer.Options.defaults(),
                        System.err);
        gateway.start();
        List<Recorded> outputs = recorded();
        assertTrue(outputs.size() >= 40, "outputs: " + outputs.size());
        engine.script = r -> promptedOutput(outputs, r).delay(1);
        int n = 200;
        List<String> batch = new ArrayList<>();
        for (int i = 0; i < outputs.size(); i++) {
            HttpResponse<String> r = post(PATHS[0], request(outputs, i, false));
            assertEquals(200, r.statusCode(), outputs.get(i) + " " + r.body());
            batch.add(batch(r.body()));
        }
        ExecutorService pool = Executors.newFixedThreadPool(8);
        HttpClient many = HttpClient.newBuilder().executor(pool).build();
        List<CompletableFuture<HttpResponse<String>>> streams = new ArrayList<>();
        for (int i = 0; i < n; i++)
            streams.add(
                    many.sendAsync(
                            HttpRequest.newBuilder(
                                            URI.create(
                                                    "http://127.0.0.1:"
                                                            + gateway.port()
                                                            + PATHS[0]))
                                    .POST(
                                            HttpRequest.BodyPublishers.ofString(
                                                    request(outputs, i, true)))
                                    .timeout(Duration.ofSeconds(60))
                                    .build(),
                            HttpResponse.BodyHandlers.ofString()));
        int max = 0;
        long until = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
        while (!CompletableFuture.allOf(streams.toArray(new CompletableFuture<?>[0])).isDone()
                && System.nanoTime() < until) {
            max = Math.max(max, gateway.relaying());
            Thread.sleep(2);
        }
        for (int i = 0; i < n; i++) {
            HttpResponse<String> r = streams.get(i).get(1, TimeUnit.SECONDS);
            assertEquals(200, r.statusCode());
            assertEquals(
                    batch.get(i % outputs.size()),
                    accumulate(r.body()),
                    "stream " + i + " " + outputs.get(i % outputs.size()));
        }
        pool.shutdownNow();
        assertTrue(max > 50, "streams ran concurrently: at most " + max + " at once");
        assertEquals(0, engine.closedEarly.get());
    }

    static String request(List<Recorded> outputs, int i, boolean stream) {
        return "{\"model\": \""
                + outputs.get(i % outputs.size()).format()
                + "\", \"stream\": "
                + stream
                + ", \"messages\": [{\"role\": \"user\", \"content\": \"case "
                + i
                + "\"}]}";
    }
}
