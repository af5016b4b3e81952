package dev.toolcalls.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

import java.io.ByteArrayOutputStream;
import java.io.EOFException;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;

/** An engine's HTTP/1.1 answer read from bytes cut anywhere. */
class ResponseReaderTest {
    static final String BODY = "data: {\"text\":\"été ☀ 😀\"}\n\ndata: [DONE]\n\n";

    /** What a reader made of a whole answer. */
    record Read(int status, String body, boolean reusable) {}

    static final String CHUNKED =
            "HTTP/1.1 100 Continue\r\n\r\n"
                    + "HTTP/1.1 200 OK\r\n"
                    + "content-type: text/event-stream\r\n"
                    + "TRANSFER-Encoding:  chunked \r\n"
                    + "\r\n"
                    + "5;name=value\r\n"
                    + "data:\r\n"
                    + hexLength(BODY.substring(5))
                    + "\r\n"
                    + BODY.substring(5)
                    + "\r\n"
                    + "0\r\n"
                    + "X-Trailer: yes\r\n"
                    + "\r\n";

    static String hexLength(String s) {
        return Integer.toHexString(s.getBytes(StandardCharsets.UTF_8).length);
    }

    @Test
    void aChunkedAnswerIsTheSameHoweverItsBytesAreCut() throws IOException {
        byte[] bytes = CHUNKED.getBytes(StandardCharsets.UTF_8);
        Read expected = new Read(200, BODY, true);
        for (int size = 1; size <= bytes.length; size++)
            assertEquals(expected, read(bytes, size, false), "pieces of " + size);
        for (int cut = 0; cut <= bytes.length; cut++)
            assertEquals(expected, read(bytes, cut, true), "cut at " + cut);
    }

    @Test
    void aContentLengthAnswerEndsAfterItsLength() throws IOException {
        byte[] body = BODY.getBytes(StandardCharsets.UTF_8);
        byte[] bytes =
                ("HTTP/1.1 400 Bad Request\r\nContent-Length: " + body.length + "\r\n\r\n" + BODY)
                        .getBytes(StandardCharsets.UTF_8);
        for (int size = 1; size <= bytes.length; size++)
            assertEquals(new Read(400, BODY, true), read(bytes, size, false), "" + size);
        byte[] empty = "HTTP/1.1 204 No Content\r\n\r\n".getBytes(StandardCharsets.UTF_8);
        assertEquals(new Read(204, "", true), read(empty, 3, false));
    }

    @Test
    void anAnswerThatEndsWithItsConnectionIsNotReused() throws IOException {
        for (String head :
                new String[] {
                    "HTTP/1.1 200 OK\r\n\r\n", // no length: the body ends with the connection
                    "HTTP/1.0 200 OK\r\nContent-Length: " + length(BODY) + "\r\n\r\n",
                    "HTTP/1.1 200 OK\r\nConnection: close\r\nContent-Length: "
                            + length(BODY)
                            + "\r\n\r\n"
                }) {
            byte[] bytes = (head + BODY).getBytes(StandardCharsets.UTF_8);
            for (int size = 1; size <= 9; size++)
                assertEquals(new Read(200, BODY, false), read(bytes, size, false), head);
        }
        byte[] kept =
                ("HTTP/1.0 200 OK\r\nConnection: Keep-Alive\r\nContent-Length: "
                                + length(BODY)
                                + "\r\n\r\n"
                                + BODY)
                        .getBytes(StandardCharsets.UTF_8);
        assertEquals(new Read(200, BODY, true), read(kept, 5, false));
    }

    @Test
    void aConnectionClosedEarlySaysHowFarTheAnswerGot() throws IOException {
        ResponseReader r = new ResponseReader();
        EOFException none = assertThrows(EOFException.class, r::closed);
        assertTrue(none.getMessage().contains("before an answer"), none.getMessage());
        byte[] bytes = CHUNKED.getBytes(StandardCharsets.UTF_8);
        for (int cut = 1; cut < bytes.length; cut++) {
            ResponseReader p = new ResponseReader();
            ByteBuffer in = ByteBuffer.wrap(bytes, 0, cut);
            ResponseReader.Step s;
            while ((s = p.next(in)) != ResponseReader.Step.MORE)
                if (s == ResponseReader.Step.CONTENT)
                    in.position(in.position() + p.contentLength());
            EOFException e = assertThrows(EOFException.class, p::closed, "cut at " + cut);
            assertTrue(e.getMessage().contains("before the end of the answer"), e.getMessage());
        }
    }

