package dev.toolcalls;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;

/**
 * Degenerate outputs (a model repeating itself into one huge name, key or number) stream with work
 * linear in their length: a held token is resumed where the last chunk left it, never lexed again
 * from its start. Work is counted in code points the lexer examines, so the test is exact, not
 * timed.
 */
class LinearWorkTest {
    static final int N = 80_000;

    static Stream<Arguments> degenerate() {
        String name = "f".repeat(N);
        String key = "k".repeat(N);
        String digits = "1".repeat(N);
        return Stream.of(
                Arguments.of(
                        "hermes",
                        "name.json",
                        "<tool_call>{\"name\": \"" + name + "\", \"arguments\": {}}</tool_call>"),
                Arguments.of(
                        "hermes",
                        "number",
                        "<tool_call>{\"name\": \"f\", \"arguments\": {\"n\": "
                                + digits
                                + "}}</tool_call>"),
                Arguments.of(
                        "glm47",
                        "name",
                        "<tool_call>"
                                + name
                                + "<arg_key>a</arg_key><arg_value>1</arg_value></tool_call>"),
                Arguments.of(
                        "glm47",
                        "arg.key",
                        "<tool_call>f<arg_key>"
                                + key
                                + "</arg_key><arg_value>1</arg_value></tool_call>"),
                Arguments.of(
                        "qwen3_coder",
                        "arg.key",
                        "<tool_call>\n<function=f>\n<parameter="
                                + key
                                + ">\n1\n</parameter>\n</function>\n</tool_call>"),
                Arguments.of("pythonic", "lit.atom", "[f(n=" + digits + ")]"),
                Arguments.of(
                        "kimi_k2",
                        "id",
                        "<|tool_calls_section_begin|><|tool_call_begin|>functions."
                                + name
                                + ":0<|tool_call_argument_begin|>{}<|tool_call_end|><|tool_calls_section_end|>"),
                Arguments.of("mistral", "name", "[TOOL_CALLS]" + name + "[ARGS]{\"a\": 1}"));
    }

    @ParameterizedTest(name = "{0} {1}")
    @MethodSource("degenerate")
    void aHugeHeldTokenStreamsInLinearWork(String format, String role, String text) {
        Format f = Formats.get(format);
        for (int chunk : new int[] {1, 4, 64}) {
            StreamParser s = f.newStream(Tools.none(), ParseOptions.defaults().withThinking(false));
            List<ParseEvent> events = new ArrayList<>();
            for (int i = 0; i < text.length(); i += chunk)
                events.addAll(s.feed(text.substring(i, Math.min(text.length(), i + chunk))));
            events.addAll(s.finish());
            assertEquals(
                    1,
                    events.stream().filter(e -> e instanceof ParseEvent.ToolCallEnd).count(),
                    format + " " + role);
            long work = s.lexerWork();
            assertTrue(
                    work <= 3L * text.length(),
                    format
                            + " "
                            + role
                            + " in "
                            + chunk
                            + "-character chunks: the lexer examined "
                            + work
                            + " code points for "
                            + text.length());
        }
    }
}
