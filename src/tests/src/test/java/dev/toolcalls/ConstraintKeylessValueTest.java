package dev.toolcalls;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

/**
 * A value read after a parameter's end ({@code arg.end}) and before another parameter's name has no
 * parameter to go to: the parser refuses it as malformed arguments, and so does the constraint, in
 * a format whose value can be opened without a name ({@code kimi_k3}'s {@code <|open|>argument}
 * without {@code key="…"}). The output with the name is accepted by both.
 */
class ConstraintKeylessValueTest {
    static final String TOOLS =
            "[{\"type\":\"function\",\"function\":{\"name\":\"search\",\"parameters\":{\"type\":\"object\","
                    + "\"properties\":{\"limit\":{\"type\":\"integer\"},\"q\":{\"type\":\"string\"}}}}}]";

    @Test
    void aValueWithoutANameIsRefusedByTheParserAndTheGrammar() throws Exception {
        Format format = Formats.get("kimi_k3");
        Tools tools = Tools.parse(TOOLS);
        String named =
                Files.readString(
                        Path.of("tests-data/kimi_k3/no-type-attribute-typed-by-schema.txt"));
        String keyless = named.replace(" key=\"q\"", "");
        assertTrue(!keyless.equals(named), "the case names the parameter q");
        format.parseEvents(named, tools, ParseOptions.defaults());
        ToolCallParseException refused =
                assertThrows(
                        ToolCallParseException.class,
                        () -> format.parseEvents(keyless, tools, ParseOptions.defaults()));
        assertTrue(refused.getMessage().contains("has no key"), refused.getMessage());
        String grammar = format.constraint(tools, ConstraintOptions.defaults());
        List<List<Boolean>> results =
                ConstraintXgrammarTest.run(
                        List.of(
                                new ConstraintXgrammarTest.Job(
                                        grammar,
                                        List.of(
                                                new ConstraintXgrammarTest.Check(
                                                        "kimi_k3", "named", "named", named, true),
                                                new ConstraintXgrammarTest.Check(
                                                        "kimi_k3", "keyless", "keyless", keyless,
                                                        false)))));
        assertEquals(List.of(List.of(true, false)), results);
    }
}
