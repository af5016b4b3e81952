package dev.toolcalls.springai;

import dev.toolcalls.Format;
import dev.toolcalls.Formats;
import dev.toolcalls.ParseEvent;
import dev.toolcalls.ParseOptions;
import dev.toolcalls.StreamParser;
import dev.toolcalls.ToolCallParseException;
import dev.toolcalls.Tools;
import dev.toolcalls.templates.ChatInput;
import dev.toolcalls.templates.ChatTemplate;
import dev.toolcalls.templates.raw.CompletionsSource;
import dev.toolcalls.templates.raw.MessageShape;
import dev.toolcalls.templates.raw.RawCompletion;
import dev.toolcalls.templates.raw.RawRequest;
import dev.toolcalls.templates.raw.RawTextSource;

import org.springframework.ai.chat.messages.AssistantMessage;
import org.springframework.ai.chat.metadata.ChatGenerationMetadata;
import org.springframework.ai.chat.metadata.ChatResponseMetadata;
import org.springframework.ai.chat.metadata.DefaultUsage;
import org.springframework.ai.chat.model.ChatModel;
import org.springframework.ai.chat.model.ChatResponse;
import org.springframework.ai.chat.model.Generation;
import org.springframework.ai.chat.prompt.ChatOptions;
import org.springframework.ai.chat.prompt.Prompt;
import org.springframework.ai.model.tool.ToolCallingChatOptions;
import org.springframework.ai.tool.ToolCallback;

import reactor.core.publisher.Flux;
import reactor.core.scheduler.Schedulers;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.function.BooleanSupplier;
import java.util.function.Consumer;
import java.util.function.Supplier;

/**
 * A Spring AI {@link ChatModel} over a raw text source: the prompt's messages, tools and tool
 * results are rendered with the model's chat template, the source completes it, and the format
 * parses the output into an {@link AssistantMessage} with content, reasoning (the {@code
 * reasoningContent} property) and {@link AssistantMessage.ToolCall}s. The model executes no tool
 * itself: {@code ChatClient}'s tool-calling advisor runs the loop, as it does over every other
 * model.
 *
 * <pre>{@code
 * ChatModel model = ToolCallsChatModel.builder()
 *         .source(CompletionsSource.builder().baseUrl("http://localhost:8000/v1").build())
 *         .chatTemplate(Path.of("tokenizer_config.json"))
 *         .format("qwen3_coder")
 *         .build();
 * String answer = ChatClient.create(model).prompt("Weather in Paris?").tools(new WeatherTools()).call().content();
 * }</pre>
 *
 * <p>{@link #stream} emits a response per piece of content, per piece of reasoning (an empty text
 * with the piece as {@code reasoningContent}) and per complete tool call (the moment its end is
 * read), then a last one with the finish reason ({@code TOOL_CALLS} when there were calls), the
 * token usage and the whole reasoning. An output that breaks its format is a {@link
 * ModelOutputException} (thrown by {@link #call}, signalled by {@link #stream} after what was
 * parsed before it) carrying the parser's error kind and the whole raw output.
 */
public final class ToolCallsChatModel implements ChatModel {
    private final RawTextSource source;
    private final ChatTemplate template;
    private final Format format;
    private final ParseOptions parseOptions;
    private final Map<String, Object> templateKwargs;
    private final MessageShape messageShape;
    private final ToolCallingChatOptions defaultOptions;

    private ToolCallsChatModel(Builder b) {
        this.source = Objects.requireNonNull(b.source, "source");
        this.template = Objects.requireNonNull(b.template, "chatTemplate");
        this.format = Objects.requireNonNull(b.format, "format");
        this.parseOptions = Objects.requireNonNull(b.parseOptions, "parseOptions");
        this.templateKwargs = Map.copyOf(b.templateKwargs);
        this.messageShape = Objects.requireNonNull(b.messageShape, "messageShape");
        this.defaultOptions =
                b.defaultOptions != null
                        ? b.defaultOptions
                        : ToolCallingChatOptions.builder().build();
    }

    public static Builder builder() {
        return new Builder();
    }

    /** The format the output is parsed with. */
    public Format format() {
        return format;
    }

    @Override
    public ChatOptions getOptions() {
        return defaultOptions.mutate().build();
    }

