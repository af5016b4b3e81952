package dev.toolcalls.langchain4j;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.langchain4j.agent.tool.P;
import dev.langchain4j.agent.tool.Tool;
import dev.langchain4j.model.chat.response.ChatResponse;
import dev.langchain4j.model.output.FinishReason;
import dev.langchain4j.service.AiServices;
import dev.langchain4j.service.TokenStream;
import dev.langchain4j.service.tool.ToolExecution;
import dev.toolcalls.ToolCallParseException;
import dev.toolcalls.templates.raw.Recorded;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;

/**
 * LangChain4j's own tool loop ({@code AiServices} with {@code @Tool} methods) over recorded outputs
 * of several formats: the model's call is parsed, the Java method runs with schema-typed arguments,
 * its result goes back through the chat template, and the final answer comes out, in one piece and
 * streaming.
 */
class AiServicesEndToEndTest {
    private static final String RESULT = "Paris: sunny, 22 C, for the next 3 days";

    interface Assistant {
        String chat(String message);
    }

    interface StreamingAssistant {
        TokenStream chat(String message);
    }

    /** The tool the recorded outputs call; it records each invocation with its typed arguments. */
    static final class WeatherTools {
        final List<String> invocations = Collections.synchronizedList(new ArrayList<>());

        @Tool("The weather forecast of a city")
        String getWeather(@P("the city") String city, @P("how many days ahead") int days) {
            invocations.add(city + "/" + days);
            return city + ": sunny, 22 C, for the next " + days + " days";
        }
    }

