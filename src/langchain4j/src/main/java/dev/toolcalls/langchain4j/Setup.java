package dev.toolcalls.langchain4j;

import dev.langchain4j.exception.UnsupportedFeatureException;
import dev.langchain4j.model.chat.listener.ChatModelListener;
import dev.langchain4j.model.chat.request.ChatRequest;
import dev.langchain4j.model.chat.request.ChatRequestParameters;
import dev.langchain4j.model.chat.request.DefaultChatRequestParameters;
import dev.langchain4j.model.chat.request.ResponseFormatType;
import dev.langchain4j.model.chat.request.ToolChoice;
import dev.toolcalls.Format;
import dev.toolcalls.ParseEvent;
import dev.toolcalls.ParseOptions;
import dev.toolcalls.StreamParser;
import dev.toolcalls.ToolCallParseException;
import dev.toolcalls.Tools;
import dev.toolcalls.templates.ChatInput;
import dev.toolcalls.templates.ChatTemplate;
import dev.toolcalls.templates.raw.MessageShape;
import dev.toolcalls.templates.raw.RawCompletion;
import dev.toolcalls.templates.raw.RawRequest;
import dev.toolcalls.templates.raw.RawTextSource;

import java.io.IOException;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.function.Supplier;

/** One model's immutable settings, and the work every request does: render, complete, parse. */
final class Setup {
    final RawTextSource source;
    final ChatTemplate template;
    final Format format;
    final ParseOptions parseOptions;
    final Map<String, Object> templateKwargs;
    final MessageShape messageShape;
    final String modelName;
    final ChatRequestParameters defaults;
    final List<ChatModelListener> listeners;

    Setup(ModelBuilder<?> b) {
        this.source = Objects.requireNonNull(b.source, "source");
        this.template = Objects.requireNonNull(b.template, "chatTemplate");
        this.format = Objects.requireNonNull(b.format, "format");
        this.parseOptions = Objects.requireNonNull(b.parseOptions, "parseOptions");
        this.templateKwargs = Map.copyOf(b.templateKwargs);
        this.messageShape = Objects.requireNonNull(b.messageShape, "messageShape");
        this.modelName = b.modelName;
        this.defaults =
                b.defaultRequestParameters != null
                        ? DefaultChatRequestParameters.builder()
                                .overrideWith(b.defaultRequestParameters)
                                .modelName(
                                        b.defaultRequestParameters.modelName() != null
                                                ? b.defaultRequestParameters.modelName()
                                                : b.modelName)
                                .build()
                        : DefaultChatRequestParameters.builder().modelName(b.modelName).build();
        this.listeners = List.copyOf(b.listeners);
    }

    /** A request rendered: the prompt, the tools the parser types arguments by, the raw request. */
    record Prepared(String prompt, Tools tools, RawRequest raw, String modelName) {}

    Prepared prepare(ChatRequest request) {
        ChatRequestParameters p = request.parameters();
        if (p.responseFormat() != null && p.responseFormat().type() == ResponseFormatType.JSON)
            throw new UnsupportedFeatureException(
                    "a JSON response format cannot be enforced over a raw text source");
        if (p.toolChoice() == ToolChoice.REQUIRED)
            throw new UnsupportedFeatureException(
                    "tool choice REQUIRED cannot be enforced over a raw text source");
        List<Map<String, Object>> tools =
                p.toolChoice() == ToolChoice.NONE
                        ? List.of()
                        : Conversation.tools(p.toolSpecifications());
        ChatInput.Builder input =
                ChatInput.builder()
                        .messages(Conversation.messages(request.messages(), messageShape))
                        .addGenerationPrompt(true);
        if (!tools.isEmpty()) input.tools(tools);
        templateKwargs.forEach(input::kwarg);
        String prompt = template.render(input.build());
        String model = p.modelName() != null ? p.modelName() : modelName;
        RawRequest raw =
                new RawRequest(
                        prompt,
                        model,
                        p.temperature(),
                        p.topP(),
                        p.topK(),
                        p.maxOutputTokens(),
                        p.stopSequences(),
                        p.frequencyPenalty(),
                        p.presencePenalty());
        return new Prepared(prompt, tools.isEmpty() ? Tools.none() : Tools.of(tools), raw, model);
    }

    /**
     * Completes a prepared request, feeding the output to a parser and its events to the dispatcher
     * as they arrive. After a parse error the rest of the output is still read (and kept for the
     * error), but no longer parsed.
     */
    Outcome run(Prepared prepared, Dispatcher dispatcher, StreamingFlag cancelled)
            throws IOException {
        StreamParser parser = format.newStream(prepared.tools(), parseOptions);
        StringBuilder output = new StringBuilder();
        ToolCallParseException[] error = new ToolCallParseException[1];
        RawTextSource.Sink sink =
                new RawTextSource.Sink() {
                    @Override
                    public void text(String chunk) {
                        output.append(chunk);
                        if (error[0] == null) deliver(() -> parser.feed(chunk));
                    }

                    @Override
                    public void specialToken(String token) {
                        output.append(token);
                        if (error[0] == null) deliver(() -> parser.feedSpecial(token));
                    }

                    @Override
                    public boolean isCancelled() {
                        return cancelled.isCancelled();
                    }

                    private void deliver(Supplier<List<ParseEvent>> step) {
                        try {
                            dispatcher.accept(step.get());
                        } catch (ToolCallParseException e) {
                            error[0] = e;
                            dispatcher.accept(e.eventsBeforeError());
                        }
                    }
                };
        RawCompletion completion = source.complete(prepared.raw(), sink);
        if (error[0] == null && !cancelled.isCancelled()) {
            try {
                dispatcher.accept(parser.finish());
            } catch (ToolCallParseException e) {
                error[0] = e;
                dispatcher.accept(e.eventsBeforeError());
            }
        }
        ModelOutputException failure =
                error[0] == null
                        ? null
                        : new ModelOutputException(error[0], output.toString(), prepared.prompt());
        return new Outcome(completion, failure);
    }

    /** How a run ended: the source's completion, and the parse error if the output broke. */
    record Outcome(RawCompletion completion, ModelOutputException failure) {}

    /** Whether the consumer stopped listening. */
    interface StreamingFlag {
        boolean isCancelled();
    }
}
