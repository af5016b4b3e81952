package dev.toolcalls;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.google.gson.JsonArray;
import com.google.gson.JsonObject;

import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.io.StringReader;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;

/**
 * Token input on small vocabularies written here: decoding (characters split over ids, invalid
 * bytes, the piece decoders' rules), and {@link StreamParser#feedTokens} against the same text fed
 * with its special tokens marked. The real tokenizers are {@link RealTokenizersTest}'s.
 */
public class TokenInputTest {
    static final Format HERMES = Formats.get("hermes");
    static final String[] ADDED = {"<tool_call>", "</tool_call>", "<|im_end|>"};
    static final String CALL = "{\"name\": \"f\", \"arguments\": {\"city\": \"東京 😀\"}}";

    /** GPT-2's byte alphabet, as tokenizer.json files write byte-level pieces. */
    static String byteChar(int b) {
        int n = 0;
        for (int x = 0; x < 256; x++) {
            boolean printable = x >= '!' && x <= '~' || x >= 0xA1 && x <= 0xAC || x >= 0xAE;
            if (x == b) return String.valueOf((char) (printable ? x : 256 + n));
            if (!printable) n++;
        }
        throw new IllegalArgumentException();
    }

    /**
     * A byte-level vocabulary: ids 0..255 are the bytes, 256 is the piece " the", then the added
     * tokens from 300 ({@code <|im_end|>} flagged special).
     */
    public static String byteLevelJson() {
        JsonObject vocab = new JsonObject();
        for (int b = 0; b < 256; b++) vocab.addProperty(byteChar(b), b);
        vocab.addProperty(byteChar(' ') + "the", 256);
        JsonArray added = new JsonArray();
        for (int i = 0; i < ADDED.length; i++) {
            JsonObject a = new JsonObject();
            a.addProperty("id", 300 + i);
            a.addProperty("content", ADDED[i]);
            a.addProperty("special", ADDED[i].startsWith("<|"));
            added.add(a);
        }
        JsonObject model = new JsonObject();
        model.addProperty("type", "BPE");
        model.add("vocab", vocab);
        model.add("merges", new JsonArray());
        JsonObject decoder = new JsonObject();
        decoder.addProperty("type", "ByteLevel");
        JsonObject root = new JsonObject();
        root.addProperty("version", "1.0");
        root.add("added_tokens", added);
        root.add("decoder", decoder);
        root.add("model", model);
        return root.toString();
    }

    static Vocabulary byteLevel() {
        try {
            return Vocabulary.read(new StringReader(byteLevelJson()), null, "test");
        } catch (IOException e) {
            throw new AssertionError(e);
        }
    }

    /** The text as ids: added tokens where marked {@code [[...]]}, every other byte its own id. */
    public static int[] encode(String marked) {
        List<Integer> ids = new ArrayList<>();
        int i = 0;
        while (i < marked.length()) {
            if (marked.startsWith("[[", i)) {
                int end = marked.indexOf("]]", i);
                String token = marked.substring(i + 2, end);
                int k = List.of(ADDED).indexOf(token);
                if (k < 0) throw new IllegalArgumentException(token);
                ids.add(300 + k);
                i = end + 2;
                continue;
            }
            int next = marked.indexOf("[[", i);
            if (next < 0) next = marked.length();
            for (byte b : marked.substring(i, next).getBytes(StandardCharsets.UTF_8))
                ids.add(b & 0xFF);
            i = next;
        }
        return ids.stream().mapToInt(Integer::intValue).toArray();
    }

    /** The same output fed as text, special tokens through feedSpecial. */
    static ChatMessage marked(Format f, String marked) {
        StreamParser s = f.newStream(Tools.none(), seeded().withSpecialTokensMarked(true));
        List<ParseEvent> events = new ArrayList<>();
        for (String piece : marked.split("\\[\\[|\\]\\]")) {
            if (piece.isEmpty()) continue;
            boolean special = List.of(ADDED).contains(piece);
            events.addAll(special ? s.feedSpecial(piece) : s.feed(piece));
        }
        events.addAll(s.finish());
        return ChatMessage.fromEvents(events);
    }

