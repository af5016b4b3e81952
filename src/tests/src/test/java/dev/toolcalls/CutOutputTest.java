package dev.toolcalls;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.toolcalls.protocol.ChatCompletionsStream;
import dev.toolcalls.protocol.Protocol;
import dev.toolcalls.protocol.WireEvent;
import dev.toolcalls.protocol.WireStream;
import dev.toolcalls.suite.SuiteCase;

import org.junit.jupiter.api.DynamicNode;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

/**
 * Output cut by max tokens, in every format: every case with calls is cut at many points; the calls
 * completed before the cut are kept exactly (same index, id, name, arguments), a half-written call
 * follows the error policy (strict: unterminated, or the error the cut text makes), and all three
 * protocols end the way a cut generation ends: {@code length}, {@code response.incomplete}, {@code
 * max_tokens}, or their error event.
 */
class CutOutputTest {
    @TestFactory
    Stream<DynamicNode> everyFormatKeepsTheCallsCompletedBeforeTheCut() {
        List<DynamicNode> out = new ArrayList<>();
        for (Map.Entry<String, List<SuiteCase>> e :
                SuiteCase.load(Path.of("tests-data")).entrySet()) {
            Format f = Formats.find(e.getKey()).orElse(null);
            if (f == null) continue;
            out.add(
                    DynamicTest.dynamicTest(
                            e.getKey(),
                            () -> {
                                for (SuiteCase c : e.getValue()) {
                                    if (c.expected().has("error")
                                            || c.expected().has("stream_error")
                                            || !c.expected().has("tool_calls")
                                            || c.expected().getAsJsonArray("tool_calls").isEmpty())
                                        continue;
                                    check(f, c);
                                }
                            }));
        }
        return out.stream();
    }

    static void check(Format f, SuiteCase c) {
        Tools tools = Tools.parse(String.valueOf(c.expected().get("tools")));
        List<ParseEvent.ToolCallEnd> full = ends(f.parseEvents(c.input(), tools, c.options()));
        String text = c.input();
        int step = Math.max(1, text.length() / 12);
        for (int cut = 1; cut < text.length(); cut += step) {
            String prefix = text.substring(0, cut);
            List<ParseEvent> events = new ArrayList<>();
            boolean failed = false;
            StreamParser s = f.newStream(tools, c.options());
            try {
                events.addAll(s.feed(prefix));
                events.addAll(s.finish());
            } catch (ToolCallParseException ex) {
                events.addAll(ex.eventsBeforeError());
                failed = true;
            }
            List<ParseEvent.ToolCallEnd> kept = ends(events);
            // every call completed before the cut is one of the full output's calls, in order; when
            // the cut
            // parse fails, none is lost either (a lenient recovery may end the last one with fewer
            // arguments)
            int exact = c.lenient() && !kept.isEmpty() ? kept.size() - 1 : kept.size();
            assertTrue(
                    kept.size() <= full.size(),
                    c + " cut at " + cut + ": more calls than the whole output");
            for (int i = 0; i < exact; i++)
                assertEquals(full.get(i), kept.get(i), c + " cut at " + cut + ": call " + i);
            protocols(f, c, tools, prefix, failed);
        }
    }

    /**
     * A cut generation in each protocol: the terminal event says so, or the error event ends it.
     */
    static void protocols(Format f, SuiteCase c, Tools tools, String prefix, boolean failed) {
        String where = c + " cut at " + prefix.length();
        List<WireEvent> chat = cut(Protocol.CHAT_COMPLETIONS, f, c, tools, prefix);
        assertEquals(ChatCompletionsStream.DONE, chat.get(chat.size() - 1).json(), where);
        String lastChunk = chat.get(chat.size() - 2).json();
        assertTrue(
                failed
                        ? lastChunk.startsWith("{\"error\":")
                        : lastChunk.contains("\"finish_reason\":\"length\""),
                where + ": " + lastChunk);
        List<WireEvent> r = cut(Protocol.RESPONSES, f, c, tools, prefix);
        assertEquals(
                failed ? "response.failed" : "response.incomplete",
                r.get(r.size() - 1).name(),
                where);
        List<WireEvent> m = cut(Protocol.MESSAGES, f, c, tools, prefix);
        if (!failed)
            assertTrue(
                    m.stream().anyMatch(w -> w.json().contains("\"stop_reason\":\"max_tokens\"")),
                    where);
        assertEquals(failed ? "error" : "message_stop", m.get(m.size() - 1).name(), where);
    }

    /**
     * A stream of the protocol for an output cut by max tokens: its terminal events, or its error
     * event.
     */
    static List<WireEvent> cut(
            Protocol protocol, Format f, SuiteCase c, Tools tools, String prefix) {
        StreamParser parser = f.newStream(tools, c.options());
        WireStream out = protocol.stream("id_x", "m", 1L);
        List<WireEvent> wire = new ArrayList<>(out.start());
        try {
            wire.addAll(out.events(parser.feed(prefix)));
            wire.addAll(out.events(parser.finish()));
            wire.addAll(out.complete(true));
        } catch (ToolCallParseException e) {
            wire.addAll(out.fail(e));
        }
        return wire;
    }

    static List<ParseEvent.ToolCallEnd> ends(List<ParseEvent> events) {
        List<ParseEvent.ToolCallEnd> out = new ArrayList<>();
        for (ParseEvent e : events) if (e instanceof ParseEvent.ToolCallEnd end) out.add(end);
        return out;
    }
}
