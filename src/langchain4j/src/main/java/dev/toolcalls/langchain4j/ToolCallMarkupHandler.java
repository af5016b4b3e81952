package dev.toolcalls.langchain4j;

import dev.langchain4j.agent.tool.ToolExecutionRequest;
import dev.langchain4j.agent.tool.ToolSpecification;
import dev.langchain4j.data.message.AiMessage;
import dev.langchain4j.model.ModelProvider;
import dev.langchain4j.model.chat.Capability;
import dev.langchain4j.model.chat.StreamingChatModel;
import dev.langchain4j.model.chat.request.ChatRequest;
import dev.langchain4j.model.chat.request.ChatRequestParameters;
import dev.langchain4j.model.chat.response.ChatResponse;
import dev.langchain4j.model.chat.response.CompleteToolCall;
import dev.langchain4j.model.chat.response.PartialResponse;
import dev.langchain4j.model.chat.response.PartialResponseContext;
import dev.langchain4j.model.chat.response.PartialThinking;
import dev.langchain4j.model.chat.response.PartialThinkingContext;
import dev.langchain4j.model.chat.response.PartialToolCall;
import dev.langchain4j.model.chat.response.PartialToolCallContext;
import dev.langchain4j.model.chat.response.StreamingChatResponseHandler;
import dev.langchain4j.model.chat.response.StreamingHandle;
import dev.langchain4j.model.output.FinishReason;
import dev.toolcalls.Format;
import dev.toolcalls.ParseEvent;
import dev.toolcalls.ParseOptions;
import dev.toolcalls.StreamParser;
import dev.toolcalls.ToolCallParseException;
import dev.toolcalls.Tools;

import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.function.Supplier;

/**
 * A {@link StreamingChatResponseHandler} decorator for a model whose raw tool-call markup leaks
 * into its text (an in-process engine, a raw endpoint): the text the model streams is parsed with a
 * format, and the handler it wraps gets content, thinking and tool calls as if the model had
 * produced them itself. The final response's message is rebuilt from the parsed output: its text
 * without markup, its tool execution requests (the model's own first, then the parsed ones) and
 * finish reason {@code TOOL_EXECUTION} when there are calls.
 *
 * <pre>{@code
 * model.chat(request, new ToolCallMarkupHandler(handler, Formats.get("hermes"),
 *         request.toolSpecifications(), ParseOptions.defaults()));
 * }</pre>
 *
 * <p>An output that breaks the format reaches the wrapped handler's {@code onError} as a {@link
 * ModelOutputException} once the model has finished, after what was parsed before the error, with
 * the whole raw text; the model's callbacks after the error are not passed on.
 */
public final class ToolCallMarkupHandler implements StreamingChatResponseHandler {
    private final StreamingChatResponseHandler delegate;
    private final StreamParser parser;
    private final StringBuilder output = new StringBuilder();
    private final StringBuilder nativeThinking = new StringBuilder();
    private Dispatcher dispatcher;
    private ToolCallParseException failure;
    private boolean failed;

    /**
     * @param delegate the handler to give the parsed output to
     * @param format the format the model writes calls in
     * @param tools the request's tools, by which arguments are typed (null or empty: none)
     * @param options parser options
     */
    public ToolCallMarkupHandler(
            StreamingChatResponseHandler delegate,
            Format format,
            List<ToolSpecification> tools,
            ParseOptions options) {
        this.delegate = delegate;
        List<?> specs = Conversation.tools(tools);
        this.parser = format.newStream(specs.isEmpty() ? Tools.none() : Tools.of(specs), options);
    }

