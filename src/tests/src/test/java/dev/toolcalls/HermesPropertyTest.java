package dev.toolcalls;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import com.google.gson.GsonBuilder;
import com.google.gson.JsonArray;
import com.google.gson.JsonElement;
import com.google.gson.JsonNull;
import com.google.gson.JsonObject;
import com.google.gson.JsonParser;
import com.google.gson.JsonPrimitive;

import dev.toolcalls.internal.json.Json;

import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Random;

/**
 * Random Hermes outputs built from adversarial pieces (close tags, quotes and backslashes inside
 * strings, tag prefixes and emoji in content, arguments before names, extra keys, arguments as a
 * JSON string) must parse back to what was rendered, in batch and under any chunking. Skipped when
 * the hermes format is not bundled.
 */
class HermesPropertyTest {
    private static final String[] TEXT = {
        "Sure",
        " ",
        "\n",
        "<",
        "<tool",
        "<tool_cal",
        "<today>",
        "</tool_call>",
        "é",
        "中文",
        "😀",
        "{",
        "}",
        "\"",
        "\\",
        "a<b",
        "x"
    };
    private static final String[] STRING = {
        "</tool_call>",
        "<tool_call>",
        "\"",
        "\\",
        "\n",
        "😀",
        "é",
        "}",
        "{",
        "[",
        "]",
        " ",
        "a",
        "\u0001",
        "</",
        ",",
        ":"
    };

    @Test
    void renderedCallsComeBackUnderAnyChunking() {
        assumeTrue(Formats.find("hermes").isPresent(), "hermes is not bundled");
        Format hermes = Formats.get("hermes");
        Random random = new Random(20261120);
        for (int round = 0; round < 300; round++) {
            StringBuilder out = new StringBuilder();
            StringBuilder content = new StringBuilder();
            List<String> names = new ArrayList<>();
            List<JsonObject> args = new ArrayList<>();
            int calls = random.nextInt(4);
            for (int c = 0; c <= calls; c++) {
                String text = text(random);
                out.append(text);
                content.append(text);
                if (c == calls) break;
                String name = "fn_" + random.nextInt(100) + (random.nextBoolean() ? ".sub" : "");
                JsonObject a = object(random, 2);
                names.add(name);
                args.add(a);
                out.append(render(random, name, a));
            }
            String input = out.toString();
            ParseOptions options = ParseOptions.defaults().withIds(() -> IdGenerator.seeded(1));
            ChatMessage batch = hermes.parse(input, Tools.none(), options);
            String wantContent = content.toString().isBlank() ? null : content.toString();
            assertEquals(wantContent, batch.content(), input);
            assertEquals(names.size(), batch.toolCalls().size(), input);
            for (int i = 0; i < names.size(); i++) {
                assertEquals(names.get(i), batch.toolCalls().get(i).name(), input);
                assertEquals(
                        args.get(i),
                        JsonParser.parseString(batch.toolCalls().get(i).arguments()),
                        input);
            }
            for (int k = 0; k < 4; k++) {
                StreamParser s = hermes.newStream(Tools.none(), options);
                List<DeltaMessage> deltas = new ArrayList<>();
                for (int i = 0; i < input.length(); ) {
                    int n = k == 0 ? 1 : 1 + random.nextInt(12);
                    int end = Math.min(input.length(), i + n);
                    deltas.addAll(DeltaMessage.of(s.feed(input.substring(i, end))));
                    i = end;
                }
                deltas.addAll(DeltaMessage.of(s.finish()));
                assertEquals(batch, ChatMessage.fromDeltas(deltas), input);
            }
        }
    }

    private static String text(Random r) {
        StringBuilder b = new StringBuilder();
        int n = r.nextInt(5);
        for (int i = 0; i < n; i++) b.append(TEXT[r.nextInt(TEXT.length)]);
        // never let generated content spell a real opening tag
        return b.toString().replace("<tool_call>", "<tool call>");
    }

    private static String string(Random r) {
        StringBuilder b = new StringBuilder();
        int n = r.nextInt(6);
        for (int i = 0; i < n; i++) b.append(STRING[r.nextInt(STRING.length)]);
        return b.toString();
    }

    private static JsonElement value(Random r, int depth) {
        switch (r.nextInt(depth > 0 ? 7 : 5)) {
            case 0:
                return new JsonPrimitive(r.nextInt(2000) - 1000);
            case 1:
                return new JsonPrimitive(r.nextDouble() * 100);
            case 2:
                return new JsonPrimitive(r.nextBoolean());
            case 3:
                return JsonNull.INSTANCE;
            case 4:
                return new JsonPrimitive(string(r));
            case 5:
                return object(r, depth - 1);
            default:
                {
                    JsonArray a = new JsonArray();
                    for (int i = r.nextInt(3); i > 0; i--) a.add(value(r, depth - 1));
                    return a;
                }
        }
    }

    private static JsonObject object(Random r, int depth) {
        JsonObject o = new JsonObject();
        for (int i = r.nextInt(4); i > 0; i--) o.add(string(r) + i, value(r, depth));
        return o;
    }

    private static String render(Random r, String name, JsonObject args) {
        String nameMember = "\"name\": " + Json.write(new JsonPrimitive(name));
        String argsValue =
                r.nextInt(4) == 0
                        ? Json.write(new JsonPrimitive(Json.write(args)))
                        : pretty(r, args);
        String argsMember =
                (r.nextBoolean() ? "\"arguments\"" : "\"parameters\"")
                        + (r.nextBoolean() ? ": " : ":")
                        + argsValue;
        List<String> members = new ArrayList<>(List.of(nameMember, argsMember));
        if (r.nextBoolean()) Collections.reverse(members);
        if (r.nextInt(3) == 0)
            members.add(r.nextInt(members.size() + 1), "\"extra\": " + Json.write(value(r, 2)));
        String ws = r.nextBoolean() ? "\n" : "";
        return "<tool_call>"
                + ws
                + "{"
                + String.join(r.nextBoolean() ? ", " : ",", members)
                + "}"
                + ws
                + "</tool_call>";
    }

    private static String pretty(Random r, JsonObject o) {
        return r.nextBoolean()
                ? Json.write(o)
                : new GsonBuilder()
                        .setPrettyPrinting()
                        .serializeNulls()
                        .disableHtmlEscaping()
                        .create()
                        .toJson(o);
    }
}
