package dev.toolcalls.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.google.gson.JsonObject;

import dev.toolcalls.ConstraintOptions;
import dev.toolcalls.Formats;
import dev.toolcalls.Tools;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;

/**
 * The gateway sends the constraint derived from the format when a request restricts the calls, in
 * the field each engine kind reads, and nothing when the model is free.
 */
class GatewayConstraintTest {
    static final String TOOLS =
            "[{\"type\": \"function\", \"function\": {\"name\": \"get_time\", \"parameters\":"
                    + " {\"type\": \"object\", \"properties\": {\"zone\": {\"type\": \"string\"}},"
                    + " \"required\": [\"zone\"]}}}]";
    static final String CALL =
            "<tool_call>\n{\"name\": \"get_time\", \"arguments\": {\"zone\": \"UTC\"}}\n</tool_call>";

    final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
    StandInEngine engine;
    GatewayServer gateway;

    @AfterEach
    void stop() {
        if (gateway != null) gateway.close();
        if (engine != null) engine.close();
    }

    JsonObject upstreamBody(Upstream.Kind kind, String path, String extra) throws Exception {
        engine = new StandInEngine();
        engine.script = r -> StandInEngine.Script.of(CALL);
        gateway =
                GatewayReliabilityTest.hermesGateway(
                        engine.baseUrl(),
                        kind,
                        ReplayServer.Limits.defaults(),
                        GatewayServer.Options.defaults());
        gateway.start();
        HttpResponse<String> r =
                http.send(
                        HttpRequest.newBuilder(
                                        URI.create("http://127.0.0.1:" + gateway.port() + path))
                                .POST(
                                        HttpRequest.BodyPublishers.ofString(
                                                GatewayReliabilityTest.body(path, false, extra)))
                                .timeout(Duration.ofSeconds(20))
                                .build(),
                        HttpResponse.BodyHandlers.ofString());
        assertEquals(200, r.statusCode(), r.body());
        assertTrue(r.body().contains("get_time"), r.body());
        JsonObject sent = engine.requests.poll();
        assertNotNull(sent);
        return sent;
    }

    static String expected(String choice, boolean parallel) {
        return Formats.get("hermes")
                .constraint(
                        Tools.parse(TOOLS),
                        ConstraintOptions.defaults()
                                .withToolChoice(choice)
                                .withParallelToolCalls(parallel));
    }

    @Test
    void requiredSendsTheFormatsGrammarInTheFieldOfEachEngine() throws Exception {
        String extra = "\"tools\": " + TOOLS + ", \"tool_choice\": \"required\"";
        String grammar = expected("required", true);
        assertTrue(grammar.contains("root ::="), grammar);
        assertEquals(
                grammar,
                upstreamBody(Upstream.Kind.LLAMA_CPP, "/v1/chat/completions", extra)
                        .get("grammar")
                        .getAsString());
        stop();
        assertEquals(
                grammar,
                upstreamBody(Upstream.Kind.VLLM, "/v1/chat/completions", extra)
                        .getAsJsonObject("structured_outputs")
                        .get("grammar")
                        .getAsString());
        stop();
        assertEquals(
                grammar,
                upstreamBody(Upstream.Kind.SGLANG, "/v1/chat/completions", extra)
                        .get("ebnf")
                        .getAsString());
    }

    @Test
    void aNamedFunctionAndParallelOffReachTheGrammarInEveryProtocol() throws Exception {
        String grammar = expected("get_time", false);
        JsonObject chat =
                upstreamBody(
                        Upstream.Kind.LLAMA_CPP,
                        "/v1/chat/completions",
                        "\"tools\": "
                                + TOOLS
                                + ", \"parallel_tool_calls\": false, \"tool_choice\": {\"type\":"
                                + " \"function\", \"function\": {\"name\": \"get_time\"}}");
        assertEquals(grammar, chat.get("grammar").getAsString());
        stop();
        String messagesTools =
                "[{\"name\": \"get_time\", \"input_schema\": {\"type\": \"object\", \"properties\":"
                        + " {\"zone\": {\"type\": \"string\"}}, \"required\": [\"zone\"]}}]";
        JsonObject messages =
                upstreamBody(
                        Upstream.Kind.LLAMA_CPP,
                        "/v1/messages",
                        "\"tools\": "
                                + messagesTools
                                + ", \"tool_choice\": {\"type\": \"tool\", \"name\": \"get_time\","
                                + " \"disable_parallel_tool_use\": true}");
        assertEquals(grammar, messages.get("grammar").getAsString());
    }

    @Test
    void aFreeRequestAndAnOpenaiEngineGetNoConstraint() throws Exception {
        JsonObject free =
                upstreamBody(
                        Upstream.Kind.LLAMA_CPP,
                        "/v1/chat/completions",
                        "\"tools\": " + TOOLS + ", \"tool_choice\": \"auto\"");
        assertFalse(free.has("grammar"), free.toString());
        stop();
        JsonObject openai =
                upstreamBody(
                        Upstream.Kind.OPENAI,
                        "/v1/chat/completions",
                        "\"tools\": " + TOOLS + ", \"tool_choice\": \"required\"");
        assertFalse(
                openai.has("grammar") || openai.has("structured_outputs") || openai.has("ebnf"));
    }
}
