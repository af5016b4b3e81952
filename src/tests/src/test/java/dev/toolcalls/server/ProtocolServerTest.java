package dev.toolcalls.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.anthropic.client.AnthropicClient;
import com.anthropic.client.okhttp.AnthropicOkHttpClient;
import com.anthropic.helpers.MessageAccumulator;
import com.anthropic.models.messages.MessageCreateParams;
import com.google.gson.JsonArray;
import com.google.gson.JsonElement;
import com.google.gson.JsonObject;
import com.google.gson.JsonParser;
import com.openai.client.OpenAIClient;
import com.openai.core.JsonValue;
import com.openai.core.http.StreamResponse;
import com.openai.errors.NotFoundException;
import com.openai.helpers.ResponseAccumulator;
import com.openai.models.responses.ResponseCreateParams;
import com.openai.models.responses.ResponseStreamEvent;

import dev.toolcalls.Formats;
import dev.toolcalls.IdGenerator;
import dev.toolcalls.ParseEvent;
import dev.toolcalls.Tools;
import dev.toolcalls.suite.SuiteCase;

import org.junit.jupiter.api.DynamicContainer;
import org.junit.jupiter.api.DynamicNode;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

/**
 * The replay server's {@code /v1/responses} and {@code /v1/messages}, driven end to end by the
 * official OpenAI and Anthropic SDK clients, streaming and not, for every format's cases; and each
 * protocol's error shape.
 */
class ProtocolServerTest {
    static AnthropicClient anthropic(ReplayServer server) {
        return AnthropicOkHttpClient.builder()
                .baseUrl("http://127.0.0.1:" + server.port())
                .apiKey("test")
                .maxRetries(0)
                .build();
    }

    /**
     * The case's Chat Completions tools in Responses ({@code parameters}) or Anthropic ({@code
     * input_schema}) shape.
     */
    static JsonArray tools(SuiteCase c, boolean anthropic) {
        JsonArray out = new JsonArray();
        if (!c.expected().has("tools")) return out;
        for (JsonElement t : c.expected().getAsJsonArray("tools")) {
            JsonObject f = t.getAsJsonObject().getAsJsonObject("function");
            JsonObject o = new JsonObject();
            if (!anthropic) o.addProperty("type", "function");
            o.add("name", f.get("name"));
            if (f.has("description")) o.add("description", f.get("description"));
            o.add(
                    anthropic ? "input_schema" : "parameters",
                    f.has("parameters")
                            ? f.get("parameters")
                            : JsonParser.parseString("{\"type\": \"object\"}"));
            out.add(o);
        }
        return out;
    }

    static ResponseCreateParams responseParams(SuiteCase c) throws Exception {
        ResponseCreateParams.Builder b =
                ResponseCreateParams.builder().model(c.name()).input("replay");
        if (c.thinking() != null)
            b.putAdditionalBodyProperty(
                    "chat_template_kwargs",
                    JsonValue.from(Map.of("enable_thinking", c.thinking())));
        JsonArray tools = tools(c, false);
        if (!tools.isEmpty())
            b.putAdditionalBodyProperty(
                    "tools",
                    JsonValue.fromJsonNode(SdkAssertions.MAPPER.readTree(tools.toString())));
        return b.build();
    }

    static MessageCreateParams messageParams(SuiteCase c) throws Exception {
        MessageCreateParams.Builder b =
                MessageCreateParams.builder()
                        .model(c.name())
                        .maxTokens(1024)
                        .addUserMessage("replay");
        if (c.thinking() != null)
            b.putAdditionalBodyProperty(
                    "thinking",
                    AnthropicSdk.from(
                            c.thinking()
                                    ? Map.of("type", "enabled", "budget_tokens", 1024)
                                    : Map.of("type", "disabled")));
        JsonArray tools = tools(c, true);
        if (!tools.isEmpty())
            b.putAdditionalBodyProperty(
                    "tools",
                    AnthropicSdk.fromJsonNode(
                            ProtocolSdkTest.ANTHROPIC.readTree(tools.toString())));
        return b.build();
    }

