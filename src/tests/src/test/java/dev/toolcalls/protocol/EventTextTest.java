package dev.toolcalls.protocol;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.google.gson.JsonArray;
import com.google.gson.JsonNull;
import com.google.gson.JsonObject;
import com.google.gson.JsonPrimitive;

import dev.toolcalls.ChatMessage;
import dev.toolcalls.DeltaMessage;
import dev.toolcalls.Format;
import dev.toolcalls.Formats;
import dev.toolcalls.ParseEvent;
import dev.toolcalls.StreamParser;
import dev.toolcalls.ToolCall;
import dev.toolcalls.ToolCallDelta;
import dev.toolcalls.ToolCallParseException;
import dev.toolcalls.Tools;
import dev.toolcalls.internal.json.Json;
import dev.toolcalls.suite.SuiteCase;

import org.junit.jupiter.api.Test;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The per-event writers write the same text as Gson writes for the event's tree: every UTF-16 unit
 * as a string, and every Chat Completions chunk of the regression corpus, streamed in small pieces.
 */
class EventTextTest {
    @Test
    void everyUtf16UnitIsQuotedAsGsonQuotesIt() {
        for (int c = 0; c <= 0xFFFF; c++) {
            String s = "a" + (char) c + "b";
            StringBuilder b = new StringBuilder();
            JsonText.string(b, s);
            assertEquals(Json.write(new JsonPrimitive(s)), b.toString(), "unit " + c);
        }
    }

    @Test
    void chatCompletionsChunksOfTheCorpusAreGsonsText() {
        int chunks = 0;
        for (Map.Entry<String, List<SuiteCase>> e :
                SuiteCase.load(Path.of("tests-data")).entrySet()) {
            Optional<Format> f = Formats.find(e.getKey());
            if (f.isEmpty()) continue;
            for (SuiteCase c : e.getValue()) {
                String id = "chatcmpl-\"" + c.name() + "\u2028";
                String model = "m\\" + e.getKey();
                WireStream out = Protocol.CHAT_COMPLETIONS.stream(id, model, 1234567890123L);
                List<WireEvent> got = new ArrayList<>(out.start());
                List<String> want = new ArrayList<>();
                want.add(chunk(id, model, role(), null));
                StreamParser p = f.get().newStream(Tools.none(), c.options());
                boolean calls = false;
                try {
                    String in = c.input();
                    for (int i = 0; i < in.length(); i += 7) {
                        List<ParseEvent> ev = p.feed(in.substring(i, Math.min(in.length(), i + 7)));
                        got.addAll(out.events(ev));
                        for (DeltaMessage d : DeltaMessage.of(ev)) {
                            calls |= d.isToolCall();
                            want.add(chunk(id, model, deltaTree(d), null));
                        }
                    }
                    List<ParseEvent> ev = p.finish();
                    got.addAll(out.events(ev));
                    for (DeltaMessage d : DeltaMessage.of(ev)) {
                        calls |= d.isToolCall();
                        want.add(chunk(id, model, deltaTree(d), null));
                    }
                } catch (ToolCallParseException x) {
                    continue; // a stream error case: its chunks before the error were compared
                }
                got.addAll(out.complete(false));
                want.add(chunk(id, model, new JsonObject(), calls ? "tool_calls" : "stop"));
                want.add(ChatCompletionsStream.DONE);
                List<String> texts = new ArrayList<>();
                for (WireEvent w : got) texts.add(w.json());
                assertEquals(want, texts, c.toString());
                chunks += texts.size();
                for (DeltaMessage d : DeltaMessage.of(ev(c, f.get())))
                    assertEquals(Json.write(deltaTree(d)), ValueJson.delta(d));
            }
        }
        assertTrue(chunks > 1000, chunks + " chunks compared");
    }

    @Test
    void messagesAndCallsAreGsonsTextOfTheirTree() {
        List<ChatMessage> messages = new ArrayList<>();
        messages.add(new ChatMessage(null, List.of()));
        String odd = "q\"\\\u2028\u2029\u0000\u001f\b\f\n\r\t<>&='\u00e9\ud83d\ude00\udc00";
        messages.add(
                new ChatMessage(
                        odd,
                        odd,
                        List.of(new ToolCall(null, odd, odd), new ToolCall(odd, "f", ""))));
        for (Map.Entry<String, List<SuiteCase>> e :
                SuiteCase.load(Path.of("tests-data")).entrySet()) {
            Optional<Format> f = Formats.find(e.getKey());
            if (f.isEmpty()) continue;
            for (SuiteCase c : e.getValue()) {
                try {
                    messages.add(f.get().parse(c.input(), Tools.none(), c.options()));
                } catch (ToolCallParseException x) {
                    // an error case: no message
                }
            }
        }
        int calls = 0;
        for (ChatMessage m : messages) {
            assertEquals(Json.write(ValueJson.messageTree(m)), ValueJson.message(m));
            for (ToolCall c : m.toolCalls()) {
                assertEquals(Json.write(ValueJson.toolCallTree(c)), ValueJson.toolCall(c));
                calls++;
            }
        }
        assertTrue(messages.size() > 500 && calls > 500, messages.size() + " messages");
    }

