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
 * A call's end event comes in the very feed that makes its end certain: the one that delivers the
 * last character of its end marker (or, without a marker, what shows the call is over) — so a
 * consumer can start executing a call while the model goes on writing.
 */
class EventTimingTest {
    static Stream<Arguments> calls() {
        return Stream.of(
                Arguments.of(
                        "hermes",
                        "Sure. <tool_call>{\"name\": \"f\", \"arguments\": {\"a\": 1}}</tool_call>",
                        " then more text"),
                Arguments.of(
                        "qwen3_coder",
                        "<tool_call>\n<function=f>\n<parameter=a>\n1\n</parameter>\n</function>\n</tool_call>",
                        "\nafter"),
                Arguments.of(
                        "glm47",
                        "<tool_call>f<arg_key>a</arg_key><arg_value>1</arg_value></tool_call>",
                        "after"),
                Arguments.of(
                        "kimi_k2",
                        "<|tool_calls_section_begin|><|tool_call_begin|>functions.f:0<|tool_call_argument_begin|>{\"a\": 1}<|tool_call_end|>",
                        "<|tool_calls_section_end|>"),
                Arguments.of(
                        "deepseek_v3",
                        "<\uff5ctool\u2581calls\u2581begin\uff5c><\uff5ctool\u2581call\u2581begin\uff5c>function<\uff5ctool\u2581sep\uff5c>f\n```json\n{\"a\": 1}\n```<\uff5ctool\u2581call\u2581end\uff5c>",
                        "<\uff5ctool\u2581calls\u2581end\uff5c>"),
                Arguments.of("mistral", "[TOOL_CALLS]f[ARGS]{\"a\": 1}", "[TOOL_CALLS]g[ARGS]{}"));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("calls")
    void theEndComesWithTheFeedThatCompletesTheCall(String format, String call, String rest) {
        Format f = Formats.get(format);
        String text = call + rest;
        StreamParser s = f.newStream(Tools.none(), ParseOptions.defaults().withThinking(false));
        List<ParseEvent> seen = new ArrayList<>();
        int endAt = -1;
        for (int i = 0; i < text.length(); i++) {
            List<ParseEvent> out = s.feed(text.substring(i, i + 1));
            seen.addAll(out);
            if (endAt < 0 && out.stream().anyMatch(e -> e instanceof ParseEvent.ToolCallEnd))
                endAt = i + 1;
        }
        seen.addAll(s.finish());
        ParseEvent.ToolCallEnd end =
                (ParseEvent.ToolCallEnd)
                        seen.stream()
                                .filter(e -> e instanceof ParseEvent.ToolCallEnd)
                                .findFirst()
                                .orElseThrow();
        assertEquals("f", end.name());
        assertTrue(end.arguments().matches("\\{\"a\": ?\"?1\"?\\}"), end.arguments());
        // a marker-ended call ends with its marker's last character; one without (mistral) when its
        // arguments close
        int certain = call.length();
        assertTrue(
                endAt > 0 && endAt <= certain,
                format + ": end event after " + endAt + " characters, certain after " + certain);
        int startIndex =
                seen.indexOf(
                        seen.stream()
                                .filter(e -> e instanceof ParseEvent.ToolCallStart)
                                .findFirst()
                                .orElseThrow());
        assertTrue(startIndex < seen.indexOf(end));
    }
}
