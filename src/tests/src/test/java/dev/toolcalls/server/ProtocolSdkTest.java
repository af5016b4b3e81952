package dev.toolcalls.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.anthropic.helpers.MessageAccumulator;
import com.anthropic.models.messages.ContentBlock;
import com.anthropic.models.messages.Message;
import com.anthropic.models.messages.RawMessageStreamEvent;
import com.fasterxml.jackson.databind.json.JsonMapper;
import com.google.gson.JsonParser;
import com.openai.core.ObjectMappers;
import com.openai.helpers.ResponseAccumulator;
import com.openai.models.responses.Response;
import com.openai.models.responses.ResponseOutputItem;
import com.openai.models.responses.ResponseStreamEvent;

import dev.toolcalls.Format;
import dev.toolcalls.Formats;
import dev.toolcalls.ParseEvent;
import dev.toolcalls.StreamParser;
import dev.toolcalls.ToolCallParseException;
import dev.toolcalls.Tools;
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
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

/**
 * Every regression case as the OpenAI Responses API and the Anthropic Messages API, read by the
 * official SDKs: each streamed event parsed by the SDK's model classes (and validated), the stream
 * accumulated by its {@code ResponseAccumulator} / {@code MessageAccumulator}, must equal our batch
 * object as the same SDK reads it, and our batch parse (text, reasoning, call ids, names,
 * arguments, stop reason). The deltas of each item or block are checked to add up to it.
 */
class ProtocolSdkTest {
    static final JsonMapper OPENAI = ObjectMappers.jsonMapper();
    static final JsonMapper ANTHROPIC = AnthropicSdk.MAPPER;

    /** What a client of either protocol makes of a message. */
    record Seen(String text, String reasoning, List<String> calls, String stop) {}

    @TestFactory
    Stream<DynamicNode> everyCaseReadsTheSameInBothSdks() {
        List<DynamicNode> out = new ArrayList<>();
        for (SdkAssertions.FormatCases s : SdkAssertions.suites()) {
            List<DynamicNode> cases = new ArrayList<>();
            for (SuiteCase c : s.cases()) {
                if (c.expected().has("error")
                        || c.expected().has("stream_error")
                        || c.expected().has("_problem"))
                    continue; // a stream that fails is not a response
                cases.add(
                        DynamicTest.dynamicTest(
                                c.name(),
                                () -> {
                                    responses(s.format(), c);
                                    messages(s.format(), c);
                                }));
            }
            out.add(DynamicContainer.dynamicContainer(s.format().name(), cases));
        }
        return out.stream();
    }

    /**
     * Our batch parse, the way both protocols render it: whitespace-only text between items opens
     * none.
     */
    static Seen expected(List<ParseEvent> events, String stop) {
        StringBuilder text = new StringBuilder();
        StringBuilder reasoning = new StringBuilder();
        StringBuilder run = new StringBuilder();
        List<String> calls = new ArrayList<>();
        Class<?> runKind = null;
        for (ParseEvent e : events) {
            Class<?> k = e.getClass();
            if (k != runKind) {
                flush(runKind, run, text, reasoning);
                runKind = k;
            }
            if (e instanceof ParseEvent.Text t) run.append(t.text());
            else if (e instanceof ParseEvent.Reasoning r) run.append(r.text());
            else if (e instanceof ParseEvent.ToolCallEnd end)
                calls.add(end.id() + " " + end.name() + " " + canonical(end.arguments()));
        }
        flush(runKind, run, text, reasoning);
        return new Seen(text.toString(), reasoning.toString(), calls, stop);
    }

    private static void flush(
            Class<?> kind, StringBuilder run, StringBuilder text, StringBuilder reasoning) {
        if (!run.toString().isBlank())
            (kind == ParseEvent.Text.class ? text : reasoning).append(run);
        run.setLength(0);
    }

    /**
     * JSON as Jackson reads it (numbers as the SDKs hold them: -1.5e3 and -1500.0 are the same).
     */
    static String canonical(String json) {
        try {
            return ANTHROPIC.readTree(json).toString();
        } catch (Exception e) {
            throw new AssertionError(json, e);
        }
    }

    // ---- Responses
    // ---------------------------------------------------------------------------------