    /**
     * A model whose every response goes through a {@link ToolCallMarkupHandler}: the markup its
     * text carries becomes tool calls and reasoning, so {@code AiServices} can run tools over it.
     * Requests, default parameters and listeners are the wrapped model's.
     */
    public static StreamingChatModel wrap(
            StreamingChatModel model, Format format, ParseOptions options) {
        return new StreamingChatModel() {
            @Override
            public void doChat(ChatRequest request, StreamingChatResponseHandler handler) {
                ToolCallMarkupHandler parsing;
                try {
                    parsing =
                            new ToolCallMarkupHandler(
                                    handler, format, request.toolSpecifications(), options);
                } catch (RuntimeException e) {
                    handler.onError(e);
                    return;
                }
                model.chat(request, parsing);
            }

            @Override
            public ChatRequestParameters defaultRequestParameters() {
                return model.defaultRequestParameters();
            }

            @Override
            public ModelProvider provider() {
                return model.provider();
            }

            @Override
            public Set<Capability> supportedCapabilities() {
                return model.supportedCapabilities();
            }
        };
    }

    private Dispatcher dispatcher(StreamingHandle handle) {
        if (dispatcher == null) dispatcher = new Dispatcher(delegate, handle);
        return dispatcher;
    }

    @Override
    public void onPartialResponse(String partialResponse) {
        onPartialResponse(
                new PartialResponse(partialResponse),
                new PartialResponseContext(Dispatcher.UNCANCELLABLE));
    }

    @Override
    public void onPartialResponse(PartialResponse partial, PartialResponseContext context) {
        output.append(partial.text());
        if (failed) return;
        parse(dispatcher(context.streamingHandle()), () -> parser.feed(partial.text()));
    }

    @Override
    public void onPartialThinking(PartialThinking partialThinking) {
        onPartialThinking(partialThinking, new PartialThinkingContext(Dispatcher.UNCANCELLABLE));
    }

    @Override
    public void onPartialThinking(PartialThinking partial, PartialThinkingContext context) {
        if (failed) return;
        nativeThinking.append(partial.text());
        delegate.onPartialThinking(partial, context);
    }

    @Override
    public void onPartialToolCall(PartialToolCall partialToolCall) {
        if (!failed) delegate.onPartialToolCall(partialToolCall);
    }

    @Override
    public void onPartialToolCall(PartialToolCall partial, PartialToolCallContext context) {
        if (!failed) delegate.onPartialToolCall(partial, context);
    }

    @Override
    public void onCompleteToolCall(CompleteToolCall completeToolCall) {
        if (!failed) delegate.onCompleteToolCall(completeToolCall);
    }

    @Override
    public void onUnmappedRawEvent(Object rawEvent) {
        if (!failed) delegate.onUnmappedRawEvent(rawEvent);
    }

    @Override
    public void onCompleteResponse(ChatResponse response) {
        if (failed) {
            reportFailure();
            return;
        }
        Dispatcher d = dispatcher(null);
        if (!parse(d, parser::finish)) {
            reportFailure();
            return;
        }
        AiMessage original = response.aiMessage();
        List<ToolExecutionRequest> calls = new ArrayList<>();
        if (original != null && original.hasToolExecutionRequests())
            calls.addAll(original.toolExecutionRequests());
        calls.addAll(d.calls());
        String thinking =
                join(nativeThinking.length() > 0 ? nativeThinking.toString() : null, d.thinking());
        AiMessage.Builder message =
                (original != null ? original.toBuilder() : AiMessage.builder())
                        .text(d.text())
                        .thinking(thinking)
                        .toolExecutionRequests(calls);
        ChatResponse.Builder rebuilt = response.toBuilder().aiMessage(message.build());
        if (!d.calls().isEmpty())
            rebuilt.metadata(
                    response.metadata().toBuilder()
                            .finishReason(FinishReason.TOOL_EXECUTION)
                            .build());
        delegate.onCompleteResponse(rebuilt.build());
    }

    @Override
    public void onError(Throwable error) {
        if (failed) reportFailure();
        else delegate.onError(error);
    }

    private void reportFailure() {
        delegate.onError(new ModelOutputException(failure, output.toString(), null));
    }

    private boolean parse(Dispatcher d, Supplier<List<ParseEvent>> step) {
        try {
            d.accept(step.get());
            return true;
        } catch (ToolCallParseException e) {
            failed = true;
            failure = e;
            d.accept(e.eventsBeforeError());
            return false;
        }
    }

    private static String join(String a, String b) {
        if (a == null) return b;
        return b == null ? a : a + b;
    }
}
