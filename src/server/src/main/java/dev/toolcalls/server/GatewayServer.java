package dev.toolcalls.server;

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
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * A tool-calling gateway in front of any engine that offers the OpenAI-compatible raw completion
 * endpoint ({@code POST /v1/completions}: vLLM, SGLang, llama.cpp's server, TGI, LM Studio...):
 * each request of Chat Completions, Responses or Anthropic Messages is rendered with the model's
 * chat template, completed by the engine as a stream, parsed by the model's format and answered in
 * the request's protocol, streamed or not, as the replay server speaks them.
 *
 * <p>The same front as {@link ReplayServer} ({@link Routes}, {@link BodyReader}, {@link Deadlines},
 * the same {@link ReplayServer.Limits} and JSON errors); behind it, an HTTP/1.1 client of its own
 * ({@link EngineClient}) on Jetty's selectors and the same threads. A client that goes away stops
 * the engine's generation (its request is aborted, which closes its connection); an engine that is
 * down or refuses is a 502, one that times out a 504, each in the protocol's error shape; a failure
 * mid-stream is the protocol's error event after what was certain. At most {@link
 * Options#maxStreams} requests are relayed at once; more are answered 503. Ids are random per
 * response. Prompts, outputs and keys are never logged.
 */
public final class GatewayServer implements AutoCloseable {
    /**
     * What the gateway allows on its engine's side.
     *
     * @param maxStreams requests relayed at once; more are answered 503 {@code overloaded}
     * @param upstreamTimeoutMs the engine must answer, and then send each chunk, within this time;
     *     else 504 (or the stream's error event)
     * @param connectTimeoutMs the engine's connection must open within this time
     */
    public record Options(int maxStreams, long upstreamTimeoutMs, long connectTimeoutMs) {
        public Options {
            if (maxStreams < 1)
                throw new IllegalArgumentException("at least 1 stream must be allowed");
            if (upstreamTimeoutMs < 1)
                throw new IllegalArgumentException("the upstream timeout must be at least 1 ms");
            if (connectTimeoutMs < 1)
                throw new IllegalArgumentException("the connect timeout must be at least 1 ms");
        }

        /** 512 streams, 120 s upstream timeout, 10 s to connect. */
        public static Options defaults() {
            return new Options(512, 120_000, 10_000);
        }
    }

    private static final int THREADS = 64;

    private final ReplayServer.Limits limits;
    private final PrintStream log;
    private final Server server;
    private final ServerConnector connector;
    private final Deadlines deadlines;
    private final Gateway gateway;
    private final Routes routes;
    private final AtomicBoolean closing = new AtomicBoolean();
    private final int port;

    /**
     * Binds the port (0: a free one); {@link #start} starts serving.
     *
     * @param upstreams the models served (a request for another is a 404, unless only one is
     *     served: it answers every model name)
     * @param log where failures are reported (never a prompt, an output or a key)
     * @throws IOException the address cannot be bound
     */
    public GatewayServer(
            List<Upstream> upstreams,
            String host,
            int port,
            ReplayServer.Limits limits,
            Options options,
            PrintStream log)
            throws IOException {
        this.limits = limits;
        this.log = log;
        this.deadlines = new Deadlines(limits.requestTimeoutMs());
        Scheduler scheduler = new ScheduledExecutorScheduler("toolcalls-gateway-timer", true);
        QueuedThreadPool pool = new QueuedThreadPool(THREADS, 2);
        pool.setName("toolcalls-gateway");
        pool.setDaemon(true);

        // The engine's chunks are read, parsed and written to the client without blocking (the
        // client's writes complete through callbacks), so they run on the selector's thread that
        // read them, with no hand-off to a pool thread per chunk (a batch answer's whole parse at
        // the end is handed to the pool: Relay). One selector per two cores.
        EngineClient client =
                new EngineClient(
                        pool,
                        scheduler,
                        Math.max(1, Runtime.getRuntime().availableProcessors() / 2),
                        options.connectTimeoutMs(),
                        options.upstreamTimeoutMs(),
                        options.maxStreams());

        this.gateway =
                new Gateway(
                        upstreams,
                        client,
                        options.maxStreams(),
                        options.upstreamTimeoutMs(),
                        new Constraints(),
                        log);
        this.routes = new Routes(gateway, deadlines, limits, log);

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
        server.addBean(client);
        server.setErrorHandler(new Errors.JettyErrors());
        server.setHandler(routes);
        server.setStopTimeout(0);
        try {
            connector.open();
        } catch (IOException e) {
            throw new IOException(
                    "cannot listen on " + host + ":" + port + ": " + e.getMessage(), e);
        } catch (RuntimeException e) {
            throw new IOException("cannot listen on " + host + ":" + port + ": " + e, e);
        }
        this.port = connector.getLocalPort();
    }

    public void start() {
        try {
            server.start();
        } catch (Exception e) {
            throw new IllegalStateException("the gateway did not start: " + e.getMessage(), e);
        }
        deadlines.start(server.getScheduler(), server);
    }

    /** The port bound (the one picked when 0 was asked). */
    public int port() {
        return port;
    }

    /** The model names served. */
    public List<String> models() {
        return gateway.models();
    }

    /** Requests being answered now. */
    int inFlight() {
        return routes.inFlight();
    }

    /** Requests relayed to an engine now. */
    int relaying() {
        return gateway.active();
    }

    /**
     * Stops gracefully, as {@link ReplayServer#close}: no new requests, in-flight ones get until
     * the shutdown deadline, then a stream still running ends with its protocol's failure event
     * (and its engine request is aborted).
     */
    @Override
    public void close() {
        if (!closing.compareAndSet(false, true)) return;
        long deadline =
                System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(limits.shutdownTimeoutMs());
        deadlines.drainBy(deadline);
        connector.shutdown();
        waitForRequests(deadline);
        if (inFlight() > 0) {
            int ended = gateway.endStreams();
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
