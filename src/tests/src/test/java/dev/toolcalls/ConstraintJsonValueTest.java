package dev.toolcalls;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;

/**
 * A value the text says is JSON ({@code string="false"}, role {@code arg.as-json}) under a
 * constraint, checked by xgrammar: for a parameter of another type than a string, the grammar
 * accepts a value exactly where the parser reads it to a value of the parameter's type (JSON where
 * the stripped text is strict JSON, else the string written), for JSON and for texts that stop
 * being JSON in a literal, a number, a string, an array or an object, or after the value; for a
 * string parameter, every value.
 */
class ConstraintJsonValueTest {
    static final String TOOLS =
            "[{\"type\":\"function\",\"function\":{\"name\":\"set\",\"parameters\":{\"type\":\"object\","
                    + "\"properties\":{\"s\":{\"type\":\"string\"},\"i\":{\"type\":\"integer\"},"
                    + "\"o\":{\"type\":\"object\"},\"e\":{\"type\":\"string\",\"enum\":[\"c\",\"true\"]}}}}}]";

    /** A parameter and its raw value. */
    static final String[][] VALUES = {
        {"s", "Paris"},
        {"s", "\"quoted\""},
        {"s", " 7 "},
        {"s", "{\"a\": 1}"},
        {"s", "{a: 1}"},
        {"s", "[1, 2"},
        {"s", "[1,]"},
        {"s", "[1] x"},
        {"s", "true"},
        {"s", "tru"},
        {"s", "truex"},
        {"s", "null"},
        {"s", "nullx"},
        {"s", "false "},
        {"s", "-"},
        {"s", "01"},
        {"s", "1."},
        {"s", "1e"},
        {"s", "1e+"},
        {"s", "1.5e3"},
        {"s", "-0"},
        {"s", "0x1F"},
        {"s", "NaN"},
        {"s", ""},
        {"s", "  "},
        {"s", "\"a\\q\""},
        {"s", "\"a\\u12\""},
        {"s", "\"a\\u12G4\""},
        {"s", "\"abc"},
        {"s", "\"a\tb\""},
        {"s", "{\"a\": 1, }"},
        {"s", "{\"a\" 1}"},
        {"s", "{\"a\": [1, {\"b\": 2}]}"},
        {"s", "{\"a\": [1, {\"b\": 2}]]"},
        {"s", "[[1] 2]"},
        {"s", "\u2003 7 \u2003"},
        {"s", "7\u2003x"},
        {"s", "[\u2003]"},
        {"s", "{}"},
        {"s", "[]"},
        {"s", "{} ,"},
        {"s", "\"x\" \"y\""},
        {"s", "1 2"},
        {"s", "[1 2]"},
        {"s", "{\"a\":1 \"b\":2}"},
        {"s", "{\"a\":"},
        {"s", "{\"a\""},
        {"s", "{\"a\":1,\"b\""},
        {"s", "[1.5e-3, -2]"},
        {"s", "1.5e-3x"},
        {"i", "7"},
        {"i", " 7\n"},
        {"i", "7.5"},
        {"i", "\"7\""},
        {"i", "abc"},
        {"i", ""},
        {"o", "{\"a\": 1}"},
        {"o", "{a: 1}"},
        {"o", "[1]"},
        {"o", " {} "},
        {"e", "c"},
        {"e", "\"c\""},
        {"e", "true"},
        {"e", "\"true\""},
        {"e", "d"},
        {"e", " c"}
    };

    @Test
    void acceptedExactlyWhereTheParserTypesTheValue() {
        Format format = Formats.get("deepseek_v32");
        Tools tools = Tools.parse(TOOLS);
        String grammar = format.constraint(tools, ConstraintOptions.defaults());
        List<ConstraintXgrammarTest.Check> checks = new ArrayList<>();
        for (String[] v : VALUES) {
            String text =
                    "<｜DSML｜function_calls>\n<｜DSML｜invoke name=\"set\">\n<｜DSML｜parameter name=\""
                            + v[0]
                            + "\" string=\"false\">"
                            + v[1]
                            + "</｜DSML｜parameter>\n</｜DSML｜invoke>\n</｜DSML｜function_calls>";
            List<ParseEvent.ToolCallEnd> calls = new ArrayList<>();
            for (ParseEvent ev : format.parseEvents(text, tools, ParseOptions.defaults()))
                if (ev instanceof ParseEvent.ToolCallEnd end) calls.add(end);
            // a parameter that takes any string takes any text of the value's run (text that
            // stops being JSON may not be followed past the marker that ends it): more than the
            // parser types as a string, never less
            boolean typed =
                    calls.size() == 1
                            && (v[0].equals("s")
                                    || ConstraintXgrammarTest.fits(tools, calls.get(0)));
            checks.add(
                    new ConstraintXgrammarTest.Check(
                            format.name(), v[0] + " = " + v[1], v[1], text, typed));
        }
        List<Boolean> got =
                ConstraintXgrammarTest.run(List.of(new ConstraintXgrammarTest.Job(grammar, checks)))
                        .get(0);
        List<String> wrong = new ArrayList<>();
        for (int i = 0; i < checks.size(); i++)
            if (got == null || got.get(i) != checks.get(i).accept())
                wrong.add(
                        checks.get(i).caseName()
                                + (checks.get(i).accept() ? ": rejected" : ": accepted"));
        assertEquals(List.of(), wrong);
    }
}
