package dev.toolcalls.fuzz;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.util.List;

/**
 * The fuzz targets' harness, itself checked: markers are derived, inputs of every kind pass, one
 * target can be chosen.
 */
class FuzzHarnessTest {
    @Test
    void markersAreDerivedFromTheLexerAndTheFormatFile() {
        assertTrue(
                FormatFuzz.markers("hermes").contains("<tool_call>"),
                FormatFuzz.markers("hermes").toString());
        assertTrue(
                FormatFuzz.markers("mistral").contains("[TOOL_CALLS]"),
                FormatFuzz.markers("mistral").toString());
        assertTrue(
                FormatFuzz.markers("qwen3")
                        .containsAll(List.of("<think>", "</think>", "<tool_call>")),
                FormatFuzz.markers("qwen3").toString());
        // a '[' that content may take (prose in brackets) is no marker
        assertFalse(
                FormatFuzz.markers("pythonic").contains("["),
                FormatFuzz.markers("pythonic").toString());
    }

    @Test
    void validAndBrokenOutputsPass() {
        for (String text :
                new String[] {
                    "",
                    "plain",
                    "<tool_call>{\"name\": \"f\", \"arguments\": {\"a\": 1}}</tool_call>",
                    "<tool_call>{\"name\": ",
                    "<tool_ca",
                    "\uFFFD<tool_call>\uD83D"
                }) FormatFuzz.check("hermes", text.getBytes(StandardCharsets.UTF_8));
    }

    @Test
    void oneFormatCanBeSelected() {
        assertTrue(FormatFuzz.selected("hermes"), "all run by default");
        System.setProperty(FormatFuzz.FORMAT_PROPERTY, "mistral");
        try {
            assertTrue(FormatFuzz.selected("mistral"));
            assertFalse(FormatFuzz.selected("hermes"));
            System.setProperty(FormatFuzz.FORMAT_PROPERTY, "no-such-format");
            assertThrows(IllegalStateException.class, () -> FormatFuzz.selected("hermes"));
        } finally {
            System.clearProperty(FormatFuzz.FORMAT_PROPERTY);
        }
    }
}
