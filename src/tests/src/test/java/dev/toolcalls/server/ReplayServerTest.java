package dev.toolcalls.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.google.gson.JsonObject;
import com.google.gson.JsonParser;
import com.openai.client.OpenAIClient;
import com.openai.client.okhttp.OpenAIOkHttpClient;
import com.openai.core.JsonValue;
import com.openai.core.http.StreamResponse;
import com.openai.errors.BadRequestException;
import com.openai.errors.InternalServerException;
import com.openai.errors.NotFoundException;
import com.openai.models.chat.completions.ChatCompletion;
import com.openai.models.chat.completions.ChatCompletionChunk;
import com.openai.models.chat.completions.ChatCompletionCreateParams;
import com.openai.models.models.Model;

import dev.toolcalls.Formats;
import dev.toolcalls.IdGenerator;
import dev.toolcalls.Tools;
import dev.toolcalls.suite.SuiteCase;

import org.junit.jupiter.api.DynamicContainer;
import org.junit.jupiter.api.DynamicNode;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

/** The replay server on a free loopback port, driven by the official OpenAI Java SDK client. */
class ReplayServerTest {
    static OpenAIClient client(ReplayServer server) {
        return OpenAIOkHttpClient.builder()
                .baseUrl("http://127.0.0.1:" + server.port() + "/v1")
                .apiKey("test")
                .maxRetries(0)
                .build();
    }

    static ChatCompletionCreateParams params(String model, SuiteCase c) {
        ChatCompletionCreateParams.Builder b =
                ChatCompletionCreateParams.builder().model(model).addUserMessage("replay");
        if (c != null && c.thinking() != null)
            b.putAdditionalBodyProperty(
                    "chat_template_kwargs",
                    JsonValue.from(Map.of("enable_thinking", c.thinking())));
        if (c != null && c.expected().has("tools")) {
            try {
                b.putAdditionalBodyProperty(
                        "tools",
                        JsonValue.fromJsonNode(
                                SdkAssertions.MAPPER.readTree(
                                        c.expected().get("tools").toString())));
            } catch (Exception e) {
                throw new AssertionError(e);
            }
        }
        return b.build();
    }

    /**
     * serve answers the SDK, streaming and not, exactly as the batch parse says — for every
     * format's cases.
     */
    @TestFactory
    Stream<DynamicNode> everyFormatsCasesThroughTheServer() {
        List<DynamicNode> out = new ArrayList<>();
        for (SdkAssertions.FormatCases s : SdkAssertions.suites()) {
            List<SuiteCase> valid =
                    s.cases().stream()
                            .filter(c -> !c.expected().has("error") && !c.lenient())
                            .toList();
            out.add(
                    DynamicContainer.dynamicContainer(
                            s.format().name(),
                            Stream.of(
                                    DynamicTest.dynamicTest(
                                            "all cases",
                                            () -> {
                                                try (ReplayServer server =
                                                        new ReplayServer(
                                                                s.format(),
                                                                s.dir(),
                                                                "127.0.0.1",
                                                                0,
                                                                8,
                                                                3,
                                                                0)) {
                                                    server.start();
                                                    OpenAIClient client = client(server);
                                                    try {
                                                        for (SuiteCase c : valid) {
                                                            Tools tools =
                                                                    Tools.parse(
                                                                            String.valueOf(
                                                                                    c.expected()
                                                                                            .get(
                                                                                                    "tools")));
                                                            SdkAssertions.Seen want =
                                                                    OpenAiSdkTest.expected(
                                                                            s.format()
                                                                                    .parse(
                                                                                            c
                                                                                                    .input(),
                                                                                            tools,
                                                                                            c
                                                                                                    .options()));
                                                            SdkAssertions.Seen other =
                                                                    OpenAiSdkTest.expected(
                                                                            s.format()
                                                                                    .parse(
                                                                                            c
                                                                                                    .input(),
                                                                                            tools,
                                                                                            c.options()
                                                                                                    .withIds(
                                                                                                            () ->
                                                                                                                    IdGenerator
                                                                                                                            .seeded(
                                                                                                                                    1))));
                                                            assertEquals(
                                                                    want,
                                                                    SdkAssertions
                                                                            .generatedIdsAsWanted(
                                                                                    want,
                                                                                    other,
                                                                                    SdkAssertions
                                                                                            .seen(
                                                                                                    client.chat()
                                                                                                            .completions()
                                                                                                            .create(
                                                                                                                    params(
                                                                                                                            c
                                                                                                                                    .name(),
                                                                                                                            c)))),
                                                                    c.name());
                                                            List<ChatCompletionChunk> chunks =
                                                                    new ArrayList<>();
                                                            try (StreamResponse<ChatCompletionChunk>
                                                                    st =
                                                                            client.chat()
                                                                                    .completions()
                                                                                    .createStreaming(
                                                                                            params(
                                                                                                    c
                                                                                                            .name(),
                                                                                                    c))) {
                                                                st.stream().forEach(chunks::add);
                                                            }
                                                            assertEquals(
                                                                    want,
                                                                    SdkAssertions
                                                                            .generatedIdsAsWanted(
                                                                                    want,
                                                                                    other,
                                                                                    SdkAssertions
                                                                                            .accumulate(
                                                                                                    chunks)),
                                                                    c.name() + " streamed");
                                                        }
                                                    } finally {
                                                        client.close();
                                                    }
                                                }
                                            }))));
        }
        return out.stream();
    }

