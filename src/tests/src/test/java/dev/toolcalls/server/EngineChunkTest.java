package dev.toolcalls.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.google.gson.JsonArray;
import com.google.gson.JsonElement;
import com.google.gson.JsonObject;
import com.google.gson.JsonParseException;

import dev.toolcalls.internal.json.Json;

import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;

/**
 * The engine event reader against a strict JSON parser and a tree: on real event shapes and on
 * thousands of seeded mutations of them, it accepts exactly the texts that are one strict JSON
 * object and takes the same fields a tree gives.
 */
class EngineChunkTest {
    static final List<String> EVENTS =
            List.of(
                    GatewayBenchmark.EVENT,
                    "{\"id\":\"cmpl-1\",\"object\":\"text_completion\",\"created\":1,\"model\":\"m\",\"choices\":[{\"index\":0,\"text\":\"\\u00e9t\\u00e9 \\ud83d\\ude00 \\\"q\\\" \\\\ \\/ \\b\\f\\n\\r\\t\",\"logprobs\":null,\"finish_reason\":\"stop\"}],\"usage\":{\"prompt_tokens\":5,\"completion_tokens\":7,\"total_tokens\":12}}",
                    "{\"choices\":[{\"index\":1,\"text\":\"other\"},{\"index\":0,\"text\":\"mine\",\"finish_reason\":\"length\"}]}",
                    " {\n \"choices\" : [ { \"text\" : \"été ☀\" , \"index\" : 0.0 } ] , \"usage\" : null } ",
                    "{\"error\":{\"message\":\"boom\",\"code\":500}}",
                    "{\"error\":null,\"choices\":[]}",
                    "{\"choices\":[{\"index\":-2e0,\"text\":null,\"finish_reason\":7}, 3, \"x\", [], {}]}",
                    "{\"choices\":{\"text\":\"not an array\"},\"extra\":[1,-0.5e+3,true,false,null,{\"a\":[[{}]]}]}",
                    "{}");

    @Test
    void takesWhatATreeGives() throws Json.NotJson {
        for (String e : EVENTS) assertSame(e, expected(e), EngineChunk.read(e));
    }

    @Test
    void readsTheFields() {
        EngineChunk c = EngineChunk.read(EVENTS.get(1));
        assertEquals("\u00e9t\u00e9 \ud83d\ude00 \"q\" \\ / \b\f\n\r\t", c.choices().get(0).text());
        assertEquals("stop", c.choices().get(0).finishReason());
        assertEquals(12, c.usage().getAsJsonObject().get("total_tokens").getAsInt());
        EngineChunk two = EngineChunk.read(EVENTS.get(2));
        assertTrue(two.choices().get(0).other());
        assertFalse(two.choices().get(1).other());
        assertNull(EngineChunk.read(EVENTS.get(5)).error());
    }

    @Test
    void rejectsWhatIsNotOneObject() {
        for (String bad :
                List.of(
                        "",
                        "[]",
                        "\"text\"",
                        "{\"a\":1}{}",
                        "{\"a\":01}",
                        "{\"a\":1.}",
                        "{\"a\":\"\t\"}",
                        "{\"a\":\"\\x\"}",
                        "{\"a\":\"\\u12g4\"}",
                        "{\"a\":[1,]}",
                        "{\"a\":1,}",
                        "{'a':1}",
                        "{\"a\":tru}",
                        "{\"a\" 1}",
                        "{\"a\":[1 2]}",
                        "{\"a\":{\"b\":1]}",
                        "{\"choices\":[{\"text\":\"cut",
                        "{\"a\":" + "[".repeat(300) + "]".repeat(300) + "}")) {
            JsonParseException x =
                    assertThrows(JsonParseException.class, () -> EngineChunk.read(bad), bad);
            assertTrue(x.getMessage().contains("at character"), x.getMessage());
        }
    }

    /** Seeded mutations: accepted exactly when strict JSON, and then the same fields. */
    @Test
    void agreesWithAStrictParserOnMutations() {
        Random random = new Random(7);
        String alphabet = "{}[]:,\"\\ 0123456789.-+eEtrufalsn\t\nxu";
        int accepted = 0;
        int rejected = 0;
        for (int round = 0; round < 20_000; round++) {
            StringBuilder b = new StringBuilder(EVENTS.get(random.nextInt(EVENTS.size())));
            for (int k = random.nextInt(3); k >= 0; k--) {
                int at = random.nextInt(b.length() + 1);
                char c = alphabet.charAt(random.nextInt(alphabet.length()));
                switch (random.nextInt(3)) {
                    case 0 -> b.insert(at, c);
                    case 1 -> {
                        if (at < b.length()) b.deleteCharAt(at);
                    }
                    default -> {
                        if (at < b.length()) b.setCharAt(at, c);
                    }
                }
            }
            String text = b.toString();
            Expected want;
            try {
                want = expected(text);
            } catch (Json.NotJson | IllegalStateException notAnObject) {
                assertThrows(JsonParseException.class, () -> EngineChunk.read(text), text);
                rejected++;
                continue;
            }
            assertSame(text, want, EngineChunk.read(text));
            accepted++;
        }
        assertTrue(accepted > 1000 && rejected > 1000, accepted + " / " + rejected);
    }

    record Expected(JsonElement error, JsonElement usage, List<EngineChunk.Choice> choices) {}

    /** The fields taken from a strict parser's tree. */
    static Expected expected(String text) throws Json.NotJson {
        JsonElement root = Json.parseStrict(text);
        if (!root.isJsonObject()) throw new IllegalStateException("not an object");
        JsonObject o = root.getAsJsonObject();
        JsonElement error = o.get("error");
        if (error != null && error.isJsonNull()) error = null;
        List<EngineChunk.Choice> choices = new ArrayList<>();
        JsonElement cs = o.get("choices");
        if (cs != null && cs.isJsonArray()) {
            for (JsonElement c : (JsonArray) cs) {
                if (!c.isJsonObject()) continue;
                JsonObject co = c.getAsJsonObject();
                JsonElement index = co.get("index");
                boolean other =
                        index != null
                                && JsonChecks.is(index, JsonChecks.Kind.INTEGER)
                                && index.getAsBigDecimal().signum() != 0;
                choices.add(
                        new EngineChunk.Choice(
                                other, string(co.get("text")), string(co.get("finish_reason"))));
            }
        }
        return new Expected(error, o.get("usage"), choices);
    }

    static String string(JsonElement e) {
        return e != null && JsonChecks.is(e, JsonChecks.Kind.STRING) ? e.getAsString() : null;
    }

    static void assertSame(String text, Expected want, EngineChunk got) {
        assertEquals(want.error(), got.error(), text);
        assertEquals(want.usage(), got.usage(), text);
        assertEquals(want.choices(), got.choices(), text);
    }
}
