package dev.toolcalls;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;

/**
 * A string parameter of a key/value format whose schema allows a few strings through a union
 * ({@code anyOf} or {@code oneOf} of {@code enum} and {@code const} branches, under an {@code
 * allOf} of one branch too) takes exactly those strings under the constraint: the parser reads the
 * value as a string and the schema allows only the union, so any other string would be a call the
 * grammar lets through and the schema refuses.
 */
class ConstraintStringUnionTest {
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

    @Test
    void aUnionOfStringsTakesItsStringsAndNoOther() throws Exception {
        List<String> schemas =
                List.of(
                        "{\"anyOf\":[{\"type\":\"string\",\"enum\":[\"Paris\",\"Rome\"]},{\"const\":\"Oslo\"}]}",
                        "{\"oneOf\":[{\"enum\":[\"Paris\"]},{\"enum\":[\"Rome\",\"Oslo\"]}]}",
                        "{\"allOf\":[{\"anyOf\":[{\"type\":\"string\",\"enum\":[\"Paris\",\"Rome\"]},"
                                + "{\"const\":\"Oslo\"}]}]}");
        Format format = Formats.get("qwen3_coder");
        List<ConstraintXgrammarTest.Job> jobs = new ArrayList<>();
        List<List<Boolean>> expected = new ArrayList<>();
        for (String schema : schemas) {
            Tools tools = Tools.parse(tools(schema));
            List<ConstraintXgrammarTest.Check> checks = new ArrayList<>();
            List<Boolean> want = new ArrayList<>();
            for (String v : List.of("Paris", "Oslo", "Rome", "Berlin", "Pari", "Paris Rome")) {
                boolean valid = !v.equals("Berlin") && !v.equals("Pari") && !v.contains(" ");
                // the parser reads each as a call; the schema allows the union's strings alone
                ChatMessage m = format.parse(call(v), tools, ParseOptions.defaults());
                assertEquals(1, m.toolCalls().size(), schema + " " + v);
                checks.add(
                        new ConstraintXgrammarTest.Check("qwen3_coder", schema, v, call(v), valid));
                want.add(valid);
            }
            jobs.add(
                    new ConstraintXgrammarTest.Job(
                            format.constraint(tools, ConstraintOptions.defaults()), checks));
            expected.add(want);
        }
        assertEquals(expected, ConstraintXgrammarTest.run(jobs));
    }
}