    /**
     * What the client saw, with generated call ids put back to our parse's (see {@link
     * SdkAssertions#generatedIdsAsWanted}).
     */
    static ProtocolSdkTest.Seen generatedIdsAsWanted(
            ProtocolSdkTest.Seen want, List<String> otherIds, ProtocolSdkTest.Seen got) {
        return new ProtocolSdkTest.Seen(
                got.text(),
                got.reasoning(),
                SdkAssertions.generatedIdsAsWanted(want.calls(), otherIds, got.calls()),
                got.stop());
    }

    @TestFactory
    Stream<DynamicNode> everyFormatsCasesThroughBothSdkClients() {
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
                                                    OpenAIClient openai =
                                                            ReplayServerTest.client(server);
                                                    AnthropicClient anthropic = anthropic(server);
                                                    try {
                                                        for (SuiteCase c : valid) {
                                                            Tools tools =
                                                                    Tools.parse(
                                                                            String.valueOf(
                                                                                    c.expected()
                                                                                            .get(
                                                                                                    "tools")));
                                                            List<ParseEvent> events =
                                                                    s.format()
                                                                            .parseEvents(
                                                                                    c.input(),
                                                                                    tools,
                                                                                    c.options());
                                                            List<String> otherIds =
                                                                    ProtocolSdkTest.expected(
                                                                                    s.format()
                                                                                            .parseEvents(
                                                                                                    c
                                                                                                            .input(),
                                                                                                    tools,
                                                                                                    c.options()
                                                                                                            .withIds(
                                                                                                                    () ->
                                                                                                                            IdGenerator
                                                                                                                                    .seeded(
                                                                                                                                            1))),
                                                                                    "")
                                                                            .calls();
                                                            boolean calls =
                                                                    events.stream()
                                                                            .anyMatch(
                                                                                    e ->
                                                                                            e
                                                                                                    instanceof
                                                                                                    ParseEvent
                                                                                                            .ToolCallEnd);
                                                            ProtocolSdkTest.Seen response =
                                                                    ProtocolSdkTest.expected(
                                                                            events, "completed");
                                                            assertEquals(
                                                                    response,
                                                                    generatedIdsAsWanted(
                                                                            response,
                                                                            otherIds,
                                                                            ProtocolSdkTest.seen(
                                                                                    openai.responses()
                                                                                            .create(
                                                                                                    responseParams(
                                                                                                            c)))),
                                                                    c.name() + " /v1/responses");
                                                            ResponseAccumulator racc =
                                                                    ResponseAccumulator.create();
                                                            try (StreamResponse<ResponseStreamEvent>
                                                                    st =
                                                                            openai.responses()
                                                                                    .createStreaming(
                                                                                            responseParams(
                                                                                                    c))) {
                                                                st.stream()
                                                                        .forEach(racc::accumulate);
                                                            }
                                                            assertEquals(
                                                                    response,
                                                                    generatedIdsAsWanted(
                                                                            response,
                                                                            otherIds,
                                                                            ProtocolSdkTest.seen(
                                                                                    racc
                                                                                            .response())),
                                                                    c.name()
                                                                            + " /v1/responses streamed");

                                                            ProtocolSdkTest.Seen message =
                                                                    ProtocolSdkTest.expected(
                                                                            events,
                                                                            calls
                                                                                    ? "tool_use"
                                                                                    : "end_turn");
                                                            assertEquals(
                                                                    message,
                                                                    generatedIdsAsWanted(
                                                                            message,
                                                                            otherIds,
                                                                            ProtocolSdkTest.seen(
                                                                                    anthropic
                                                                                            .messages()
                                                                                            .create(
                                                                                                    messageParams(
                                                                                                            c)))),
                                                                    c.name() + " /v1/messages");
                                                            MessageAccumulator macc =
                                                                    MessageAccumulator.create();
                                                            try (var st =
                                                                    anthropic
                                                                            .messages()
                                                                            .createStreaming(
                                                                                    messageParams(
                                                                                            c))) {
                                                                st.stream()
                                                                        .forEach(macc::accumulate);
                                                            }
                                                            assertEquals(
                                                                    message,
                                                                    generatedIdsAsWanted(
                                                                            message,
                                                                            otherIds,
                                                                            ProtocolSdkTest.seen(
                                                                                    macc
                                                                                            .message())),
                                                                    c.name()
                                                                            + " /v1/messages streamed");
                                                        }
                                                    } finally {
                                                        openai.close();
                                                        anthropic.close();
                                                    }
                                                }
                                            }))));
        }
        return out.stream();
    }

    @Test
    void badRequestsGetEachProtocolsErrorShape() throws Exception {
        try (ReplayServer server =
                new ReplayServer(
                        Formats.get("toy"),
                        Path.of("src/tests/src/test/resources/suite/toy"),
                        "127.0.0.1",
                        0,
                        8,
                        0,
                        0)) {
            server.start();
            HttpClient http = HttpClient.newHttpClient();
            for (String path : new String[] {"/v1/responses", "/v1/messages"}) {
                boolean anthropicShape = path.equals("/v1/messages");
                HttpResponse<String> bad =
                        http.send(
                                HttpRequest.newBuilder(
                                                URI.create(
                                                        "http://127.0.0.1:" + server.port() + path))
                                        .POST(HttpRequest.BodyPublishers.ofString("{not json"))
                                        .build(),
                                HttpResponse.BodyHandlers.ofString());
                assertEquals(400, bad.statusCode());
                JsonObject o = JsonParser.parseString(bad.body()).getAsJsonObject();
                if (anthropicShape) {
                    assertEquals("error", o.get("type").getAsString(), bad.body());
                    assertEquals(
                            "invalid_request_error",
                            o.getAsJsonObject("error").get("type").getAsString());
                } else {
                    assertEquals(
                            "invalid_json",
                            o.getAsJsonObject("error").get("code").getAsString(),
                            bad.body());
                }
                HttpResponse<String> missing =
                        http.send(
                                HttpRequest.newBuilder(
                                                URI.create(
                                                        "http://127.0.0.1:" + server.port() + path))
                                        .POST(
                                                HttpRequest.BodyPublishers.ofString(
                                                        "{\"model\": \"nope\"}"))
                                        .build(),
                                HttpResponse.BodyHandlers.ofString());
                assertEquals(404, missing.statusCode());
                JsonObject m = JsonParser.parseString(missing.body()).getAsJsonObject();
                assertTrue(
                        anthropicShape
                                ? m.getAsJsonObject("error")
                                        .get("type")
                                        .getAsString()
                                        .equals("not_found_error")
                                : m.getAsJsonObject("error")
                                        .get("code")
                                        .getAsString()
                                        .equals("model_not_found"),
                        missing.body());
            }
            AnthropicClient anthropic = anthropic(server);
            try {
                assertThrows(
                        AnthropicSdk.NOT_FOUND,
                        () ->
                                anthropic
                                        .messages()
                                        .create(
                                                MessageCreateParams.builder()
                                                        .model("nope")
                                                        .maxTokens(10)
                                                        .addUserMessage("x")
                                                        .build()));
            } finally {
                anthropic.close();
            }
            OpenAIClient openai = ReplayServerTest.client(server);
            try {
                assertThrows(
                        NotFoundException.class,
                        () ->
                                openai.responses()
                                        .create(
                                                ResponseCreateParams.builder()
                                                        .model("nope")
                                                        .input("x")
                                                        .build()));
            } finally {
                openai.close();
            }
            // a failing replay mid-stream ends with the protocol's error event
            HttpResponse<String> failing =
                    http.send(
                            HttpRequest.newBuilder(
                                            URI.create(
                                                    "http://127.0.0.1:"
                                                            + server.port()
                                                            + "/v1/messages"))
                                    .POST(
                                            HttpRequest.BodyPublishers.ofString(
                                                    "{\"model\": \"unterminated\", \"stream\": true, \"max_tokens\": 5}"))
                                    .build(),
                            HttpResponse.BodyHandlers.ofString());
            assertTrue(
                    failing.body().contains("event: message_start")
                            && failing.body().strip().endsWith("}")
                            && failing.body().contains("event: error\ndata: {\"type\":\"error\""),
                    failing.body());
            HttpResponse<String> failingR =
                    http.send(
                            HttpRequest.newBuilder(
                                            URI.create(
                                                    "http://127.0.0.1:"
                                                            + server.port()
                                                            + "/v1/responses"))
                                    .POST(
                                            HttpRequest.BodyPublishers.ofString(
                                                    "{\"model\": \"unterminated\", \"stream\": true}"))
                                    .build(),
                            HttpResponse.BodyHandlers.ofString());
            assertTrue(
                    failingR.body().contains("event: response.failed")
                            && !failingR.body().contains("[DONE]"),
                    failingR.body());
        }
    }
}
