package dev.toolcalls.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.anthropic.client.AnthropicClient;
import com.anthropic.client.okhttp.AnthropicOkHttpClient;
import com.anthropic.errors.NotFoundException;
import com.anthropic.helpers.MessageAccumulator;
import com.anthropic.models.messages.ContentBlock;
import com.anthropic.models.messages.Message;
import com.anthropic.models.messages.MessageCreateParams;
import com.openai.client.OpenAIClient;
import com.openai.client.okhttp.OpenAIOkHttpClient;
import com.openai.models.responses.Response;
import com.openai.models.responses.ResponseCreateParams;
import com.openai.models.responses.ResponseOutputItem;

import org.junit.jupiter.api.Test;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.TimeUnit;

/**
 * {@code serve} as run from the command line, driven by the official OpenAI and Anthropic SDK
 * clients built from exactly the base URLs it prints; and {@code --seed}.
 */
class ServeCommandTest {
    /**
     * One run of {@code serve --seed 7}: the ids of a chat completion (batch, streamed), a response
     * and a message (batch, streamed).
     */
    static List<String> seededRun() throws Exception {
        Process p =
                SdkAssertions.serve(
                        "--format",
                        "toy",
                        "--replay",
                        "src/tests/src/test/resources/suite/toy",
                        "--port",
                        "0",
                        "--seed",
                        "7");
        try {
            BufferedReader out =
                    new BufferedReader(
                            new InputStreamReader(p.getInputStream(), StandardCharsets.UTF_8));
            String first = out.readLine();
            String openAiLine = out.readLine();
            String anthropicLine = out.readLine();
            assertTrue(
                    first != null && first.startsWith("toolcalls replay server: http://127.0.0.1:"),
                    String.valueOf(first));
            assertTrue(
                    openAiLine != null && openAiLine.startsWith("  base URL for the OpenAI SDKs"),
                    String.valueOf(openAiLine));
            assertTrue(
                    anthropicLine != null
                            && anthropicLine.startsWith("  base URL for the Anthropic SDK"),
                    String.valueOf(anthropicLine));
            String openAiUrl = openAiLine.substring(openAiLine.lastIndexOf(' ') + 1);
            String anthropicUrl = anthropicLine.substring(anthropicLine.lastIndexOf(' ') + 1);
            assertTrue(openAiUrl.matches("http://127\\.0\\.0\\.1:[0-9]+/v1"), openAiUrl);
            assertEquals(openAiUrl, anthropicUrl + "/v1");

            List<String> ids = new ArrayList<>();
            OpenAIClient openai =
                    OpenAIOkHttpClient.builder()
                            .baseUrl(openAiUrl)
                            .apiKey("test")
                            .maxRetries(0)
                            .build();
            AnthropicClient anthropic =
                    AnthropicOkHttpClient.builder()
                            .baseUrl(anthropicUrl)
                            .apiKey("test")
                            .maxRetries(0)
                            .build();
            AnthropicClient misdirected =
                    AnthropicOkHttpClient.builder()
                            .baseUrl(openAiUrl)
                            .apiKey("test")
                            .maxRetries(0)
                            .build();
            try {
                ids.addAll(ReplayServerTest.idsOfAnswers(openai, 2));
                Response response =
                        openai.responses()
                                .create(
                                        ResponseCreateParams.builder()
                                                .model("call-without-id")
                                                .input("x")
                                                .build());
                ids.add(response.id());
                ids.add(
                        response.output().stream()
                                .filter(ResponseOutputItem::isFunctionCall)
                                .findFirst()
                                .orElseThrow()
                                .asFunctionCall()
                                .callId());
                MessageCreateParams message =
                        MessageCreateParams.builder()
                                .model("call-without-id")
                                .maxTokens(100)
                                .addUserMessage("x")
                                .build();
                Message m = anthropic.messages().create(message);
                ids.add(m.id());
                ids.add(
                        m.content().stream()
                                .filter(ContentBlock::isToolUse)
                                .findFirst()
                                .orElseThrow()
                                .asToolUse()
                                .id());
                MessageAccumulator acc = MessageAccumulator.create();
                try (var st = anthropic.messages().createStreaming(message)) {
                    st.stream().forEach(acc::accumulate);
                }
                ids.add(acc.message().id());
                ids.add(
                        acc.message().content().stream()
                                .filter(ContentBlock::isToolUse)
                                .findFirst()
                                .orElseThrow()
                                .asToolUse()
                                .id());
                // the OpenAI base URL is not the Anthropic SDK's: it would ask for /v1/v1/messages
                assertThrows(NotFoundException.class, () -> misdirected.messages().create(message));
            } finally {
                openai.close();
                anthropic.close();
                misdirected.close();
            }
            p.destroy();
            assertTrue(p.waitFor(15, TimeUnit.SECONDS), "serve did not stop on SIGTERM");
            return ids;
        } finally {
            p.destroyForcibly();
        }
    }

    @Test
    void eachSdkWorksFromTheBaseUrlPrintedForItAndSeededIdsRepeatRunToRun() throws Exception {
        List<String> first = seededRun();
        assertEquals(
                first.size(),
                Set.copyOf(first).size(),
                "every response and call its own id: " + first);
        assertEquals(
                first,
                seededRun(),
                "--seed 7: a second run answers with the same ids, in the same order");
    }
}
