package dev.toolcalls.internal.lex;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.toolcalls.Formats;
import dev.toolcalls.internal.format.FormatDefinition;

import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;

/**
 * A token's text walked once from its mode's start state is known to the format's model, and a
 * later match compares it where it lies instead of walking its characters one by one. The tokens
 * are exactly those of the walk character by character: where the known text agrees whole, where it
 * stops agreeing part way (another key or name that begins as a known one does), where the data
 * ends inside it (a token held back, resumed with the next chunk), in every split of the output
 * into two chunks and in chunks of one character (where a token's start has too few characters
 * after it for a known token to be worth looking for).
 */
class KnownTokensTest {
    private static final String CALL =
            "<tool_call>\n{\"name\": \"get_weather\", \"arguments\": {\"city\": \"Paris\"}}\n"
                    + "</tool_call>";

    /** Outputs whose keys and names begin as the call's do and then go another way. */
    private static final List<String> OTHERS =
            List.of(
                    CALL,
                    "<tool_call>\n{\"namespace\": 1, \"name\": \"get_time\", \"arguments\": {}}\n"
                            + "</tool_call>",
                    "<tool_call>{\"nam\": [2], \"argument\": \"x\", \"name\": \"get_weathers\"}"
                            + "</tool_call>",
                    "<tool_call\n{\"name\": \"get\"}</tool_cal> <tool_calls>",
                    "<tool_call>{\"name\" :\"get_weather\",\"arguments\":{\"city\":\"Par\"}}"
                            + "</tool_call>x",
                    "<tool_call>{\"name\":  \"get_weather\", \"arguments\":\t{}}</tool_call>",
                    "text <tool_ca",
                    "<tool_call>{\"name\": \"get_current_weather_forecast_for_city\"}</tool_call>"
                            + "<tool_call>{\"name\": \"get_current_weather_forecast_for_town\"}"
                            + "</tool_call>");

    private static LexerModel model() {
        return FormatDefinition.of(Formats.get("hermes")).compiled().model();
    }

    @Test
    void aWalkedTokenIsKnownAfterwards() {
        LexerModel model = model();
        assertEquals(lex(model, true, List.of(CALL)), lex(model, false, List.of(CALL)));
        boolean known = false;
        for (int way = 0; way < 2; way++) {
            LexerModel.KnownToken k = model.knownToken(0, '<', 't', way);
            if (k != null && k.text.startsWith("<tool_call>")) known = true;
        }
        assertTrue(known, "the opening tag is a known token of the default mode");
    }

    /**
     * Each output in turn taught until the model knows its tokens (an entry that keeps missing is
     * replaced), then every output lexed both ways.
     */
    @Test
    void tokensAreThoseOfTheWalkCharacterByCharacter() {
        LexerModel model = model();
        for (String taught : OTHERS) {
            for (int i = 0; i <= LexerModel.KnownToken.REPLACE_AFTER; i++)
                lex(model, true, List.of(taught));
            for (String text : OTHERS) sameTokens(model, text);
        }
    }

    private static void sameTokens(LexerModel model, String text) {
        List<List<String>> chunkings = new ArrayList<>();
        chunkings.add(List.of(text));
        for (int cut = 1; cut < text.length(); cut++)
            chunkings.add(List.of(text.substring(0, cut), text.substring(cut)));
        List<String> ones = new ArrayList<>();
        for (int i = 0; i < text.length(); i++) ones.add(text.substring(i, i + 1));
        chunkings.add(ones);
        for (List<String> chunks : chunkings)
            assertEquals(
                    lex(model, false, chunks),
                    lex(model, true, chunks),
                    () -> String.join("|", chunks));
    }

    /**
     * Every token and step of a lexer fed {@code chunks} and then completed: type, start and end of
     * each token, where the data ran out, and where the lexer was stuck.
     */
    private static List<String> lex(LexerModel model, boolean known, List<String> chunks) {
        LexerDriver d = new LexerDriver(model, 1 << 20, true, known);
        List<String> out = new ArrayList<>();
        for (int i = 0; i <= chunks.size(); i++) {
            if (i < chunks.size()) d.append(chunks.get(i));
            else d.complete();
            while (true) {
                LexerDriver.Step step = d.next();
                if (step == LexerDriver.Step.TOKEN) {
                    out.add(d.tokenType() + "@" + d.tokenStart() + "-" + d.tokenEnd());
                    continue;
                }
                if (step == LexerDriver.Step.STUCK) {
                    out.add("stuck@" + d.stuckAt());
                    return out;
                }
                out.add(step + "@" + d.position());
                break;
            }
        }
        return out;
    }
}
