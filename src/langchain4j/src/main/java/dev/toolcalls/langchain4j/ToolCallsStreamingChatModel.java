package dev.toolcalls.langchain4j;

import dev.langchain4j.model.ModelProvider;
import dev.langchain4j.model.chat.StreamingChatModel;
import dev.langchain4j.model.chat.listener.ChatModelListener;
import dev.langchain4j.model.chat.request.ChatRequest;
import dev.langchain4j.model.chat.request.ChatRequestParameters;
import dev.langchain4j.model.chat.response.StreamingChatResponseHandler;
import dev.langchain4j.model.chat.response.StreamingHandle;

import java.util.List;
import java.util.concurrent.Executor;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;

/**
 * A LangChain4j {@link StreamingChatModel} over a raw text source. The output is parsed while it
 * streams: {@code onPartialResponse} gets content, {@code onPartialThinking} reasoning, {@code
 * onPartialToolCall} each call's argument fragments (with its index, id and complete name), {@code
 * onCompleteToolCall} each call the moment its end is read, and {@code onCompleteResponse} the
 * whole message with its finish reason ({@code TOOL_EXECUTION} when it has calls) and token usage.
 * Markup never reaches content.
 *
 * <p>An output that breaks its format reaches {@code onError} as a {@link ModelOutputException}
 * (its {@code kind()} is the parser's), after everything parsed before the error was delivered; it
 * carries the whole raw output. A source that fails reaches {@code onError} with its exception.
 * Cancelling through the callbacks' {@link StreamingHandle} stops the source and the callbacks.
 *
 * <p>Each request runs on the builder's executor (by default a shared pool of daemon threads), so
 * {@code chat} returns at once.
 */
public final class ToolCallsStreamingChatModel implements StreamingChatModel {
    private static final ExecutorService DEFAULT_EXECUTOR =
            Executors.newCachedThreadPool(
                    r -> {
                        Thread t = new Thread(r, "toolcalls-langchain4j");
                        t.setDaemon(true);
                        return t;
                    });

    private final Setup setup;
    private final Executor executor;

    private ToolCallsStreamingChatModel(Setup setup, Executor executor) {
        this.setup = setup;
        this.executor = executor;
    }

    public static Builder builder() {
        return new Builder();
    }

    @Override
    public void doChat(ChatRequest request, StreamingChatResponseHandler handler) {
        Setup.Prepared prepared;
        try {
            prepared = setup.prepare(request);
        } catch (RuntimeException e) {
            handler.onError(e);
            return;
        }
        executor.execute(() -> run(prepared, handler));
    }

    private void run(Setup.Prepared prepared, StreamingChatResponseHandler handler) {
        Handle handle = new Handle();
        Dispatcher dispatcher = new Dispatcher(handler, handle);
        Setup.Outcome outcome;
        try {
            outcome = setup.run(prepared, dispatcher, handle);
        } catch (Exception e) {
            if (!handle.isCancelled()) handler.onError(e);
            return;
        }
        if (handle.isCancelled()) return;
        if (outcome.failure() != null) handler.onError(outcome.failure());
        else
            handler.onCompleteResponse(
                    dispatcher.response(outcome.completion(), prepared.modelName()));
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

    private static final class Handle implements StreamingHandle, Setup.StreamingFlag {
        private volatile boolean cancelled;

        @Override
        public void cancel() {
            cancelled = true;
        }

        @Override
        public boolean isCancelled() {
            return cancelled;
        }
    }

    /** Settings of a {@link ToolCallsStreamingChatModel}; see {@link ModelBuilder}. */
    public static final class Builder extends ModelBuilder<Builder> {
        private Executor executor = DEFAULT_EXECUTOR;

        private Builder() {}

        /** Where each request runs; {@code Runnable::run} runs it on the caller's thread. */
        public Builder executor(Executor executor) {
            this.executor = executor;
            return this;
        }

        public ToolCallsStreamingChatModel build() {
            return new ToolCallsStreamingChatModel(setup(), executor);
        }
    }
}
