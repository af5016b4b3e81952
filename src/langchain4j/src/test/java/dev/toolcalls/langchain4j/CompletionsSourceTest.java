package dev.toolcalls.langchain4j;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.google.gson.JsonObject;
import com.google.gson.JsonParser;
import com.sun.net.httpserver.HttpServer;

import dev.toolcalls.templates.raw.CompletionsSource;
import dev.toolcalls.templates.raw.RawCompletion;
import dev.toolcalls.templates.raw.RawRequest;
import dev.toolcalls.templates.raw.RawTextSource;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicReference;

/** The completions binding against a local server that answers as OpenAI-compatible engines do. */
class CompletionsSourceTest {
    private HttpServer server;

    @AfterEach
    void stop() {
        if (server != null) server.stop(0);
    }

    private String serve(int status, String body, AtomicReference<String> request)
            throws IOException {
        server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        server.createContext(
                "/v1/completions",
                exchange -> {
                    request.set(
                            exchange.getRequestHeaders().getFirst("Authorization")
                                    + " "
                                    + new String(
                                            exchange.getRequestBody().readAllBytes(),
                                            StandardCharsets.UTF_8));
                    byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
                    exchange.getResponseHeaders().add("Content-Type", "text/event-stream");
                    exchange.sendResponseHeaders(status, bytes.length);
                    try (OutputStream out = exchange.getResponseBody()) {
                        out.write(bytes);
                    }
                });
        server.start();
        return "http://127.0.0.1:" + server.getAddress().getPort() + "/v1/";
    }

    private static final class Collect implements RawTextSource.Sink {
        final List<String> chunks = new ArrayList<>();

        @Override
        public void text(String chunk) {
            chunks.add(chunk);
        }

        @Override
        public void specialToken(String token) {
            chunks.add(token);
        }

        @Override
        public boolean isCancelled() {
            return false;
        }
    }

    @Test
    void streamsTheTextAndReportsHowItEnded() throws IOException {
        AtomicReference<String> request = new AtomicReference<>();
        String events =
                "data: {\"choices\": [{\"index\": 0, \"text\": \"<tool_call>\", \"finish_reason\":"
                        + " null}]}\n\n"
                        + ": keep-alive\n\n"
                        + "data: {\"choices\": [{\"index\": 0, \"text\": \"{\\\"name\\\"\","
                        + " \"finish_reason\": null}]}\n\n"
                        + "data: {\"choices\": [{\"index\": 0, \"text\": \"\", \"finish_reason\":"
                        + " \"stop\"}]}\n\n"
                        + "data: {\"choices\": [], \"usage\": {\"prompt_tokens\": 12,"
                        + " \"completion_tokens\": 5, \"total_tokens\": 17}}\n\n"
                        + "data: [DONE]\n\n";
        String base = serve(200, events, request);
        CompletionsSource source =
                CompletionsSource.builder().baseUrl(base).apiKey("k").model("m").build();
        Collect sink = new Collect();

        RawCompletion completion =
                source.complete(
                        new RawRequest(
                                "PROMPT", null, 0.2, null, 20, 64, List.of("</s>"), null, null),
                        sink);

        assertEquals(List.of("<tool_call>", "{\"name\""), sink.chunks);
        assertEquals(new RawCompletion("stop", 12, 5), completion);
        assertTrue(request.get().startsWith("Bearer k "), request.get());
        JsonObject body =
                JsonParser.parseString(request.get().substring("Bearer k ".length()))
                        .getAsJsonObject();
        assertEquals("m", body.get("model").getAsString());
        assertEquals("PROMPT", body.get("prompt").getAsString());
        assertTrue(body.get("stream").getAsBoolean());
        assertFalse(body.get("skip_special_tokens").getAsBoolean());
        assertEquals(64, body.get("max_tokens").getAsInt());
        assertEquals(20, body.get("top_k").getAsInt());
        assertEquals(0.2, body.get("temperature").getAsDouble());
        assertEquals("</s>", body.getAsJsonArray("stop").get(0).getAsString());
        assertFalse(body.has("top_p"));
    }

    @Test
    void anHttpErrorSaysWhatTheServerAnswered() throws IOException {
        String base = serve(400, "{\"error\": \"model not loaded\"}", new AtomicReference<>());
        CompletionsSource source = CompletionsSource.builder().baseUrl(base).build();

        IOException e =
                assertThrows(
                        IOException.class,
                        () -> source.complete(RawRequest.of("p"), new Collect()));

        assertTrue(e.getMessage().contains("HTTP 400"), e.getMessage());
        assertTrue(e.getMessage().contains("model not loaded"), e.getMessage());
    }

    @Test
    void aStreamCutBeforeItsEndIsAnError() throws IOException {
        String base =
                serve(
                        200,
                        "data: {\"choices\": [{\"text\": \"par\", \"finish_reason\": null}]}\n\n",
                        new AtomicReference<>());
        Collect sink = new Collect();

        IOException e =
                assertThrows(
                        IOException.class,
                        () ->
                                CompletionsSource.builder()
                                        .baseUrl(base)
                                        .build()
                                        .complete(RawRequest.of("p"), sink));

        assertEquals(List.of("par"), sink.chunks);
        assertTrue(e.getMessage().contains("closed the stream"), e.getMessage());
    }
}
