package dev.toolcalls.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.toolcalls.Formats;
import dev.toolcalls.templates.ChatTemplate;

import org.junit.jupiter.api.Test;

import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.Map;

/** The request the gateway writes to its engine. */
class EngineClientTest {
    @Test
    void theRequestHeadHasItsPathQueryHostAndTheGivenHeaders() {
        byte[] head =
                EngineClient.head(
                        URI.create("http://engine.local:8000/v1/completions?a=b%20c"),
                        "Accept: text/event-stream",
                        "",
                        "Authorization: Bearer k");
        assertEquals(
                "POST /v1/completions?a=b%20c HTTP/1.1\r\n"
                        + "Host: engine.local:8000\r\n"
                        + "Accept: text/event-stream\r\n"
                        + "Authorization: Bearer k\r\n"
                        + "\r\n",
                new String(head, StandardCharsets.UTF_8));
        assertEquals(
                "POST / HTTP/1.1\r\nHost: engine.local\r\n\r\n",
                new String(
                        EngineClient.head(URI.create("https://engine.local")),
                        StandardCharsets.UTF_8));
    }

    @Test
    void anUpstreamKeyWithALineBreakIsRefused() {
        IllegalArgumentException e =
                assertThrows(
                        IllegalArgumentException.class,
                        () ->
                                new Upstream(
                                        "m",
                                        URI.create("http://127.0.0.1:8000/v1"),
                                        null,
                                        Formats.get("hermes"),
                                        ChatTemplate.of("{{ messages }}", Map.of()),
                                        Upstream.Kind.OPENAI,
                                        Map.of(),
                                        "key\r\nX-Injected: yes"));
        assertTrue(
                e.getMessage().contains("'m'") && e.getMessage().contains("control"),
                e.getMessage());
    }
}