    @Override
    public ChatResponse call(Prompt prompt) {
        Prepared prepared = prepare(prompt);
        Collector collector = new Collector(null);
        Outcome outcome;
        try {
            outcome = run(prepared, collector, () -> false);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        if (outcome.failure() != null) throw outcome.failure();
        return collector.whole(outcome.completion(), prepared.model());
    }

    @Override
    public Flux<ChatResponse> stream(Prompt prompt) {
        return Flux.<ChatResponse>create(
                        sink -> {
                            try {
                                Prepared prepared = prepare(prompt);
                                Collector collector = new Collector(sink::next);
                                Outcome outcome = run(prepared, collector, sink::isCancelled);
                                if (sink.isCancelled()) return;
                                if (outcome.failure() != null) {
                                    sink.error(outcome.failure());
                                    return;
                                }
                                sink.next(collector.last(outcome.completion(), prepared.model()));
                                sink.complete();
                            } catch (Exception e) {
                                sink.error(e);
                            }
                        })
                .subscribeOn(Schedulers.boundedElastic());
    }

    private record Prepared(String prompt, Tools tools, RawRequest raw, String model) {}

    private Prepared prepare(Prompt prompt) {
        ChatOptions o = prompt.getOptions() != null ? prompt.getOptions() : defaultOptions;
        List<ToolCallback> callbacks =
                o instanceof ToolCallingChatOptions t ? t.getToolCallbacks() : List.of();
        List<Map<String, Object>> tools = Conversation.tools(callbacks);
        ChatInput.Builder input =
                ChatInput.builder()
                        .messages(Conversation.messages(prompt.getInstructions(), messageShape))
                        .addGenerationPrompt(true);
        if (!tools.isEmpty()) input.tools(tools);
        templateKwargs.forEach(input::kwarg);
        String rendered = template.render(input.build());
        String model = or(o.getModel(), defaultOptions.getModel());
        RawRequest raw =
                new RawRequest(
                        rendered,
                        model,
                        or(o.getTemperature(), defaultOptions.getTemperature()),
                        or(o.getTopP(), defaultOptions.getTopP()),
                        or(o.getTopK(), defaultOptions.getTopK()),
                        or(o.getMaxTokens(), defaultOptions.getMaxTokens()),
                        or(o.getStopSequences(), defaultOptions.getStopSequences()),
                        or(o.getFrequencyPenalty(), defaultOptions.getFrequencyPenalty()),
                        or(o.getPresencePenalty(), defaultOptions.getPresencePenalty()));
        return new Prepared(rendered, tools.isEmpty() ? Tools.none() : Tools.of(tools), raw, model);
    }

    private static <T> T or(T value, T otherwise) {
        return value != null ? value : otherwise;
    }

    private record Outcome(RawCompletion completion, ModelOutputException failure) {}

    /**
     * Completes a prepared prompt, feeding the output to a parser and its events to the collector
     * as they arrive. After a parse error the rest of the output is still read (and kept for the
     * error), but no longer parsed.
     */
    private Outcome run(Prepared prepared, Collector collector, BooleanSupplier cancelled)
            throws IOException {
        StreamParser parser = format.newStream(prepared.tools(), parseOptions);
        StringBuilder output = new StringBuilder();
        ToolCallParseException[] error = new ToolCallParseException[1];
        RawTextSource.Sink sink =
                new RawTextSource.Sink() {
                    @Override
                    public void text(String chunk) {
                        output.append(chunk);
                        if (error[0] == null)
                            error[0] = deliver(collector, () -> parser.feed(chunk));
                    }

                    @Override
                    public void specialToken(String token) {
                        output.append(token);
                        if (error[0] == null)
                            error[0] = deliver(collector, () -> parser.feedSpecial(token));
                    }

                    @Override
                    public boolean isCancelled() {
                        return cancelled.getAsBoolean();
                    }
                };
        RawCompletion completion = source.complete(prepared.raw(), sink);
        if (error[0] == null && !cancelled.getAsBoolean())
            error[0] = deliver(collector, parser::finish);
        ModelOutputException failure =
                error[0] == null
                        ? null
                        : new ModelOutputException(error[0], output.toString(), prepared.prompt());
        return new Outcome(completion, failure);
    }

    private static ToolCallParseException deliver(
            Collector collector, Supplier<List<ParseEvent>> step) {
        try {
            collector.accept(step.get());
            return null;
        } catch (ToolCallParseException e) {
            collector.accept(e.eventsBeforeError());
            return e;
        }
    }

    /** Collects the message the events make and, when streaming, emits a response per event. */
    private static final class Collector {
        private final Consumer<ChatResponse> emit;
        private final StringBuilder text = new StringBuilder();
        private final StringBuilder reasoning = new StringBuilder();
        private final List<AssistantMessage.ToolCall> calls = new ArrayList<>();

        Collector(Consumer<ChatResponse> emit) {
            this.emit = emit;
        }

        void accept(List<ParseEvent> events) {
            for (ParseEvent e : events) {
                if (e instanceof ParseEvent.Text t) {
                    text.append(t.text());
                    if (emit != null && !t.text().isEmpty())
                        emit.accept(chunk(AssistantMessage.builder().content(t.text()).build()));
                } else if (e instanceof ParseEvent.Reasoning r) {
                    reasoning.append(r.text());
                    if (emit != null && !r.text().isEmpty())
                        emit.accept(
                                chunk(
                                        AssistantMessage.builder()
                                                .content("")
                                                .properties(
                                                        Map.of(Conversation.REASONING, r.text()))
                                                .build()));
                } else if (e instanceof ParseEvent.ToolCallEnd end) {
                    AssistantMessage.ToolCall call =
                            new AssistantMessage.ToolCall(
                                    end.id(), "function", end.name(), end.arguments());
                    calls.add(call);
                    if (emit != null)
                        emit.accept(
                                chunk(
                                        AssistantMessage.builder()
                                                .content("")
                                                .toolCalls(List.of(call))
                                                .build()));
                }
            }
        }

        private static ChatResponse chunk(AssistantMessage message) {
            return new ChatResponse(List.of(new Generation(message)));
        }

        /** The whole message (a call). */
        ChatResponse whole(RawCompletion completion, String model) {
            AssistantMessage message =
                    AssistantMessage.builder()
                            .content(text.toString())
                            .properties(properties())
                            .toolCalls(calls)
                            .build();
            return ending(message, completion, model);
        }

        /** The last response of a stream: no text, the whole reasoning, how the output ended. */
        ChatResponse last(RawCompletion completion, String model) {
            return ending(
                    AssistantMessage.builder().content("").properties(properties()).build(),
                    completion,
                    model);
        }

        private Map<String, Object> properties() {
            Map<String, Object> properties = new LinkedHashMap<>();
            if (reasoning.length() > 0)
                properties.put(Conversation.REASONING, reasoning.toString());
            return properties;
        }

        private ChatResponse ending(
                AssistantMessage message, RawCompletion completion, String model) {
            String reason =
                    !calls.isEmpty()
                            ? "TOOL_CALLS"
                            : completion == null || completion.finishReason() == null
                                    ? null
                                    : completion.finishReason().toUpperCase(Locale.ROOT);
            ChatGenerationMetadata generation =
                    reason == null
                            ? ChatGenerationMetadata.NULL
                            : ChatGenerationMetadata.builder().finishReason(reason).build();
            ChatResponseMetadata.Builder metadata = ChatResponseMetadata.builder();
            if (model != null) metadata.model(model);
            if (completion != null
                    && (completion.promptTokens() != null || completion.completionTokens() != null))
                metadata.usage(
                        new DefaultUsage(completion.promptTokens(), completion.completionTokens()));
            return new ChatResponse(List.of(new Generation(message, generation)), metadata.build());
        }
    }

    /** Settings of a {@link ToolCallsChatModel}: source, template and format are required. */
    public static final class Builder {
        private RawTextSource source;
        private ChatTemplate template;
        private Format format;
        private ParseOptions parseOptions = ParseOptions.defaults();
        private final Map<String, Object> templateKwargs = new LinkedHashMap<>();
        private MessageShape messageShape = MessageShape.DEFAULT;
        private ToolCallingChatOptions defaultOptions;

        private Builder() {}

        /** Where the raw output comes from, e.g. a {@link CompletionsSource}. */
        public Builder source(RawTextSource source) {
            this.source = source;
            return this;
        }

        /** The model's chat template, which renders messages, tools and tool results. */
        public Builder chatTemplate(ChatTemplate template) {
            this.template = template;
            return this;
        }

        /**
         * The chat template from a file: a {@code tokenizer_config.json} or a {@code .jinja} file.
         *
         * @throws UncheckedIOException when the file cannot be read
         */
        public Builder chatTemplate(Path file) {
            try {
                this.template = ChatTemplate.load(file);
            } catch (IOException e) {
                throw new UncheckedIOException("cannot read the chat template " + file, e);
            }
            return this;
        }

        /** The format the model writes tool calls in. */
        public Builder format(Format format) {
            this.format = format;
            return this;
        }

        /** The format by name or alias ({@link Formats#get}). */
        public Builder format(String name) {
            this.format = Formats.get(name);
            return this;
        }

        /** Parser options (lenient recovery, thinking, ids, limits); strict defaults otherwise. */
        public Builder parseOptions(ParseOptions options) {
            this.parseOptions = options;
            return this;
        }

        /** A variable for the chat template (e.g. {@code enable_thinking}). */
        public Builder templateKwarg(String name, Object value) {
            this.templateKwargs.put(name, value);
            return this;
        }

        /**
         * How messages reach the template where templates disagree about the request shape (content
         * {@code ""} or {@code null}, arguments as object or text).
         */
        public Builder messageShape(MessageShape shape) {
            this.messageShape = shape;
            return this;
        }

        /** The options every prompt starts from (model, temperature, max tokens, tools). */
        public Builder defaultOptions(ToolCallingChatOptions options) {
            this.defaultOptions = options;
            return this;
        }

        public ToolCallsChatModel build() {
            return new ToolCallsChatModel(this);
        }
    }
}
