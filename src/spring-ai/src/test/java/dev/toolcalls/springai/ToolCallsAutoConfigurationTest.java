package dev.toolcalls.springai;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.toolcalls.templates.raw.RawTextSource;
import dev.toolcalls.templates.raw.Recorded;

import org.junit.jupiter.api.Test;
import org.springframework.ai.chat.client.ChatClient;
import org.springframework.ai.chat.model.ChatModel;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

/** The auto-configuration builds the model from properties, and ChatClient runs tools over it. */
class ToolCallsAutoConfigurationTest {
    private final ApplicationContextRunner runner =
            new ApplicationContextRunner()
                    .withConfiguration(AutoConfigurations.of(ToolCallsAutoConfiguration.class));

    /** A template of the shared recorded resources as a file, as the property names one. */
    private static String template(String name) {
        try {
            Path file = Files.createTempFile("template-", "-" + name);
            file.toFile().deleteOnExit();
            Files.writeString(file, Recorded.resource("templates/" + name));
            return file.toString();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    @Test
    void aModelFromPropertiesOverTheApplicationsSource() {
        Recorded.Replay replay =
                new Recorded.Replay(Recorded.turn("mistral", 1), Recorded.turn("mistral", 2));
        runner.withPropertyValues(
                        "spring.ai.toolcalls.format=mistral",
                        "spring.ai.toolcalls.chat-template=" + template("mistral.jinja"),
                        "spring.ai.toolcalls.model=recorded-mistral",
                        "spring.ai.toolcalls.max-tokens=128",
                        "spring.ai.toolcalls.template-kwargs.greeting=hello")
                .withBean(RawTextSource.class, () -> replay)
                .run(
                        context -> {
                            ChatModel model = context.getBean(ChatModel.class);
                            assertEquals("mistral", ((ToolCallsChatModel) model).format().name());
                            ChatClientEndToEndTest.WeatherTools tools =
                                    new ChatClientEndToEndTest.WeatherTools();

                            String answer =
                                    ChatClient.create(model)
                                            .prompt()
                                            .user(Recorded.QUESTION)
                                            .tools(tools)
                                            .call()
                                            .content();

                            assertEquals(Recorded.turn("mistral", 2), answer);
                            assertEquals(List.of("Paris/3"), tools.invocations);
                            assertEquals("recorded-mistral", replay.requests().get(0).model());
                            assertEquals(128, replay.requests().get(0).maxTokens());
                        });
    }

    @Test
    void aCompletionsSourceFromTheBaseUrl() {
        runner.withPropertyValues(
                        "spring.ai.toolcalls.format=hermes",
                        "spring.ai.toolcalls.base-url=http://127.0.0.1:9/v1",
                        "spring.ai.toolcalls.chat-template=" + template("mistral.jinja"))
                .run(
                        context ->
                                assertInstanceOf(
                                        ToolCallsChatModel.class,
                                        context.getBean(ChatModel.class)));
    }

    @Test
    void nothingWithoutAFormat() {
        runner.run(context -> assertFalse(context.containsBean("toolCallsChatModel")));
    }

    @Test
    void aMissingTemplateIsAClearStartupError() {
        runner.withPropertyValues(
                        "spring.ai.toolcalls.format=hermes",
                        "spring.ai.toolcalls.base-url=http://127.0.0.1:9/v1")
                .run(
                        context -> {
                            assertTrue(context.getStartupFailure() != null);
                            Throwable cause = context.getStartupFailure();
                            while (cause.getCause() != null) cause = cause.getCause();
                            assertTrue(
                                    cause.getMessage()
                                            .contains("spring.ai.toolcalls.chat-template"),
                                    cause.getMessage());
                        });
    }
}
