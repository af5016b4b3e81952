package dev.toolcalls.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.toolcalls.ChatMessage;
import dev.toolcalls.Formats;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

import java.util.List;

/**
 * The calls shape the benchmarks and the side-by-side with other parsers measure: short calls with
 * prose between, in every format of the matrix, of exactly the size asked for.
 */
class CallsShapeTest {
    static List<String> matrix() {
        return Corpora.MATRIX;
    }

    @ParameterizedTest
    @MethodSource("matrix")
    void shortCallsWithProseBetween(String format) {
        Corpora.Output o = Corpora.shape(Formats.get(format), "calls", 10_000);
        assertEquals(10_000, o.length(), format);
        ChatMessage m = o.parse();
        assertEquals(o.expected(), m, format);
        // a sentence before each call, and one after the last
        int calls = m.toolCalls().size();
        assertTrue(calls >= 20, format + ": " + calls + " calls in 10 000 characters");
        String text = o.text();
        assertTrue(Character.isLetter(text.charAt(0)), format + ": starts with prose");
        char last = text.charAt(text.length() - 1);
        assertTrue(Character.isLetter(last) || last == '.', format + ": ends with prose");
        assertTrue(m.content() != null && m.content().length() > 10 * calls, format);
    }

    @Test
    void aFormatThatReadsNoProseAfterItsCallsHasNoCallsShape() {
        IllegalStateException e =
                assertThrows(
                        IllegalStateException.class,
                        () -> Corpora.shape(Formats.get("cohere_command"), "calls", 10_000));
        assertTrue(
                e.getMessage().startsWith("format cohere_command reads no prose between calls"),
                e.getMessage());
    }
}