    @Test
    void everyProtocolsEventsAreGsonsTextOfTheirOwnTree() {
        int events = 0;
        for (Map.Entry<String, List<SuiteCase>> e :
                SuiteCase.load(Path.of("tests-data")).entrySet()) {
            Optional<Format> f = Formats.find(e.getKey());
            if (f.isEmpty()) continue;
            for (SuiteCase c : e.getValue()) {
                for (Protocol p : Protocol.values()) {
                    WireStream out = p.stream("id_\"" + c.name() + "\u2028", "m\\", 42L);
                    List<WireEvent> got = new ArrayList<>(out.start());
                    StreamParser s = f.get().newStream(Tools.none(), c.options());
                    String in = c.input();
                    try {
                        for (int i = 0; i < in.length(); i += 5)
                            got.addAll(
                                    out.events(
                                            s.feed(in.substring(i, Math.min(in.length(), i + 5)))));
                        got.addAll(out.events(s.finish()));
                        got.addAll(out.complete(false));
                    } catch (ToolCallParseException x) {
                        got.addAll(out.fail(x));
                    }
                    for (WireEvent w : got) {
                        if (w.json().equals(ChatCompletionsStream.DONE)) continue;
                        assertEquals(Json.write(Json.parse(w.json())), w.json(), c + " " + p);
                        if (w.name() != null)
                            assertEquals(
                                    w.name(),
                                    Json.parse(w.json())
                                            .getAsJsonObject()
                                            .get("type")
                                            .getAsString());
                        events++;
                    }
                }
            }
        }
        assertTrue(events > 3000, events + " events compared");
    }

    private static List<ParseEvent> ev(SuiteCase c, Format f) {
        try {
            return f.parseEvents(c.input(), Tools.none(), c.options());
        } catch (ToolCallParseException x) {
            return List.of();
        }
    }

    private static JsonObject role() {
        JsonObject o = new JsonObject();
        o.addProperty("role", "assistant");
        return o;
    }

    /** The chunk as a Gson tree, written by Gson. */
    private static String chunk(String id, String model, JsonObject delta, String finish) {
        JsonObject choice = new JsonObject();
        choice.addProperty("index", 0);
        choice.add("delta", delta);
        choice.add("logprobs", JsonNull.INSTANCE);
        choice.addProperty("finish_reason", finish);
        JsonArray choices = new JsonArray();
        choices.add(choice);
        JsonObject o = new JsonObject();
        o.addProperty("id", id);
        o.addProperty("object", "chat.completion.chunk");
        o.addProperty("created", 1234567890123L);
        o.addProperty("model", model);
        o.add("choices", choices);
        return Json.write(o);
    }

    /**
     * The reference the written deltas are held to, built as a Gson tree: one of {@code
     * {"content"}}, {@code {"reasoning_content"}} or {@code {"tool_calls": [one]}}.
     */
    private static JsonObject deltaTree(DeltaMessage d) {
        JsonObject o = new JsonObject();
        if (d.content() != null) o.addProperty("content", d.content());
        if (d.reasoningContent() != null) o.addProperty("reasoning_content", d.reasoningContent());
        if (d.toolCall() != null) {
            JsonArray calls = new JsonArray();
            calls.add(toolCallDeltaTree(d.toolCall()));
            o.add("tool_calls", calls);
        }
        return o;
    }

    /** {@code {"index", "id"?, "type"?, "function": {"name"?, "arguments"?}}}. */
    private static JsonObject toolCallDeltaTree(ToolCallDelta t) {
        JsonObject o = new JsonObject();
        o.addProperty("index", t.index());
        if (t.id() != null) {
            o.addProperty("id", t.id());
            o.addProperty("type", "function");
        }
        JsonObject function = new JsonObject();
        if (t.name() != null) function.addProperty("name", t.name());
        if (t.arguments() != null) function.addProperty("arguments", t.arguments());
        o.add("function", function);
        return o;
    }
}
