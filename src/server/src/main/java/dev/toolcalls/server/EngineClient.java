package dev.toolcalls.server;

import org.eclipse.jetty.io.AbstractConnection;
import org.eclipse.jetty.io.ClientConnectionFactory;
import org.eclipse.jetty.io.ClientConnector;
import org.eclipse.jetty.io.Connection;
import org.eclipse.jetty.io.EndPoint;
import org.eclipse.jetty.io.Transport;
import org.eclipse.jetty.io.ssl.SslConnection;
import org.eclipse.jetty.io.ssl.SslHandshakeListener;
import org.eclipse.jetty.util.Callback;
import org.eclipse.jetty.util.Promise;
import org.eclipse.jetty.util.component.ContainerLifeCycle;
import org.eclipse.jetty.util.ssl.SslContextFactory;
import org.eclipse.jetty.util.thread.Invocable;
import org.eclipse.jetty.util.thread.Scheduler;

import java.io.EOFException;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.URI;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Deque;
import java.util.HashMap;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedDeque;
import java.util.concurrent.Executor;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The gateway's HTTP/1.1 client to its engines: a request written whole, its response read on the
 * selector's thread as the bytes arrive ({@link ResponseReader}) and handed to a {@link Receiver}
 * piece by piece, each next piece read once the receiver asks for it ({@link Call#demand}).
 * Connections are kept per engine (scheme, host and port) and reused, the last used first.
 *
 * <pre>
 * Call call = client.call(uri, head, body, receiver);
 * call.send(false);     // receiver.headers, .content, .drained, .complete
 * ...
 * call.demand();        // after a content piece: read on
 * call.abort(cause);    // closes the connection; receiver.complete(cause)
 * </pre>
 *
 * <p>A connection that sends nothing for the idle timeout (while waiting for an answer, or between
 * pieces, even while the receiver holds the reading back) ends its call with a {@link
 * TimeoutException}; an idle kept connection is closed after it.
 */
final class EngineClient extends ContainerLifeCycle {
    /** Told the engine's answer; each method on one thread at a time. */
    interface Receiver {
        /** The status line and headers are read. */
        void headers(int status);

        /**
         * Body bytes (chunked transfer decoded) from the buffer's position to its limit, read
         * before this returns; the next come after {@link Call#demand}. {@code more}: the bytes
         * read already hold more of the answer, handed on at once when demanded.
         */
        void content(ByteBuffer bytes, boolean more);

        /**
         * The bytes the connection had are all read and handed on (a read found it empty): what the
         * pieces since the last call made may go out together.
         */
        void drained();

        /** The answer's end (null) or the failure that ended the call; called once. */
        void complete(Throwable failure);
    }

    private static final int INPUT_BUFFER = 16 << 10;

    private final ClientConnector connector;
    private final Map<String, Deque<Link>> idle = new ConcurrentHashMap<>();
    private final AtomicInteger idleCount = new AtomicInteger();
    private final int maxIdle;
    private final Executor executor;

    EngineClient(
            Executor executor,
            Scheduler scheduler,
            int selectors,
            long connectTimeoutMs,
            long idleTimeoutMs,
            int maxIdle) {
        this.executor = executor;
        this.maxIdle = maxIdle;
        connector =
                new ClientConnector() {
                    @Override
                    protected Connection newConnection(
                            EndPoint endPoint, Map<String, Object> context) throws IOException {
                        return EngineClient.this.newConnection(endPoint, context);
                    }
                };
        connector.setExecutor(executor);
        connector.setScheduler(scheduler);
        connector.setSelectors(selectors);
        connector.setConnectTimeout(Duration.ofMillis(connectTimeoutMs));
        connector.setIdleTimeout(Duration.ofMillis(idleTimeoutMs));
        connector.setSslContextFactory(new SslContextFactory.Client());
        addBean(connector);
    }

    Executor executor() {
        return executor;
    }

    /**
     * One request ({@code head}: its request line and headers; {@code body}: its bytes) to the URI,
     * not yet sent.
     */
    Call call(URI uri, byte[] head, byte[] body, Receiver receiver) {
        return new Call(uri, head, body, receiver);
    }

    /** Sends the call on a kept connection to its URI's origin, or on a new one. */
    private void send(Call call, boolean fresh) {
        URI uri = call.uri;
        String origin = origin(uri);
        if (!fresh) {
            Deque<Link> q = idle.get(origin);
            Link link;
            while (q != null && (link = q.pollFirst()) != null) {
                idleCount.decrementAndGet();
                if (link.take(call)) return;
            }
        }
        Map<String, Object> context = new HashMap<>();
        context.put(Transport.CONTEXT_KEY, Transport.TCP_IP);
        context.put(Call.class.getName(), call);
        context.put(String.class.getName(), origin);
        // under TLS the peer's name and port (SNI, the certificate's check) are the address's
        context.put(SslContextFactory.class.getName(), "https".equalsIgnoreCase(uri.getScheme()));
        context.put(
                ClientConnector.CONNECTION_PROMISE_CONTEXT_KEY,
                new Promise<Connection>() {
                    @Override
                    public void succeeded(Connection c) {
                        // the link starts the call when it opens
                    }

                    @Override
                    public void failed(Throwable x) {
                        call.finish(x);
                    }
                });
        try {
            connector.connect(new InetSocketAddress(uri.getHost(), port(uri)), context);
        } catch (RuntimeException x) {
            call.finish(x);
        }
    }

    private Connection newConnection(EndPoint endPoint, Map<String, Object> context)
            throws IOException {
        Call call = (Call) context.get(Call.class.getName());
        String origin = (String) context.get(String.class.getName());
        ClientConnectionFactory links = (e, c) -> new Link(e, origin, call);
        if (!Boolean.TRUE.equals(context.get(SslContextFactory.class.getName())))
            return links.newConnection(endPoint, context);
        Connection tls =
                connector
                        .newSslClientConnectionFactory(null, links)
                        .newConnection(endPoint, context);
        if (tls instanceof SslConnection ssl)
            // told before the TLS layer closes the connection, which the link sees as a bare close
            ssl.addHandshakeListener(
                    new SslHandshakeListener() {
                        @Override
                        public void handshakeFailed(Event event, Throwable failure) {
                            if (ssl.getSslEndPoint().getConnection() instanceof Link link)
                                link.handshakeFailed(failure);
                        }
                    });
        return tls;
    }

    private static String origin(URI uri) {
        return uri.getScheme().toLowerCase(Locale.ROOT) + "://" + uri.getHost() + ":" + port(uri);
    }

    private static int port(URI uri) {
        if (uri.getPort() > 0) return uri.getPort();
        return "https".equalsIgnoreCase(uri.getScheme()) ? 443 : 80;
    }

    /**
     * The request's head: request line, Host, and the given headers (each "Name: value"; an empty
     * one is left out).
     */
    static byte[] head(URI uri, String... headers) {
        StringBuilder b = new StringBuilder("POST ");
        String path = uri.getRawPath();
        b.append(path == null || path.isEmpty() ? "/" : path);
        if (uri.getRawQuery() != null) b.append('?').append(uri.getRawQuery());
        b.append(" HTTP/1.1\r\nHost: ").append(uri.getHost());
        if (uri.getPort() > 0) b.append(':').append(uri.getPort());
        b.append("\r\n");
        for (String h : headers) if (!h.isEmpty()) b.append(h).append("\r\n");
        b.append("\r\n");
        return b.toString().getBytes(StandardCharsets.UTF_8);
    }

    /** One request and its answer. */
    final class Call {
        private final URI uri;
        private final byte[] head;
        private final byte[] body;
        private final Receiver receiver;
        private Link link; // guarded by this
        private boolean done; // guarded by this

        Call(URI uri, byte[] head, byte[] body, Receiver receiver) {
            this.uri = uri;
            this.head = head;
            this.body = body;
            this.receiver = receiver;
        }

        /** Sends the request: on a kept connection, or on a new one ({@code fresh}). */
        void send(boolean fresh) {
            EngineClient.this.send(this, fresh);
        }

        /** Reads the answer on, after a content piece. */
        void demand() {
            Link l;
            synchronized (this) {
                l = link;
            }
            if (l != null) l.demand();
        }

        /** Ends the call: its connection is closed, and the receiver told {@code cause}. */
        void abort(Throwable cause) {
            Link l;
            synchronized (this) {
                l = link;
            }
            if (finish(cause) && l != null) l.close();
        }

        /** Ends the call once: true the first time (the receiver is told). */
        boolean finish(Throwable failure) {
            synchronized (this) {
                if (done) return false;
                done = true;
            }
            receiver.complete(failure);
            return true;
        }

        private synchronized boolean bind(Link l) {
            if (done) return false;
            link = l;
            return true;
        }

        private synchronized boolean done() {
            return done;
        }
    }

    /** One connection to an engine: at most one call at a time. */
    private final class Link extends AbstractConnection {
        private final String origin;
        private final ResponseReader reader = new ResponseReader();
        private ByteBuffer in;
        // guarded by this
        private Call call;
        private boolean demanded;
        private boolean looping;
        private boolean closed;

        /**
         * A request's write has not completed yet (an engine may answer before it has read the
         * whole request); the answer ended meanwhile, and the connection waits for the write to
         * complete before another call may take it (a second write while one is pending fails).
         */
        private boolean writing;

        private boolean idleWhenWritten;

        /** Reading never blocks: it runs on the selector's thread. */
        private final Callback fillable =
                new Callback() {
                    @Override
                    public void succeeded() {
                        onFillable();
                    }

                    @Override
                    public void failed(Throwable x) {
                        onFillInterestedFailed(x);
                    }

                    @Override
                    public Invocable.InvocationType getInvocationType() {
                        return Invocable.InvocationType.NON_BLOCKING;
                    }
                };

        Link(EndPoint endPoint, String origin, Call first) {
            super(endPoint, executor);
            this.origin = origin;
            this.call = first;
        }

        @Override
        public void onOpen() {
            super.onOpen();
            Call c;
            synchronized (this) {
                c = call;
                call = null;
            }
            if (c != null && !take(c))
                c.finish(new EOFException("the connection was closed before an answer"));
        }

        /** Starts the call on this connection; false when it is closed. */
        boolean take(Call c) {
            boolean bound;
            synchronized (this) {
                if (closed || writing || !getEndPoint().isOpen()) return false;
                bound = c.bind(this);
                if (bound) {
                    call = c;
                    demanded = true;
                    writing = true;
                    reader.reset();
                }
            }
            if (!bound) { // aborted meanwhile: the connection stays idle
                idleOrClose();
                return true;
            }
            getEndPoint()
                    .write(
                            Callback.from(
                                    Invocable.InvocationType.NON_BLOCKING,
                                    this::written,
                                    x -> {
                                        boolean waiting;
                                        synchronized (this) {
                                            waiting = idleWhenWritten;
                                            writing = false;
                                            idleWhenWritten = false;
                                        }
                                        if (waiting) close(); // its answer had ended: not kept
                                        fail(c, x);
                                    }),
                            ByteBuffer.wrap(c.head),
                            ByteBuffer.wrap(c.body));
            tryFillInterested(fillable);
            return true;
        }

        /** The request is written: a connection whose answer ended meanwhile is kept now. */
        private void written() {
            boolean keep;
            synchronized (this) {
                writing = false;
                keep = idleWhenWritten;
                idleWhenWritten = false;
            }
            if (keep) idleOrClose();
        }

        void demand() {
            synchronized (this) {
                demanded = true;
                if (looping) return;
                looping = true;
            }
            loop();
        }

        @Override
        public void onFillable() {
            synchronized (this) {
                if (looping) return; // the running loop reads on, or asks again
                looping = true;
            }
            loop();
        }

        private void loop() {
            Call c = null;
            try {
                while (true) {
                    synchronized (this) {
                        c = call;
                        if (c != null && !demanded) {
                            looping = false;
                            return;
                        }
                    }
                    if (in == null) in = ByteBuffer.allocateDirect(INPUT_BUFFER).flip();
                    if (c != null) {
                        if (read(c) != ResponseReader.Step.MORE) continue;
                    } else if (in.hasRemaining()) {
                        // bytes no request asked for: the connection is unusable
                        synchronized (this) {
                            looping = false;
                        }
                        close();
                        return;
                    }
                    in.clear().flip(); // read whole: MORE leaves nothing behind
                    int n = getEndPoint().fill(in);
                    if (n > 0) continue;
                    if (n == 0) {
                        if (c != null && !c.done()) c.receiver.drained();
                        synchronized (this) {
                            looping = false;
                        }
                        tryFillInterested(fillable);
                        return;
                    }
                    synchronized (this) {
                        looping = false;
                    }
                    if (c != null && reader.closed() == ResponseReader.Step.END) end(c, false);
                    close();
                    return;
                }
            } catch (Throwable x) {
                synchronized (this) {
                    looping = false;
                }
                if (c != null) fail(c, x);
                else close();
            }
        }

        /** Reads what the buffer holds of the call's answer, up to one content piece. */
        private ResponseReader.Step read(Call c) throws IOException {
            ResponseReader.Step step = reader.next(in);
            switch (step) {
                case HEAD -> c.receiver.headers(reader.status());
                case CONTENT -> {
                    int end = in.position() + reader.contentLength();
                    int limit = in.limit();
                    synchronized (this) {
                        demanded = false;
                    }
                    in.limit(end);
                    try {
                        // more than a chunk's closing CRLF is read: more of the answer
                        if (!c.done()) c.receiver.content(in, limit - end > 2);
                    } finally {
                        in.limit(limit).position(end);
                    }
                }
                case END -> end(c, reader.reusable() && !in.hasRemaining());
                case MORE -> {}
            }
            return step;
        }

        /** The call's answer is whole: it ends, and the connection is kept or closed. */
        private void end(Call c, boolean keep) {
            boolean idleNow;
            synchronized (this) {
                call = null;
                idleNow = keep && !writing;
                if (keep && writing) idleWhenWritten = true;
            }
            // kept before the receiver hears of the end, so that a request it answers finds it
            if (idleNow) idleOrClose();
            else if (!keep) close();
            c.finish(null);
        }

        private void idleOrClose() {
            if (idleCount.incrementAndGet() > maxIdle) {
                idleCount.decrementAndGet();
                close();
                return;
            }
            idle.computeIfAbsent(origin, o -> new ConcurrentLinkedDeque<>()).addFirst(this);
            tryFillInterested(fillable); // an engine that closes it is seen
        }

        /** The TLS handshake failed: the call ends with its failure; the TLS layer closes. */
        void handshakeFailed(Throwable x) {
            Call c;
            synchronized (this) {
                c = call;
                call = null;
            }
            if (c != null) c.finish(x);
        }

        private void fail(Call c, Throwable x) {
            synchronized (this) {
                if (call == c) call = null;
            }
            if (c.finish(x)) close();
        }

        @Override
        public boolean onIdleExpired(TimeoutException timeout) {
            Call c;
            synchronized (this) {
                c = call;
            }
            if (c != null) fail(c, timeout);
            else close();
            return false;
        }

        @Override
        public void onClose(Throwable cause) {
            super.onClose(cause);
            Call c;
            synchronized (this) {
                closed = true;
                c = call;
                call = null;
            }
            Deque<Link> q = idle.get(origin);
            if (q != null && q.remove(this)) idleCount.decrementAndGet();
            if (c != null)
                c.finish(
                        cause != null
                                ? cause
                                : new EOFException(
                                        reader.started()
                                                ? "the connection was closed before the end of the answer"
                                                : "the connection was closed before an answer"));
        }
    }
}
