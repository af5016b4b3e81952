package dev.toolcalls.springai;

import dev.toolcalls.ParseOptions;
import dev.toolcalls.templates.raw.CompletionsSource;
import dev.toolcalls.templates.raw.MessageShape;
import dev.toolcalls.templates.raw.RawTextSource;

import org.springframework.ai.chat.model.ChatModel;
import org.springframework.ai.model.tool.ToolCallingChatOptions;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnProperty;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.context.annotation.Bean;

/**
 * Spring Boot auto-configuration: with {@code spring.ai.toolcalls.format} set, a {@link
 * ToolCallsChatModel} bean (unless the application defines a {@link ChatModel}) over the
 * application's {@link RawTextSource} bean, or else a {@link CompletionsSource} to {@code
 * spring.ai.toolcalls.base-url}. {@code spring.ai.toolcalls.chat-template} names the template.
 */
@AutoConfiguration
@EnableConfigurationProperties(ToolCallsProperties.class)
@ConditionalOnProperty(prefix = ToolCallsProperties.PREFIX, name = "format")
public class ToolCallsAutoConfiguration {

    @Bean
    @ConditionalOnMissingBean(ChatModel.class)
    public ToolCallsChatModel toolCallsChatModel(
            ToolCallsProperties properties, ObjectProvider<RawTextSource> sources) {
        RawTextSource source = sources.getIfAvailable(() -> completionsSource(properties));
        if (properties.getChatTemplate() == null)
            throw new IllegalStateException(
                    ToolCallsProperties.PREFIX
                            + ".chat-template is not set: name the model's tokenizer_config.json"
                            + " or .jinja chat template");
        ToolCallsChatModel.Builder builder =
                ToolCallsChatModel.builder()
                        .source(source)
                        .chatTemplate(properties.getChatTemplate())
                        .format(properties.getFormat())
                        .parseOptions(
                                ParseOptions.defaults()
                                        .withLenient(properties.isLenient())
                                        .withThinking(properties.getThinking()))
                        .messageShape(
                                new MessageShape(
                                        properties.isEmptyContent(),
                                        properties.isArgumentsAsText()))
                        .defaultOptions(
                                ToolCallingChatOptions.builder()
                                        .model(properties.getModel())
                                        .temperature(properties.getTemperature())
                                        .maxTokens(properties.getMaxTokens())
                                        .build());
        properties.getTemplateKwargs().forEach((k, v) -> builder.templateKwarg(k, kwarg(v)));
        return builder.build();
    }

    private static CompletionsSource completionsSource(ToolCallsProperties properties) {
        if (properties.getBaseUrl() == null)
            throw new IllegalStateException(
                    ToolCallsProperties.PREFIX
                            + ".base-url is not set and the application defines no RawTextSource"
                            + " bean");
        return CompletionsSource.builder()
                .baseUrl(properties.getBaseUrl())
                .apiKey(properties.getApiKey())
                .model(properties.getModel())
                .timeout(properties.getTimeout())
                .build();
    }

    /** A property value as the template sees it: true and false as booleans, numbers as numbers. */
    static Object kwarg(String value) {
        if (value.equals("true") || value.equals("false")) return Boolean.valueOf(value);
        if (value.matches("-?\\d{1,18}")) return Long.valueOf(value);
        return value;
    }
}