    static List<Recorded.Scenario> scenarios() {
        return Recorded.scenarios();
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("scenarios")
    void toolLoopInOnePiece(Recorded.Scenario s) {
        Recorded.Replay replay =
                new Recorded.Replay(Recorded.turn(s.format(), 1), Recorded.turn(s.format(), 2));
        WeatherTools tools = new WeatherTools();
        ToolCallsChatModel.Builder model =
                ToolCallsChatModel.builder()
                        .source(replay)
                        .chatTemplate(s.template())
                        .format(s.format())
                        .messageShape(s.shape());
        s.kwargs().forEach(model::templateKwarg);
        Assistant assistant =
                AiServices.builder(Assistant.class).chatModel(model.build()).tools(tools).build();

        String answer = assistant.chat(Recorded.QUESTION);

        assertEquals(Recorded.resource("recorded/" + s.format() + "/answer.txt"), answer);
        assertEquals(List.of("Paris/3"), tools.invocations);
        checkPrompts(s, replay);
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("scenarios")
    void toolLoopStreaming(Recorded.Scenario s) throws Exception {
        Recorded.Replay replay =
                new Recorded.Replay(Recorded.turn(s.format(), 1), Recorded.turn(s.format(), 2));
        WeatherTools tools = new WeatherTools();
        ToolCallsStreamingChatModel.Builder model =
                ToolCallsStreamingChatModel.builder()
                        .source(replay)
                        .chatTemplate(s.template())
                        .format(s.format())
                        .messageShape(s.shape());
        s.kwargs().forEach(model::templateKwarg);
        StreamingAssistant assistant =
                AiServices.builder(StreamingAssistant.class)
                        .streamingChatModel(model.build())
                        .tools(tools)
                        .build();

        StringBuilder partials = new StringBuilder();
        StringBuilder thinking = new StringBuilder();
        StringBuilder fragments = new StringBuilder();
        List<ToolExecution> executed = Collections.synchronizedList(new ArrayList<>());
        CompletableFuture<ChatResponse> done = new CompletableFuture<>();
        assistant
                .chat(Recorded.QUESTION)
                .onPartialResponse(partials::append)
                .onPartialThinking(t -> thinking.append(t.text()))
                .onPartialToolCall(p -> fragments.append(p.partialArguments()))
                .onToolExecuted(executed::add)
                .onCompleteResponse(done::complete)
                .onError(done::completeExceptionally)
                .start();
        ChatResponse last = done.get(30, TimeUnit.SECONDS);

        String answer = Recorded.resource("recorded/" + s.format() + "/answer.txt");
        assertEquals(answer, last.aiMessage().text());
        assertEquals(FinishReason.STOP, last.finishReason());
        assertNotNull(last.tokenUsage());
        // AiServices adds up the usage of both turns; the replay counts a chunk as a token
        assertEquals(
                Recorded.Replay.chunks(Recorded.turn(s.format(), 1)).size()
                        + Recorded.Replay.chunks(Recorded.turn(s.format(), 2)).size(),
                last.tokenUsage().outputTokenCount());
        assertEquals(List.of("Paris/3"), tools.invocations);
        assertEquals(1, executed.size());
        assertEquals("getWeather", executed.get(0).request().name());
        assertEquals(executed.get(0).request().arguments(), fragments.toString());
        assertEquals(RESULT, executed.get(0).result());
        // the content of both turns streamed, without markup
        assertTrue(partials.toString().endsWith(answer), partials.toString());
        assertFalse(partials.toString().contains("getWeather"), partials.toString());
        if (s.format().equals("gpt_oss"))
            assertEquals(
                    "The user wants a forecast; call getWeather.The tool answered.",
                    thinking.toString());
        checkPrompts(s, replay);
    }

    /**
     * The first prompt offers the tool; the second carries its result as the template renders it.
     */
    private static void checkPrompts(Recorded.Scenario s, Recorded.Replay replay) {
        List<String> prompts = replay.prompts();
        assertEquals(2, prompts.size());
        assertTrue(prompts.get(0).contains(Recorded.QUESTION), prompts.get(0));
        if (!s.format().equals("deepseek_v31")) // the DeepSeek V3 template renders no tools
        assertTrue(prompts.get(0).contains("getWeather"), prompts.get(0));
        String rendered = Recorded.renderedToolResult(s.format(), RESULT);
        assertTrue(
                prompts.get(1).contains(rendered),
                () -> "the second prompt lacks " + rendered + ":\n" + prompts.get(1));
        assertTrue(prompts.get(1).startsWith(prompts.get(0).substring(0, 20)));
    }

    @Test
    void malformedOutputThrowsWithTheWholeOutput() {
        String malformed = Recorded.resource("recorded/malformed/turn1.txt");
        Recorded.Replay replay = new Recorded.Replay(malformed);
        WeatherTools tools = new WeatherTools();
        Assistant assistant =
                AiServices.builder(Assistant.class)
                        .chatModel(
                                ToolCallsChatModel.builder()
                                        .source(replay)
                                        .chatTemplate(Recorded.tokenizerConfig("qwen3"))
                                        .format("hermes")
                                        .build())
                        .tools(tools)
                        .build();

        ModelOutputException e =
                assertThrows(ModelOutputException.class, () -> assistant.chat(Recorded.QUESTION));

        assertEquals(ToolCallParseException.Kind.MALFORMED_ARGUMENTS, e.kind());
        assertEquals(malformed, e.output());
        assertEquals(replay.prompts().get(0), e.prompt());
        assertTrue(tools.invocations.isEmpty());
    }

    @Test
    void malformedOutputReachesOnErrorAfterWhatCameBefore() {
        String malformed = Recorded.resource("recorded/malformed/turn1.txt");
        WeatherTools tools = new WeatherTools();
        StreamingAssistant assistant =
                AiServices.builder(StreamingAssistant.class)
                        .streamingChatModel(
                                ToolCallsStreamingChatModel.builder()
                                        .source(new Recorded.Replay(malformed))
                                        .chatTemplate(Recorded.tokenizerConfig("qwen3"))
                                        .format("hermes")
                                        .build())
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

        ExecutionException e =
                assertThrows(ExecutionException.class, () -> done.get(30, TimeUnit.SECONDS));
        ModelOutputException error = assertInstanceOf(ModelOutputException.class, e.getCause());
        assertEquals(ToolCallParseException.Kind.MALFORMED_ARGUMENTS, error.kind());
        assertEquals(malformed, error.output());
        assertEquals("Let me check.\n", partials.toString());
        assertTrue(tools.invocations.isEmpty());
    }
}
