package dev.toolcalls;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.google.gson.JsonObject;

import dev.toolcalls.internal.constraint.ClosedObjects;
import dev.toolcalls.internal.json.Json;

import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;

/**
 * Closed objects ({@link ConstraintOptions#withClosedObjects}): an object schema that does not say
 * {@code additionalProperties} takes no further key. The schemas are closed where they hold schemas
 * and nowhere else, and xgrammar accepts a key the schema does not name only in the open grammar,
 * at the top and in a nested object, for JSON arguments and for key/value arguments.
 */
class ConstraintClosedObjectsTest {
    static final String TOOLS =
            "[{\"type\":\"function\",\"function\":{\"name\":\"set\",\"parameters\":{\"type\":\"object\","
                    + "\"properties\":{\"city\":{\"type\":\"string\"},"
                    + "\"opts\":{\"type\":\"object\",\"properties\":{\"unit\":{\"type\":\"string\"}}}},"
                    + "\"required\":[\"city\"]}}}]";

    @Test
    void closesTheSchemasWhereSchemasAre() {
        JsonObject f =
                Json.parse(
                                "{\"name\":\"f\",\"parameters\":{\"type\":\"object\",\"properties\":{"
                                        + "\"properties\":{\"type\":\"object\",\"properties\":{\"a\":{\"type\":\"string\"}}},"
                                        + "\"open\":{\"type\":\"object\",\"additionalProperties\":true},"
                                        + "\"list\":{\"type\":\"array\",\"items\":{\"properties\":{\"b\":{}}}},"
                                        + "\"either\":{\"anyOf\":[{\"type\":[\"object\",\"null\"]},{\"type\":\"string\"}]},"
                                        + "\"both\":{\"allOf\":[{\"type\":\"object\",\"properties\":{\"c\":{\"type\":\"object\"}}}]}},"
                                        + "\"$defs\":{\"d\":{\"type\":\"object\"}}}}")
                        .getAsJsonObject();
        ClosedObjects.closeParameters(f);
        JsonObject p = f.getAsJsonObject("parameters");
        JsonObject props = p.getAsJsonObject("properties");
        assertEquals("false", p.get("additionalProperties").toString());
        // a property named "properties" is a property, its schema closed like any other
        assertEquals(
                "false",
                props.getAsJsonObject("properties").get("additionalProperties").toString());
        assertTrue(!props.has("additionalProperties"));
        assertEquals("true", props.getAsJsonObject("open").get("additionalProperties").toString());
        assertEquals(
                "false",
                props.getAsJsonObject("list")
                        .getAsJsonObject("items")
                        .get("additionalProperties")
                        .toString());
        JsonObject either =
                props.getAsJsonObject("either").getAsJsonArray("anyOf").get(0).getAsJsonObject();
        assertEquals("false", either.get("additionalProperties").toString());
        assertTrue(
                !props.getAsJsonObject("either")
                        .getAsJsonArray("anyOf")
                        .get(1)
                        .getAsJsonObject()
                        .has("additionalProperties"));
        // an allOf member stays open (closed alone it would refuse what the others add); what
        // lies below it is closed
        JsonObject member =
                props.getAsJsonObject("both").getAsJsonArray("allOf").get(0).getAsJsonObject();
        assertTrue(!member.has("additionalProperties"));
        assertEquals(
                "false",
                member.getAsJsonObject("properties")
                        .getAsJsonObject("c")
                        .get("additionalProperties")
                        .toString());
        assertEquals(
                "false",
                p.getAsJsonObject("$defs")
                        .getAsJsonObject("d")
                        .get("additionalProperties")
                        .toString());
    }

    @Test
    void aKeyTheSchemaDoesNotNameOnlyInTheOpenGrammar() {
        Tools tools = Tools.parse(TOOLS);
        // a format, and its call with the arguments in place of ARGS, each argument as KEY=VALUE
        String[][] formats = {
            {
                "hermes",
                "<tool_call>\n{\"name\": \"set\", \"arguments\": {ARGS}}\n</tool_call>",
                "\"%s\": %s",
                ", "
            },
            {
                "qwen3_coder",
                "<tool_call>\n<function=set>\nARGS</function>\n</tool_call>",
                "<parameter=%s>\n%s\n</parameter>\n",
                ""
            }
        };
        // the arguments, and whether the closed grammar takes them
        Object[][] args = {
            {new String[][] {{"city", "\"Paris\""}}, true},
            {new String[][] {{"city", "\"Paris\""}, {"opts", "{\"unit\": \"c\"}"}}, true},
            {new String[][] {{"city", "\"Paris\""}, {"zone", "\"x\""}}, false},
            {new String[][] {{"city", "\"Paris\""}, {"opts", "{\"unit\": \"c\", \"z\": 1}"}}, false}
        };
        List<ConstraintXgrammarTest.Job> jobs = new ArrayList<>();
        for (String[] f : formats) {
            Format format = Formats.get(f[0]);
            List<ConstraintXgrammarTest.Check> open = new ArrayList<>();
            List<ConstraintXgrammarTest.Check> closed = new ArrayList<>();
            for (Object[] a : args) {
                List<String> parts = new ArrayList<>();
                for (String[] kv : (String[][]) a[0]) {
                    // key/value formats write a string argument raw
                    String v = f[3].isEmpty() ? kv[1].replaceAll("^\"(.*)\"$", "$1") : kv[1];
                    parts.add(String.format(f[2], kv[0], v));
                }
                String text = f[1].replace("ARGS", String.join(f[3], parts));
                List<ParseEvent.ToolCallEnd> calls = new ArrayList<>();
                for (ParseEvent ev : format.parseEvents(text, tools, ParseOptions.defaults()))
                    if (ev instanceof ParseEvent.ToolCallEnd end) calls.add(end);
                assertEquals(1, calls.size(), f[0] + ": the parser reads one call in " + text);
                open.add(new ConstraintXgrammarTest.Check(f[0], "open: " + text, "", text, true));
                closed.add(
                        new ConstraintXgrammarTest.Check(
                                f[0], "closed: " + text, "", text, (Boolean) a[1]));
            }
            String openGrammar = format.constraint(tools, ConstraintOptions.defaults());
            String closedGrammar =
                    format.constraint(tools, ConstraintOptions.defaults().withClosedObjects(true));
            assertTrue(
                    closedGrammar.length() < openGrammar.length(),
                    f[0] + ": the closed grammar writes no rule for the other keys");
            jobs.add(new ConstraintXgrammarTest.Job(openGrammar, open));
            jobs.add(new ConstraintXgrammarTest.Job(closedGrammar, closed));
        }
        assertEquals(List.of(), ConstraintXgrammarTest.disagreements(jobs));
    }
}