    @Test
    void aMalformedAnswerIsAnErrorNamingWhatIsWrong() {
        String ok = "HTTP/1.1 200 OK\r\n";
        String[][] cases = {
            {"SSH-2.0-OpenSSH_9.6\r\n\r\n", "not HTTP/1.x"},
            {"HTTP/2 200\r\n\r\n", "not HTTP/1.x"},
            {"HTTP/1.1 20 OK\r\n\r\n", "not HTTP/1.x"},
            {ok + "no colon here\r\n\r\n", "without a name and colon"},
            {ok + ": no name\r\n\r\n", "without a name and colon"},
            {ok + "A: b\r\n  folded\r\n\r\n", "folded"},
            {ok + "Transfer-Encoding: gzip, chunked\r\n\r\n", "transfer coding"},
            {ok + "Content-Length: 12a\r\n\r\n", "bad Content-Length"},
            {ok + "Content-Length: 1\r\nContent-Length: 2\r\n\r\n", "two different"},
            {ok + "Transfer-Encoding: chunked\r\n\r\nzz\r\n", "bad chunk size"},
            {ok + "Transfer-Encoding: chunked\r\n\r\n2\r\nabc\r\n", "not followed by CRLF"},
            {"HTTP/1.1 101 Switching Protocols\r\n\r\n", "switched protocols"},
            {ok + "X: " + "a".repeat(70_000) + "\r\n\r\n", "longer than"},
        };
        for (String[] c : cases) {
            byte[] bytes = c[0].getBytes(StandardCharsets.UTF_8);
            for (int size : new int[] {1, 7, bytes.length}) {
                IOException e =
                        assertThrows(IOException.class, () -> read(bytes, size, false), c[0]);
                assertTrue(e.getMessage().contains(c[1]), c[1] + ": " + e.getMessage());
                assertFalse(e instanceof EOFException, c[0]);
            }
        }
    }

    @Test
    void aReaderResetReadsTheNextAnswer() throws IOException {
        ResponseReader r = new ResponseReader();
        byte[] a = CHUNKED.getBytes(StandardCharsets.UTF_8);
        for (int i = 0; i < 3; i++) {
            r.reset();
            assertEquals(new Read(200, BODY, true), read(r, a, 11, false));
        }
    }

    static int length(String s) {
        return s.getBytes(StandardCharsets.UTF_8).length;
    }

    /** The bytes in pieces of {@code size} (or, with {@code once}, cut once at {@code size}). */
    static Read read(byte[] bytes, int size, boolean once) throws IOException {
        return read(new ResponseReader(), bytes, size, once);
    }

    static Read read(ResponseReader r, byte[] bytes, int size, boolean once) throws IOException {
        ByteArrayOutputStream body = new ByteArrayOutputStream();
        int status = -1;
        int at = 0;
        for (boolean first = true; ; first = false) {
            int end = once ? (first ? size : bytes.length) : Math.min(bytes.length, at + size);
            // a direct buffer, as a socket's bytes arrive
            ByteBuffer in = ByteBuffer.allocateDirect(end - at);
            in.put(bytes, at, end - at).flip();
            at = end;
            ResponseReader.Step s;
            while ((s = r.next(in)) != ResponseReader.Step.MORE) {
                switch (s) {
                    case HEAD -> {
                        assertEquals(-1, status, "one head");
                        status = r.status();
                    }
                    case CONTENT -> {
                        byte[] piece = new byte[r.contentLength()];
                        in.get(piece);
                        body.write(piece);
                    }
                    case END -> {
                        assertEquals(0, in.remaining(), "nothing after the end");
                        return new Read(
                                status, body.toString(StandardCharsets.UTF_8), r.reusable());
                    }
                    default -> throw new IllegalStateException();
                }
            }
            assertEquals(0, in.remaining(), "MORE leaves nothing behind");
            if (at == bytes.length) {
                if (r.closed() == ResponseReader.Step.END)
                    return new Read(status, body.toString(StandardCharsets.UTF_8), r.reusable());
            }
        }
    }
}
