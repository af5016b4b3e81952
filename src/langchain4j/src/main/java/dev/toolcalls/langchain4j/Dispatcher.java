package dev.toolcalls.langchain4j;

import dev.langchain4j.agent.tool.ToolExecutionRequest;
import dev.langchain4j.data.message.AiMessage;
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
import dev.langchain4j.model.output.TokenUsage;
import dev.toolcalls.ParseEvent;
import dev.toolcalls.templates.raw.RawCompletion;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Turns parse events into LangChain4j's streaming callbacks (when a handler is given) and collects
 * the message they make: content, thinking, and each complete call as a tool execution request.
 */
final class Dispatcher {
    /** The handle of callbacks whose model cannot be cancelled. */
    static final StreamingHandle UNCANCELLABLE =
            new StreamingHandle() {
                @Override
                public void cancel() {}

                @Override
                public boolean isCancelled() {
                    return false;
                }
            };

    private final StreamingChatResponseHandler handler;
    private final StreamingHandle handle;
    private final StringBuilder text = new StringBuilder();
    private final StringBuilder thinking = new StringBuilder();
    private final Map<Integer, ParseEvent.ToolCallStart> open = new HashMap<>();
    private final List<ToolExecutionRequest> calls = new ArrayList<>();

    /**
     * @param handler the handler to call as events arrive, or null to only collect
     * @param handle the handle given to the handler's callbacks
     */
    Dispatcher(StreamingChatResponseHandler handler, StreamingHandle handle) {
        this.handler = handler;
        this.handle = handle != null ? handle : UNCANCELLABLE;
    }

    void accept(List<ParseEvent> events) {
        for (ParseEvent e : events) {
            if (handle.isCancelled()) return;
            accept(e);
        }
    }

    private void accept(ParseEvent e) {
        if (e instanceof ParseEvent.Text t) {
            text.append(t.text());
            if (handler != null && !t.text().isEmpty())
                handler.onPartialResponse(
                        new PartialResponse(t.text()), new PartialResponseContext(handle));
        } else if (e instanceof ParseEvent.Reasoning r) {
            thinking.append(r.text());
            if (handler != null && !r.text().isEmpty())
                handler.onPartialThinking(
                        new PartialThinking(r.text()), new PartialThinkingContext(handle));
        } else if (e instanceof ParseEvent.ToolCallStart s) {
            open.put(s.index(), s);
        } else if (e instanceof ParseEvent.ToolCallArguments a) {
            ParseEvent.ToolCallStart s = open.get(a.index());
            if (handler != null && s != null && !a.fragment().isEmpty())
                handler.onPartialToolCall(
                        PartialToolCall.builder()
                                .index(a.index())
                                .id(s.id())
                                .name(s.name())
                                .partialArguments(a.fragment())
                                .build(),
                        new PartialToolCallContext(handle));
        } else if (e instanceof ParseEvent.ToolCallEnd end) {
            open.remove(end.index());
            ToolExecutionRequest request =
                    ToolExecutionRequest.builder()
                            .id(end.id())
                            .name(end.name())
                            .arguments(end.arguments())
                            .build();
            calls.add(request);
            if (handler != null)
                handler.onCompleteToolCall(new CompleteToolCall(end.index(), request));
        }
    }

    String text() {
        return text.length() == 0 ? null : text.toString();
    }

    String thinking() {
        return thinking.length() == 0 ? null : thinking.toString();
    }

    List<ToolExecutionRequest> calls() {
        return calls;
    }

    AiMessage message() {
        return AiMessage.builder()
                .text(text())
                .thinking(thinking())
                .toolExecutionRequests(calls)
                .build();
    }

    ChatResponse response(RawCompletion completion, String modelName) {
        return ChatResponse.builder()
                .aiMessage(message())
                .modelName(modelName)
                .tokenUsage(usage(completion))
                .finishReason(finishReason(completion))
                .build();
    }

    private FinishReason finishReason(RawCompletion completion) {
        if (!calls.isEmpty()) return FinishReason.TOOL_EXECUTION;
        String reason = completion == null ? null : completion.finishReason();
        if (reason == null) return null;
        switch (reason) {
            case "stop":
            case "eos":
            case "eos_token":
            case "stop_sequence":
                return FinishReason.STOP;
            case "length":
            case "max_tokens":
                return FinishReason.LENGTH;
            case "content_filter":
                return FinishReason.CONTENT_FILTER;
            default:
                return FinishReason.OTHER;
        }
    }

    static TokenUsage usage(RawCompletion completion) {
        if (completion == null
                || completion.promptTokens() == null && completion.completionTokens() == null)
            return null;
        return new TokenUsage(completion.promptTokens(), completion.completionTokens());
    }
}
