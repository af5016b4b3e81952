package dev.toolcalls.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.toolcalls.Formats;
import dev.toolcalls.templates.ChatTemplate;

import org.eclipse.jetty.util.thread.QueuedThreadPool;
import org.eclipse.jetty.util.thread.ScheduledExecutorScheduler;
import org.junit.jupiter.api.Test;

import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.URI;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/** The request the gateway writes to its engine. */
class EngineClientTest {
    @Test
    void theRequestHeadHasItsPathQueryHostAndTheGivenHeaders() {
        byte[] head =
                EngineClient.head(
                        URI.create("http://engine.local:8000/v1/completions?a=b%20c"),
                        "Accept: text/event-stream",
                        "",
                        "Authorization: Bearer k");
        assertEquals(
                "POST /v1/completions?a=b%20c HTTP/1.1\r\n"
                        + "Host: engine.local:8000\r\n"
                        + "Accept: text/event-stream\r\n"
                        + "Authorization: Bearer k\r\n"
                        + "\r\n",
                new String(head, StandardCharsets.UTF_8));
        assertEquals(
                "POST / HTTP/1.1\r\nHost: engine.local\r\n\r\n",
                new String(
                        EngineClient.head(URI.create("https://engine.local")),
                        StandardCharsets.UTF_8));
    }

    @Test
    void anUpstreamKeyWithALineBreakIsRefused() {
        IllegalArgumentException e =
                assertThrows(
                        IllegalArgumentException.class,
                        () ->
                                new Upstream(
                                        "m",
                                        URI.create("http://127.0.0.1:8000/v1"),
                                        null,
                                        Formats.get("hermes"),
                                        ChatTemplate.of("{{ messages }}", Map.of()),
                                        Upstream.Kind.OPENAI,
                                        Map.of(),
                                        "key\r\nX-Injected: yes"));
        assertTrue(
                e.getMessage().contains("'m'") && e.getMessage().contains("control"),
                e.getMessage());
    }

    /**
     * An engine that answers before it has read the whole request: the connection is not taken by
     * the next call while the first request's write is still pending (a second write on it would
     * fail), and the next call goes out on a new connection.
     */
    @Test
    void aConnectionWhoseRequestIsStillBeingWrittenIsNotReused() throws Exception {
        AtomicInteger accepted = new AtomicInteger();
        List<Socket> held = new ArrayList<>();
        try (ServerSocket engine = new ServerSocket(0, 8, InetAddress.getLoopbackAddress())) {
            Thread acceptor =
                    new Thread(
                            () -> {
                                try {
                                    while (true) {
                                        Socket s = engine.accept();
                                        accepted.incrementAndGet();
                                        synchronized (held) {
                                            held.add(s);
                                        }
                                        // the head read, the answer written, the body never read
                                        InputStream in = s.getInputStream();
                                        int matched = 0;
                                        while (matched < 4) {
                                            int b = in.read();
                                            if (b < 0) break;
                                            matched =
                                                    b == "\r\n\r\n".charAt(matched)
                                                            ? matched + 1
                                                            : b == '\r' ? 1 : 0;
                                        }
                                        OutputStream out = s.getOutputStream();
                                        out.write(
                                                "HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\nok"
                                                        .getBytes(StandardCharsets.US_ASCII));
                                        out.flush();
                                    }
                                } catch (Exception closed) {
                                    // the test is over
                                }
                            });
            acceptor.setDaemon(true);
            acceptor.start();
            QueuedThreadPool pool = new QueuedThreadPool(8, 2);
            pool.setDaemon(true);
            EngineClient client =
                    new EngineClient(
                            pool,
                            new ScheduledExecutorScheduler("engine-client-test", true),
                            1,
                            5000,
                            30000,
                            8);
            client.addBean(pool);
            client.start();
            try {
                URI uri = URI.create("http://127.0.0.1:" + engine.getLocalPort() + "/v1");
                // more than the sockets' buffers hold: the write stays pending
                byte[] big = new byte[32 << 20];
                assertEquals(null, answer(client, uri, big).get(20, TimeUnit.SECONDS));
                assertEquals(null, answer(client, uri, new byte[16]).get(20, TimeUnit.SECONDS));
                assertEquals(2, accepted.get());
            } finally {
                client.stop();
                synchronized (held) {
                    for (Socket s : held) s.close();
                }
            }
        }
    }

    /** Sends a request of {@code body}; its failure (null: answered) once the answer ends. */
    private static CompletableFuture<Throwable> answer(EngineClient client, URI uri, byte[] body) {
        CompletableFuture<Throwable> done = new CompletableFuture<>();
        EngineClient.Call[] call = new EngineClient.Call[1];
        call[0] =
                client.call(
                        uri,
                        EngineClient.head(uri, "Content-Length: " + body.length),
                        body,
                        new EngineClient.Receiver() {
                            @Override
                            public void headers(int status) {}

                            @Override
                            public void content(ByteBuffer bytes, boolean more) {
                                bytes.position(bytes.limit());
                                call[0].demand();
                            }

                            @Override
                            public void drained() {}

                            @Override
                            public void complete(Throwable failure) {
                                done.complete(failure);
                            }
                        });
        try {
            call[0].send(false);
        } catch (RuntimeException e) {
            done.complete(e);
        }
        return done;
    }
}
