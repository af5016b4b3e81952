package dev.toolcalls.cli;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteBuffer;
import java.nio.CharBuffer;
import java.nio.charset.CharsetDecoder;
import java.nio.charset.CoderResult;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;

/**
 * Strict UTF-8 text read piece by piece from a byte stream: the same policy for a file, standard
 * input or a JSONL line. A malformed byte sequence (including an encoded surrogate, an overlong
 * form or a sequence cut off by the end) is an {@link Invalid} that says where, never a replacement
 * character.
 *
 * <pre>{@code
 * Utf8Input text = new Utf8Input(System.in);
 * for (String piece; (piece = text.next()) != null; ) feed(piece);
 * }</pre>
 */
final class Utf8Input {
    /**
     * Bytes that are not UTF-8, at a byte offset of the whole input (and after that many code
     * points).
     */
    static final class Invalid extends IOException {
        final long byteOffset;
        final long codePointOffset;

        Invalid(String bytes, long byteOffset, long codePointOffset) {
            super(
                    "not valid UTF-8: byte"
                            + (bytes.contains(" ") ? "s " : " ")
                            + bytes
                            + " at byte offset "
                            + byteOffset);
            this.byteOffset = byteOffset;
            this.codePointOffset = codePointOffset;
        }
    }

    private static final int BLOCK = 1 << 16;

    private final InputStream in;
    private final CharsetDecoder decoder =
            StandardCharsets.UTF_8
                    .newDecoder()
                    .onMalformedInput(CodingErrorAction.REPORT)
                    .onUnmappableCharacter(CodingErrorAction.REPORT);
    private final ByteBuffer bytes;
    private final CharBuffer chars = CharBuffer.allocate(BLOCK);
    private long base; // byte offset of bytes[0] in the whole input
    private long codePoints; // code points returned so far
    private boolean eof;
    private boolean done;
    private Invalid failed; // found after text that was returned first

    Utf8Input(InputStream in) {
        this(in, 0, BLOCK);
    }

    private Utf8Input(InputStream in, long base, int block) {
        this.in = in;
        this.base = base;
        this.bytes = ByteBuffer.allocate(Math.max(16, block));
        bytes.flip();
    }

    /** The whole of a byte range, decoded; offsets in errors count from {@code base}. */
    static String decode(byte[] b, int length, long base) throws Invalid {
        Utf8Input text =
                new Utf8Input(
                        new ByteArrayInputStream(b, 0, length), base, Math.min(BLOCK, length));
        try {
            return text.readAll();
        } catch (Invalid e) {
            throw e;
        } catch (IOException e) {
            throw new AssertionError(e); // a byte array cannot fail to read
        }
    }

    /** The rest of the input. */
    String readAll() throws IOException {
        StringBuilder all = new StringBuilder();
        for (String piece; (piece = next()) != null; ) all.append(piece);
        return all.toString();
    }

    /** The next piece of text (never a half of a surrogate pair), or null at the end. */
    String next() throws IOException {
        if (failed != null) throw failed;
        while (!done) {
            chars.clear();
            CoderResult r = decoder.decode(bytes, chars, eof);
            if (r.isError()) {
                failed = invalid(r.length());
                if (chars.position() == 0) throw failed;
                done = true; // return the text before the bad bytes first
            }
            if (eof && r.isUnderflow()) {
                r = decoder.flush(chars);
                done = true;
            }
            if (chars.position() > 0) {
                chars.flip();
                String piece = chars.toString();
                codePoints += Character.codePointCount(piece, 0, piece.length());
                return piece;
            }
            if (r.isUnderflow() && !eof) fill();
        }
        if (failed != null) throw failed;
        return null;
    }

    private void fill() throws IOException {
        base += bytes.position();
        bytes.compact();
        int n = in.read(bytes.array(), bytes.position(), bytes.remaining());
        if (n < 0) eof = true;
        else bytes.position(bytes.position() + n);
        bytes.flip();
    }

    private Invalid invalid(int length) {
        StringBuilder hex = new StringBuilder();
        for (int i = 0; i < length; i++) {
            if (i > 0) hex.append(' ');
            hex.append(String.format("0x%02X", bytes.get(bytes.position() + i) & 0xFF));
        }
        return new Invalid(
                hex.toString(), base + bytes.position(), codePoints + pendingCodePoints());
    }

    /** Code points decoded into the current piece before the error (not yet returned). */
    private long pendingCodePoints() {
        return Character.codePointCount(chars.array(), 0, chars.position());
    }
}