    static void responses(Format f, SuiteCase c) throws Exception {
        Tools tools = Tools.parse(String.valueOf(c.expected().get("tools")));
        List<ParseEvent> events = f.parseEvents(c.input(), tools, c.options());
        boolean calls = events.stream().anyMatch(e -> e instanceof ParseEvent.ToolCallEnd);
        Seen want = expected(events, "completed");
        Response batch =
                OPENAI.readValue(
                                Protocol.RESPONSES.response(
                                        events, "resp_test", "replay", 1L, false),
                                Response.class)
                        .validate();
        assertEquals(want, seen(batch), "batch response as the SDK reads it");
        for (long seed = 0; seed < 3; seed++) {
            List<WireEvent> wire =
                    SdkAssertions.wire(
                            Protocol.RESPONSES.stream("resp_test", "replay", 1L),
                            f.newStream(tools, c.options()),
                            Chunker.split(c.input(), 8, seed),
                            false);
            ResponseAccumulator acc = ResponseAccumulator.create();
            Map<String, StringBuilder> deltas = new HashMap<>();
            for (int i = 0; i < wire.size(); i++) {
                ResponseStreamEvent e =
                        OPENAI.readValue(wire.get(i).json(), ResponseStreamEvent.class).validate();
                assertEquals(
                        wire.get(i).name(),
                        JsonParser.parseString(wire.get(i).json())
                                .getAsJsonObject()
                                .get("type")
                                .getAsString());
                assertEquals(
                        i,
                        JsonParser.parseString(wire.get(i).json())
                                .getAsJsonObject()
                                .get("sequence_number")
                                .getAsLong(),
                        "sequence_number");
                acc.accumulate(e);
                e.outputTextDelta()
                        .ifPresent(
                                d ->
                                        deltas.computeIfAbsent(d.itemId(), k -> new StringBuilder())
                                                .append(d.delta()));
                e.reasoningTextDelta()
                        .ifPresent(
                                d ->
                                        deltas.computeIfAbsent(d.itemId(), k -> new StringBuilder())
                                                .append(d.delta()));
                e.functionCallArgumentsDelta()
                        .ifPresent(
                                d ->
                                        deltas.computeIfAbsent(d.itemId(), k -> new StringBuilder())
                                                .append(d.delta()));
                e.outputTextDone()
                        .ifPresent(
                                d ->
                                        assertEquals(
                                                d.text(),
                                                deltas.get(d.itemId()).toString(),
                                                "text deltas add up"));
                e.reasoningTextDone()
                        .ifPresent(
                                d ->
                                        assertEquals(
                                                d.text(),
                                                deltas.get(d.itemId()).toString(),
                                                "reasoning deltas add up"));
                e.functionCallArgumentsDone()
                        .ifPresent(
                                d ->
                                        assertEquals(
                                                d.arguments(),
                                                deltas.containsKey(d.itemId())
                                                        ? deltas.get(d.itemId()).toString()
                                                        : "",
                                                "argument deltas add up"));
            }
            assertEquals(want, seen(acc.response()), "seed " + seed + ": accumulated stream");
            assertEquals(
                    calls,
                    acc.response().output().stream().anyMatch(ResponseOutputItem::isFunctionCall));
        }
    }

    static Seen seen(Response r) {
        StringBuilder text = new StringBuilder();
        StringBuilder reasoning = new StringBuilder();
        List<String> calls = new ArrayList<>();
        for (ResponseOutputItem item : r.output()) {
            if (item.isMessage())
                item.asMessage().content().forEach(p -> text.append(p.asOutputText().text()));
            else if (item.isReasoning())
                item.asReasoning()
                        .content()
                        .orElse(List.of())
                        .forEach(p -> reasoning.append(p.text()));
            else if (item.isFunctionCall()) {
                var fc = item.asFunctionCall();
                calls.add(fc.callId() + " " + fc.name() + " " + canonical(fc.arguments()));
            }
        }
        return new Seen(
                text.toString(),
                reasoning.toString(),
                calls,
                r.status().map(s -> s.asString()).orElse(null));
    }

    // ---- Messages
    // ----------------------------------------------------------------------------------

