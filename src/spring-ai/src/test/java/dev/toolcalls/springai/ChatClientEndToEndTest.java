package dev.toolcalls.springai;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.toolcalls.ToolCallParseException;
import dev.toolcalls.templates.raw.RawTextSource;
import dev.toolcalls.templates.raw.Recorded;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import org.springframework.ai.chat.client.ChatClient;
import org.springframework.ai.chat.model.ChatResponse;
import org.springframework.ai.tool.annotation.Tool;
import org.springframework.ai.tool.annotation.ToolParam;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

/**
 * Spring AI's own tool loop ({@code ChatClient} with {@code @Tool} methods, run by its tool-calling
 * advisor) over recorded outputs of several formats: the model's call is parsed, the Java method
 * runs with schema-typed arguments, its result goes back through the chat template, and the final
 * answer comes out, in one piece and streaming.
 */
class ChatClientEndToEndTest {
    /** The tool's result as Spring AI hands it back: its return value written as JSON. */
    static final String RESULT = "\"Paris: sunny, 22 C, for the next 3 days\"";

    /** The tool the recorded outputs call; it records each invocation with its typed arguments. */
    static final class WeatherTools {
        final List<String> invocations = Collections.synchronizedList(new ArrayList<>());

        @Tool(description = "The weather forecast of a city")
        String getWeather(
                @ToolParam(description = "the city") String city,
                @ToolParam(description = "how many days ahead") int days) {
            invocations.add(city + "/" + days);
            return city + ": sunny, 22 C, for the next " + days + " days";
        }
    }

    static List<Recorded.Scenario> scenarios() {
        return Recorded.scenarios();
    }

    static ToolCallsChatModel model(Recorded.Scenario s, RawTextSource source) {
        ToolCallsChatModel.Builder model =
                ToolCallsChatModel.builder()
                        .source(source)
                        .chatTemplate(s.template())
                        .format(s.format())
                        .messageShape(s.shape());
        s.kwargs().forEach(model::templateKwarg);
        return model.build();
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("scenarios")
    void toolLoopInOnePiece(Recorded.Scenario s) {
        Recorded.Replay replay =
                new Recorded.Replay(Recorded.turn(s.format(), 1), Recorded.turn(s.format(), 2));
        WeatherTools tools = new WeatherTools();

        ChatResponse response =
                ChatClient.create(model(s, replay))
                        .prompt()
                        .user(Recorded.QUESTION)
                        .tools(tools)
                        .call()
                        .chatResponse();

        assertEquals(
                Recorded.resource("recorded/" + s.format() + "/answer.txt"),
                response.getResult().getOutput().getText());
        assertEquals("STOP", response.getResult().getMetadata().getFinishReason());
        assertEquals(List.of("Paris/3"), tools.invocations);
        checkPrompts(s, replay);
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("scenarios")
    void toolLoopStreaming(Recorded.Scenario s) {
        Recorded.Replay replay =
                new Recorded.Replay(Recorded.turn(s.format(), 1), Recorded.turn(s.format(), 2));
        WeatherTools tools = new WeatherTools();

        List<String> pieces =
                ChatClient.create(model(s, replay))
                        .prompt()
                        .user(Recorded.QUESTION)
                        .tools(tools)
                        .stream()
                        .content()
                        .collectList()
                        .block(Duration.ofSeconds(30));

        String answer = Recorded.resource("recorded/" + s.format() + "/answer.txt");
        String streamed = String.join("", pieces);
        assertTrue(streamed.endsWith(answer), streamed);
        assertFalse(streamed.contains("getWeather"), streamed);
        assertTrue(pieces.size() > 1, "the answer streamed in pieces: " + pieces);
        assertEquals(List.of("Paris/3"), tools.invocations);
        checkPrompts(s, replay);
    }

    /**
     * The first prompt offers the tool; the second carries its result as the template renders it.
     */
    static void checkPrompts(Recorded.Scenario s, Recorded.Replay replay) {
        List<String> prompts = replay.prompts();
        assertEquals(2, prompts.size());
        assertTrue(prompts.get(0).contains(Recorded.QUESTION), prompts.get(0));
        if (!s.format().equals("deepseek_v31")) // the DeepSeek V3 template renders no tools
        assertTrue(prompts.get(0).contains("getWeather"), prompts.get(0));
        String rendered = Recorded.renderedToolResult(s.format(), RESULT);
        assertTrue(
                prompts.get(1).contains(rendered),
                () -> "the second prompt lacks " + rendered + ":\n" + prompts.get(1));
    }

    @Test
    void malformedOutputThrowsWithTheWholeOutput() {
        String malformed = Recorded.resource("recorded/malformed/turn1.txt");
        WeatherTools tools = new WeatherTools();
        Recorded.Scenario hermes = Recorded.scenarios().get(0);

        ModelOutputException e =
                assertThrows(
                        ModelOutputException.class,
                        () ->
                                ChatClient.create(model(hermes, new Recorded.Replay(malformed)))
                                        .prompt()
                                        .user(Recorded.QUESTION)
                                        .tools(tools)
                                        .call()
                                        .content());

        assertEquals(ToolCallParseException.Kind.MALFORMED_ARGUMENTS, e.kind());
        assertEquals(malformed, e.output());
        assertTrue(tools.invocations.isEmpty());
    }

    @Test
    void malformedOutputEndsTheStreamWithTheErrorAfterWhatCameBefore() {
        String malformed = Recorded.resource("recorded/malformed/turn1.txt");
        WeatherTools tools = new WeatherTools();
        Recorded.Scenario hermes = Recorded.scenarios().get(0);
        List<String> pieces = Collections.synchronizedList(new ArrayList<>());

        RuntimeException e =
                assertThrows(
                        RuntimeException.class,
                        () ->
                                ChatClient.create(model(hermes, new Recorded.Replay(malformed)))
                                        .prompt()
                                        .user(Recorded.QUESTION)
                                        .tools(tools)
                                        .stream()
                                        .content()
                                        .doOnNext(pieces::add)
                                        .blockLast(Duration.ofSeconds(30)));

        ModelOutputException error = assertInstanceOf(ModelOutputException.class, e);
        assertEquals(ToolCallParseException.Kind.MALFORMED_ARGUMENTS, error.kind());
        assertEquals(malformed, error.output());
        assertEquals("Let me check.\n", String.join("", pieces));
        assertTrue(tools.invocations.isEmpty());
    }
}
