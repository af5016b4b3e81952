package dev.toolcalls;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;

/**
 * A call's arguments kept as pieces (long ones as they are, short ones gathered) and joined once:
 * whatever the chunking, the fragments sent concatenate to the call's final arguments, which are
 * those of the batch parse, with long values, lone surrogates at piece ends and pairs.
 */
class ArgumentPiecesTest {
    private static final String LONG = "y".repeat(300);

    private static void check(String format, String text) {
        Format f = Formats.get(format);
        String batch = f.parse(text).toolCalls().get(0).arguments();
        for (int n : new int[] {1, 2, 3, 4, 7, 64, text.length()}) {
            StreamParser p = f.newStream();
            List<ParseEvent> events = new ArrayList<>();
            for (int i = 0; i < text.length(); i += n)
                events.addAll(p.feed(text.substring(i, Math.min(text.length(), i + n))));
            events.addAll(p.finish());
            StringBuilder fragments = new StringBuilder();
            String end = null;
            for (ParseEvent e : events) {
                if (e instanceof ParseEvent.ToolCallArguments a) fragments.append(a.fragment());
                if (e instanceof ParseEvent.ToolCallEnd c) end = c.arguments();
            }
            assertEquals(batch, end, format + ", chunks of " + n);
            assertEquals(end, fragments.toString(), format + ", chunks of " + n);
        }
    }

    @Test
    void rawJsonArgumentsStreamAndJoinAlike() {
        check(
                "hermes",
                "<tool_call>{\"name\":\"f\",\"arguments\":{\"a\":\"x\uD800"
                        + LONG
                        + "\uD800\",\"b\":\"\uD83D\uDE00z\",\"c\":\""
                        + LONG.repeat(20)
                        + "\"}}</tool_call>");
    }

    @Test
    void writtenArgumentsStreamAndJoinAlike() {
        check(
                "qwen3_coder",
                "<tool_call>\n<function=f>\n<parameter=a>\nx\uD800"
                        + LONG
                        + "\uD800\n</parameter>\n<parameter=b>\n"
                        + "q\"\\\n".repeat(500)
                        + "\n</parameter>\n</function>\n</tool_call>");
    }
}
