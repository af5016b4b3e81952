package dev.toolcalls.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.google.gson.JsonArray;
import com.google.gson.JsonObject;
import com.google.gson.JsonParser;

import dev.toolcalls.TokenInputTest;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.stream.Collectors;

/**
 * {@code parse --tokenizer} with {@code "ids"} lines, {@code tokens} and {@code check --tokenizer},
 * on a small byte-level vocabulary (ids 0..255 the bytes, 300/301 {@code <tool_call>} / {@code
 * </tool_call>}, 302 {@code <|im_end|>}).
 */
class TokensCliTest {
    @TempDir Path dir;

    static final String OUT =
            "Write <tool_call> so. [[<tool_call>]]{\"name\": \"f\", \"arguments\": {\"a\": \"é😀\"}}[[</tool_call>]]";

    Path tokenizer() throws IOException {
        Files.writeString(
                dir.resolve("tokenizer.json"),
                TokenInputTest.byteLevelJson(),
                StandardCharsets.UTF_8);
        return dir;
    }

    static String ids(String marked) {
        return Arrays.stream(TokenInputTest.encode(marked))
                .mapToObj(Integer::toString)
                .collect(Collectors.joining(",", "[", "]"));
    }

    @Test
    void idLinesParseAsTheTextWithSpecialTokensMarkedInBatchAndStream() throws IOException {
        String chunks =
                "{\"chunks\": [\"Write <tool_call> so. \", {\"text\": \"<tool_call>\", \"special\": true},"
                        + " \"{\\\"name\\\": \\\"f\\\", \\\"arguments\\\": {\\\"a\\\": \\\"é😀\\\"}}\","
                        + " {\"text\": \"</tool_call>\", \"special\": true}],"
                        + " \"input\": \"Write <tool_call> so. <tool_call>{\\\"name\\\": \\\"f\\\", \\\"arguments\\\": {\\\"a\\\": \\\"é😀\\\"}}</tool_call>\"}\n";
        String idsLine = "{\"ids\": " + ids(OUT) + "}\n";
        String tok = tokenizer().toString();
        CliTest.Run text = CliTest.run(chunks, "parse", "--format", "hermes", "--jsonl");
        CliTest.Run batch =
                CliTest.run(idsLine, "parse", "--format", "hermes", "--jsonl", "--tokenizer", tok);
        assertEquals(0, batch.code(), batch.err());
        assertEquals(text.out(), batch.out());
        JsonObject message =
                JsonParser.parseString(batch.out()).getAsJsonObject().getAsJsonObject("message");
        assertEquals("Write <tool_call> so. ", message.get("content").getAsString());
        assertEquals(1, message.getAsJsonArray("tool_calls").size());
        for (String max : List.of("1", "3", "40")) {
            CliTest.Run s =
                    CliTest.run(
                            idsLine,
                            "parse",
                            "--format",
                            "hermes",
                            "--jsonl",
                            "--stream",
                            "--chunk-max",
                            max,
                            "--tokenizer",
                            tok);
            JsonArray deltas =
                    JsonParser.parseString(s.out()).getAsJsonObject().getAsJsonArray("deltas");
            StringBuilder content = new StringBuilder();
            int calls = 0;
            for (var d : deltas) {
                JsonObject o = d.getAsJsonObject();
                if (o.has("content")) content.append(o.get("content").getAsString());
                if (o.has("tool_calls")) calls++;
            }
            assertEquals("Write <tool_call> so. ", content.toString(), max);
            assertTrue(calls > 0, max);
        }
    }

