package dev.toolcalls;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.toolcalls.internal.json.Json;

import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;

/**
 * A value the text says is JSON ({@code string="false"}, role {@code arg.as-json}) under a
 * constraint, checked by xgrammar: for a parameter of another type than a string, the grammar
 * accepts a value exactly where the parser reads it to a value of the parameter's type (JSON where
 * the stripped text is strict JSON, else the string written), for JSON and for texts that stop
 * being JSON in a literal, a number, a string, an array or an object, or after the value, and for
 * texts holding the beginnings of the markers that end a value; for a parameter that takes a string
 * likewise, but for JSON nested deeper than {@link #DEPTH} levels, which it takes as text.
 */
class ConstraintJsonValueTest {
    static final String TOOLS =
            "[{\"type\":\"function\",\"function\":{\"name\":\"set\",\"parameters\":{\"type\":\"object\","
                    + "\"properties\":{\"s\":{\"type\":\"string\"},\"i\":{\"type\":\"integer\"},"
                    + "\"o\":{\"type\":\"object\"},\"e\":{\"type\":\"string\",\"enum\":[\"c\",\"true\"]},"
                    + "\"n\":{\"type\":[\"string\",\"null\"]},\"m\":{\"type\":[\"string\",\"integer\"]},"
                    + "\"d\":{\"type\":\"string\",\"description\":\"any text\"}}}}}]";

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
        {"s", "{\"a\": [1, 2]}"},
        {"s", "{\"a\": {\"b\": 1}}"},
        {"s", "[[[1]]]"},
        {"s", "[[1], {\"a\": [2]}]"},
        {"s", "{\"a\": [1, 2]} x"},
        {"s", "[1, 2] ]"},
        {"s", "-1.5E+2"},
        {"s", "7 "},
        {"s", "\n7"},
        {"s", "\u00a07"},
        {"s", "7\u00a0"},
        {"s", "\u2003{}\u2003"},
        {"s", "\u00a0{}"},
        {"s", "true\n"},
        {"s", "false"},
        {"s", "truefalse"},
        {"s", "[true, null, false]"},
        {"s", "[tru]"},
        {"s", " \"quoted\" "},
        {"s", "\"a\" x"},
        {"s", "\"a\\\"b\""},
        {"s", "{\"a\": \"\\u00e9\\n\"}"},
        {"s", "{\"a\": \"\\u00eg\"}"},
        {"s", "{\"a\": \"\\x\"}"},
        {"s", "[\"a\tb\"]"},
        {"s", "{\"a\" : 1 , \"b\" : [ ] }"},
        {"s", "{\"a\": 1,}"},
        {"s", "[01]"},
        {"s", "[1.]"},
        {"s", "[-]"},
        {"s", "[1e5, 2E-3, -0.5]"},
        {"s", "{1: 2}"},
        {"s", "<b>"},
        {"s", "a < b"},
        {"s", "{\"a\": \"<\"}"},
        {"s", "{\"a\": \"<b>\"}"},
        {"s", "[\"</\", 1]"},
        {"s", "{\"a\": \"</MARK\"}"},
        {"s", "{\"a\": \"</MARKparameter>\"}"},
        {"s", "[\"</MARKparameter>x\"]"},
        {"s", "{\"</MARKparameter>\": 1}"},
        {"s", "[1, \"<\"] <"},
        {"s", "\"</MARKparameter>\""},
        {"s", "{\"a\": \"x\"} </MARK"},
        {"s", "[1] <"},
        {"d", "{\"a\": [1, 2]}"},
        {"d", "\"x\""},
        {"d", "x"},
        {"n", "null"},
        {"n", " null "},
        {"n", "nul"},
        {"n", "\"x\""},
        {"n", "x"},
        {"n", "{}"},
        {"n", "7"},
        {"m", "7"},
        {"m", "7.5"},
        {"m", "x"},
        {"m", "[1]"},
        {"m", "\"7\""},
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

    /** The markup of two formats whose values the text may say are JSON, MARK their namespace. */
    static final String[][] FORMATS = {
        {"deepseek_v32", "｜DSML｜", "function_calls"}, {"gigachat35", "｜GCML｜", "tool_calls"}
    };

    /**
     * JSON nested deeper than the grammar tells from text is taken as text (for a parameter that
     * takes a string), the one place it accepts more than the parser types.
     */
    static final int DEPTH = 2;

    @Test
    void acceptedExactlyWhereTheParserTypesTheValue() {
        Tools tools = Tools.parse(TOOLS);
        List<ConstraintXgrammarTest.Job> jobs = new ArrayList<>();
        for (String[] f : FORMATS) {
            Format format = Formats.get(f[0]);
            String grammar = format.constraint(tools, ConstraintOptions.defaults());
            String mark = f[1];
            List<ConstraintXgrammarTest.Check> checks = new ArrayList<>();
            for (String[] v : VALUES) {
                String value = v[1].replace("MARK", mark);
                String text =
                        "<"
                                + mark
                                + f[2]
                                + ">\n<"
                                + mark
                                + "invoke name=\"set\">\n<"
                                + mark
                                + "parameter name=\""
                                + v[0]
                                + "\" string=\"false\">"
                                + value
                                + "</"
                                + mark
                                + "parameter>\n</"
                                + mark
                                + "invoke>\n</"
                                + mark
                                + f[2]
                                + ">";
                List<ParseEvent.ToolCallEnd> calls = new ArrayList<>();
                for (ParseEvent ev : format.parseEvents(text, tools, ParseOptions.defaults()))
                    if (ev instanceof ParseEvent.ToolCallEnd end) calls.add(end);
                boolean typed =
                        calls.size() == 1
                                && (ConstraintXgrammarTest.fits(tools, calls.get(0))
                                        || !v[0].equals("i")
                                                && !v[0].equals("o")
                                                && !v[0].equals("e")
                                                && (deeper(value) || highBlankAtEnd(value)));
                checks.add(
                        new ConstraintXgrammarTest.Check(
                                format.name(),
                                f[0] + ": " + v[0] + " = " + value,
                                value,
                                text,
                                typed));
            }
            jobs.add(new ConstraintXgrammarTest.Job(grammar, checks));
        }
        assertEquals(List.of(), ConstraintXgrammarTest.disagreements(jobs));
    }

    /**
     * Whether the blanks that {@code strip()} takes from the value's ends hold one above 127:
     * xgrammar 0.1, the test engine, takes every character above 127 with a negated class, so it
     * takes such a value as text for a parameter that takes a string (an engine that reads classes
     * by code point types it).
     */
    static boolean highBlankAtEnd(String value) {
        String v = value.strip();
        String ends = v.isEmpty() ? value : value.replace(v, "");
        return ends.chars().anyMatch(c -> c > 127);
    }

    /** Whether the value, stripped, is JSON nested deeper than {@link #DEPTH} levels. */
    static boolean deeper(String value) {
        String v = value.strip();
        try {
            Json.check(v);
        } catch (Json.NotJson e) {
            return false;
        }
        try {
            Json.check(v, DEPTH);
            return false;
        } catch (Json.NotJson e) {
            return true;
        }
    }
}
