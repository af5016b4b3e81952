package dev.toolcalls.server;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.CharBuffer;
import java.nio.charset.CharsetDecoder;
import java.nio.charset.CoderResult;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * Server-sent events read from bytes as they arrive, cut anywhere (inside a line, inside a UTF-8
 * sequence): each event's {@code data} (its {@code data:} lines joined by newlines), or the text of
 * an {@code error:} line, which some engines send for a failure mid-stream. Comments, {@code
 * event:}, {@code id:} and {@code retry:} lines are skipped. Each line is strict UTF-8 and at most
 * {@code maxLine} bytes long.
 */
final class SseReader {
    /** One event: its data, or an engine's {@code error:} line. */
    record Event(String data, boolean error) {}

    private final int maxLine;
    private byte[] line = new byte[256];
    private int length;
    private final StringBuilder data = new StringBuilder();
    private final CharsetDecoder decoder =
            StandardCharsets.UTF_8
                    .newDecoder()
                    .onMalformedInput(CodingErrorAction.REPORT)
                    .onUnmappableCharacter(CodingErrorAction.REPORT);
    private CharBuffer chars = CharBuffer.allocate(256);
    private boolean hasData;

    SseReader(int maxLine) {
        this.maxLine = maxLine;
    }

    /** The events these bytes complete. */
    List<Event> push(byte[] bytes, int offset, int count) throws IOException {
        List<Event> out = null;
        int end = offset + count;
        int from = offset;
        for (int i = offset; i < end; i++) {
            if (bytes[i] != '\n') continue;
            append(bytes, from, i - from);
            from = i + 1;
            Event e = line();
            if (e != null) {
                if (out == null) out = new ArrayList<>(2);
                out.add(e);
            }
        }
        append(bytes, from, end - from);
        return out == null ? List.of() : out;
    }

    /** The event a stream that ends without its blank line leaves, if any. */
    Event end() throws IOException {
        Event e = length > 0 ? line() : null;
        if (e == null && hasData) {
            hasData = false;
            e = new Event(data.toString(), false);
            data.setLength(0);
        }
        return e;
    }

    private void append(byte[] bytes, int from, int count) throws IOException {
        if (count == 0) return;
        if (length + count > maxLine)
            throw new IOException("an event line longer than " + maxLine + " bytes");
        if (length + count > line.length)
            line =
                    Arrays.copyOf(
                            line, Math.min(maxLine, Math.max(length + count, line.length * 2)));
        System.arraycopy(bytes, from, line, length, count);
        length += count;
    }

    /** The line's first n bytes, strict UTF-8. */
    private String decode(int n) throws IOException {
        decoder.reset();
        if (chars.capacity() < n) chars = CharBuffer.allocate(Math.max(n, chars.capacity() * 2));
        chars.clear();
        ByteBuffer in = ByteBuffer.wrap(line, 0, n);
        CoderResult r = decoder.decode(in, chars, true);
        if (!r.isError()) r = decoder.flush(chars);
        if (r.isError())
            throw new IOException(
                    "an event line is not valid UTF-8: byte "
                            + String.format("0x%02X", line[in.position()] & 0xFF)
                            + " at byte offset "
                            + in.position());
        return chars.flip().toString();
    }

    private Event line() throws IOException {
        int n = length;
        if (n > 0 && line[n - 1] == '\r') n--;
        length = 0;
        if (n == 0) {
            if (!hasData) return null;
            hasData = false;
            String d = data.toString();
            data.setLength(0);
            return new Event(d, false);
        }
        String text = decode(n);
        if (text.startsWith("data:")) {
            if (hasData) data.append('\n');
            data.append(text, text.startsWith("data: ") ? 6 : 5, text.length());
            hasData = true;
            return null;
        }
        if (text.startsWith("error:"))
            return new Event(text.substring(text.startsWith("error: ") ? 7 : 6), true);
        return null; // a comment, event:, id:, retry:
    }
}
