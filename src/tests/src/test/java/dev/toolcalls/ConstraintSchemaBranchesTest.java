package dev.toolcalls;

import static org.junit.jupiter.api.Assertions.assertEquals;

import com.google.gson.JsonElement;
import com.google.gson.JsonParser;

import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * A key/value format's raw values under schemas whose branches say what a value may be: a string
 * parameter whose schema allows a few strings through a union ({@code anyOf} or {@code oneOf} of
 * {@code enum} and {@code const} branches, under an {@code allOf} of one branch too) takes exactly
 * those strings, as the parser reads the value as a string and the schema allows only the union;
 * and a branch that takes any value ({@code {}}, a {@code const} beside a type) under an {@code
 * allOf} leaves the value free, as the parser keeps what fails the named types as a string, which
 * that branch takes.
 */
class ConstraintSchemaBranchesTest {
    private static String tools(String city) {
        return "[{\"type\":\"function\",\"function\":{\"name\":\"f\",\"parameters\":{\"type\":\"object\","
                + "\"properties\":{\"city\":"
                + city
                + "},\"required\":[\"city\"]}}}]";
    }

    private static String call(String value) {
        return "<tool_call>\n<function=f>\n<parameter=city>\n"
                + value
                + "\n</parameter>\n</function>\n</tool_call>";
    }

    /**
     * For each schema (the parameter {@code city}'s), each raw value is one call to the parser, and
     * web-xgrammar takes it under qwen3_coder's constraint exactly where it is marked true.
     */
    private static void assertTaken(Map<String, Map<String, Boolean>> cases) throws Exception {
        Format qwen = Formats.get("qwen3_coder");
        List<ConstraintXgrammarTest.Job> jobs = new ArrayList<>();
        List<List<Boolean>> expected = new ArrayList<>();
        for (Map.Entry<String, Map<String, Boolean>> c : cases.entrySet()) {
            Tools tools = Tools.parse(tools(c.getKey()));
            List<ConstraintXgrammarTest.Check> checks = new ArrayList<>();
            List<Boolean> want = new ArrayList<>();
            for (Map.Entry<String, Boolean> v : new TreeMap<>(c.getValue()).entrySet()) {
                String text = call(v.getKey());
                ChatMessage m = qwen.parse(text, tools, ParseOptions.defaults());
                assertEquals(1, m.toolCalls().size(), c.getKey() + " " + v.getKey());
                checks.add(
                        new ConstraintXgrammarTest.Check(
                                "qwen3_coder", c.getKey(), v.getKey(), text, v.getValue()));
                want.add(v.getValue());
            }
            jobs.add(
                    new ConstraintXgrammarTest.Job(
                            qwen.constraint(tools, ConstraintOptions.defaults()), checks));
            expected.add(want);
        }
        assertEquals(expected, ConstraintXgrammarTest.run(jobs));
    }

    @Test
    void aUnionOfStringsTakesItsStringsAndNoOther() throws Exception {
        List<String> schemas =
                List.of(
                        "{\"anyOf\":[{\"type\":\"string\",\"enum\":[\"Paris\",\"Rome\"]},{\"const\":\"Oslo\"}]}",
                        "{\"oneOf\":[{\"enum\":[\"Paris\"]},{\"enum\":[\"Rome\",\"Oslo\"]}]}",
                        "{\"allOf\":[{\"anyOf\":[{\"type\":\"string\",\"enum\":[\"Paris\",\"Rome\"]},"
                                + "{\"const\":\"Oslo\"}]}]}");
        // the parser reads each as a call; the schema allows the union's strings alone
        Map<String, Map<String, Boolean>> cases = new LinkedHashMap<>();
        for (String schema : schemas) {
            Map<String, Boolean> values = new LinkedHashMap<>();
            for (String v : List.of("Paris", "Oslo", "Rome", "Berlin", "Pari", "Paris Rome"))
                values.put(v, !v.equals("Berlin") && !v.equals("Pari") && !v.contains(" "));
            cases.put(schema, values);
        }
        assertTaken(cases);
    }

    @Test
    void aBranchThatTakesAnyValueUnderAnAllOfLeavesTheValueFree() throws Exception {
        // qwen3_coder: a boolean or anything; the text is kept as a string, which {} takes
        Format qwen = Formats.get("qwen3_coder");
        Tools anything =
                Tools.parse(tools("{\"allOf\":[{\"anyOf\":[{},{\"type\":\"boolean\"}]}]}"));
        // deepseek_v32: a number or the empty string, written as a string
        Format dsml = Formats.get("deepseek_v32");
        Tools numberOrEmpty =
                Tools.parse(
                        tools(
                                "{\"allOf\":[{\"anyOf\":[{\"type\":\"number\"},{\"const\":\"\"}]}]}"));
        String empty =
                "<\uFF5CDSML\uFF5Cfunction_calls>\n<\uFF5CDSML\uFF5Cinvoke name=\"f\">\n"
                        + "<\uFF5CDSML\uFF5Cparameter name=\"city\" string=\"true\"></\uFF5CDSML\uFF5Cparameter>\n"
                        + "</\uFF5CDSML\uFF5Cinvoke>\n</\uFF5CDSML\uFF5Cfunction_calls>";
        List<String> texts = List.of(call("{\"value\":null}"), call("true"), call("some text"));
        for (String text : texts)
            assertEquals(1, qwen.parse(text, anything, ParseOptions.defaults()).toolCalls().size());
        assertEquals(
                1, dsml.parse(empty, numberOrEmpty, ParseOptions.defaults()).toolCalls().size());
        List<ConstraintXgrammarTest.Check> checks = new ArrayList<>();
        for (String text : texts)
            checks.add(new ConstraintXgrammarTest.Check("qwen3_coder", "any", text, text, true));
        assertEquals(
                List.of(List.of(true, true, true), List.of(true)),
                ConstraintXgrammarTest.run(
                        List.of(
                                new ConstraintXgrammarTest.Job(
                                        qwen.constraint(anything, ConstraintOptions.defaults()),
                                        checks),
                                new ConstraintXgrammarTest.Job(
                                        dsml.constraint(
                                                numberOrEmpty, ConstraintOptions.defaults()),
                                        List.of(
                                                new ConstraintXgrammarTest.Check(
                                                        "deepseek_v32",
                                                        "empty",
                                                        "empty",
                                                        empty,
                                                        true))))));
    }

