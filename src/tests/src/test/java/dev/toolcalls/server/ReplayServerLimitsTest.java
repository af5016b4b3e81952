package dev.toolcalls.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.google.gson.JsonObject;
import com.google.gson.JsonParser;

import dev.toolcalls.Formats;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.BufferedReader;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.io.PrintStream;
import java.net.ConnectException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.SocketException;
import java.net.SocketTimeoutException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

/**
 * The replay server under hostile and unlucky clients: slow, stalled and disconnecting ones, bodies
 * too large, fields of the wrong kind, malformed HTTP, unreadable replay files, and shutdown with
 * streams in flight. Every client is on loopback and every loop is bounded.
 */
class ReplayServerLimitsTest {
    @TempDir Path dir;

    static final ReplayServer.Limits TIGHT =
            new ReplayServer.Limits(64 * 1024, 2_000, 1_000, 600, 256);

    static final HttpClient HTTP =
            HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();

    Path replays() throws IOException {
        Path d = dir.resolve("replays");
        Files.createDirectories(d);
        Files.writeString(d.resolve("short.txt"), "ok");
        Files.writeString(d.resolve("long.txt"), "word ".repeat(400) + "<call f>{\"a\": 1}</call>");
        Files.writeString(d.resolve("big.txt"), "lots of text 😀 ".repeat(200_000));
        return d;
    }

    ReplayServer server(Path replay, long delayMs, ReplayServer.Limits limits, PrintStream log)
            throws IOException {
        ReplayServer s =
                new ReplayServer(
                        Formats.get("toy"), replay, "127.0.0.1", 0, 4, 0, delayMs, limits, log);
        s.start();
        return s;
    }

