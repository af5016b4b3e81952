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
        // a name of whitespace alone is empty once stripped: the parser refuses it, and so does
        // the constraint
        assertTaken("dots", cases, call("\" \t\"", "x"));
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
        assertTaken("minicpm5", cases, minicpm("' '", "x"));
    }

    /**
     * A format of one key token ({@code qwen3_coder}'s {@code <parameter=NAME>}): a name of
     * whitespace alone, which the parser refuses, is not written; another name, with whitespace
     * around it, takes any value.
     */
    @Test
    void aNameOfWhitespaceAloneIsNotWritten() throws Exception {
        String head = "<tool_call>\n<function=f>\n<parameter=n>\n1\n</parameter>\n<parameter=";
        String tail = ">\nx\n</parameter>\n</function>\n</tool_call>";
        assertTaken("qwen3_coder", Map.of(head + " m " + tail, true), head + " \t" + tail);
        // a tool of no parameters: any name but whitespace alone
        String none = "<tool_call>\n<function=g>\n<parameter=";
        assertTaken(
                "qwen3_coder",
                "[{\"type\":\"function\",\"function\":{\"name\":\"g\"}}]",
                Map.of(none + " m " + tail, true),
                none + " " + tail);
    }

    /**
     * Each case is one call to the format's parser and taken by web-xgrammar under the format's
     * constraint exactly where it is marked true; {@code refused}, which the parser refuses, is not
     * taken.
     */
    private static void assertTaken(String format, Map<String, Boolean> cases, String refused)
            throws Exception {
        assertTaken(format, TOOLS, cases, refused);
    }

    private static void assertTaken(
            String format, String toolsJson, Map<String, Boolean> cases, String refused)
            throws Exception {
        Format f = Formats.get(format);
        Tools tools = Tools.parse(toolsJson);
        List<ConstraintXgrammarTest.Check> checks = new ArrayList<>();
        List<Boolean> want = new ArrayList<>();
        for (Map.Entry<String, Boolean> c : cases.entrySet()) {
            ChatMessage m = f.parse(c.getKey(), tools, ParseOptions.defaults());
            assertEquals(1, m.toolCalls().size(), c.getKey());
            checks.add(
                    new ConstraintXgrammarTest.Check(
                            format, "keys", c.getKey(), c.getKey(), c.getValue()));
            want.add(c.getValue());
        }
        assertThrows(
                ToolCallParseException.class,
                () -> f.parse(refused, tools, ParseOptions.defaults()));
        checks.add(new ConstraintXgrammarTest.Check(format, "keys", refused, refused, false));
        want.add(false);
        assertEquals(
                List.of(want),
                ConstraintXgrammarTest.run(
                        List.of(
                                new ConstraintXgrammarTest.Job(
                                        f.constraint(tools, ConstraintOptions.defaults()),
                                        checks))));
    }
}