    /**
     * A branch that lists only values other than strings ({@code "const": 58}) takes no value the
     * parser keeps as text: a raw {@code 58} of a parameter typed as a boolean is the string "58",
     * which neither branch takes; nor does a string union take the text of its {@code false}.
     */
    @Test
    void aConstThatIsNoStringTakesNoText() throws Exception {
        Format qwen = Formats.get("qwen3_coder");
        Tools boolOr58 =
                Tools.parse(
                        tools("{\"allOf\":[{\"anyOf\":[{\"type\":\"boolean\"},{\"const\":58}]}]}"));
        Tools tabOrFalse =
                Tools.parse(
                        tools(
                                "{\"allOf\":[{\"anyOf\":[{\"type\":\"string\",\"enum\":[\"tab\"]},"
                                        + "{\"const\":false}]}]}"));
        assertEquals(
                List.of(List.of(true, false), List.of(true, false)),
                ConstraintXgrammarTest.run(
                        List.of(
                                new ConstraintXgrammarTest.Job(
                                        qwen.constraint(boolOr58, ConstraintOptions.defaults()),
                                        List.of(
                                                new ConstraintXgrammarTest.Check(
                                                        "qwen3_coder",
                                                        "bool",
                                                        "true",
                                                        call("true"),
                                                        true),
                                                new ConstraintXgrammarTest.Check(
                                                        "qwen3_coder",
                                                        "bool",
                                                        "58",
                                                        call("58"),
                                                        false))),
                                new ConstraintXgrammarTest.Job(
                                        qwen.constraint(tabOrFalse, ConstraintOptions.defaults()),
                                        List.of(
                                                new ConstraintXgrammarTest.Check(
                                                        "qwen3_coder",
                                                        "tab",
                                                        "tab",
                                                        call("tab"),
                                                        true),
                                                new ConstraintXgrammarTest.Check(
                                                        "qwen3_coder",
                                                        "tab",
                                                        "false",
                                                        call("false"),
                                                        false))))));
    }

    /**
     * A raw value typed as an object or an array is read as JSON only where it is one: its schema's
     * branches of other types ({@code "const": -2.5}, an enum's numbers) take no raw value, since
     * the parser keeps {@code -2.5} as the string "-2.5".
     */
    @Test
    void aValueReadAsJsonTakesOnlyTheBranchesOfTheTypesReadSo() throws Exception {
        Map<String, Map<String, Boolean>> cases = new LinkedHashMap<>();
        String arrayOrConst =
                "{\"allOf\":[{\"anyOf\":[{\"type\":\"array\",\"items\":{\"type\":\"string\"}},"
                        + "{\"const\":-2.5}]}]}";
        cases.put(arrayOrConst, Map.of("[\"a\"]", true, "-2.5", false, "[1]", false));
        cases.put(
                "{\"anyOf\":[{\"type\":\"object\",\"properties\":{\"a\":{\"type\":\"integer\"}},"
                        + "\"required\":[\"a\"]},{\"const\":7},{\"const\":[1,2]}]}",
                Map.of("{\"a\":1}", true, "{}", false, "7", false, "[1,2]", false));
        // a value of a type the schema does not name is a string
        ChatMessage m =
                Formats.get("qwen3_coder")
                        .parse(
                                call("-2.5"),
                                Tools.parse(tools(arrayOrConst)),
                                ParseOptions.defaults());
        String args = m.toolCalls().get(0).arguments();
        JsonElement city = JsonParser.parseString(args).getAsJsonObject().get("city");
        assertEquals("-2.5", city.getAsString(), args);
        assertTaken(cases);
    }

    /**
     * A typed value beside branches of one string each ({@code "const": "x y"}, a description
     * beside it or not) takes the typed values and those strings, and no other text: the parser
     * keeps other text as a string, which no branch takes.
     */
    @Test
    void aTypedValueBesideOneStringBranchesTakesThoseStringsAndNoOtherText() throws Exception {
        assertTaken(
                Map.of(
                        "{\"allOf\":[{\"anyOf\":[{\"type\":\"null\"},{\"const\":\"x y\",\"description\":\"d\"},"
                                + "{\"const\":\"null\"}]}]}",
                        Map.of("null", true, "x y", true, "[45]", false, "z", false)));
    }
}