    @Test
    void badIdLinesAreAnsweredInTheirPlace() throws IOException {
        String tok = tokenizer().toString();
        String in =
                "{\"ids\": [104, 105]}\n{\"ids\": [104, 299]}\n{\"ids\": [104, 255]}\n{\"ids\": [1.5]}\n{\"ids\": [104], \"input\": \"h\"}\n";
        CliTest.Run r =
                CliTest.run(in, "parse", "--format", "hermes", "--jsonl", "--tokenizer", tok);
        assertEquals(0, r.code(), r.err());
        List<String> lines = r.lines();
        assertEquals(5, lines.size(), r.out());
        assertTrue(lines.get(0).contains("\"content\":\"hi\""), lines.get(0));
        assertTrue(
                lines.get(1).contains("\"type\":\"invalid_input\"") && lines.get(1).contains("299"),
                lines.get(1));
        assertTrue(lines.get(2).contains("\"type\":\"invalid_utf8\""), lines.get(2));
        assertTrue(lines.get(3).contains("\"type\":\"invalid_input\""), lines.get(3));
        assertTrue(lines.get(4).contains("not both"), lines.get(4));
        CliTest.Run without =
                CliTest.run("{\"ids\": [104]}\n", "parse", "--format", "hermes", "--jsonl");
        assertTrue(without.out().contains("need --tokenizer"), without.out());
        CliTest.Run notJsonl = CliTest.run("", "parse", "--format", "hermes", "--tokenizer", tok);
        assertEquals(2, notJsonl.code());
        CliTest.Run missing =
                CliTest.run(
                        "",
                        "parse",
                        "--format",
                        "hermes",
                        "--jsonl",
                        "--tokenizer",
                        dir.resolve("nope").toString());
        assertEquals(2, missing.code());
        assertTrue(missing.err().contains("no such file"), missing.err());
    }

    @Test
    void tokensPrintsEachIdAndTheDecodedText() throws IOException {
        String tok = tokenizer().toString();
        CliTest.Run r = CliTest.run("", "tokens", "--tokenizer", tok, "--ids", "300,0xx");
        assertEquals(2, r.code());
        r = CliTest.run("", "tokens", "--tokenizer", tok, "--ids", "300,195,169,302");
        assertEquals(0, r.code(), r.err());
        List<String> lines = r.lines();
        assertEquals(5, lines.size(), r.out());
        assertEquals(
                "{\"id\":300,\"piece\":\"<tool_call>\",\"added\":true,\"special\":false}",
                lines.get(0));
        assertEquals(
                "{\"id\":195,\"piece\":\"<0xC3>\",\"added\":false,\"special\":false}",
                lines.get(1));
        assertEquals(
                "{\"id\":302,\"piece\":\"<|im_end|>\",\"added\":true,\"special\":true}",
                lines.get(3));
        assertEquals("{\"text\":\"<tool_call>é<|im_end|>\"}", lines.get(4));
        r = CliTest.run("", "tokens", "--tokenizer", tok, "--text", "a<tool_call>b<|im_end|>");
        assertEquals(0, r.code(), r.err());
        assertEquals(4, r.lines().size(), r.out());
        assertTrue(r.lines().get(1).contains("\"id\":300"), r.out());
        assertTrue(r.lines().get(3).contains("\"special\":true"), r.out());
    }

    @Test
    void checkReportsMarkersTheVocabularyLacksOrThatGoUnlisted() throws IOException {
        String tok = tokenizer().toString();
        // hermes lists both markers, and this vocabulary has them as single tokens
        CliTest.Run ok = CliTest.run("", "check", "--tokenizer", tok, "--format", "hermes");
        assertEquals(0, ok.code(), ok.out() + ok.err());
        // deepseek_v3 lists markers this vocabulary spells as several tokens
        CliTest.Run lacking =
                CliTest.run("", "check", "--tokenizer", tok, "--format", "deepseek_v3");
        assertEquals(1, lacking.code());
        assertTrue(
                lacking.out().contains("special token '<｜tool▁calls▁begin｜>' is not one token of"),
                lacking.out());
        // berrylm writes <tool_call> in its grammar without listing it
        CliTest.Run unlisted = CliTest.run("", "check", "--tokenizer", tok, "--format", "berrylm");
        assertEquals(1, unlisted.code());
        assertTrue(
                unlisted.out().contains("spells out token '<tool_call>' (id 300, added)"),
                unlisted.out());
        assertTrue(
                unlisted.out().contains("fix: add '<tool_call>' to \"specialTokens\""),
                unlisted.out());
    }
}
