package dev.toolcalls.langchain4j;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.langchain4j.agent.tool.ToolExecutionRequest;
import dev.langchain4j.agent.tool.ToolSpecification;
import dev.langchain4j.agent.tool.ToolSpecifications;
import dev.langchain4j.data.message.AiMessage;
import dev.langchain4j.data.message.UserMessage;
import dev.langchain4j.model.chat.request.ChatRequest;
import dev.langchain4j.model.chat.response.ChatResponse;
import dev.langchain4j.model.chat.response.CompleteToolCall;
import dev.langchain4j.model.chat.response.PartialResponse;
import dev.langchain4j.model.chat.response.PartialResponseContext;
import dev.langchain4j.model.chat.response.PartialThinking;
import dev.langchain4j.model.chat.response.PartialToolCall;
import dev.langchain4j.model.chat.response.StreamingChatResponseHandler;
import dev.langchain4j.model.output.FinishReason;
import dev.toolcalls.templates.ChatTemplate;
import dev.toolcalls.templates.raw.RawCompletion;
import dev.toolcalls.templates.raw.RawTextSource;
import dev.toolcalls.templates.raw.Recorded;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

/** What the streaming model promises LangChain4j's handlers, callback by callback. */
class StreamingContractTest {
    private static final List<ToolSpecification> TOOLS =
            ToolSpecifications.toolSpecificationsFrom(AiServicesEndToEndTest.WeatherTools.class);

    /** Records every callback in order. */
    static class Recorder implements StreamingChatResponseHandler {
        final List<String> log = Collections.synchronizedList(new ArrayList<>());
        final CompletableFuture<ChatResponse> done = new CompletableFuture<>();

        @Override
        public void onPartialResponse(PartialResponse partial, PartialResponseContext context) {
            log.add("text " + partial.text());
        }

        @Override
        public void onPartialThinking(PartialThinking partialThinking) {
            log.add("thinking " + partialThinking.text());
        }

        @Override
        public void onPartialToolCall(PartialToolCall p) {
            log.add(
                    "partial "
                            + p.index()
                            + " "
                            + p.id()
                            + " "
                            + p.name()
                            + " "
                            + p.partialArguments());
        }

        @Override
        public void onCompleteToolCall(CompleteToolCall c) {
            ToolExecutionRequest r = c.toolExecutionRequest();
            log.add("complete " + c.index() + " " + r.id() + " " + r.name() + " " + r.arguments());
        }

        @Override
        public void onCompleteResponse(ChatResponse response) {
            log.add("response");
            done.complete(response);
        }

        @Override
        public void onError(Throwable error) {
            log.add("error");
            done.completeExceptionally(error);
        }

        String joined(String prefix) {
            StringBuilder out = new StringBuilder();
            synchronized (log) {
                for (String line : log)
                    if (line.startsWith(prefix + " "))
                        out.append(line.substring(prefix.length() + 1));
            }
            return out.toString();
        }
    }

    private static ChatTemplate template(String format) {
        return format.equals("gpt_oss")
                ? Recorded.jinja("gpt_oss.jinja")
                : Recorded.tokenizerConfig("qwen3");
    }

    @ParameterizedTest
    @ValueSource(strings = {"gpt_oss", "qwen3_coder"})
    void callbacksInOrderThenTheWholeMessage(String format) throws Exception {
        String output = Recorded.turn(format, 1);
        Recorded.Replay replay = new Recorded.Replay(output);
        ToolCallsStreamingChatModel model =
                ToolCallsStreamingChatModel.builder()
                        .source(replay)
                        .chatTemplate(template(format))
                        .format(format)
                        .templateKwarg("enable_thinking", false)
                        .modelName("recorded")
                        .build();
        Recorder recorder = new Recorder();
        model.chat(
                ChatRequest.builder()
                        .messages(UserMessage.from(Recorded.QUESTION))
                        .toolSpecifications(TOOLS)
                        .maxOutputTokens(64)
                        .temperature(0.5)
                        .build(),
                recorder);
        ChatResponse response = recorder.done.get(30, TimeUnit.SECONDS);

        AiMessage message = response.aiMessage();
        assertEquals(1, message.toolExecutionRequests().size());
        ToolExecutionRequest call = message.toolExecutionRequests().get(0);
        assertEquals("getWeather", call.name());
        // typed by the tool's schema: days is an integer even where the format writes text
        assertEquals("{\"city\": \"Paris\", \"days\": 3}", call.arguments());
        assertEquals(call.arguments(), recorder.joined("partial 0 " + call.id() + " getWeather"));
        assertEquals(FinishReason.TOOL_EXECUTION, response.finishReason());
        assertEquals("recorded", response.modelName());
        String prompt = replay.prompts().get(0);
        assertEquals(
                prompt.codePointCount(0, prompt.length()), response.tokenUsage().inputTokenCount());
        assertEquals(
                Recorded.Replay.chunks(output).size(), response.tokenUsage().outputTokenCount());
        assertEquals(64, replay.requests().get(0).maxTokens());
        assertEquals(0.5, replay.requests().get(0).temperature());
        // the schema LangChain4j derived from the method reached the prompt
        assertTrue(prompt.contains("\"days\": {\"type\": \"integer\""), prompt);

        List<String> log = recorder.log;
        int complete = log.indexOf("complete 0 " + call.id() + " getWeather " + call.arguments());
        assertTrue(complete > 0, log.toString());
        assertEquals(log.size() - 2, complete, "the call completes right before the response");
        for (int i = 0; i < complete; i++)
            assertFalse(log.get(i).startsWith("response"), log.toString());
        assertEquals(message.text() == null ? "" : message.text(), recorder.joined("text"));
        assertEquals(
                message.thinking() == null ? "" : message.thinking(), recorder.joined("thinking"));
        if (format.equals("gpt_oss")) {
            assertNull(message.text());
            assertEquals("The user wants a forecast; call getWeather.", message.thinking());
        } else {
            assertEquals("Let me look that up.\n", message.text());
            assertNull(message.thinking());
        }
    }

    @Test
    void cancellingStopsTheSourceAndTheCallbacks() throws Exception {
        CountDownLatch stopped = new CountDownLatch(1);
        List<String> sent = Collections.synchronizedList(new ArrayList<>());
        RawTextSource endless =
                (request, sink) -> {
                    while (!sink.isCancelled()) {
                        sink.text("word ");
                        sent.add("word");
                    }
                    stopped.countDown();
                    return RawCompletion.of("cancelled");
                };
        Recorder recorder =
                new Recorder() {
                    @Override
                    public void onPartialResponse(PartialResponse p, PartialResponseContext c) {
                        super.onPartialResponse(p, c);
                        if (log.size() == 3) c.streamingHandle().cancel();
                    }
                };
        ToolCallsStreamingChatModel.builder()
                .source(endless)
                .chatTemplate(Recorded.jinja("mistral.jinja"))
                .format("mistral")
                .build()
                .chat(ChatRequest.builder().messages(UserMessage.from("hi")).build(), recorder);

        assertTrue(stopped.await(30, TimeUnit.SECONDS));
        Thread.sleep(50);
        assertEquals(3, recorder.log.size(), recorder.log.toString());
        assertFalse(recorder.done.isDone());
    }
}
