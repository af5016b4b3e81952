package dev.toolcalls.server;

import com.google.gson.JsonArray;
import com.google.gson.JsonObject;
import com.google.gson.JsonParser;
import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import com.sun.net.httpserver.HttpsConfigurator;
import com.sun.net.httpserver.HttpsServer;

import java.io.IOException;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Queue;
import java.util.Random;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.BiConsumer;
import java.util.function.Function;

import javax.net.ssl.SSLContext;

/**
 * A stand-in inference engine: {@code POST /v1/completions} with {@code stream: true}, answered as
 * vLLM, SGLang and llama.cpp's server answer it: {@code text_completion} chunks as server-sent
 * events, the last with its {@code finish_reason}, then a usage chunk with no choices, then {@code
 * data: [DONE]}. The text comes from a script per request (a recorded raw output); its chunks are
 * of uneven length, and the bytes of the event stream are flushed at uneven points too (inside an
 * event, inside a UTF-8 sequence), as a network delivers them. Every request body is kept, and a
 * client that closes the connection before the end is counted. Served over plain HTTP, or over
 * HTTPS with a given server context.
 */
final class StandInEngine implements AutoCloseable {
    /**
     * What to answer one request.
     *
     * @param text the raw output
     * @param finishReason {@code stop} or {@code length}
     * @param chunkMax text chunks are 1..chunkMax code points
     * @param delayMs pause between chunks
     * @param status an HTTP status other than 200 answers that status with an error body
     * @param hangMs before answering anything, wait this long
     * @param raw when not null, these bytes are the whole event stream
     */
    record Script(
            String text,
            String finishReason,
            int chunkMax,
            long delayMs,
            int status,
            long hangMs,
            String raw) {
        static Script of(String text) {
            return new Script(text, "stop", 6, 0, 200, 0, null);
        }

        Script finish(String reason) {
            return new Script(text, reason, chunkMax, delayMs, status, hangMs, raw);
        }

        Script delay(long ms) {
            return new Script(text, finishReason, chunkMax, ms, status, hangMs, raw);
        }
    }

    private final HttpServer server;
    private final ExecutorService threads;
    private final AtomicInteger seq = new AtomicInteger();
    final Queue<JsonObject> requests = new ConcurrentLinkedQueue<>();
    final AtomicInteger closedEarly = new AtomicInteger();
    final AtomicInteger completed = new AtomicInteger();
    volatile CountDownLatch closed = new CountDownLatch(1);
    volatile Function<JsonObject, Script> script = r -> Script.of("");

    /** Told each request and the {@link System#nanoTime} its first bytes were flushed at. */
    volatile BiConsumer<JsonObject, Long> firstByte = (r, t) -> {};

    /**
     * Each event in one flush, as vLLM's and llama.cpp's servers write them, rather than cut into
     * one to three flushes.
     */
    volatile boolean wholeEvents;

    StandInEngine() throws IOException {
        this(null);
    }

    /** Over HTTPS with the context's key and certificate ({@code tls}), or plain HTTP (null). */
    StandInEngine(SSLContext tls) throws IOException {
        InetSocketAddress address = new InetSocketAddress("127.0.0.1", 0);
        if (tls == null) {
            server = HttpServer.create(address, 1024);
        } else {
            HttpsServer https = HttpsServer.create(address, 1024);
            https.setHttpsConfigurator(new HttpsConfigurator(tls));
            server = https;
        }
        threads =
                Executors.newCachedThreadPool(
                        r -> {
                            Thread t = new Thread(r, "stand-in-engine");
                            t.setDaemon(true);
                            return t;
                        });
        server.setExecutor(threads);
        server.createContext("/v1/completions", this::completions);
        server.start();
    }

    /** The base URL as OpenAI clients take it. */
    String baseUrl() {
        return (server instanceof HttpsServer ? "https" : "http")
                + "://127.0.0.1:"
                + server.getAddress().getPort()
                + "/v1";
    }

    /**
     * The number of generations written to their end, once {@code n} requests have finished one way
     * or the other or ten seconds have passed. A client can read the last event before the engine's
     * thread returns from closing its stream, so a count read at once may lag by one.
     */
    int completedOnce(int n) throws InterruptedException {
        long deadline = System.nanoTime() + 10_000_000_000L;
        while (completed.get() + closedEarly.get() < n && System.nanoTime() < deadline)
            Thread.sleep(5);
        return completed.get();
    }

