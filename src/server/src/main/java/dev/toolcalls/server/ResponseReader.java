package dev.toolcalls.server;

import java.io.EOFException;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.Locale;

/**
 * An HTTP/1.1 response read from bytes as they arrive, cut anywhere: the status line and headers,
 * then the body's bytes as they come (chunked transfer decoded, or {@code Content-Length} bytes, or
 * everything until the connection closes), then its end. Interim {@code 1xx} answers are skipped.
 *
 * <pre>
 * switch (reader.next(buffer)) {
 *     case HEAD -&gt; ... reader.status() ...
 *     case CONTENT -&gt; ... the next reader.contentLength() bytes of the buffer are the body's ...
 *     case END -&gt; ... reader.reusable() ...
 *     case MORE -&gt; ... read more bytes into the buffer ...
 * }
 * </pre>
 *
 * A malformed answer (not HTTP/1.x, a header line without a colon, a folded header, a transfer
 * coding other than chunked, a bad chunk size, a head over 64 KiB) is an {@link IOException} naming
 * what was wrong ({@link Malformed}).
 */
final class ResponseReader {
    /** What {@link #next} found. */
    enum Step {
        /** The buffer is used up: more bytes are needed. */
        MORE,
        /** The status line and headers are read. */
        HEAD,
        /** Body bytes: the next {@link #contentLength()} bytes of the buffer. */
        CONTENT,
        /** The response is complete. */
        END
    }

    /** The answer is not well-formed HTTP/1.x. */
    static final class Malformed extends IOException {
        Malformed(String message) {
            super(message);
        }
    }

    private static final int MAX_HEAD = 64 << 10;
    private static final int MAX_CHUNK_LINE = 1024;

    private enum State {
        STATUS,
        HEADERS,
        CHUNK_SIZE,
        CHUNK_DATA,
        CHUNK_END,
        TRAILERS,
        LENGTH,
        UNTIL_CLOSE,
        DONE
    }

    private State state = State.STATUS;
    private byte[] line = new byte[256];
    private int lineLength;
    private int headLength;
    private boolean started; // a byte of this response was read
    private int status;
    private boolean http10;
    private boolean close;
    private boolean keepAlive;
    private boolean chunked;
    private long length = -1;
    private long remaining;
    private int content;

    /** Ready for the next response on the same connection. */
    void reset() {
        state = State.STATUS;
        lineLength = 0;
        headLength = 0;
        started = false;
        status = 0;
        http10 = false;
        close = false;
        keepAlive = false;
        chunked = false;
        length = -1;
        remaining = 0;
        content = 0;
    }

    /** The status, once the head is read. */
    int status() {
        return status;
    }

    /** Whether any byte of the response was read. */
    boolean started() {
        return started;
    }

    /** The number of body bytes {@link Step#CONTENT} found at the buffer's position. */
    int contentLength() {
        return content;
    }

    /**
     * After {@link Step#END}: whether the connection may carry another request (HTTP/1.1 or a
     * kept-alive 1.0, no {@code Connection: close}, a body whose end was not the connection's).
     */
    boolean reusable() {
        return state == State.DONE && !close && (!http10 || keepAlive);
    }

    /**
     * Reads from the buffer's position. For {@link Step#CONTENT} the position is left at the
     * content, which the caller takes (moving the position past it) before the next call.
     */
    Step next(ByteBuffer in) throws Malformed {
        while (true) {
            switch (state) {
                case STATUS, HEADERS, CHUNK_SIZE, CHUNK_END, TRAILERS -> {
                    if (!line(in)) return Step.MORE;
                    Step s = lineRead();
                    if (s != null) return s;
                }
                case CHUNK_DATA, LENGTH -> {
                    if (!in.hasRemaining()) return Step.MORE;
                    content = (int) Math.min(in.remaining(), remaining);
                    remaining -= content;
                    if (remaining == 0)
                        state = state == State.LENGTH ? State.DONE : State.CHUNK_END;
                    return Step.CONTENT;
                }
                case UNTIL_CLOSE -> {
                    if (!in.hasRemaining()) return Step.MORE;
                    content = in.remaining();
                    return Step.CONTENT;
                }
                case DONE -> {
                    return Step.END;
                }
            }
        }
    }

    /**
     * The connection closed: {@link Step#END} for a body that ends with its connection, else an
     * {@link EOFException} saying how far the answer got.
     */
    Step closed() throws EOFException {
        if (state == State.UNTIL_CLOSE) {
            state = State.DONE;
            close = true;
            return Step.END;
        }
        if (state == State.DONE) return Step.END;
        throw new EOFException(
                started
                        ? "the connection was closed before the end of the answer"
                        : "the connection was closed before an answer");
    }

    /** Appends the buffer's bytes up to a newline to the line; true when the line is whole. */
    private boolean line(ByteBuffer in) throws Malformed {
        int from = in.position();
        int end = in.limit();
        int i = from;
        while (i < end && in.get(i) != '\n') i++;
        boolean whole = i < end;
        int n = i - from;
        if (n > 0 || whole) started = true;
        int max = state == State.STATUS || state == State.HEADERS ? MAX_HEAD : MAX_CHUNK_LINE;
        if (lineLength + n > max || headLength + n > MAX_HEAD)
            throw new Malformed(
                    state == State.STATUS || state == State.HEADERS
                            ? "the answer's head is longer than " + MAX_HEAD + " bytes"
                            : "a chunk size or trailer line longer than "
                                    + MAX_CHUNK_LINE
                                    + " bytes");
        if (lineLength + n > line.length)
            line = Arrays.copyOf(line, Math.max(lineLength + n, 2 * line.length));
        in.get(from, line, lineLength, n);
        lineLength += n;
        if (state == State.STATUS || state == State.HEADERS) headLength += n + (whole ? 1 : 0);
        in.position(whole ? i + 1 : end);
        return whole;
    }