    static ParseOptions seeded() {
        return ParseOptions.defaults().withIds(() -> IdGenerator.seeded(0));
    }

    static ChatMessage tokens(Format f, Vocabulary v, int[] ids, Random groups) {
        StreamParser s = f.newStream(Tools.none(), seeded(), v);
        List<ParseEvent> events = new ArrayList<>();
        int i = 0;
        while (i < ids.length) {
            int n = groups == null ? ids.length : 1 + groups.nextInt(5);
            n = Math.min(n, ids.length - i);
            events.addAll(s.feedTokens(ids, i, i + n));
            i += n;
        }
        events.addAll(s.finish());
        return ChatMessage.fromEvents(events);
    }

    @Test
    void aCharacterSplitOverSeveralIdsComesOutOnceWhole() {
        Vocabulary v = byteLevel();
        String text = "é 東京 😀 the end";
        int[] ids = encode(text);
        assertTrue(ids.length > text.length());
        assertEquals(text, v.decode(ids));
        // one id at a time: no feed returns half a character, and the whole comes out once
        StreamParser s = HERMES.newStream(Tools.none(), seeded(), v);
        StringBuilder content = new StringBuilder();
        for (int id : ids) {
            for (ParseEvent e : s.feedTokens(id)) {
                String piece = ((ParseEvent.Text) e).text();
                assertFalse(piece.contains("\uFFFD"), piece);
                assertFalse(
                        Character.isHighSurrogate(piece.charAt(piece.length() - 1)), "half a pair");
                content.append(piece);
            }
        }
        for (ParseEvent e : s.finish())
            content.append(ChatMessage.fromEvents(List.of(e)).content());
        assertEquals(text, content.toString());
        assertEquals(" the", v.piece(256));
        assertEquals("<0xE6>", v.piece(0xE6));
    }

    @Test
    void tokenFeedEqualsTheTextWithSpecialTokensMarkedHoweverGrouped() {
        Vocabulary v = byteLevel();
        String[] outputs = {
            "Sure. [[<tool_call>]]" + CALL + "[[</tool_call>]]",
            "I write <tool_call> in prose. [[<tool_call>]]" + CALL + "[[</tool_call>]] done",
            "[[<tool_call>]]"
                    + CALL
                    + "[[</tool_call>]][[<tool_call>]]"
                    + CALL
                    + "[[</tool_call>]]",
            "Only text: <tool_call>" + CALL + "</tool_call>",
            "Stop token at the end.[[<|im_end|>]]",
        };
        for (String out : outputs) {
            ChatMessage expected = marked(HERMES, out);
            int[] ids = encode(out);
            assertEquals(expected, tokens(HERMES, v, ids, null), out);
            for (long seed = 0; seed < 20; seed++)
                assertEquals(expected, tokens(HERMES, v, ids, new Random(seed)), out);
        }
        // start and end of a call in one feed: the call is there
        ChatMessage both = tokens(HERMES, v, encode(outputs[0]), null);
        assertEquals(1, both.toolCalls().size());
        assertEquals("{\"city\": \"東京 😀\"}", both.toolCalls().get(0).arguments());
        // spelled out in ordinary tokens, the marker is text
        ChatMessage prose = tokens(HERMES, v, encode(outputs[3]), new Random(1));
        assertEquals(0, prose.toolCalls().size());
        assertEquals("Only text: <tool_call>" + CALL + "</tool_call>", prose.content());
        // a special token the format does not use is text, as feedSpecial takes it
        assertEquals(
                "Stop token at the end.<|im_end|>",
                tokens(HERMES, v, encode(outputs[4]), null).content());
    }

