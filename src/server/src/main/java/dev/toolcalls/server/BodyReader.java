package dev.toolcalls.server;

import org.eclipse.jetty.http.HttpHeader;
import org.eclipse.jetty.io.Content;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.CharBuffer;
import java.nio.charset.CharsetDecoder;
import java.nio.charset.CoderResult;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.TimeoutException;
import java.util.function.BiConsumer;

/**
 * A request body, read without holding a thread: limited in size (413), in time (408, when {@link
 * Deadlines} says the request timeout passed, or when the idle timeout finds it stalled), and
 * strict UTF-8 (400). The whole body, decoded, goes on to the reply.
 */
final class BodyReader implements Runnable {
    private final Exchange ex;
    private final ReplayServer.Limits limits;
    private final Deadlines deadlines;
    private final BiConsumer<Exchange, String> reply;
    private final ByteArrayOutputStream body;

    private BodyReader(
            Exchange ex,
            int expected,
            ReplayServer.Limits limits,
            Deadlines deadlines,
            BiConsumer<Exchange, String> reply) {
        this.ex = ex;
        this.limits = limits;
        this.deadlines = deadlines;
        this.reply = reply;
        this.body = new ByteArrayOutputStream(Math.min(expected, 1 << 16));
    }

    /** Reads the request's body, then hands it to {@code reply}; or answers the exchange itself. */
    static void receive(
            Exchange ex,
            ReplayServer.Limits limits,
            Deadlines deadlines,
            BiConsumer<Exchange, String> reply) {
        long length = ex.request.getHeaders().getLongField(HttpHeader.CONTENT_LENGTH);
        if (length > limits.maxBodyBytes()) {
            if (ex.settle())
                ex.error(
                        413,
                        tooLarge(length, limits),
                        "invalid_request_error",
                        "request_too_large",
                        null);
            return;
        }
        BodyReader reader =
                new BodyReader(ex, length > 0 ? (int) length : 1024, limits, deadlines, reply);
        deadlines.body(ex.connection, reader);
        reader.run();
    }

    private static String tooLarge(long length, ReplayServer.Limits limits) {
        return "the request body"
                + (length >= 0 ? " (" + length + " bytes)" : "")
                + " is larger than the server's limit of "
                + limits.maxBodyBytes()
                + " bytes (serve --max-body)";
    }

    @Override
    public void run() {
        ex.guarded(this::read);
    }

    private void read() {
        while (true) {
            if (ex.settled()) return; // timed out or failed meanwhile
            Content.Chunk chunk = ex.request.read();
            if (chunk == null) {
                ex.request.demand(this);
                return;
            }
            if (Content.Chunk.isFailure(chunk)) {
                Throwable failure = chunk.getFailure();
                chunk.release();
                if (failure
                        instanceof
                        TimeoutException) { // the idle timeout: the body stopped arriving, the
                    // client waits
                    if (ex.settle())
                        ex.error(
                                408,
                                "the request body stopped arriving: nothing for "
                                        + limits.idleTimeoutMs()
                                        + " ms (serve --idle-timeout-ms)",
                                "invalid_request_error",
                                "request_timeout",
                                null);
                    return;
                }
                if (ex.settle())
                    ex.done.failed(failure); // the client went away or broke HTTP; no one to answer
                return;
            }
            ByteBuffer b = chunk.getByteBuffer();
            if (body.size() + (long) b.remaining() > limits.maxBodyBytes()) {
                chunk.release();
                if (ex.settle())
                    ex.error(
                            413,
                            tooLarge(-1, limits),
                            "invalid_request_error",
                            "request_too_large",
                            null);
                return;
            }
            byte[] bytes = new byte[b.remaining()];
            b.get(bytes);
            body.write(bytes, 0, bytes.length);
            boolean last = chunk.isLast();
            chunk.release();
            if (last) {
                if (!ex.settle()) return;
                deadlines.processing(ex.connection);
                String text;
                try {
                    text = decode(body.toByteArray(), "the request body");
                } catch (IOException e) {
                    ex.error(
                            400,
                            "the request body is not valid JSON: "
                                    + JsonChecks.plain(e.getMessage()),
                            "invalid_request_error",
                            "invalid_json",
                            null);
                    return;
                }
                reply.accept(ex, text);
                return;
            }
        }
    }

    /** The request timeout passed before the whole body arrived. */
    void timeout() {
        if (ex.settle())
            ex.error(
                    408,
                    "the request body did not arrive within "
                            + limits.requestTimeoutMs()
                            + " ms (serve --request-timeout-ms)",
                    "invalid_request_error",
                    "request_timeout",
                    null);
    }

    /**
     * Strict UTF-8, as the command line reads its input: bad bytes are an error that says where,
     * never U+FFFD.
     */
    static String decode(byte[] bytes, String what) throws IOException {
        CharsetDecoder decoder =
                StandardCharsets.UTF_8
                        .newDecoder()
                        .onMalformedInput(CodingErrorAction.REPORT)
                        .onUnmappableCharacter(CodingErrorAction.REPORT);
        ByteBuffer in = ByteBuffer.wrap(bytes);
        CharBuffer out = CharBuffer.allocate(bytes.length);
        CoderResult r = decoder.decode(in, out, true);
        if (!r.isError()) r = decoder.flush(out);
        if (r.isError())
            throw new IOException(
                    what
                            + " is not valid UTF-8: byte "
                            + String.format("0x%02X", bytes[in.position()] & 0xFF)
                            + " at byte offset "
                            + in.position());
        return out.flip().toString();
    }
}