    static void messages(Format f, SuiteCase c) throws Exception {
        Tools tools = Tools.parse(String.valueOf(c.expected().get("tools")));
        List<ParseEvent> events = f.parseEvents(c.input(), tools, c.options());
        boolean calls = events.stream().anyMatch(e -> e instanceof ParseEvent.ToolCallEnd);
        Seen want = expected(events, calls ? "tool_use" : "end_turn");
        Message batch =
                ANTHROPIC
                        .readValue(
                                Protocol.MESSAGES.response(events, "msg_test", "replay", 0L, false),
                                Message.class)
                        .validate();
        assertEquals(want, seen(batch), "batch message as the SDK reads it");
        for (long seed = 0; seed < 3; seed++) {
            List<WireEvent> wire =
                    SdkAssertions.wire(
                            Protocol.MESSAGES.stream("msg_test", "replay", 0L),
                            f.newStream(tools, c.options()),
                            Chunker.split(c.input(), 8, seed),
                            false);
            MessageAccumulator acc = MessageAccumulator.create();
            long blocks = 0;
            for (WireEvent w : wire) {
                RawMessageStreamEvent e =
                        ANTHROPIC.readValue(w.json(), RawMessageStreamEvent.class).validate();
                if (e.isContentBlockStart())
                    assertEquals(
                            blocks++,
                            e.asContentBlockStart().index(),
                            "one index sequence over all blocks");
                acc.accumulate(e);
            }
            assertEquals(want, seen(acc.message()), "seed " + seed + ": accumulated stream");
        }
    }

    static Seen seen(Message m) throws Exception {
        StringBuilder text = new StringBuilder();
        StringBuilder reasoning = new StringBuilder();
        List<String> calls = new ArrayList<>();
        for (ContentBlock b : m.content()) {
            if (b.isText()) text.append(b.asText().text());
            else if (b.isThinking()) reasoning.append(b.asThinking().thinking());
            else if (b.isToolUse())
                calls.add(
                        b.asToolUse().id()
                                + " "
                                + b.asToolUse().name()
                                + " "
                                + canonical(ANTHROPIC.writeValueAsString(b.asToolUse()._input())));
        }
        return new Seen(
                text.toString(),
                reasoning.toString(),
                calls,
                m.stopReason().map(s -> s.asString()).orElse(null));
    }

    // ---- cut and failed generations
    // ----------------------------------------------------------------

    @Test
    void aCutGenerationIsIncompleteOrMaxTokensAndAFailureIsEachProtocolsErrorEvent()
            throws Exception {
        Format toy = Formats.get("toy");
        List<WireEvent> wire =
                SdkAssertions.wire(
                        Protocol.RESPONSES.stream("resp_x", "m", 1L),
                        toy.newStream(),
                        List.of("Hello the story was cut"),
                        true);
        Response cut =
                OPENAI.readValue(wire.get(wire.size() - 1).json(), ResponseStreamEvent.class)
                        .validate()
                        .asIncomplete()
                        .response();
        assertEquals("max_output_tokens", cut.incompleteDetails().get().reason().get().asString());
        assertEquals("Hello the story was cut", seen(cut).text());

        List<WireEvent> mw =
                SdkAssertions.wire(
                        Protocol.MESSAGES.stream("msg_x", "m", 0L),
                        toy.newStream(),
                        List.of("Hello the story was cut"),
                        true);
        MessageAccumulator acc = MessageAccumulator.create();
        for (WireEvent w : mw)
            acc.accumulate(ANTHROPIC.readValue(w.json(), RawMessageStreamEvent.class).validate());
        assertEquals("max_tokens", acc.message().stopReason().get().asString());

        WireStream failing = Protocol.RESPONSES.stream("resp_y", "m", 1L);
        StreamParser failingParser = toy.newStream();
        failing.events(failingParser.feed("text <call f>{\"a\": "));
        ToolCallParseException e =
                assertThrows(ToolCallParseException.class, failingParser::finish);
        List<WireEvent> failed = failing.fail(e);
        WireEvent last = failed.get(failed.size() - 1);
        assertEquals("response.failed", last.name());
        Response gone =
                OPENAI.readValue(last.json(), ResponseStreamEvent.class)
                        .validate()
                        .asFailed()
                        .response();
        assertTrue(
                gone.error().get().message().contains("unterminated call"),
                gone.error().get().message());

        WireStream failingM = Protocol.MESSAGES.stream("msg_y", "m", 0L);
        StreamParser failingMParser = toy.newStream();
        failingM.events(failingMParser.feed("text <call f>{\"a\": "));
        ToolCallParseException e2 =
                assertThrows(ToolCallParseException.class, failingMParser::finish);
        List<WireEvent> mf = failingM.fail(e2);
        assertEquals("error", mf.get(mf.size() - 1).name());
        assertTrue(
                mf.get(mf.size() - 1).json().contains("\"type\":\"api_error\""),
                mf.get(mf.size() - 1).json());
    }
}