    @Test
    void bytesThatAreNotUtf8AreAnErrorNeverReplaced() {
        Vocabulary v = byteLevel();
        IllegalArgumentException stray =
                assertThrows(IllegalArgumentException.class, () -> v.decode('a', 0x80, 'b'));
        assertTrue(stray.getMessage().contains("byte 0x80 at byte offset 1"), stray.getMessage());
        assertTrue(stray.getMessage().contains("id number 1"), stray.getMessage());
        byte[] e = "é".getBytes(StandardCharsets.UTF_8);
        IllegalArgumentException cut =
                assertThrows(IllegalArgumentException.class, () -> v.decode(e[0] & 0xFF, 300));
        assertTrue(cut.getMessage().contains("inside a character"), cut.getMessage());
        assertThrows(IllegalArgumentException.class, () -> v.decode('a', e[0] & 0xFF));
        // overlong forms and encoded surrogates
        assertThrows(IllegalArgumentException.class, () -> v.decode(0xC0, 0x80));
        assertThrows(IllegalArgumentException.class, () -> v.decode(0xED, 0xA0, 0x80));
        IllegalArgumentException unknown =
                assertThrows(IllegalArgumentException.class, () -> v.decode(299));
        assertTrue(unknown.getMessage().contains("token id 299"), unknown.getMessage());

        // a stream: the call that meets the bad byte fails, and the parser is finished
        StreamParser s = HERMES.newStream(Tools.none(), seeded(), v);
        s.feedTokens('o', 'k');
        assertThrows(IllegalArgumentException.class, () -> s.feedTokens(0xFF));
        assertThrows(IllegalStateException.class, () -> s.feedTokens('x'));
        // a character left half at the end
        StreamParser half = HERMES.newStream(Tools.none(), seeded(), v);
        half.feedTokens('o', e[0] & 0xFF);
        assertThrows(IllegalArgumentException.class, half::finish);
        // no vocabulary
        assertThrows(IllegalStateException.class, () -> HERMES.newStream().feedTokens(1));
    }

    @Test
    void pieceDecodersWithByteFallbackAndTheFirstSpaceStripped() throws IOException {
        JsonObject vocab = new JsonObject();
        String[] pieces = {
            "<unk>", "▁Hello", "▁world", "<0xF0>", "<0x9F>", "<0x98>", "<0x80>", "!"
        };
        for (int i = 0; i < pieces.length; i++) vocab.addProperty(pieces[i], i);
        String json =
                "{\"added_tokens\": [{\"id\": 8, \"content\": \"<start_function_call>\", \"special\": false}],"
                        + " \"decoder\": {\"type\": \"Sequence\", \"decoders\": ["
                        + "{\"type\": \"Replace\", \"pattern\": {\"String\": \"▁\"}, \"content\": \" \"},"
                        + "{\"type\": \"ByteFallback\"}, {\"type\": \"Fuse\"},"
                        + "{\"type\": \"Strip\", \"content\": \" \", \"start\": 1, \"stop\": 0}]},"
                        + " \"model\": {\"type\": \"BPE\", \"byte_fallback\": true, \"vocab\": "
                        + vocab
                        + ", \"merges\": []}}";
        String config =
                "{\"added_tokens_decoder\": {\"8\": {\"content\": \"<start_function_call>\", \"special\": true},"
                        + " \"9\": {\"content\": \"<end_function_call>\", \"special\": true}}}";
        Vocabulary v = Vocabulary.read(new StringReader(json), new StringReader(config), "pieces");
        assertEquals("Hello world😀!", v.decode(1, 2, 3, 4, 5, 6, 7));
        assertEquals("Hello world", v.decode(1, 2));
        assertEquals("<start_function_call> Hello", v.decode(8, 1));
        assertTrue(v.isSpecial(8), "tokenizer_config.json flags it special");
        assertEquals(9, v.addedId("<end_function_call>"));
        assertEquals(10, v.size());
    }

    @Test
    void decodersThatAreNotReadSaySo() {
        String json =
                "{\"decoder\": {\"type\": \"WordPiece\"}, \"model\": {\"vocab\": {\"a\": 0}}}";
        IOException e =
                assertThrows(
                        IOException.class,
                        () -> Vocabulary.read(new StringReader(json), null, "wp.json"));
        assertTrue(
                e.getMessage().contains("wp.json: decoder WordPiece is not read"), e.getMessage());
        IOException bad =
                assertThrows(
                        IOException.class,
                        () -> Vocabulary.read(new StringReader("{\"model\": "), null, "cut.json"));
        assertTrue(bad.getMessage().startsWith("cut.json: "), bad.getMessage());
    }
}
