package dev.toolcalls.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.google.gson.JsonObject;
import com.google.gson.JsonParser;
import com.openai.models.chat.completions.ChatCompletionChunk;

import dev.toolcalls.ChatMessage;
import dev.toolcalls.Format;
import dev.toolcalls.Formats;
import dev.toolcalls.ParseEvent;
import dev.toolcalls.ParseOptions;
import dev.toolcalls.StreamParser;
import dev.toolcalls.ToolCall;
import dev.toolcalls.ToolCallParseException;
import dev.toolcalls.Tools;
import dev.toolcalls.protocol.ChatCompletionsStream;
import dev.toolcalls.protocol.Protocol;
import dev.toolcalls.protocol.WireEvent;
import dev.toolcalls.protocol.WireStream;
import dev.toolcalls.suite.SuiteCase;

import org.junit.jupiter.api.DynamicContainer;
import org.junit.jupiter.api.DynamicNode;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.stream.Stream;

/**
 * Every regression case's chunks, under a few random chunkings, parsed by the official OpenAI Java
 * SDK's model classes and accumulated by its ChatCompletionAccumulator, must equal our batch
 * chat.completion as the same SDK reads it — and our parse.
 */
class OpenAiSdkTest {
    static final long CREATED = 1_700_000_000L;

    @TestFactory
    Stream<DynamicNode> everyCaseReassemblesInTheSdk() {
        List<DynamicNode> out = new ArrayList<>();
        for (SdkAssertions.FormatCases s : SdkAssertions.suites()) {
            List<DynamicNode> cases = new ArrayList<>();
            for (SuiteCase c : s.cases()) {
                if (c.expected().has("error")
                        || c.expected().has("stream_error")
                        || c.expected().has("_problem")) continue;
                cases.add(DynamicTest.dynamicTest(c.name(), () -> check(s.format(), c)));
            }
            out.add(DynamicContainer.dynamicContainer(s.format().name(), cases));
        }
        return out.stream();
    }

    static ParseOptions options(SuiteCase c) {
        return c.options();
    }

    static void check(Format f, SuiteCase c) {
        Tools tools = Tools.parse(String.valueOf(c.expected().get("tools")));
        List<ParseEvent> events = f.parseEvents(c.input(), tools, options(c));
        ChatMessage parsed = ChatMessage.fromEvents(events);
        SdkAssertions.Seen batch =
                SdkAssertions.seen(
                        SdkAssertions.completion(
                                Protocol.CHAT_COMPLETIONS.response(
                                        events, "chatcmpl-test", "replay", CREATED, false)));
        assertEquals(expected(parsed), batch, "batch chat.completion as the SDK reads it");
        for (long seed = 0; seed < 4; seed++) {
            List<WireEvent> wire =
                    SdkAssertions.wire(
                            Protocol.CHAT_COMPLETIONS.stream("chatcmpl-test", "replay", CREATED),
                            f.newStream(tools, options(c)),
                            Chunker.split(c.input(), 8, seed),
                            false);
            List<ChatCompletionChunk> sdk = sdkChunks(wire);
            assertEquals(batch, SdkAssertions.accumulate(sdk), "chunking seed " + seed);
            assertEquals(
                    "assistant",
                    sdk.get(0).choices().get(0).delta().role().map(r -> r.asString()).orElse(null));
        }
    }

    /**
     * The chunks as the SDK reads them; the stream ends with the [DONE] sentinel, which is no
     * chunk.
     */
    static List<ChatCompletionChunk> sdkChunks(List<WireEvent> wire) {
        assertEquals(
                ChatCompletionsStream.DONE,
                wire.get(wire.size() - 1).json(),
                "the stream ends with [DONE]");
        List<ChatCompletionChunk> sdk = new ArrayList<>();
        for (WireEvent e : wire.subList(0, wire.size() - 1)) {
            assertEquals(null, e.name(), "Chat Completions events carry no SSE event name");
            sdk.add(SdkAssertions.chunk(e.json()));
        }
        return sdk;
    }

    static SdkAssertions.Seen expected(ChatMessage m) {
        List<String> calls = new ArrayList<>();
        for (ToolCall t : m.toolCalls()) calls.add(t.id() + " " + t.name() + " " + t.arguments());
        return new SdkAssertions.Seen(
                Optional.ofNullable(m.content()),
                Optional.ofNullable(m.reasoningContent()),
                calls,
                m.toolCalls().isEmpty() ? "stop" : "tool_calls");
    }

    @Test
    void truncatedGenerationFinishesWithLengthAndAnOpenCallFollowsTheErrorPolicy() {
        Format toy = Formats.get("toy");
        List<ChatCompletionChunk> okChunks =
                sdkChunks(
                        SdkAssertions.wire(
                                Protocol.CHAT_COMPLETIONS.stream("id", "m", CREATED),
                                toy.newStream(),
                                List.of("Hello the story was cut"),
                                true));
        assertEquals(
                "length",
                okChunks.get(okChunks.size() - 1).choices().get(0).finishReason().get().asString());

        StreamParser open = toy.newStream();
        open.feed("<call f>{\"a\": ");
        assertThrows(ToolCallParseException.class, open::finish);

        List<WireEvent> wire =
                SdkAssertions.wire(
                        Protocol.CHAT_COMPLETIONS.stream("id", "m", CREATED),
                        toy.newStream(Tools.none(), ParseOptions.defaults().withLenient(true)),
                        List.of("x <call f"),
                        true);
        SdkAssertions.Seen seen = SdkAssertions.accumulate(sdkChunks(wire));
        assertEquals(Optional.of("x <call f"), seen.content());
        assertEquals("length", seen.finishReason());
        assertTrue(seen.calls().isEmpty());
    }

    @Test
    void aParseErrorEndsTheStreamWithWhatWasCertainThenAnErrorChunkThenDone() {
        StreamParser parser = Formats.get("toy").newStream();
        WireStream chunks = Protocol.CHAT_COMPLETIONS.stream("id", "m", CREATED);
        List<WireEvent> wire = new ArrayList<>(chunks.start());
        ToolCallParseException e =
                assertThrows(ToolCallParseException.class, () -> parser.feed("hello <call f!"));
        wire.addAll(chunks.fail(e));
        assertTrue(chunks.complete(false).isEmpty(), "a stream ends once");
        assertEquals(ChatCompletionsStream.DONE, wire.get(wire.size() - 1).json());
        JsonObject error =
                JsonParser.parseString(wire.get(wire.size() - 2).json())
                        .getAsJsonObject()
                        .getAsJsonObject("error");
        assertEquals("tool_call_parse_error", error.get("type").getAsString());
        assertEquals(e.kind().type(), error.get("code").getAsString());
        StringBuilder content = new StringBuilder();
        for (WireEvent w : wire.subList(0, wire.size() - 2))
            SdkAssertions.chunk(w.json())
                    .choices()
                    .get(0)
                    .delta()
                    .content()
                    .ifPresent(content::append);
        assertEquals("hello ", content.toString(), "what was certain before the error");
    }

    @Test
    void sseFramingIsDataLinesThenDone() {
        assertEquals(
                "data: {\"a\":1}\n\ndata: [DONE]\n\n",
                new WireEvent(null, "{\"a\":1}").sse()
                        + new WireEvent(null, ChatCompletionsStream.DONE).sse());
        assertEquals(
                "event: message_stop\ndata: {}\n\n", new WireEvent("message_stop", "{}").sse());
    }
}
