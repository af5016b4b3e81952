package dev.toolcalls;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;

/**
 * Special tokens by identity through the library: feedSpecial, and the option that marks them from
 * the first piece.
 */
class SpecialTokensTest {
    static final Format HERMES = Formats.get("hermes");
    static final String CALL = "{\"name\": \"f\", \"arguments\": {\"a\": 1}}";

    static ChatMessage message(List<ParseEvent> events) {
        return ChatMessage.fromEvents(events);
    }

    @Test
    void markersArrivingAsSpecialTokensAreCalls() {
        StreamParser s = HERMES.newStream();
        List<ParseEvent> events = new ArrayList<>(s.feed("Sure. "));
        events.addAll(s.feedSpecial("<tool_call>"));
        events.addAll(s.feed(CALL));
        events.addAll(s.feedSpecial("</tool_call>"));
        events.addAll(s.finish());
        ChatMessage m = message(events);
        assertEquals("Sure. ", m.content());
        assertEquals(1, m.toolCalls().size());
        assertEquals("{\"a\": 1}", m.toolCalls().get(0).arguments());
    }

    @Test
    void onceASpecialTokenWasFedTheSameLettersInTextAreText() {
        StreamParser s = HERMES.newStream();
        List<ParseEvent> events = new ArrayList<>(s.feedSpecial("<tool_call>"));
        events.addAll(s.feed(CALL));
        events.addAll(s.feedSpecial("</tool_call>"));
        events.addAll(s.feed(" Write <tool_call>" + CALL + "</tool_call> to call."));
        events.addAll(s.finish());
        ChatMessage m = message(events);
        assertEquals(1, m.toolCalls().size());
        assertEquals(" Write <tool_call>" + CALL + "</tool_call> to call.", m.content());
    }

    @Test
    void markedFromTheStartTextBeforeTheFirstSpecialTokenCannotOpenACall() {
        String text = "Write <tool_call>" + CALL + "</tool_call> to call.";
        ParseOptions marked = ParseOptions.defaults().withSpecialTokensMarked(true);
        StreamParser s = HERMES.newStream(Tools.none(), marked);
        List<ParseEvent> events = new ArrayList<>(s.feed(text));
        events.addAll(s.finish());
        ChatMessage m = message(events);
        assertEquals(text, m.content());
        assertEquals(0, m.toolCalls().size());
        // the same text without the option, and in batch: the spelling is taken for the marker
        assertEquals(1, HERMES.parse(text).toolCalls().size());
        assertNull(HERMES.parse("<tool_call>" + CALL + "</tool_call>").content());
    }
}
