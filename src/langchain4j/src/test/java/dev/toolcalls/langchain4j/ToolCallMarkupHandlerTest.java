package dev.toolcalls.langchain4j;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.langchain4j.data.message.AiMessage;
import dev.langchain4j.data.message.ChatMessage;
import dev.langchain4j.data.message.ToolExecutionResultMessage;
import dev.langchain4j.data.message.UserMessage;
import dev.langchain4j.model.chat.StreamingChatModel;
import dev.langchain4j.model.chat.request.ChatRequest;
import dev.langchain4j.model.chat.response.ChatResponse;
import dev.langchain4j.model.chat.response.PartialResponse;
import dev.langchain4j.model.chat.response.PartialResponseContext;
import dev.langchain4j.model.chat.response.StreamingChatResponseHandler;
import dev.langchain4j.model.output.FinishReason;
import dev.langchain4j.model.output.TokenUsage;
import dev.langchain4j.service.AiServices;
import dev.toolcalls.Formats;
import dev.toolcalls.ParseOptions;
import dev.toolcalls.ToolCallParseException;
import dev.toolcalls.templates.raw.Recorded;

import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;

/**
 * An existing model whose raw markup leaks into its text (as an in-process engine's integration
 * streams it), made to give proper tool calls by the handler decorator.
 */
class ToolCallMarkupHandlerTest {

    /**
     * A model that streams its recorded outputs as plain text, markup and all, and completes with
     * the raw text as the message; it records the requests it gets.
     */
    static final class LeakyModel implements StreamingChatModel {
        final List<String> outputs;
        final List<ChatRequest> requests = Collections.synchronizedList(new ArrayList<>());

        LeakyModel(String... outputs) {
            this.outputs = List.of(outputs);
        }

        @Override
        public void doChat(ChatRequest request, StreamingChatResponseHandler handler) {
            String output = outputs.get(requests.size());
            requests.add(request);
            for (String chunk : Recorded.Replay.chunks(output))
                handler.onPartialResponse(
                        new PartialResponse(chunk),
                        new PartialResponseContext(Dispatcher.UNCANCELLABLE));
            handler.onCompleteResponse(
                    ChatResponse.builder()
                            .aiMessage(AiMessage.from(output))
                            .finishReason(FinishReason.STOP)
                            .tokenUsage(new TokenUsage(10, 20))
                            .build());
        }
    }

    @Test
    void aiServicesRunToolsOverALeakyModel() throws Exception {
        LeakyModel leaky = new LeakyModel(Recorded.turn("hermes", 1), Recorded.turn("hermes", 2));
        AiServicesEndToEndTest.WeatherTools tools = new AiServicesEndToEndTest.WeatherTools();
        AiServicesEndToEndTest.StreamingAssistant assistant =
                AiServices.builder(AiServicesEndToEndTest.StreamingAssistant.class)
                        .streamingChatModel(
                                ToolCallMarkupHandler.wrap(
                                        leaky, Formats.get("hermes"), ParseOptions.defaults()))
                        .tools(tools)
                        .build();
        StringBuilder partials = new StringBuilder();
        CompletableFuture<ChatResponse> done = new CompletableFuture<>();
        assistant
                .chat(Recorded.QUESTION)
                .onPartialResponse(partials::append)
                .onCompleteResponse(done::complete)
                .onError(done::completeExceptionally)
                .start();
        ChatResponse last = done.get(30, TimeUnit.SECONDS);

        assertEquals(List.of("Paris/3"), tools.invocations);
        assertEquals(Recorded.turn("hermes", 2), last.aiMessage().text());
        assertEquals(Recorded.turn("hermes", 2), partials.toString());
        // the second request carries the parsed call and its result, not the markup
        List<ChatMessage> second = leaky.requests.get(1).messages();
        AiMessage call = (AiMessage) second.get(1);
        assertEquals("getWeather", call.toolExecutionRequests().get(0).name());
        assertEquals(
                "{\"city\": \"Paris\", \"days\": 3}",
                call.toolExecutionRequests().get(0).arguments());
        assertEquals(
                "Paris: sunny, 22 C, for the next 3 days",
                ((ToolExecutionResultMessage) second.get(2)).text());
    }

    @Test
    void theFinalMessageIsRebuiltFromTheParsedOutput() throws Exception {
        String output = "Checking. " + Recorded.turn("hermes", 1);
        StreamingContractTest.Recorder recorder = new StreamingContractTest.Recorder();
        new LeakyModel(output)
                .chat(
                        ChatRequest.builder().messages(UserMessage.from("hi")).build(),
                        new ToolCallMarkupHandler(
                                recorder, Formats.get("hermes"), null, ParseOptions.defaults()));
        ChatResponse response = recorder.done.get(5, TimeUnit.SECONDS);

        assertEquals("Checking. ", response.aiMessage().text());
        assertEquals(FinishReason.TOOL_EXECUTION, response.finishReason());
        assertEquals(20, response.tokenUsage().outputTokenCount());
        assertEquals(1, response.aiMessage().toolExecutionRequests().size());
        assertEquals("Checking. ", recorder.joined("text"));
        assertFalse(recorder.joined("text").contains("tool_call"));
    }

    @Test
    void malformedMarkupReachesOnErrorWithTheRawText() {
        String malformed = Recorded.resource("recorded/malformed/turn1.txt");
        StreamingContractTest.Recorder recorder = new StreamingContractTest.Recorder();
        new LeakyModel(malformed)
                .chat(
                        ChatRequest.builder().messages(UserMessage.from("hi")).build(),
                        new ToolCallMarkupHandler(
                                recorder, Formats.get("hermes"), null, ParseOptions.defaults()));

        ExecutionException e =
                assertThrows(
                        ExecutionException.class, () -> recorder.done.get(5, TimeUnit.SECONDS));
        ModelOutputException error = assertInstanceOf(ModelOutputException.class, e.getCause());
        assertEquals(ToolCallParseException.Kind.MALFORMED_ARGUMENTS, error.kind());
        assertEquals(malformed, error.output());
        assertEquals("Let me check.\n", recorder.joined("text"));
        assertEquals(1, Collections.frequency(recorder.log, "error"), recorder.log.toString());
        assertFalse(recorder.log.contains("response"));
    }
}
