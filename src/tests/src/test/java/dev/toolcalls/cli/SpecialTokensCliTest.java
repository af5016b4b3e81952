package dev.toolcalls.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.google.gson.JsonArray;
import com.google.gson.JsonObject;
import com.google.gson.JsonParser;
import com.google.gson.JsonPrimitive;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;

/**
 * Markers by identity through {@code parse --jsonl} with {@code chunks}: a marker the model wrote
 * about in prose (ordinary tokens) stays text, the same marker as a special token is a marker.
 * Pieces in {@code [[...]]} are special tokens.
 */
class SpecialTokensCliTest {
    static Stream<Arguments> outputs() {
        return Stream.of(
                Arguments.of(
                        "hermes",
                        "I use <tool_call> tags. [[<tool_call>]]{\"name\": \"f\", \"arguments\": {\"a\": 1}}[[</tool_call>]]",
                        "I use <tool_call> tags. "),
                Arguments.of(
                        "qwen3",
                        "Write </tool_call> or <tool_call>. [[<tool_call>]]{\"name\": \"f\", \"arguments\": {\"a\": 1}}[[</tool_call>]]",
                        "Write </tool_call> or <tool_call>. "),
                Arguments.of(
                        "mistral",
                        "The [TOOL_CALLS] token starts calls. [[[TOOL_CALLS]]]f[[[ARGS]]]{\"a\": 1}",
                        "The [TOOL_CALLS] token starts calls. "),
                Arguments.of(
                        "deepseek_v3",
                        "Docs mention <｜tool▁calls▁begin｜> here. [[<｜tool▁calls▁begin｜>]][[<｜tool▁call▁begin｜>]]function"
                                + "[[<｜tool▁sep｜>]]f\n```json\n{\"a\": 1}\n```[[<｜tool▁call▁end｜>]][[<｜tool▁calls▁end｜>]]",
                        "Docs mention <｜tool▁calls▁begin｜> here. "),
                Arguments.of(
                        "kimi_k2",
                        "See <|tool_calls_section_begin|> and <|tool_call_begin|>. [[<|tool_calls_section_begin|>]][[<|tool_call_begin|>]]functions.f:0"
                                + "[[<|tool_call_argument_begin|>]]{\"a\": 1}[[<|tool_call_end|>]][[<|tool_calls_section_end|>]]",
                        "See <|tool_calls_section_begin|> and <|tool_call_begin|>. "),
                Arguments.of(
                        "gpt_oss",
                        "[[<|channel|>]]final[[<|message|>]]A call ends with <|call|> and <|end|>, you see.[[<|end|>]]"
                                + "[[<|start|>]]assistant[[<|channel|>]]commentary to=functions.f [[<|constrain|>]]json[[<|message|>]]{\"a\": 1}[[<|call|>]]",
                        "A call ends with <|call|> and <|end|>, you see."),
                Arguments.of(
                        "glm47",
                        "Write <tool_call> then <arg_key>. [[<tool_call>]]f[[<arg_key>]]a[[</arg_key>]][[<arg_value>]]1[[</arg_value>]][[</tool_call>]]",
                        "Write <tool_call> then <arg_key>. "));
    }

    /** The chunks array of a marked-up output; ordinary text is cut into 3-character pieces too. */
    static JsonArray chunks(String marked) {
        JsonArray out = new JsonArray();
        for (String part : marked.split("(?=\\[\\[)|(?<=\\]\\])")) {
            if (part.startsWith("[[") && part.endsWith("]]")) {
                JsonObject special = new JsonObject();
                special.addProperty("text", part.substring(2, part.length() - 2));
                special.addProperty("special", true);
                out.add(special);
            } else {
                for (int i = 0; i < part.length(); i += 3)
                    out.add(new JsonPrimitive(part.substring(i, Math.min(part.length(), i + 3))));
            }
        }
        return out;
    }

    static String plain(String marked) {
        return marked.replace("[[", "").replace("]]", "");
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("outputs")
    void aSpelledOutMarkerIsTextAndASpecialOneIsAMarker(
            String format, String marked, String content) {
        JsonObject line = new JsonObject();
        line.addProperty("input", plain(marked));
        line.add("chunks", chunks(marked));
        line.addProperty("thinking", false);
        for (String mode : new String[] {"batch", "stream"}) {
            List<String> args = new ArrayList<>(List.of("parse", "--format", format, "--jsonl"));
            if (mode.equals("stream")) args.add("--stream");
            CliTest.Run r = CliTest.run(line + "\n", args.toArray(String[]::new));
            assertEquals(0, r.code(), r.err());
            JsonObject answer = JsonParser.parseString(r.out()).getAsJsonObject();
            assertTrue(!answer.has("error"), format + " " + mode + ": " + answer);
            String got;
            List<String> names = new ArrayList<>();
            if (mode.equals("batch")) {
                JsonObject m = answer.getAsJsonObject("message");
                got = m.get("content").getAsString();
                m.getAsJsonArray("tool_calls")
                        .forEach(
                                c ->
                                        names.add(
                                                c.getAsJsonObject()
                                                        .getAsJsonObject("function")
                                                        .get("name")
                                                        .getAsString()));
            } else {
                StringBuilder b = new StringBuilder();
                for (var d : answer.getAsJsonArray("deltas")) {
                    JsonObject o = d.getAsJsonObject();
                    if (o.has("content")) b.append(o.get("content").getAsString());
                    if (o.has("tool_calls")) {
                        JsonObject f =
                                o.getAsJsonArray("tool_calls")
                                        .get(0)
                                        .getAsJsonObject()
                                        .getAsJsonObject("function");
                        if (f.has("name")) names.add(f.get("name").getAsString());
                    }
                }
                got = b.toString();
            }
            assertEquals(content, got, format + " " + mode);
            assertEquals(List.of("f"), names, format + " " + mode);
        }
        // without the flags the spelled-out marker is taken for a marker: the answer differs
        JsonObject unflagged = new JsonObject();
        unflagged.addProperty("input", plain(marked));
        unflagged.addProperty("thinking", false);
        CliTest.Run r = CliTest.run(unflagged + "\n", "parse", "--format", format, "--jsonl");
        JsonObject answer = JsonParser.parseString(r.out()).getAsJsonObject();
        assertNotEquals(
                content,
                answer.has("message")
                                && !answer.getAsJsonObject("message").get("content").isJsonNull()
                        ? answer.getAsJsonObject("message").get("content").getAsString()
                        : null,
                format + ": " + answer);
    }
}