    static HttpResponse<String> post(ReplayServer s, String path, String body) throws Exception {
        return HTTP.send(
                HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + s.port() + path))
                        .timeout(Duration.ofSeconds(10))
                        .POST(HttpRequest.BodyPublishers.ofString(body))
                        .build(),
                HttpResponse.BodyHandlers.ofString());
    }

    static JsonObject json(String body) {
        return JsonParser.parseString(body).getAsJsonObject();
    }

    /** Sends raw bytes, then reads the answer until the server closes or 5 s pass. */
    static String raw(ReplayServer s, byte[] request) throws IOException {
        try (Socket socket = new Socket()) {
            socket.connect(new InetSocketAddress("127.0.0.1", s.port()), 5000);
            socket.setSoTimeout(5000);
            socket.getOutputStream().write(request);
            socket.getOutputStream().flush();
            return readAll(socket.getInputStream());
        }
    }

    static String raw(ReplayServer s, String request) throws IOException {
        return raw(s, request.getBytes(StandardCharsets.UTF_8));
    }

    static String readAll(InputStream in) throws IOException {
        ByteArrayOutputStream b = new ByteArrayOutputStream();
        byte[] buf = new byte[8192];
        try {
            for (int n; (n = in.read(buf)) > 0; ) b.write(buf, 0, n);
        } catch (SocketTimeoutException | SocketException e) {
            // what arrived is the answer
        }
        return b.toString(StandardCharsets.UTF_8);
    }

    static String bodyOf(String response) {
        return response.substring(response.indexOf("\r\n\r\n") + 4);
    }

    static void assertJsonError(String response, int status) {
        assertTrue(response.startsWith("HTTP/1.1 " + status + " "), response);
        assertTrue(
                response.toLowerCase(Locale.ROOT).contains("content-type: application/json"),
                response);
        assertFalse(response.toLowerCase(Locale.ROOT).contains("<html"), response);
        String body = bodyOf(response);
        if (response.toLowerCase(Locale.ROOT).contains("transfer-encoding: chunked"))
            body = body.substring(body.indexOf("\r\n") + 2);
        assertTrue(body.trim().startsWith("{\"") && body.contains("\"error\""), response);
    }

    /** Waits (at most 10 s) for the server to have no request in flight. */
    static void awaitIdle(ReplayServer s) throws InterruptedException {
        for (int i = 0; i < 1000 && s.inFlight() > 0; i++) Thread.sleep(10);
        assertEquals(0, s.inFlight(), "requests still in flight");
    }

    @Test
    void slowStalledAndTricklingClientsDoNotStopTheServer() throws Exception {
        try (ReplayServer s = server(replays(), 0, TIGHT, System.err)) {
            List<Socket> stalled = new ArrayList<>();
            List<Socket> loris = new ArrayList<>();
            List<Socket> slowBody = new ArrayList<>();
            try {
                // far more clients than the server has threads (32)
                for (int i = 0; i < 40; i++) stalled.add(connect(s));
                for (int i = 0; i < 40; i++) {
                    Socket c = connect(s);
                    c.getOutputStream()
                            .write(
                                    "POST /v1/chat/completions HTTP/1.1\r\nHost: x\r\n"
                                            .getBytes(StandardCharsets.US_ASCII));
                    loris.add(c);
                }
                for (int i = 0; i < 20; i++) {
                    Socket c = connect(s);
                    c.getOutputStream()
                            .write(
                                    ("POST /v1/chat/completions HTTP/1.1\r\nHost: x\r\nContent-Length: 1000\r\n\r\n{\"model\": ")
                                            .getBytes(StandardCharsets.US_ASCII));
                    slowBody.add(c);
                }
                // the slow-loris clients trickle a header byte each, every 50 ms, while others are
                // answered
                for (int round = 0; round < 10; round++) {
                    for (Socket c : loris) {
                        try {
                            c.getOutputStream().write('X');
                        } catch (IOException closed) {
                            // the server already gave up on it
                        }
                    }
                    long t0 = System.nanoTime();
                    HttpResponse<String> ok =
                            post(s, "/v1/chat/completions", "{\"model\": \"short\"}");
                    assertEquals(200, ok.statusCode(), ok.body());
                    assertTrue(
                            System.nanoTime() - t0 < TimeUnit.SECONDS.toNanos(3),
                            "answered promptly");
                    Thread.sleep(50);
                }
                // past the request timeout: header tricklers and silent connections are closed,
                // slow bodies answered 408
                for (Socket c : slowBody) {
                    String answer = readAll(c.getInputStream());
                    assertJsonError(answer, 408);
                    assertTrue(bodyOf(answer).contains("request_timeout"), answer);
                }
                for (Socket c : stalled)
                    assertEquals(-1, readOrEnd(c), "a silent connection is closed");
                for (Socket c : loris)
                    assertEquals(-1, readOrEnd(c), "a trickling connection is closed");
                awaitIdle(s);
                assertEquals(
                        200,
                        post(s, "/v1/chat/completions", "{\"model\": \"short\"}").statusCode());
            } finally {
                for (List<Socket> l : List.of(stalled, loris, slowBody))
                    for (Socket c : l) c.close();
            }
        }
    }

    /**
     * A body that stalls after its headers, with the request and idle timeouts equal as by default:
     * whichever fires first, the answer is a 408 {@code request_timeout} in the route's protocol
     * shape.
     */
    @Test
    void aStalledBodyIs408RequestTimeoutInTheRoutesShape() throws Exception {
        for (long[] timeouts :
                new long[][] {
                    {800, 800}, {400, 5_000}
                }) { // {idle, request}: as the defaults; the idle timeout first
            try (ReplayServer s =
                    server(
                            replays(),
                            0,
                            new ReplayServer.Limits(64 * 1024, timeouts[0], timeouts[1], 600, 256),
                            System.err)) {
                for (String path :
                        new String[] {"/v1/chat/completions", "/v1/responses", "/v1/messages"}) {
                    String what = path + " idle " + timeouts[0] + " request " + timeouts[1];
                    try (Socket c = connect(s)) {
                        c.getOutputStream()
                                .write(
                                        ("POST "
                                                        + path
                                                        + " HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{\"model\": ")
                                                .getBytes(StandardCharsets.US_ASCII));
                        c.getOutputStream().flush();
                        String answer = readAll(c.getInputStream());
                        assertJsonError(answer, 408);
                        JsonObject o = json(bodyOf(answer));
                        assertFalse(
                                bodyOf(answer).contains("TimeoutException"), what + ": " + answer);
                        if (path.equals("/v1/messages")) {
                            assertEquals(
                                    "error", o.get("type").getAsString(), what + ": " + answer);
                            assertEquals(
                                    "request_timeout",
                                    o.getAsJsonObject("error").get("type").getAsString(),
                                    what + ": " + answer);
                        } else {
                            assertEquals(
                                    "invalid_request_error",
                                    o.getAsJsonObject("error").get("type").getAsString(),
                                    what + ": " + answer);
                            assertEquals(
                                    "request_timeout",
                                    o.getAsJsonObject("error").get("code").getAsString(),
                                    what + ": " + answer);
                        }
                    }
                }
                awaitIdle(s);
                assertEquals(
                        200,
                        post(s, "/v1/chat/completions", "{\"model\": \"short\"}").statusCode(),
                        "and it keeps serving");
            }
        }
    }

    static Socket connect(ReplayServer s) throws IOException {
        Socket c = new Socket();
        c.connect(new InetSocketAddress("127.0.0.1", s.port()), 5000);
        c.setSoTimeout(5000);
        return c;
    }

    /**
     * -1 once the server closed the connection (reading what it may have sent first), within 5 s.
     */
    static int readOrEnd(Socket c) throws IOException {
        try {
            InputStream in = c.getInputStream();
            for (int i = 0; i < 1_000_000; i++) if (in.read() < 0) return -1;
            return 0;
        } catch (SocketException reset) {
            return -1;
        }
    }

    @Test
    void aStalledReaderIsDroppedAndADisconnectingClientEndsItsStream() throws Exception {
        try (ReplayServer s = server(replays(), 0, TIGHT, System.err)) {
            // a client that asks for a big stream and never reads: the server's writes stall, the
            // idle timeout ends it
            try (Socket reader = new Socket()) {
                reader.setReceiveBufferSize(1024);
                reader.connect(new InetSocketAddress("127.0.0.1", s.port()), 5000);
                String body = "{\"model\": \"big\", \"stream\": true}";
                reader.getOutputStream()
                        .write(
                                ("POST /v1/chat/completions HTTP/1.1\r\nHost: x\r\nContent-Length: "
                                                + body.length()
                                                + "\r\n\r\n"
                                                + body)
                                        .getBytes(StandardCharsets.US_ASCII));
                Thread.sleep(200);
                assertEquals(1, s.inFlight(), "the stream is under way, stalled");
                assertEquals(
                        200,
                        post(s, "/v1/chat/completions", "{\"model\": \"short\"}").statusCode(),
                        "others are served meanwhile");
                awaitIdle(s); // within the idle timeout (2 s) and a little
            }
        }
        try (ReplayServer s = server(replays(), 20, TIGHT, System.err)) {
            // a client that goes away in the middle of a slow stream
            try (Socket quitter = connect(s)) {
                String body = "{\"model\": \"long\", \"stream\": true}";
                quitter.getOutputStream()
                        .write(
                                ("POST /v1/chat/completions HTTP/1.1\r\nHost: x\r\nContent-Length: "
                                                + body.length()
                                                + "\r\n\r\n"
                                                + body)
                                        .getBytes(StandardCharsets.US_ASCII));
                byte[] some = new byte[100];
                assertTrue(quitter.getInputStream().read(some) > 0);
            }
            awaitIdle(s);
            assertEquals(
                    200, post(s, "/v1/chat/completions", "{\"model\": \"short\"}").statusCode());
        }
    }

    @Test
    void bodiesOverTheLimitAre413InEachProtocolsShape() throws Exception {
        try (ReplayServer s = server(replays(), 0, TIGHT, System.err)) {
            String declared =
                    raw(
                            s,
                            "POST /v1/chat/completions HTTP/1.1\r\nHost: x\r\nContent-Length: 100000000\r\n\r\n");
            assertJsonError(declared, 413);
            assertEquals(
                    "request_too_large",
                    json(bodyOf(declared)).getAsJsonObject("error").get("code").getAsString());
            assertTrue(bodyOf(declared).contains("65536 bytes"), declared);
            String anthropic =
                    raw(
                            s,
                            "POST /v1/messages HTTP/1.1\r\nHost: x\r\nContent-Length: 100000000\r\n\r\n");
            assertJsonError(anthropic, 413);
            assertEquals(
                    "request_too_large",
                    json(bodyOf(anthropic)).getAsJsonObject("error").get("type").getAsString());
            // chunked, so the size shows only while reading
            StringBuilder chunked =
                    new StringBuilder(
                            "POST /v1/responses HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n");
            String piece = "x".repeat(4096);
            for (int i = 0; i < 20; i++) chunked.append("1000\r\n").append(piece).append("\r\n");
            chunked.append("0\r\n\r\n");
            String streamed = raw(s, chunked.toString());
            assertJsonError(streamed, 413);
            // just under the limit is read (and then judged on its content)
            HttpResponse<String> under =
                    post(
                            s,
                            "/v1/chat/completions",
                            "{\"model\": \"short\", \"user\": \"" + "u".repeat(60_000) + "\"}");
            assertEquals(200, under.statusCode(), under.body());
        }
    }

    @Test
    void fieldsOfTheWrongKindAre400NamingTheField() throws Exception {
        String[][] chat = {
            {"{\"stream\": \"yes\"}", "stream"},
            {"{\"messages\": 5}", "messages"},
            {"{\"messages\": [5]}", "messages[0]"},
            {"{\"model\": {\"name\": \"short\"}}", "model"},
            {"{\"model\": null}", "model"},
            {"{\"tools\": 3}", "tools"},
            {"{\"tools\": [\"f\"]}", "tools[0]"},
            {
                "{\"chat_template_kwargs\": {\"enable_thinking\": \"no\"}}",
                "chat_template_kwargs.enable_thinking"
            },
            {"{\"max_tokens\": 1.5}", "max_tokens"},
            {"{\"temperature\": \"hot\"}", "temperature"},
            {"{\"model\": \"short\\ud800\"}", "model"},
        };
        String[][] responses = {
            {"{\"input\": 5}", "input"},
            {"{\"max_output_tokens\": \"10\"}", "max_output_tokens"},
            {"{\"stream\": 1}", "stream"}
        };
        String[][] messages = {
            {"{\"messages\": 5}", "messages"},
            {"{\"thinking\": {\"type\": 1}}", "thinking.type"},
            {"{\"max_tokens\": \"10\"}", "max_tokens"},
            {"{\"stream\": \"yes\"}", "stream"}
        };
        try (ReplayServer s = server(replays(), 0, TIGHT, System.err)) {
            for (String[] c : chat) {
                HttpResponse<String> r = post(s, "/v1/chat/completions", c[0]);
                assertEquals(400, r.statusCode(), c[0] + " -> " + r.body());
                JsonObject e = json(r.body()).getAsJsonObject("error");
                assertEquals(c[1], e.get("param").getAsString(), r.body());
                assertEquals("invalid_request_error", e.get("type").getAsString());
                assertTrue(
                        e.get("message").getAsString().startsWith(c[1] + ":")
                                || e.get("message").getAsString().contains("lone surrogate"),
                        r.body());
            }
            for (String[] c : responses) {
                HttpResponse<String> r = post(s, "/v1/responses", c[0]);
                assertEquals(400, r.statusCode(), c[0] + " -> " + r.body());
                assertEquals(
                        c[1],
                        json(r.body()).getAsJsonObject("error").get("param").getAsString(),
                        r.body());
            }
            for (String[] c : messages) {
                HttpResponse<String> r = post(s, "/v1/messages", c[0]);
                assertEquals(400, r.statusCode(), c[0] + " -> " + r.body());
                JsonObject o = json(r.body());
                assertEquals("error", o.get("type").getAsString());
                assertEquals(
                        "invalid_request_error",
                        o.getAsJsonObject("error").get("type").getAsString());
                assertTrue(
                        o.getAsJsonObject("error")
                                .get("message")
                                .getAsString()
                                .startsWith(c[1] + ":"),
                        r.body());
            }
            // not JSON, or not RFC 8259 JSON, or not UTF-8
            for (String bad :
                    new String[] {
                        "{'model': 'short'}", "{\"model\": \"short\",}", "[1]", "", "{\"a\": NaN}"
                    }) {
                HttpResponse<String> r = post(s, "/v1/chat/completions", bad);
                assertEquals(400, r.statusCode(), bad);
                assertEquals(
                        "invalid_json",
                        json(r.body()).getAsJsonObject("error").get("code").getAsString());
                assertFalse(
                        r.body().contains("JsonReader") || r.body().contains("Strictness"),
                        r.body());
            }
            byte[] notUtf8 = "{\"model\": \"sh\u00ffort\"}".getBytes(StandardCharsets.ISO_8859_1);
            String answer =
                    raw(
                            s,
                            concat(
                                    ("POST /v1/chat/completions HTTP/1.1\r\nHost: x\r\nConnection: close\r\nContent-Length: "
                                                    + notUtf8.length
                                                    + "\r\n\r\n")
                                            .getBytes(StandardCharsets.US_ASCII),
                                    notUtf8));
            assertJsonError(answer, 400);
            assertTrue(
                    bodyOf(answer).contains("not valid UTF-8: byte 0xFF at byte offset 13"),
                    answer);
            // every kind right: answered
            HttpResponse<String> ok =
                    post(
                            s,
                            "/v1/chat/completions",
                            "{\"model\": \"short\", \"stream\": false, \"messages\": [{\"role\": \"user\", \"content\": \"x\"}], "
                                    + "\"max_tokens\": 10, \"temperature\": 0.5, \"tools\": null, \"chat_template_kwargs\": {\"enable_thinking\": true}, \"n\": 1.0}");
            assertEquals(200, ok.statusCode(), ok.body());
        }
    }

    static byte[] concat(byte[] a, byte[] b) {
        byte[] out = Arrays.copyOf(a, a.length + b.length);
        System.arraycopy(b, 0, out, a.length, b.length);
        return out;
    }

    @Test
    void httpLevelErrorsAreJsonNeverAnHtmlPage() throws Exception {
        try (ReplayServer s = server(replays(), 0, TIGHT, System.err)) {
            assertJsonError(raw(s, "GARBAGE\r\n\r\n"), 400);
            assertJsonError(
                    raw(
                            s,
                            "GET /v1/models HTTP/1.1\r\nHost: x\r\nX-Big: "
                                    + "a".repeat(20_000)
                                    + "\r\n\r\n"),
                    431);
            assertJsonError(
                    raw(s, "GET /v1/models HTTP/1.1\r\nHost: x\r\nContent-Length: nope\r\n\r\n"),
                    400);
            assertJsonError(
                    raw(
                            s,
                            "POST /v1/chat/completions HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n"),
                    400);
            String notFound = raw(s, "GET /nope HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n");
            assertJsonError(notFound, 404);
            String put =
                    raw(
                            s,
                            "PUT /v1/chat/completions HTTP/1.1\r\nHost: x\r\nConnection: close\r\nContent-Length: 0\r\n\r\n");
            assertJsonError(put, 405);
            assertTrue(put.contains("Allow: POST"), put);
            String delete =
                    raw(s, "DELETE /v1/messages HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n");
            assertJsonError(delete, 405);
            assertEquals(
                    "error",
                    json(bodyOf(delete)).get("type").getAsString(),
                    "Anthropic's shape on its path");
            assertEquals(
                    200, post(s, "/v1/chat/completions", "{\"model\": \"short\"}").statusCode());
        }
    }

    @Test
    void anUnreadableReplayFileIsA500ErrorAndLogged() throws Exception {
        Path d = replays();
        Files.write(d.resolve("broken.txt"), new byte[] {'o', 'k', ' ', (byte) 0xC3, '('});
        ByteArrayOutputStream logged = new ByteArrayOutputStream();
        try (ReplayServer s =
                server(d, 0, TIGHT, new PrintStream(logged, true, StandardCharsets.UTF_8))) {
            HttpResponse<String> r = post(s, "/v1/chat/completions", "{\"model\": \"broken\"}");
            assertEquals(500, r.statusCode());
            JsonObject e = json(r.body()).getAsJsonObject("error");
            assertEquals("replay_unreadable", e.get("code").getAsString());
            assertTrue(
                    e.get("message")
                            .getAsString()
                            .contains("not valid UTF-8: byte 0xC3 at byte offset 3"),
                    r.body());
            Files.delete(d.resolve("short.txt"));
            HttpResponse<String> gone =
                    post(s, "/v1/messages", "{\"model\": \"short\", \"stream\": true}");
            assertEquals(500, gone.statusCode());
            assertEquals(
                    "api_error",
                    json(gone.body()).getAsJsonObject("error").get("type").getAsString(),
                    gone.body());
            String log = logged.toString(StandardCharsets.UTF_8);
            assertTrue(log.contains("cannot read replay file " + d.resolve("broken.txt")), log);
            assertTrue(log.contains("cannot read replay file " + d.resolve("short.txt")), log);
            assertEquals(
                    200,
                    post(s, "/v1/chat/completions", "{\"model\": \"long\"}").statusCode(),
                    "and it keeps serving");
        }
    }

    @Test
    void closeLetsShortStreamsFinishAndEndsLongOnesWithTheirFailureEvent() throws Exception {
        ReplayServer s =
                server(
                        replays(),
                        50,
                        new ReplayServer.Limits(1 << 20, 5_000, 5_000, 600, 256),
                        System.err);
        try {
            CompletableFuture<HttpResponse<String>> shortOne =
                    stream(s, "/v1/chat/completions", "short");
            CompletableFuture<HttpResponse<String>> chat =
                    stream(s, "/v1/chat/completions", "long");
            CompletableFuture<HttpResponse<String>> responses = stream(s, "/v1/responses", "long");
            CompletableFuture<HttpResponse<String>> messages = stream(s, "/v1/messages", "long");
            for (int i = 0; i < 500 && s.inFlight() < 4; i++) Thread.sleep(10);
            assertEquals(4, s.inFlight());
            long t0 = System.nanoTime();
            s.close();
            long tookMs = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - t0);
            assertTrue(
                    tookMs < 600 + 1500,
                    "closed within the deadline and its grace: " + tookMs + " ms");
            assertTrue(tookMs >= 500, "in-flight requests had their time: " + tookMs + " ms");
            String done = shortOne.get(5, TimeUnit.SECONDS).body();
            assertTrue(done.endsWith("data: [DONE]\n\n"), done);
            String c = chat.get(5, TimeUnit.SECONDS).body();
            // the error chunk, then [DONE] (as vLLM ends a failed stream)
            assertTrue(
                    c.contains("\"content\":\"wor")
                            && c.endsWith("\"code\":\"shutting_down\"}}\n\ndata: [DONE]\n\n"),
                    c);
            String r = responses.get(5, TimeUnit.SECONDS).body();
            assertTrue(
                    r.contains("event: response.output_text.delta")
                            && r.endsWith("\n\n")
                            && lastEvent(r).equals("response.failed"),
                    r);
            String m = messages.get(5, TimeUnit.SECONDS).body();
            assertEquals("error", lastEvent(m), m);
            assertTrue(m.contains("overloaded_error"), m);
            assertThrows(
                    ConnectException.class,
                    () -> new Socket("127.0.0.1", s.port()).close(),
                    "no new connections");
        } finally {
            s.close();
        }
    }

    static CompletableFuture<HttpResponse<String>> stream(
            ReplayServer s, String path, String model) {
        String body =
                "{\"model\": \""
                        + model
                        + "\", \"stream\": true"
                        + (path.equals("/v1/messages") ? ", \"max_tokens\": 100" : "")
                        + "}";
        return HTTP.sendAsync(
                HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + s.port() + path))
                        .timeout(Duration.ofSeconds(20))
                        .POST(HttpRequest.BodyPublishers.ofString(body))
                        .build(),
                HttpResponse.BodyHandlers.ofString());
    }

    static String lastEvent(String sse) {
        String last = null;
        for (String line : sse.split("\n"))
            if (line.startsWith("event: ")) last = line.substring(7);
        return last;
    }

    @Test
    void sigtermEndsAStreamInFlightWithItsFinalEvent() throws Exception {
        Process p =
                SdkAssertions.serve(
                        "--format",
                        "toy",
                        "--replay",
                        replays().toString(),
                        "--port",
                        "0",
                        "--delay-ms",
                        "100",
                        "--shutdown-timeout-ms",
                        "300");
        try {
            String first =
                    new BufferedReader(
                                    new InputStreamReader(
                                            p.getInputStream(), StandardCharsets.UTF_8))
                            .readLine();
            assertTrue(
                    first != null && first.startsWith("toolcalls replay server: http://127.0.0.1:"),
                    String.valueOf(first));
            int port = Integer.parseInt(first.replaceAll(".*127\\.0\\.0\\.1:([0-9]+)/v1.*", "$1"));
            try (Socket c = new Socket("127.0.0.1", port)) {
                c.setSoTimeout(10_000);
                String body = "{\"model\": \"long\", \"stream\": true, \"max_tokens\": 5}";
                OutputStream out = c.getOutputStream();
                out.write(
                        ("POST /v1/messages HTTP/1.1\r\nHost: x\r\nContent-Length: "
                                        + body.length()
                                        + "\r\n\r\n"
                                        + body)
                                .getBytes(StandardCharsets.US_ASCII));
                InputStream in = c.getInputStream();
                byte[] some = new byte[64];
                assertTrue(in.read(some) > 0, "the stream began");
                long t0 = System.nanoTime();
                p.destroy(); // SIGTERM
                String rest = readAll(in);
                assertTrue(
                        rest.contains(
                                "event: error\ndata: {\"type\":\"error\",\"error\":{\"type\":\"overloaded_error\""),
                        rest);
                assertTrue(p.waitFor(10, TimeUnit.SECONDS), "serve did not stop on SIGTERM");
                assertTrue(System.nanoTime() - t0 < TimeUnit.SECONDS.toNanos(5));
                assertEquals(143, p.exitValue());
            }
        } finally {
            p.destroyForcibly();
        }
    }
}
