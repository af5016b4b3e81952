package dev.toolcalls.server;

import dev.toolcalls.Format;

import org.eclipse.jetty.server.HttpConfiguration;
import org.eclipse.jetty.server.HttpConnectionFactory;
import org.eclipse.jetty.server.NetworkConnectionLimit;
import org.eclipse.jetty.server.Server;
import org.eclipse.jetty.server.ServerConnector;
import org.eclipse.jetty.util.thread.QueuedThreadPool;
import org.eclipse.jetty.util.thread.ScheduledExecutorScheduler;
import org.eclipse.jetty.util.thread.Scheduler;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Path;
import java.util.List;
import java.util.OptionalLong;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * A mock OpenAI endpoint that replays recorded raw model outputs through a format's parser, for
 * testing agents and client code against real model conventions without a GPU.
 *
 * <ul>
 *   <li>{@code POST /v1/chat/completions}, {@code /v1/responses}, {@code /v1/messages}: with a
 *       replay directory, the file whose name (without extension) equals the request's {@code
 *       model}; a request for the format's own name (or an alias, or no model) takes the files in
 *       name order, round-robin; with a replay file, always that file. {@code stream: true} answers
 *       SSE chunks cut like {@code parse --stream}; otherwise the protocol's object. The request's
 *       {@code tools} reach the parser.
 *   <li>{@code GET /v1/models}: the replayable names.
 *   <li>Every failure is the protocol's JSON error object with a 4xx/5xx status, including those of
 *       HTTP itself (a malformed request, headers too large); the server keeps serving.
 * </ul>
 *
 * It keeps serving whatever the clients do (see {@link Limits}): requests are read without holding
 * a thread, streams are written without one between chunks, a connection that does not deliver a
 * whole request within the request timeout is closed, a stalled reader is dropped after the idle
 * timeout, bodies are limited. {@link #close} is graceful: no new requests, in-flight ones get
 * until the shutdown deadline, and a stream still running then ends with its protocol's failure
 * event.
 *
 * <p>Every response gets ids of its own (its id and its calls'), random by default, so a client
 * that keys tool results by call id across the turns of a conversation sees no two alike; with an
 * id seed, a run answered in the same order gives the same ids every time. A request's {@code
 * chat_template_kwargs.enable_thinking} (as vLLM and SGLang take it) sets thinking on or off.
 *
 * <p>This class binds, starts and stops; the parts: {@link Routes} (which path and method goes
 * where), {@link BodyReader} (size, time and UTF-8 of a body), {@link Deadlines} (request and
 * shutdown deadlines), {@link Replay} (a request and a recorded output become the protocol's body
 * or stream), {@link Errors} (each protocol's error bodies); an {@link Exchange} is one request
 * being answered.
 */
public final class ReplayServer implements AutoCloseable {
    /**
     * What the server allows a client.
     *
     * @param maxBodyBytes largest request body; a larger one is answered 413
     * @param idleTimeoutMs a connection with no traffic at all (a stalled reader or writer) this
     *     long is closed
     * @param requestTimeoutMs a request's headers and body must arrive within this time from the
     *     connection's open or its previous response; else a 408 (body) or the connection is closed
     *     (headers)
     * @param shutdownTimeoutMs how long {@link #close} lets in-flight requests finish
     * @param maxConnections connections open at once; more wait in the accept queue
     */
    public record Limits(
            long maxBodyBytes,
            long idleTimeoutMs,
            long requestTimeoutMs,
            long shutdownTimeoutMs,
            int maxConnections) {
        public Limits {
            if (maxBodyBytes < 1 || maxBodyBytes > 1L << 30)
                throw new IllegalArgumentException("the body limit must be 1 byte to 1 GiB");
            if (idleTimeoutMs < 1)
                throw new IllegalArgumentException("the idle timeout must be at least 1 ms");
            if (requestTimeoutMs < 1)
                throw new IllegalArgumentException("the request timeout must be at least 1 ms");
            if (shutdownTimeoutMs < 0)
                throw new IllegalArgumentException("the shutdown timeout must not be negative");
            if (maxConnections < 1)
                throw new IllegalArgumentException("at least 1 connection must be allowed");
        }

        /**
         * How long {@link #close}, past the shutdown deadline, waits for the streams it ended to
         * write their failure event: a second, whatever the deadline (the wait ends as soon as they
         * have; on a loaded machine a fraction of a second may not be enough to write it).
         */
        public long finalEventGraceMs() {
            return 1000;
        }

        /** 4 MiB bodies, 30 s idle and request timeouts, 10 s to shut down, 512 connections. */
        public static Limits defaults() {
            return new Limits(4L << 20, 30_000, 30_000, 10_000, 512);
        }
    }

    private static final int THREADS = 32;

    private final Limits limits;
    private final PrintStream log;
    private final Server server;
    private final ServerConnector connector;
    private final Scheduler scheduler;
    private final Deadlines deadlines;
    private final Replay replay;
    private final Routes routes;
    private final AtomicBoolean closing = new AtomicBoolean();
    private final int port;

    public ReplayServer(
            Format format,
            Path replay,
            String host,
            int port,
            int chunkMax,
            long chunkSeed,
            long delayMs)
            throws IOException {
        this(
                format,
                replay,
                host,
                port,
                chunkMax,
                chunkSeed,
                delayMs,
                Limits.defaults(),
                System.err);
    }

    /**
     * The server with random ids (see {@link #ReplayServer(Format, Path, String, int, int, long,
     * long, Limits, PrintStream, OptionalLong)}).
     */
    public ReplayServer(
            Format format,
            Path replay,
            String host,
            int port,
            int chunkMax,
            long chunkSeed,
            long delayMs,
            Limits limits,
            PrintStream log)
            throws IOException {
        this(
                format,
                replay,
                host,
                port,
                chunkMax,
                chunkSeed,
                delayMs,
                limits,
                log,
                OptionalLong.empty());
    }

    /**
     * Binds the port (0: a free one) and reads the replay directory; {@link #start} starts serving.
     *
     * @param log where failures the client cannot see in full are reported (unreadable replay
     *     files, internal errors)
     * @param idSeed empty: random ids (the library's strong default); a seed: each response draws
     *     its ids from a generator seeded from it and the response's number, so a run is
     *     reproducible and no two responses get the same ids
     * @throws IOException the replay path has no files, or the address cannot be bound
     */
    public ReplayServer(
            Format format,
            Path replay,
            String host,
            int port,
            int chunkMax,
            long chunkSeed,
            long delayMs,
            Limits limits,
            PrintStream log,
            OptionalLong idSeed)
            throws IOException {
        this.limits = limits;
        this.log = log;
        this.deadlines = new Deadlines(limits.requestTimeoutMs());
        this.scheduler = new ScheduledExecutorScheduler("toolcalls-serve-timer", true);
        this.replay =
                new Replay(
                        format, replay, chunkMax, chunkSeed, delayMs, idSeed, scheduler, deadlines,
                        log);
        this.routes = new Routes(this.replay, deadlines, limits, log);

        QueuedThreadPool pool = new QueuedThreadPool(THREADS, 2);
        pool.setName("toolcalls-serve");
        pool.setDaemon(true);
        server = new Server(pool, scheduler, null);
        HttpConfiguration http = new HttpConfiguration();
        http.setSendServerVersion(false);
        http.setSendXPoweredBy(false);
        http.setIdleTimeout(limits.idleTimeoutMs());
        connector = new ServerConnector(server, 1, 1, new HttpConnectionFactory(http));
        connector.setHost(host);
        connector.setPort(port);
        connector.setIdleTimeout(limits.idleTimeoutMs());
        connector.addBean(deadlines);
        server.addConnector(connector);
        server.addBean(new NetworkConnectionLimit(limits.maxConnections(), server));
        server.setErrorHandler(new Errors.JettyErrors());
        server.setHandler(routes);
        server.setStopTimeout(0);
        try {
            connector.open();
        } catch (IOException e) {
            throw new IOException(
                    "cannot listen on " + host + ":" + port + ": " + e.getMessage(), e);
        } catch (RuntimeException e) { // an address that does not resolve
            throw new IOException("cannot listen on " + host + ":" + port + ": " + e, e);
        }
        this.port = connector.getLocalPort();
    }

    public void start() {
        try {
            server.start();
        } catch (Exception e) {
            throw new IllegalStateException(
                    "the replay server did not start: " + e.getMessage(), e);
        }
        deadlines.start(scheduler, server);
    }

    /** The port bound (the one picked when 0 was asked). */
    public int port() {
        return port;
    }

    public List<String> models() {
        return replay.models();
    }

    /** Requests being answered now (streams included). */
    int inFlight() {
        return routes.inFlight();
    }

    /**
     * Stops gracefully: no new connections, new requests on open ones answered 503; in-flight
     * requests get until the shutdown deadline, then a stream still running ends with its
     * protocol's failure event; then every connection is closed.
     */
    @Override
    public void close() {
        if (!closing.compareAndSet(false, true)) return;
        long deadline =
                System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(limits.shutdownTimeoutMs());
        deadlines.drainBy(deadline);
        connector.shutdown(); // stops accepting; open connections stay
        waitForRequests(deadline);
        if (inFlight() > 0) {
            int ended = replay.endStreams();
            if (ended > 0)
                log.println(
                        "toolcalls serve: shutdown deadline: "
                                + ended
                                + " stream(s) ended early with a failure event");
            waitForRequests(
                    System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(limits.finalEventGraceMs()));
        }
        try {
            server.stop();
        } catch (Exception e) {
            log.println("toolcalls serve: stopping: " + e);
        }
    }

    private void waitForRequests(long until) {
        while (inFlight() > 0 && System.nanoTime() - until < 0) {
            try {
                Thread.sleep(5);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return;
            }
        }
    }
}