    JsonObject lastRequest() {
        JsonObject last = null;
        for (JsonObject r : requests) last = r;
        return last;
    }

    private void completions(HttpExchange ex) throws IOException {
        int n = seq.incrementAndGet();
        JsonObject request;
        try (var in = ex.getRequestBody()) {
            request =
                    JsonParser.parseString(new String(in.readAllBytes(), StandardCharsets.UTF_8))
                            .getAsJsonObject();
        }
        requests.add(request);
        Script s = script.apply(request);
        try {
            if (s.hangMs() > 0) Thread.sleep(s.hangMs());
            if (s.status() != 200) {
                byte[] body =
                        ("{\"error\": {\"message\": \"the engine refuses: status "
                                        + s.status()
                                        + "\", \"type\": \"BadRequestError\", \"code\": "
                                        + s.status()
                                        + "}}")
                                .getBytes(StandardCharsets.UTF_8);
                ex.getResponseHeaders().set("Content-Type", "application/json");
                ex.sendResponseHeaders(s.status(), body.length);
                ex.getResponseBody().write(body);
                ex.close();
                return;
            }
            ex.getResponseHeaders().set("Content-Type", "text/event-stream");
            ex.sendResponseHeaders(200, 0);
            OutputStream out = ex.getResponseBody();
            Random random = new Random(n);
            if (s.raw() != null) {
                write(out, s.raw().getBytes(StandardCharsets.UTF_8), random);
            } else {
                List<String> pieces = Chunker.split(s.text(), s.chunkMax(), n);
                for (int i = 0; i < pieces.size(); i++) {
                    boolean last = i == pieces.size() - 1;
                    write(out, event(n, pieces.get(i), last ? s.finishReason() : null), random);
                    if (i == 0) firstByte.accept(request, System.nanoTime());
                    if (s.delayMs() > 0) Thread.sleep(s.delayMs());
                }
                if (pieces.isEmpty()) write(out, event(n, "", s.finishReason()), random);
                JsonObject usage = new JsonObject();
                usage.addProperty(
                        "prompt_tokens", request.get("prompt").getAsString().length() / 4);
                usage.addProperty("completion_tokens", pieces.size());
                usage.addProperty(
                        "total_tokens",
                        request.get("prompt").getAsString().length() / 4 + pieces.size());
                JsonObject u = chunk(n);
                u.add("usage", usage);
                write(out, ("data: " + u + "\n\n").getBytes(StandardCharsets.UTF_8), random);
                write(out, "data: [DONE]\n\n".getBytes(StandardCharsets.UTF_8), random);
            }
            out.close();
            completed.incrementAndGet();
        } catch (IOException e) {
            closedEarly.incrementAndGet();
            closed.countDown();
            ex.close();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            ex.close();
        }
    }

    private static JsonObject chunk(int n) {
        JsonObject c = new JsonObject();
        c.addProperty("id", "cmpl-" + n);
        c.addProperty("object", "text_completion");
        c.addProperty("created", 1700000000);
        c.addProperty("model", "stand-in");
        c.add("choices", new JsonArray());
        return c;
    }

    private static byte[] event(int n, String text, String finish) {
        JsonObject c = chunk(n);
        JsonObject choice = new JsonObject();
        choice.addProperty("index", 0);
        choice.addProperty("text", text);
        choice.add("logprobs", null);
        if (finish == null) choice.add("finish_reason", null);
        else choice.addProperty("finish_reason", finish);
        c.getAsJsonArray("choices").add(choice);
        c.add("usage", null);
        return ("data: " + c + "\n\n").getBytes(StandardCharsets.UTF_8);
    }

    /** The bytes in one to three flushes, cut anywhere (or in one: {@link #wholeEvents}). */
    private void write(OutputStream out, byte[] bytes, Random random) throws IOException {
        int at = 0;
        int parts = wholeEvents ? 1 : 1 + random.nextInt(3);
        for (int p = 1; p < parts && at < bytes.length; p++) {
            int cut = at + random.nextInt(bytes.length - at);
            out.write(bytes, at, cut - at);
            out.flush();
            at = cut;
        }
        out.write(bytes, at, bytes.length - at);
        out.flush();
    }

    @Override
    public void close() {
        server.stop(0);
        threads.shutdownNow();
        try {
            threads.awaitTermination(2, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
