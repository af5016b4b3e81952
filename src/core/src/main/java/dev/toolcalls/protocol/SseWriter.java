package dev.toolcalls.protocol;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;

/**
 * Server-sent events as OpenAI streams them: {@code data: {...}\n\n} per chunk, then
 * {@code data: [DONE]\n\n}. Each event is flushed, so clients see deltas as they are made.
 */
public final class SseWriter {
    private final OutputStream out;

    public SseWriter(OutputStream out) { this.out = out; }

    public void event(String json) throws IOException {
        out.write(("data: " + json + "\n\n").getBytes(StandardCharsets.UTF_8));
        out.flush();
    }

    public void done() throws IOException {
        out.write("data: [DONE]\n\n".getBytes(StandardCharsets.UTF_8));
        out.flush();
    }
}
