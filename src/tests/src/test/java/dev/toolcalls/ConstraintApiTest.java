package dev.toolcalls;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.google.gson.JsonObject;
import com.google.gson.JsonParser;

import org.junit.jupiter.api.Test;

/** The constraint API's targets, their shapes and its errors (no grammar engine needed). */
class ConstraintApiTest {
    static final Tools WEATHER =
            Tools.parse(
                    "[{\"type\":\"function\",\"function\":{\"name\":\"get_weather\",\"parameters\":{\"type\":\"object\","
                            + "\"properties\":{\"city\":{\"type\":\"string\"},\"days\":{\"type\":\"integer\"}},\"required\":[\"city\"]}}}]");

    private static String build(String format, Tools tools, ConstraintOptions o) {
        return Formats.get(format).constraint(tools, o);
    }

    @Test
    void gbnfStartsAtRootAndNamesOnlyTheTools() {
        String g = build("hermes", WEATHER, ConstraintOptions.defaults());
        assertTrue(g.startsWith("root ::= "), g);
        assertTrue(
                g.contains("\"\\\"\" ( \"g\" | \"\\\\u0067\" ) ( \"e\" | \"\\\\u0065\" )"),
                "the tool's name as a JSON string, each character raw or escaped");
        assertTrue(g.contains("\"\\\"city\\\"\""), "its property");
        assertFalse(g.contains(" | |"), "no empty alternative");
        String none = build("hermes", WEATHER, ConstraintOptions.defaults().withToolChoice("none"));
        assertFalse(none.contains("\"<tool_call>\" m_"), "no call under none");
    }

    @Test
    void llamaCppIsLazyUnderAutoWithTheCallMarkersAsTriggers() {
        JsonObject auto =
                JsonParser.parseString(
                                build(
                                        "hermes",
                                        WEATHER,
                                        ConstraintOptions.defaults()
                                                .withTarget(ConstraintOptions.Target.LLAMA_CPP)))
                        .getAsJsonObject();
        assertTrue(auto.get("grammar_lazy").getAsBoolean());
        JsonObject trigger = auto.getAsJsonArray("grammar_triggers").get(0).getAsJsonObject();
        assertEquals("word", trigger.get("type").getAsString());
        assertEquals("<tool_call>", trigger.get("value").getAsString());
        assertTrue(auto.get("grammar").getAsString().startsWith("root ::= \"<tool_call>\""));
        assertTrue(auto.getAsJsonArray("preserved_tokens").toString().contains("<tool_call>"));
        assertTrue(auto.has("thinking_start_tag") && auto.has("thinking_end_tag"));
        JsonObject required =
                JsonParser.parseString(
                                build(
                                        "hermes",
                                        WEATHER,
                                        ConstraintOptions.defaults()
                                                .withToolChoice("required")
                                                .withTarget(ConstraintOptions.Target.LLAMA_CPP)))
                        .getAsJsonObject();
        assertFalse(required.get("grammar_lazy").getAsBoolean());
        assertEquals(0, required.getAsJsonArray("grammar_triggers").size());
    }

    @Test
    void structuralTagAndLarkCarryTheSameGrammar() {
        String gbnf = build("qwen3_coder", WEATHER, ConstraintOptions.defaults());
        JsonObject tag =
                JsonParser.parseString(
                                build(
                                        "qwen3_coder",
                                        WEATHER,
                                        ConstraintOptions.defaults()
                                                .withTarget(
                                                        ConstraintOptions.Target.STRUCTURAL_TAG)))
                        .getAsJsonObject();
        assertEquals("structural_tag", tag.get("type").getAsString());
        assertEquals("grammar", tag.getAsJsonObject("format").get("type").getAsString());
        assertEquals(gbnf, tag.getAsJsonObject("format").get("grammar").getAsString());
        String lark =
                build(
                        "qwen3_coder",
                        WEATHER,
                        ConstraintOptions.defaults().withTarget(ConstraintOptions.Target.LARK));
        assertTrue(lark.startsWith("start: root\nroot: "), lark);
        assertFalse(lark.contains("::="));
        assertFalse(
                lark.matches("(?s).*[ (|:]\"\"[ )|\n].*"),
                "the empty string is an empty alternative");
    }

    @Test
    void schemasTheTargetCannotSayAreRefusedNamingToolAndKeyword() {
        Tools pattern =
                Tools.parse(
                        "[{\"type\":\"function\",\"function\":{\"name\":\"f\",\"parameters\":{\"type\":\"object\","
                                + "\"patternProperties\":{\"^x\":{\"type\":\"string\"}}}}}]");
        ConstraintException e =
                assertThrows(
                        ConstraintException.class,
                        () -> build("hermes", pattern, ConstraintOptions.defaults()));
        assertEquals("f", e.tool());
        assertEquals("patternProperties", e.keyword());
        Tools outside =
                Tools.parse(
                        "[{\"type\":\"function\",\"function\":{\"name\":\"g\",\"parameters\":{\"type\":\"object\","
                                + "\"properties\":{\"a\":{\"$ref\":\"https://example.com/s.json\"}}}}}]");
        assertEquals(
                "$ref",
                assertThrows(
                                ConstraintException.class,
                                () -> build("hermes", outside, ConstraintOptions.defaults()))
                        .keyword());
        assertEquals(
                "tool_choice",
                assertThrows(
                                ConstraintException.class,
                                () ->
                                        build(
                                                "hermes",
                                                WEATHER,
                                                ConstraintOptions.defaults()
                                                        .withToolChoice("nope")))
                        .keyword());
        assertThrows(
                ConstraintException.class,
                () ->
                        build(
                                "hermes",
                                Tools.none(),
                                ConstraintOptions.defaults()
                                        .withTarget(
                                                ConstraintOptions.Target.STRUCTURAL_TAG_LEGACY)));
        assertThrows(
                ConstraintException.class,
                () ->
                        build(
                                "hermes",
                                WEATHER,
                                ConstraintOptions.defaults()
                                        .withToolChoice("required")
                                        .withTarget(
                                                ConstraintOptions.Target.STRUCTURAL_TAG_LEGACY)));
    }

    @Test
    void recursiveReferencesBecomeRecursiveRules() {
        Tools tree =
                Tools.parse(
                        "[{\"type\":\"function\",\"function\":{\"name\":\"t\",\"parameters\":{\"type\":\"object\","
                                + "\"properties\":{\"node\":{\"$ref\":\"#/$defs/node\"}},"
                                + "\"$defs\":{\"node\":{\"type\":\"object\",\"properties\":{\"kids\":{\"type\":\"array\",\"items\":{\"$ref\":\"#/$defs/node\"}}}}}}}}]");
        String g = build("hermes", tree, ConstraintOptions.defaults());
        assertTrue(g.contains("a0_ref"), g.substring(0, Math.min(2000, g.length())));
    }
}
