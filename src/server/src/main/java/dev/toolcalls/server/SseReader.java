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
    private String data; // the event's first data line; null before it
    private StringBuilder more; // its further data lines, each after a newline
    private final CharsetDecoder decoder =
            StandardCharsets.UTF_8
                    .newDecoder()
                    .onMalformedInput(CodingErrorAction.REPORT)
                    .onUnmappableCharacter(CodingErrorAction.REPORT);
    private CharBuffer chars = CharBuffer.allocate(256);

    SseReader(int maxLine) {
        this.maxLine = maxLine;
    }

    /** The events these bytes complete. */
    List<Event> push(byte[] bytes, int offset, int count) throws IOException {
        return push(ByteBuffer.wrap(bytes, offset, count));
    }

    /** The events the buffer's remaining bytes complete; the buffer is read to its limit. */
    List<Event> push(ByteBuffer bytes) throws IOException {
        List<Event> out = null;
        int end = bytes.limit();
        int from = bytes.position();
        for (int i = from; i < end; i++) {
            if (bytes.get(i) != '\n') continue;
            append(bytes, from, i - from);
            from = i + 1;
            Event e = line();
            if (e != null) {
                if (out == null) out = new ArrayList<>(2);
                out.add(e);
            }
        }
        append(bytes, from, end - from);
        bytes.position(end);
        return out == null ? List.of() : out;
    }

    /** The event a stream that ends without its blank line leaves, if any. */
    Event end() throws IOException {
        Event e = length > 0 ? line() : null;
        if (e == null && data != null) e = new Event(takeData(), false);
        return e;
    }

    private void append(ByteBuffer bytes, int from, int count) throws IOException {
        if (count == 0) return;
        if (length + count > maxLine)
            throw new IOException("an event line longer than " + maxLine + " bytes");
        if (length + count > line.length)
            line =
                    Arrays.copyOf(
                            line, Math.min(maxLine, Math.max(length + count, line.length * 2)));
        bytes.get(from, line, length, count);
        length += count;
    }

    /** The line's bytes from {@code from} to {@code to}, strict UTF-8. */
    private String decode(int from, int to) throws IOException {
        int b = 0;
        for (int i = from; i < to; i++) b |= line[i];
        // ASCII (the usual event: engines escape what is not): every byte is its character
        if (b >= 0) return new String(line, from, to - from, StandardCharsets.ISO_8859_1);
        decoder.reset();
        if (chars.capacity() < to - from)
            chars = CharBuffer.allocate(Math.max(to - from, chars.capacity() * 2));
        chars.clear();
        ByteBuffer in = ByteBuffer.wrap(line, from, to - from);
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

    private boolean starts(int n, String prefix) {
        if (n < prefix.length()) return false;
        for (int i = 0; i < prefix.length(); i++) if (line[i] != prefix.charAt(i)) return false;
        return true;
    }

    /** The event's data so far, taken (none is pending after). */
    private String takeData() {
        String d = data;
        data = null;
        if (more != null) {
            more.insert(0, d);
            d = more.toString();
            more = null;
        }
        return d;
    }

    private Event line() throws IOException {
        int n = length;
        if (n > 0 && line[n - 1] == '\r') n--;
        length = 0;
        if (n == 0) return data == null ? null : new Event(takeData(), false);
        if (starts(n, "data:")) {
            String text = decode(n > 5 && line[5] == ' ' ? 6 : 5, n);
            if (data == null) data = text;
            else {
                if (more == null) more = new StringBuilder();
                more.append('\n').append(text);
            }
            return null;
        }
        if (starts(n, "error:")) return new Event(decode(n > 6 && line[6] == ' ' ? 7 : 6, n), true);
        decode(0, n); // checked, as every line is
        return null; // a comment, event:, id:, retry:
    }
}
