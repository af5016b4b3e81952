package dev.toolcalls.server;

import org.eclipse.jetty.io.Connection;
import org.eclipse.jetty.server.Server;
import org.eclipse.jetty.util.thread.Scheduler;

import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;

/**
 * The server's deadlines, so that slow and stalled clients cannot hold a connection and shutdown
 * ends on time.
 *
 * <ul>
 *   <li>Each connection's deadline for delivering a whole request: from its open, or the end of its
 *       previous response. A connection still sending headers at the deadline is closed; a request
 *       still sending its body is answered 408 (by its {@link BodyReader}).
 *   <li>The shutdown deadline: set by {@link #drainBy}, after which streams end early.
 * </ul>
 *
 * The idle timeout (a connection without any traffic) is Jetty's own, set on the connector.
 */
final class Deadlines implements Connection.Listener {
    private final class State {
        volatile long since = System.nanoTime(); // waiting for a request (or its body) since
        volatile BodyReader body; // the body being read, if any
        volatile boolean busy; // the request is read; the reply is being made
    }

    private final long requestTimeoutMs;
    private final Map<Connection, State> states = new ConcurrentHashMap<>();
    private volatile long
            drainDeadline; // System.nanoTime() by which in-flight requests must end; 0 while

    // serving

    Deadlines(long requestTimeoutMs) {
        this.requestTimeoutMs = requestTimeoutMs;
    }

    @Override
    public void onOpened(Connection connection) {
        states.put(connection, new State());
    }

    @Override
    public void onClosed(Connection connection) {
        states.remove(connection);
    }

    /** The connection's request is sending its body, read by {@code reader}. */
    void body(Connection c, BodyReader reader) {
        State s = states.get(c);
        if (s != null) {
            s.body = reader;
            s.busy = false;
        }
    }

    /**
     * The connection's request is read (or being answered without a body): no deadline until its
     * response ends.
     */
    void processing(Connection c) {
        State s = states.get(c);
        if (s != null) {
            s.body = null;
            s.busy = true;
        }
    }

    /**
     * The connection's response ended: its next request is due within the request timeout from now.
     */
    void waiting(Connection c) {
        State s = states.get(c);
        if (s != null) {
            s.body = null;
            s.busy = false;
            s.since = System.nanoTime();
        }
    }

    /**
     * Sweeps the connections every quarter of the request timeout (10 ms to 1 s) while the server
     * runs.
     */
    void start(Scheduler scheduler, Server server) {
        long every = Math.max(10, Math.min(1000, requestTimeoutMs / 4));
        scheduler.schedule(
                new Runnable() {
                    @Override
                    public void run() {
                        if (!server.isRunning()) return;
                        sweep();
                        scheduler.schedule(this, every, TimeUnit.MILLISECONDS);
                    }
                },
                every,
                TimeUnit.MILLISECONDS);
    }

    private void sweep() {
        long now = System.nanoTime();
        long limit = TimeUnit.MILLISECONDS.toNanos(requestTimeoutMs);
        for (Map.Entry<Connection, State> e : states.entrySet()) {
            State s = e.getValue();
            if (s.busy || now - s.since < limit) continue;
            BodyReader body = s.body;
            if (body != null) {
                s.body = null;
                body.timeout();
            } else {
                e.getKey()
                        .getEndPoint()
                        .close(); // headers never completed (or an idle keep-alive connection)
            }
        }
    }

    /**
     * Shutdown begins: in-flight requests must end by {@code deadline} ({@link System#nanoTime()}).
     */
    void drainBy(long deadline) {
        drainDeadline = deadline == 0 ? 1 : deadline;
    }

    /** Shutting down: new requests are refused. */
    boolean draining() {
        return drainDeadline != 0;
    }

    /** Past the shutdown deadline: a stream still running ends now. */
    boolean pastDrainDeadline() {
        return draining() && System.nanoTime() - drainDeadline >= 0;
    }
}