    @Test
    void serveCommandAnswersThenStopsCleanlyOnSigterm() throws Exception {
        Process p =
                SdkAssertions.serve(
                        "--format",
                        "toy",
                        "--replay",
                        "src/tests/src/test/resources/suite/toy/emoji.txt",
                        "--port",
                        "0");
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
            HttpResponse<String> r =
                    HttpClient.newHttpClient()
                            .send(
                                    HttpRequest.newBuilder(
                                                    URI.create(
                                                            "http://127.0.0.1:"
                                                                    + port
                                                                    + "/v1/chat/completions"))
                                            .POST(
                                                    HttpRequest.BodyPublishers.ofString(
                                                            "{\"model\": \"anything\"}"))
                                            .build(),
                                    HttpResponse.BodyHandlers.ofString());
            assertEquals(200, r.statusCode(), r.body());
            assertTrue(r.body().contains("\"finish_reason\":\"tool_calls\""), r.body());
            p.destroy(); // SIGTERM
            assertTrue(p.waitFor(15, TimeUnit.SECONDS), "serve did not stop on SIGTERM");
            assertEquals(
                    143, p.exitValue()); // 128 + SIGTERM, after the shutdown hook closed the server
        } finally {
            p.destroyForcibly();
        }
    }

    /**
     * The call ids and response ids of {@code n} answers to the same recorded call, batch and
     * streamed in turn.
     */
    static List<String> idsOfAnswers(OpenAIClient client, int n) {
        List<String> ids = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            SdkAssertions.Seen seen;
            if (i % 2 == 0) {
                ChatCompletion done =
                        client.chat().completions().create(params("call-without-id", null));
                ids.add(done.id());
                seen = SdkAssertions.seen(done);
            } else {
                List<ChatCompletionChunk> chunks = new ArrayList<>();
                try (StreamResponse<ChatCompletionChunk> st =
                        client.chat()
                                .completions()
                                .createStreaming(params("call-without-id", null))) {
                    st.stream().forEach(chunks::add);
                }
                ids.add(chunks.get(0).id());
                seen = SdkAssertions.accumulate(chunks);
            }
            assertEquals(1, seen.calls().size(), seen.toString());
            ids.add(seen.calls().get(0).substring(0, seen.calls().get(0).indexOf(' ')));
        }
        return ids;
    }

    static List<String> idsOfAnswers(OptionalLong idSeed, int n) throws Exception {
        try (ReplayServer server =
                new ReplayServer(
                        Formats.get("toy"),
                        Path.of("src/tests/src/test/resources/suite/toy"),
                        "127.0.0.1",
                        0,
                        4,
                        0,
                        0,
                        ReplayServer.Limits.defaults(),
                        System.err,
                        idSeed)) {
            server.start();
            OpenAIClient client = client(server);
            try {
                return idsOfAnswers(client, n);
            } finally {
                client.close();
            }
        }
    }

    /**
     * A client that keys tool results by call id across the turns of a conversation sees no two
     * responses alike.
     */
    @Test
    void everyResponseGetsIdsOfItsOwnAndASeedMakesARunReproducible() throws Exception {
        List<String> random = idsOfAnswers(OptionalLong.empty(), 4);
        assertEquals(
                8,
                Set.copyOf(random).size(),
                "every response and every call its own id: " + random);
        assertTrue(
                random.get(1).startsWith("call_") && random.get(3).startsWith("call_"),
                random.toString());
        assertNotEquals(
                random, idsOfAnswers(OptionalLong.empty(), 4), "random, not the same in every run");

        List<String> seven = idsOfAnswers(OptionalLong.of(7), 4);
        assertEquals(
                8, Set.copyOf(seven).size(), "seeded, still every response its own ids: " + seven);
        assertEquals(
                seven,
                idsOfAnswers(OptionalLong.of(7), 4),
                "the same seed: the same ids, in the same order");
        assertNotEquals(seven, idsOfAnswers(OptionalLong.of(8), 4), "another seed: other ids");
    }

    @Test
    void modelsRoundRobinErrorsAndTheServerKeepsServing() throws Exception {
        Path dir = Path.of("src/tests/src/test/resources/suite/toy");
        try (ReplayServer server =
                new ReplayServer(Formats.get("toy"), dir, "127.0.0.1", 0, 4, 0, 0)) {
            server.start();
            OpenAIClient client = client(server);
            try {
                List<String> ids = client.models().list().data().stream().map(Model::id).toList();
                assertTrue(ids.contains("call-with-id") && ids.contains("emoji"), ids.toString());
                assertEquals(ids, server.models());

                // the format's name replays every file in name order, round-robin
                List<String> firstContents = new ArrayList<>();
                for (int i = 0; i < 2; i++)
                    firstContents.add(client.chat().completions().create(params("toy", null)).id());
                assertEquals(2, firstContents.size());

                NotFoundException unknown =
                        assertThrows(
                                NotFoundException.class,
                                () -> client.chat().completions().create(params("gpt-5", null)));
                assertTrue(unknown.getMessage().contains("model"), unknown.getMessage());
                InternalServerException broken =
                        assertThrows(
                                InternalServerException.class,
                                () ->
                                        client.chat()
                                                .completions()
                                                .create(params("unterminated", null)));
                assertTrue(broken.getMessage().contains("unterminated"), broken.getMessage());

                HttpClient http = HttpClient.newHttpClient();
                HttpResponse<String> bad =
                        http.send(
                                HttpRequest.newBuilder(
                                                URI.create(
                                                        "http://127.0.0.1:"
                                                                + server.port()
                                                                + "/v1/chat/completions"))
                                        .POST(HttpRequest.BodyPublishers.ofString("{not json"))
                                        .build(),
                                HttpResponse.BodyHandlers.ofString());
                assertEquals(400, bad.statusCode());
                JsonObject error =
                        JsonParser.parseString(bad.body())
                                .getAsJsonObject()
                                .getAsJsonObject("error");
                assertEquals("invalid_request_error", error.get("type").getAsString());
                HttpResponse<String> badTools =
                        http.send(
                                HttpRequest.newBuilder(
                                                URI.create(
                                                        "http://127.0.0.1:"
                                                                + server.port()
                                                                + "/v1/chat/completions"))
                                        .POST(
                                                HttpRequest.BodyPublishers.ofString(
                                                        "{\"model\": \"emoji\", \"tools\": 3}"))
                                        .build(),
                                HttpResponse.BodyHandlers.ofString());
                assertEquals(400, badTools.statusCode());
                assertThrows(
                        BadRequestException.class,
                        () ->
                                client.chat()
                                        .completions()
                                        .create(
                                                ChatCompletionCreateParams.builder()
                                                        .model("emoji")
                                                        .addUserMessage("x")
                                                        .putAdditionalBodyProperty(
                                                                "tools", JsonValue.from(3))
                                                        .build()));
                HttpResponse<String> nowhere =
                        http.send(
                                HttpRequest.newBuilder(
                                                URI.create(
                                                        "http://127.0.0.1:"
                                                                + server.port()
                                                                + "/v2/x"))
                                        .GET()
                                        .build(),
                                HttpResponse.BodyHandlers.ofString());
                assertEquals(404, nowhere.statusCode());

                // still serving, streamed too
                List<ChatCompletionChunk> chunks = new ArrayList<>();
                try (StreamResponse<ChatCompletionChunk> s =
                        client.chat().completions().createStreaming(params("call-with-id", null))) {
                    s.stream().forEach(chunks::add);
                }
                SdkAssertions.Seen seen = SdkAssertions.accumulate(chunks);
                assertEquals(List.of("abc123 get_weather {\"city\": \"Paris\"}"), seen.calls());
                assertEquals("tool_calls", seen.finishReason());
            } finally {
                client.close();
            }
        }
    }
}
