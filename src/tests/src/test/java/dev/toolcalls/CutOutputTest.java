package dev.toolcalls;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

import org.junit.jupiter.api.DynamicNode;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;

import dev.toolcalls.protocol.CompletionChunks;
import dev.toolcalls.protocol.MessagesStream;
import dev.toolcalls.protocol.ResponsesStream;
import dev.toolcalls.protocol.WireEvent;
import dev.toolcalls.suite.SuiteCase;

/**
 * Output cut by max tokens, in every format: every case with calls is cut at many points; the calls
 * completed before the cut are kept exactly (same index, id, name, arguments), a half-written call
 * follows the error policy (strict: unterminated, or the error the cut text makes), and all three
 * protocols end the way a cut generation ends: {@code length}, {@code response.incomplete},
 * {@code max_tokens}, or their error event.
 */
class CutOutputTest {
    @TestFactory
    Stream<DynamicNode> everyFormatKeepsTheCallsCompletedBeforeTheCut() {
        List<DynamicNode> out = new ArrayList<>();
        for (Map.Entry<String, List<SuiteCase>> e : SuiteCase.load(Path.of("tests-data")).entrySet()) {
            Format f = Formats.find(e.getKey()).orElse(null);
            if (f == null) continue;
            out.add(DynamicTest.dynamicTest(e.getKey(), () -> {
                for (SuiteCase c : e.getValue()) {
                    if (c.expected().has("error") || !c.expected().has("tool_calls") || c.expected().getAsJsonArray("tool_calls").isEmpty()) continue;
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
                events.addAll(s.feedEvents(prefix));
                events.addAll(s.finishEvents());
            } catch (ToolCallParseException ex) {
                events.addAll(ex.eventsBeforeError());
                failed = true;
            }
            List<ParseEvent.ToolCallEnd> kept = ends(events);
            // every call completed before the cut is one of the full output's calls, in order; when the cut
            // parse fails, none is lost either (a lenient recovery may end the last one with fewer arguments)
            int exact = c.lenient() && !kept.isEmpty() ? kept.size() - 1 : kept.size();
            assertTrue(kept.size() <= full.size(), c + " cut at " + cut + ": more calls than the whole output");
            for (int i = 0; i < exact; i++) assertEquals(full.get(i), kept.get(i), c + " cut at " + cut + ": call " + i);
            protocols(f, c, tools, prefix, failed);
        }
    }

    /** A cut generation in each protocol: the terminal event says so, or the error event ends it. */
    static void protocols(Format f, SuiteCase c, Tools tools, String prefix, boolean failed) {
        String where = c + " cut at " + prefix.length();
        CompletionChunks chat = new CompletionChunks(f.newStream(tools, c.options()), "chatcmpl-x", "m", 1L);
        ResponsesStream responses = new ResponsesStream(f.newStream(tools, c.options()), "resp_x", "m", 1L);
        MessagesStream messages = new MessagesStream(f.newStream(tools, c.options()), "msg_x", "m");
        try {
            chat.feed(prefix);
            List<String> last = chat.finish(true);
            assertTrue(!failed && last.get(last.size() - 1).contains("\"finish_reason\":\"length\""), where);
        } catch (ToolCallParseException e) {
            assertTrue(failed, where + ": chat failed where the parse did not");
        }
        List<WireEvent> r = new ArrayList<>();
        try {
            r.addAll(responses.feed(prefix));
            r.addAll(responses.finish(true));
        } catch (ToolCallParseException e) {
            r.addAll(responses.fail(e));
        }
        assertEquals(failed ? "response.failed" : "response.incomplete", r.get(r.size() - 1).name(), where);
        List<WireEvent> m = new ArrayList<>();
        try {
            m.addAll(messages.feed(prefix));
            m.addAll(messages.finish(true));
            assertTrue(m.stream().anyMatch(w -> w.json().contains("\"stop_reason\":\"max_tokens\"")), where);
        } catch (ToolCallParseException e) {
            m.addAll(messages.fail(e));
        }
        assertEquals(failed ? "error" : "message_stop", m.get(m.size() - 1).name(), where);
    }

    static List<ParseEvent.ToolCallEnd> ends(List<ParseEvent> events) {
        List<ParseEvent.ToolCallEnd> out = new ArrayList<>();
        for (ParseEvent e : events) if (e instanceof ParseEvent.ToolCallEnd end) out.add(end);
        return out;
    }
}
