package dev.toolcalls;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The names of parameters a tool does not declare, in a format whose parameter names are written in
 * double quotes, single quotes or bare ({@code dots}): the quoted tokens share one matcher of the
 * names in the characters both read, and each adds the names holding a character only it reads.
 * Under the constraint (checked by web-xgrammar 0.1.27), an undeclared name in either quote holding
 * the other quote takes any value, and a declared name, with or without whitespace around it (which
 * the parser strips), takes only values of its type.
 */
class ConstraintOtherKeysTest {
    private static final String TOOLS =
            "[{\"type\":\"function\",\"function\":{\"name\":\"f\",\"parameters\":{\"type\":\"object\","
                    + "\"properties\":{\"n\":{\"type\":\"integer\"}},\"required\":[\"n\"]}}}]";

    private static String call(String name, String value) {
        return "<dots_function_call>\n<invoke name=\"f\">\n<parameter name=\"n\">1</parameter>\n"
                + "<parameter name="
                + name
                + ">"
                + value
                + "</parameter>\n</invoke>\n</dots_function_call>";
    }

    @Test
    void undeclaredNamesTakeAnyValueAndDeclaredOnesTheirType() throws Exception {
        Map<String, Boolean> cases = new LinkedHashMap<>();
        // undeclared: any value, whatever quote they hold
        cases.put(call("\"it's\"", "x"), true);
        cases.put(call("'say \"hi\"'", "x"), true);
        cases.put(call("\"n'\"", "x"), true);
        cases.put(call("'\"n'", "x"), true);
        cases.put(call("\"nn\"", "x"), true);
        cases.put(call("'m'", "x"), true);
        cases.put(call("m", "x"), true);
        cases.put(call("\" n x\"", "x"), true);
        cases.put(call("\" nn \"", "x"), true);
        cases.put(call("'\tm'", "x"), true);
        cases.put(call("\"m\t\"", "x"), true);
        cases.put(call("\"n<\"", "x"), true);
        cases.put(call("'a=b'", "x"), true);
        // declared, whitespace around it stripped: an integer only
        cases.put(call("\" n \"", "2"), true);
        cases.put(call("\" n \"", "x"), false);
        cases.put(call("'\tn'", "2"), true);
        cases.put(call("'\tn'", "x"), false);
        cases.put(call("'n'", "x"), false);
        cases.put(call("n", "x"), false);
        Format dots = Formats.get("dots");
        Tools tools = Tools.parse(TOOLS);
        List<ConstraintXgrammarTest.Check> checks = new ArrayList<>();
        List<Boolean> want = new ArrayList<>();
        for (Map.Entry<String, Boolean> c : cases.entrySet()) {
            ChatMessage m = dots.parse(c.getKey(), tools, ParseOptions.defaults());
            assertEquals(1, m.toolCalls().size(), c.getKey());
            checks.add(
                    new ConstraintXgrammarTest.Check(
                            "dots", "keys", c.getKey(), c.getKey(), c.getValue()));
            want.add(c.getValue());
        }
        // a name of whitespace alone is empty once stripped: the parser refuses it, and so does
        // the constraint
        String blank = call("\" \t\"", "x");
        assertThrows(
                ToolCallParseException.class,
                () -> dots.parse(blank, tools, ParseOptions.defaults()));
        checks.add(new ConstraintXgrammarTest.Check("dots", "keys", blank, blank, false));
        want.add(false);
        assertEquals(
                List.of(want),
                ConstraintXgrammarTest.run(
                        List.of(
                                new ConstraintXgrammarTest.Job(
                                        dots.constraint(tools, ConstraintOptions.defaults()),
                                        checks))));
    }

    private static String minicpm(String name, String value) {
        return "<function name=\"f\"><param name=\"n\">1</param><param name="
                + name
                + ">"
                + value
                + "</param></function>";
    }

    /**
     * {@code minicpm5} reads a name in double or single quotes, with no bare token: both quotes
     * share one matcher of the names in the characters both read, and each adds the names holding
     * the other quote.
     */
    @Test
    void quotedNamesShareOneMatcher() throws Exception {
        Map<String, Boolean> cases = new LinkedHashMap<>();
        cases.put(minicpm("\"it's\"", "x"), true);
        cases.put(minicpm("'say \"hi\"'", "x"), true);
        cases.put(minicpm("\" nn \"", "x"), true);
        cases.put(minicpm("'n x'", "x"), true);
        cases.put(minicpm("\" n \"", "2"), true);
        cases.put(minicpm("\" n \"", "x"), false);
        cases.put(minicpm("'n'", "x"), false);
        Format f = Formats.get("minicpm5");
        Tools tools = Tools.parse(TOOLS);
        List<ConstraintXgrammarTest.Check> checks = new ArrayList<>();
        List<Boolean> want = new ArrayList<>();
        for (Map.Entry<String, Boolean> c : cases.entrySet()) {
            ChatMessage m = f.parse(c.getKey(), tools, ParseOptions.defaults());
            assertEquals(1, m.toolCalls().size(), c.getKey());
            checks.add(
                    new ConstraintXgrammarTest.Check(
                            "minicpm5", "keys", c.getKey(), c.getKey(), c.getValue()));
            want.add(c.getValue());
        }
        String blank = minicpm("' '", "x");
        assertThrows(
                ToolCallParseException.class, () -> f.parse(blank, tools, ParseOptions.defaults()));
        checks.add(new ConstraintXgrammarTest.Check("minicpm5", "keys", blank, blank, false));
        want.add(false);
        assertEquals(
                List.of(want),
                ConstraintXgrammarTest.run(
                        List.of(
                                new ConstraintXgrammarTest.Job(
                                        f.constraint(tools, ConstraintOptions.defaults()),
                                        checks))));
    }

    /**
     * A format of one key token ({@code qwen3_coder}'s {@code <parameter=NAME>}): a name of
     * whitespace alone, which the parser refuses, is not written; another name, with whitespace
     * around it, takes any value.
     */
    @Test
    void aNameOfWhitespaceAloneIsNotWritten() throws Exception {
        Format f = Formats.get("qwen3_coder");
        Tools tools = Tools.parse(TOOLS);
        String head = "<tool_call>\n<function=f>\n<parameter=n>\n1\n</parameter>\n<parameter=";
        String tail = ">\nx\n</parameter>\n</function>\n</tool_call>";
        String blank = head + " \t" + tail;
        String other = head + " m " + tail;
        assertThrows(
                ToolCallParseException.class, () -> f.parse(blank, tools, ParseOptions.defaults()));
        assertEquals(1, f.parse(other, tools, ParseOptions.defaults()).toolCalls().size());
        assertEquals(
                List.of(List.of(false, true)),
                ConstraintXgrammarTest.run(
                        List.of(
                                new ConstraintXgrammarTest.Job(
                                        f.constraint(tools, ConstraintOptions.defaults()),
                                        List.of(
                                                new ConstraintXgrammarTest.Check(
                                                        "qwen3_coder",
                                                        "keys",
                                                        "blank",
                                                        blank,
                                                        false),
                                                new ConstraintXgrammarTest.Check(
                                                        "qwen3_coder",
                                                        "keys",
                                                        "other",
                                                        other,
                                                        true))))));
    }
}
