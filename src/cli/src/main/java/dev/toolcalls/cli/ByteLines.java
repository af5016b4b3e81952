package dev.toolcalls.cli;

import java.io.IOException;
import java.io.InputStream;
import java.util.Arrays;

/**
 * The lines of a byte stream, one at a time, split on {@code \n}, {@code \r\n} or {@code \r} before
 * any decoding: a line that is not UTF-8 is that line's problem, not the next one's (UTF-8 never
 * uses those bytes inside a multi-byte sequence). Memory: the longest line.
 */
final class ByteLines {
    private final InputStream in;
    private final byte[] buffer = new byte[1 << 16];
    private int pos;
    private int limit;
    private long offset; // byte offset of buffer[pos] in the whole input
    private boolean skipLf; // the last line ended with \r: a \n right after belongs to it
    private byte[] line = new byte[256];

    /**
     * The line just read: {@link #bytes()}[0..{@link #length()}), starting at byte {@link
     * #start()}, number {@link #number()} from 1.
     */
    private int length;

    private long start;
    private long number;

    ByteLines(InputStream in) {
        this.in = in;
    }

    byte[] bytes() {
        return line;
    }

    int length() {
        return length;
    }

    long start() {
        return start;
    }

    long number() {
        return number;
    }

    /** Reads the next line; false at the end (a final line without a terminator still counts). */
    boolean next() throws IOException {
        length = 0;
        boolean any = false;
        while (true) {
            if (pos == limit) {
                int n = in.read(buffer, 0, buffer.length);
                if (n < 0) {
                    if (!any) return false;
                    break;
                }
                pos = 0;
                limit = n;
            }
            byte b = buffer[pos];
            if (skipLf) {
                skipLf = false;
                if (b == '\n') {
                    pos++;
                    offset++;
                    continue;
                }
            }
            if (!any) {
                any = true;
                start = offset;
            }
            pos++;
            offset++;
            if (b == '\n') break;
            if (b == '\r') {
                skipLf = true;
                break;
            }
            if (length == line.length) line = Arrays.copyOf(line, Math.max(256, line.length * 2));
            line[length++] = b;
        }
        number++;
        return true;
    }
}
