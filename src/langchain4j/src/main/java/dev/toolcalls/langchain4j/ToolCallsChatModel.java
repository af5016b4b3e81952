package dev.toolcalls.langchain4j;

import dev.langchain4j.model.ModelProvider;
import dev.langchain4j.model.chat.ChatModel;
import dev.langchain4j.model.chat.listener.ChatModelListener;
import dev.langchain4j.model.chat.request.ChatRequest;
import dev.langchain4j.model.chat.request.ChatRequestParameters;
import dev.langchain4j.model.chat.response.ChatResponse;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.List;

/**
 * A LangChain4j {@link ChatModel} over a raw text source: each request's messages, tools and tool
 * results are rendered with the model's chat template, the source completes the prompt, and the
 * format parses the output into an {@code AiMessage} with content, thinking and tool execution
 * requests, so that {@code AiServices} runs its tool loop over any model convention.
 *
 * <pre>{@code
 * ChatModel model = ToolCallsChatModel.builder()
 *         .source(CompletionsSource.builder().baseUrl("http://localhost:8000/v1").build())
 *         .chatTemplate(Path.of("tokenizer_config.json"))
 *         .format("qwen3_coder")
 *         .build();
 * }</pre>
 *
 * <p>An output that breaks its format throws a {@link ModelOutputException} carrying the parser's
 * error kind and the whole raw output; a source that fails throws an {@link UncheckedIOException}.
 */
public final class ToolCallsChatModel implements ChatModel {
    private final Setup setup;

    private ToolCallsChatModel(Setup setup) {
        this.setup = setup;
    }

    public static Builder builder() {
        return new Builder();
    }

    @Override
    public ChatResponse doChat(ChatRequest request) {
        Setup.Prepared prepared = setup.prepare(request);
        Dispatcher dispatcher = new Dispatcher(null, null);
        Setup.Outcome outcome;
        try {
            outcome = setup.run(prepared, dispatcher, () -> false);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        if (outcome.failure() != null) throw outcome.failure();
        return dispatcher.response(outcome.completion(), prepared.modelName());
    }

    @Override
    public ChatRequestParameters defaultRequestParameters() {
        return setup.defaults;
    }

    @Override
    public List<ChatModelListener> listeners() {
        return setup.listeners;
    }

    @Override
    public ModelProvider provider() {
        return ModelProvider.OTHER;
    }

    /** Settings of a {@link ToolCallsChatModel}; see {@link ModelBuilder}. */
    public static final class Builder extends ModelBuilder<Builder> {
        private Builder() {}

        public ToolCallsChatModel build() {
            return new ToolCallsChatModel(setup());
        }
    }
}
