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
 *
 * <p>Lines are cut from the bytes where they lie: a line that arrives whole is read in the caller's
 * array, and an event's data that ends in the same bytes is handed over there, as bytes ({@link
 * #push(ByteBuffer, Listener)}); only a line cut by the end of the bytes, and data whose event ends
 * later, are copied.
 */
final class SseReader {
    /** One event: its data, or an engine's {@code error:} line. */
    record Event(String data, boolean error) {}

    /** Told each event as the bytes complete it. */
    interface Listener {
        /**
         * An event's data: its UTF-8 bytes (checked strict), {@code a[from..to)}, which are only
         * valid during the call.
         */
        void data(byte[] a, int from, int to) throws IOException;

        /** An engine's {@code error:} line: its text. */
        void error(String text) throws IOException;
    }

    private static final byte[] NONE = {};

    private final int maxLine;
    private byte[] line = new byte[256]; // a line cut by the end of the last bytes
    private int length;
    // the event's data so far: in the caller's array while its bytes are read, else in held
    private boolean hasData;
    private byte[] dataIn = NONE;
    private int dataFrom;
    private int dataTo;
    private byte[] held = new byte[256];
    private byte[] scratch = NONE; // a direct buffer's bytes
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
        Collect c = new Collect();
        push(bytes, c);
        return c.out == null ? List.of() : c.out;
    }

    /**
     * The buffer's remaining bytes, read to its limit; the events they complete go to the listener,
     * in order (those before a malformed line included).
     */
    void push(ByteBuffer bytes, Listener listener) throws IOException {
        int n = bytes.remaining();
        byte[] a;
        int i;
        if (bytes.hasArray()) {
            a = bytes.array();
            i = bytes.arrayOffset() + bytes.position();
        } else {
            if (scratch.length < n) scratch = new byte[Math.max(n, 1024)];
            a = scratch;
            i = 0;
            bytes.get(bytes.position(), a, 0, n);
        }
        int end = i + n;
        bytes.position(bytes.limit());
        try {
            while (i < end) {
                int nl = i;
                while (nl < end && a[nl] != '\n') nl++;
                if (nl == end) break;
                if (length > 0) {
                    append(a, i, nl - i);
                    int whole = length;
                    length = 0;
                    line(line, 0, whole, listener);
                } else {
                    if (nl - i > maxLine) throw tooLong();
                    line(a, i, nl, listener);
                }
                i = nl + 1;
            }
            append(a, i, end - i);
        } finally {
            if (hasData && dataIn == a) hold(); // the caller's array is theirs again
        }
    }

    /** The event a stream that ends without its blank line leaves, if any. */
    Event end() throws IOException {
        Collect c = new Collect();
        end(c);
        return c.out == null ? null : c.out.get(0);
    }

    /** The event a stream that ends without its blank line leaves, if any, to the listener. */
    void end(Listener listener) throws IOException {
        if (length > 0) {
            int n = length;
            length = 0;
            line(line, 0, n, listener);
        }
        if (hasData) {
            hasData = false;
            listener.data(dataIn, dataFrom, dataTo);
        }
    }

    private void append(byte[] a, int from, int count) throws IOException {
        if (count == 0) return;
        if (length + count > maxLine) throw tooLong();
        if (length + count > line.length)
            line =
                    Arrays.copyOf(
                            line, Math.min(maxLine, Math.max(length + count, line.length * 2)));
        System.arraycopy(a, from, line, length, count);
        length += count;
    }

    private IOException tooLong() {
        return new IOException("an event line longer than " + maxLine + " bytes");
    }

    /** The data so far, copied into the held buffer. */
    private void hold() {
        if (dataIn == held) return;
        int n = dataTo - dataFrom;
        if (held.length < n) held = new byte[Math.max(n, held.length * 2)];
        System.arraycopy(dataIn, dataFrom, held, 0, n);
        dataIn = held;
        dataFrom = 0;
        dataTo = n;
    }

    /** A further data line: the held data, a newline, and the line's value. */
    private void more(byte[] a, int from, int to) {
        hold();
        int n = dataTo + 1 + (to - from);
        if (held.length < n) {
            held = Arrays.copyOf(held, Math.max(n, held.length * 2));
            dataIn = held;
        }
        held[dataTo] = '\n';
        System.arraycopy(a, from, held, dataTo + 1, to - from);
        dataTo = n;
    }

    /** Checks {@code a[from..to)} is strict UTF-8 ({@code line} is where the line begins). */
    private void check(byte[] a, int line, int from, int to) throws IOException {
        int b = 0;
        for (int i = from; i < to; i++) b |= a[i];
        if (b >= 0) return; // ASCII (the usual event: engines escape what is not)
        decoder.reset();
        if (chars.capacity() < to - from)
            chars = CharBuffer.allocate(Math.max(to - from, chars.capacity() * 2));
        chars.clear();
        ByteBuffer in = ByteBuffer.wrap(a, from, to - from);
        CoderResult r = decoder.decode(in, chars, true);
        if (!r.isError()) r = decoder.flush(chars);
        if (r.isError())
            throw new IOException(
                    "an event line is not valid UTF-8: byte "
                            + String.format("0x%02X", a[in.position()] & 0xFF)
                            + " at byte offset "
                            + (in.position() - line));
    }

    private static boolean starts(byte[] a, int from, int to, String prefix) {
        if (to - from < prefix.length()) return false;
        for (int i = 0; i < prefix.length(); i++) if (a[from + i] != prefix.charAt(i)) return false;
        return true;
    }

    /** One whole line, {@code a[from..to)} without its newline. */
    private void line(byte[] a, int from, int to, Listener listener) throws IOException {
        if (to > from && a[to - 1] == '\r') to--;
        if (to == from) {
            if (hasData) {
                hasData = false;
                listener.data(dataIn, dataFrom, dataTo);
            }
            return;
        }
        if (starts(a, from, to, "data:")) {
            int v = from + (to - from > 5 && a[from + 5] == ' ' ? 6 : 5);
            check(a, from, v, to);
            if (!hasData) {
                hasData = true;
                dataIn = a;
                dataFrom = v;
                dataTo = to;
                if (a == line) hold(); // the line buffer is written again by the next cut line
            } else {
                more(a, v, to);
            }
            return;
        }
        if (starts(a, from, to, "error:")) {
            int v = from + (to - from > 6 && a[from + 6] == ' ' ? 7 : 6);
            check(a, from, v, to);
            listener.error(new String(a, v, to - v, StandardCharsets.UTF_8));
            return;
        }
        check(a, from, from, to); // checked, as every line is: a comment, event:, id:, retry:
    }

    /** The events as {@link Event}s. */
    private static final class Collect implements Listener {
        List<Event> out;

        @Override
        public void data(byte[] a, int from, int to) {
            add(new Event(new String(a, from, to - from, StandardCharsets.UTF_8), false));
        }

        @Override
        public void error(String text) {
            add(new Event(text, true));
        }

        private void add(Event e) {
            if (out == null) out = new ArrayList<>(2);
            out.add(e);
        }
    }
}