    /** A whole line was read: what it means in the current state; a step to return, or null. */
    private Step lineRead() throws Malformed {
        int n = lineLength;
        if (n > 0 && line[n - 1] == '\r') n--;
        lineLength = 0;
        switch (state) {
            case STATUS -> {
                statusLine(n);
                state = State.HEADERS;
            }
            case HEADERS -> {
                if (n > 0) {
                    header(n);
                    return null;
                }
                headLength = 0;
                if (status >= 100 && status < 200) {
                    if (status == 101)
                        throw new Malformed("the engine switched protocols (status 101)");
                    state = State.STATUS; // an interim answer: the real one follows
                    return null;
                }
                if (status == 204 || status == 304) state = State.DONE;
                else if (chunked) state = State.CHUNK_SIZE;
                else if (length >= 0) {
                    remaining = length;
                    state = length == 0 ? State.DONE : State.LENGTH;
                } else state = State.UNTIL_CLOSE;
                return Step.HEAD;
            }
            case CHUNK_SIZE -> {
                long size = chunkSize(n);
                if (size == 0) state = State.TRAILERS;
                else {
                    remaining = size;
                    state = State.CHUNK_DATA;
                }
            }
            case CHUNK_END -> {
                if (n != 0) throw new Malformed("a chunk is not followed by CRLF");
                state = State.CHUNK_SIZE;
            }
            case TRAILERS -> {
                if (n == 0) state = State.DONE;
            }
            default -> throw new IllegalStateException(state.toString());
        }
        return null;
    }

    private void statusLine(int n) throws Malformed {
        // HTTP/1.x SSS[ reason]
        if (n < 12
                || !ascii(0, 7).equals("HTTP/1.")
                || (line[7] != '0' && line[7] != '1')
                || line[8] != ' '
                || !digit(line[9])
                || !digit(line[10])
                || !digit(line[11])
                || (n > 12 && line[12] != ' '))
            throw new Malformed(
                    "the engine's answer is not HTTP/1.x: it begins \"" + excerpt(n) + "\"");
        http10 = line[7] == '0';
        status = (line[9] - '0') * 100 + (line[10] - '0') * 10 + (line[11] - '0');
    }

    private void header(int n) throws Malformed {
        if (line[0] == ' ' || line[0] == '\t')
            throw new Malformed("the engine's answer has a folded header line");
        int colon = 0;
        while (colon < n && line[colon] != ':') colon++;
        if (colon == 0 || colon == n)
            throw new Malformed(
                    "the engine's answer has a header line without a name and colon: \""
                            + excerpt(n)
                            + "\"");
        int v = colon + 1;
        int e = n;
        while (v < e && (line[v] == ' ' || line[v] == '\t')) v++;
        while (e > v && (line[e - 1] == ' ' || line[e - 1] == '\t')) e--;
        if (named(colon, "transfer-encoding")) {
            for (String coding : ascii(v, e).split(",")) {
                String c = coding.strip().toLowerCase(Locale.ROOT);
                if (c.equals("chunked")) chunked = true;
                else if (!c.isEmpty() && !c.equals("identity"))
                    throw new Malformed(
                            "the engine's answer has a transfer coding the gateway does not"
                                    + " read: "
                                    + c);
            }
        } else if (named(colon, "content-length")) {
            long l = 0;
            if (v == e) throw new Malformed("the engine's answer has an empty Content-Length");
            for (int i = v; i < e; i++) {
                if (!digit(line[i]) || l > Long.MAX_VALUE / 10 - 10)
                    throw new Malformed(
                            "the engine's answer has a bad Content-Length: " + ascii(v, e));
                l = l * 10 + (line[i] - '0');
            }
            if (length >= 0 && length != l)
                throw new Malformed("the engine's answer has two different Content-Lengths");
            length = l;
        } else if (named(colon, "connection")) {
            for (String token : ascii(v, e).split(",")) {
                String t = token.strip().toLowerCase(Locale.ROOT);
                if (t.equals("close")) close = true;
                else if (t.equals("keep-alive")) keepAlive = true;
            }
        }
    }

    private long chunkSize(int n) throws Malformed {
        long size = 0;
        int i = 0;
        while (i < n) {
            int d = Character.digit(line[i], 16);
            if (d < 0) break;
            if (size > Integer.MAX_VALUE) throw new Malformed("a chunk larger than 2 GiB");
            size = size * 16 + d;
            i++;
        }
        if (i == 0 || (i < n && line[i] != ';' && line[i] != ' ' && line[i] != '\t'))
            throw new Malformed("a bad chunk size line: \"" + excerpt(n) + "\"");
        return size;
    }

    private boolean named(int n, String lowerName) {
        if (n != lowerName.length()) return false;
        for (int i = 0; i < n; i++) {
            int c = line[i];
            if (c >= 'A' && c <= 'Z') c += 'a' - 'A';
            if (c != lowerName.charAt(i)) return false;
        }
        return true;
    }

    private static boolean digit(byte b) {
        return b >= '0' && b <= '9';
    }

    private String ascii(int from, int to) {
        return new String(line, from, to - from, StandardCharsets.ISO_8859_1);
    }

    private String excerpt(int n) {
        StringBuilder b = new StringBuilder();
        for (int i = 0; i < Math.min(n, 60); i++) {
            int c = line[i] & 0xFF;
            if (c >= 0x20 && c < 0x7F && c != '"' && c != '\\') b.append((char) c);
            else b.append(String.format("\\x%02X", c));
        }
        if (n > 60) b.append("...");
        return b.toString();
    }
}
