package dev.toolcalls.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.stream.Stream;

import com.openai.models.chat.completions.ChatCompletionChunk;
import org.junit.jupiter.api.DynamicContainer;
import org.junit.jupiter.api.DynamicNode;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;

import dev.toolcalls.ChatMessage;
import dev.toolcalls.Format;
import dev.toolcalls.Formats;
import dev.toolcalls.ParseOptions;
import dev.toolcalls.StreamParser;
import dev.toolcalls.ToolCall;
import dev.toolcalls.ToolCallParseException;
import dev.toolcalls.Tools;
import dev.toolcalls.protocol.CompletionChunks;
import dev.toolcalls.protocol.SseWriter;
import dev.toolcalls.suite.SuiteCase;

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
                if (c.expected().has("error") || c.expected().has("_problem")) continue;
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
        ChatMessage parsed = f.parse(c.input(), tools, options(c));
        SdkAssertions.Seen batch = SdkAssertions.seen(SdkAssertions.completion(
                CompletionChunks.completion(parsed, "chatcmpl-test", "replay", CREATED, false)));
        assertEquals(expected(parsed), batch, "batch chat.completion as the SDK reads it");
        for (long seed = 0; seed < 4; seed++) {
            CompletionChunks chunks = new CompletionChunks(f.newStream(tools, options(c)), "chatcmpl-test", "replay", CREATED);
            List<ChatCompletionChunk> sdk = new ArrayList<>();
            for (String piece : Chunker.split(c.input(), 8, seed)) for (String json : chunks.feed(piece)) sdk.add(SdkAssertions.chunk(json));
            for (String json : chunks.finish(false)) sdk.add(SdkAssertions.chunk(json));
            assertEquals(batch, SdkAssertions.accumulate(sdk), "chunking seed " + seed);
            assertEquals("assistant", sdk.get(0).choices().get(0).delta().role().map(r -> r.asString()).orElse(null));
        }
    }

    static SdkAssertions.Seen expected(ChatMessage m) {
        List<String> calls = new ArrayList<>();
        for (ToolCall t : m.toolCalls()) calls.add(t.id() + " " + t.name() + " " + t.arguments());
        return new SdkAssertions.Seen(Optional.ofNullable(m.content()), Optional.ofNullable(m.reasoningContent()), calls,
                m.toolCalls().isEmpty() ? "stop" : "tool_calls");
    }

    @Test
    void truncatedGenerationFinishesWithLengthAndAnOpenCallFollowsTheErrorPolicy() {
        Format toy = Formats.get("toy");
        CompletionChunks ok = new CompletionChunks(toy.newStream(), "id", "m", CREATED);
        ok.feed("Hello the story was cut");
        List<String> last = ok.finish(true);
        assertEquals("length", SdkAssertions.chunk(last.get(last.size() - 1)).choices().get(0).finishReason().get().asString());

        CompletionChunks open = new CompletionChunks(toy.newStream(), "id", "m", CREATED);
        open.feed("<call f>{\"a\": ");
        assertThrows(ToolCallParseException.class, () -> open.finish(true));

        StreamParser lenient = toy.newStream(Tools.none(), ParseOptions.defaults().withLenient(true));
        CompletionChunks kept = new CompletionChunks(lenient, "id", "m", CREATED);
        List<ChatCompletionChunk> sdk = new ArrayList<>();
        for (String json : kept.feed("x <call f")) sdk.add(SdkAssertions.chunk(json));
        for (String json : kept.finish(true)) sdk.add(SdkAssertions.chunk(json));
        SdkAssertions.Seen seen = SdkAssertions.accumulate(sdk);
        assertEquals(Optional.of("x <call f"), seen.content());
        assertEquals("length", seen.finishReason());
        assertTrue(seen.calls().isEmpty());
    }

    @Test
    void sseFramingIsDataLinesThenDone() throws Exception {
        java.io.ByteArrayOutputStream bytes = new java.io.ByteArrayOutputStream();
        SseWriter sse = new SseWriter(bytes);
        sse.event("{\"a\":1}");
        sse.done();
        assertEquals("data: {\"a\":1}\n\ndata: [DONE]\n\n", bytes.toString(java.nio.charset.StandardCharsets.UTF_8));
    }
}
