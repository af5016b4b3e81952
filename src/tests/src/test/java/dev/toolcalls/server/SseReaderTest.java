package dev.toolcalls.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

/** Server-sent events read from bytes cut anywhere. */
class SseReaderTest {
    static final String STREAM =
            ": a comment\n"
                    + "event: message\n"
                    + "id: 7\n"
                    + "data: {\"text\":\"été ☀ 😀\"}\n"
                    + "\n"
                    + "data:first\r\n"
                    + "data: second\r\n"
                    + "data:\r\n"
                    + "\r\n"
                    + "retry: 100\n"
                    + "error: {\"message\":\"boom\"}\n"
                    + "\n\n\n"
                    + "data: [DONE]\n"
                    + "\n"
                    + "data: no blank line at the end";

    static final List<SseReader.Event> EVENTS =
            List.of(
                    new SseReader.Event("{\"text\":\"été ☀ 😀\"}", false),
                    new SseReader.Event("first\nsecond\n", false),
                    new SseReader.Event("{\"message\":\"boom\"}", true),
                    new SseReader.Event("[DONE]", false),
                    new SseReader.Event("no blank line at the end", false));

    @Test
    void sameEventsHoweverTheBytesAreCut() throws IOException {
        byte[] bytes = STREAM.getBytes(StandardCharsets.UTF_8);
        assertEquals(EVENTS, read(bytes, bytes.length));
        for (int size = 1; size <= 7; size++) assertEquals(EVENTS, read(bytes, size), "" + size);
        for (int cut = 0; cut <= bytes.length; cut++) {
            SseReader r = new SseReader(1 << 10);
            List<SseReader.Event> got = new ArrayList<>(r.push(bytes, 0, cut));
            // a direct buffer, as a socket's bytes arrive
            ByteBuffer rest = ByteBuffer.allocateDirect(bytes.length - cut);
            rest.put(bytes, cut, bytes.length - cut).flip();
            got.addAll(r.push(rest));
            assertEquals(0, rest.remaining());
            SseReader.Event last = r.end();
            if (last != null) got.add(last);
            assertEquals(EVENTS, got, "cut at " + cut);
        }
    }

    @Test
    void anEndWithNothingPendingHasNoEvent() throws IOException {
        SseReader r = new SseReader(100);
        r.push("data: x\n\n".getBytes(StandardCharsets.UTF_8), 0, 9);
        assertNull(r.end());
    }

    @Test
    void rejectsInvalidUtf8AndLongLines() {
        byte[] bad = {'d', 'a', 't', 'a', ':', ' ', 'a', (byte) 0xC3, '(', '\n'};
        IOException x =
                assertThrows(IOException.class, () -> new SseReader(100).push(bad, 0, bad.length));
        assertTrue(x.getMessage().contains("0xC3 at byte offset 7"), x.getMessage());
        byte[] comment = {':', (byte) 0xFF, '\n'};
        assertThrows(IOException.class, () -> new SseReader(100).push(comment, 0, comment.length));
        byte[] longLine = ("data: " + "x".repeat(200)).getBytes(StandardCharsets.UTF_8);
        IOException y =
                assertThrows(
                        IOException.class,
                        () -> new SseReader(100).push(longLine, 0, longLine.length));
        assertTrue(y.getMessage().contains("longer than 100 bytes"), y.getMessage());
    }

    static List<SseReader.Event> read(byte[] bytes, int size) throws IOException {
        SseReader r = new SseReader(1 << 10);
        List<SseReader.Event> out = new ArrayList<>();
        for (int i = 0; i < bytes.length; i += size)
            out.addAll(r.push(bytes, i, Math.min(size, bytes.length - i)));
        SseReader.Event last = r.end();
        if (last != null) out.add(last);
        return out;
    }
}
