package dev.toolcalls.server;

import dev.toolcalls.protocol.Protocol;

import org.eclipse.jetty.http.HttpHeader;
import org.eclipse.jetty.io.Connection;
import org.eclipse.jetty.io.Content;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.util.Callback;

import java.io.PrintStream;
import java.util.concurrent.atomic.AtomicBoolean;

/** One request being answered: its response is settled once, by whoever gets there first. */
final class Exchange {
    final Request request;
    final Response response;
    final Callback done;
    final Connection connection;

    /** The protocol whose shape the answer takes (errors included). */
    Protocol protocol;

    private final PrintStream log;
    private final AtomicBoolean settled = new AtomicBoolean();

    Exchange(
            Request request,
            Response response,
            Callback done,
            Connection connection,
            PrintStream log) {
        this.request = request;
        this.response = response;
        this.done = done;
        this.connection = connection;
        this.log = log;
        this.protocol = Routes.errorShape(Request.getPathInContext(request));
    }

    /** True the first time: the caller now owns the response. */
    boolean settle() {
        return settled.compareAndSet(false, true);
    }

    /** Whether someone owns the response already (a timeout, a failure, the reply). */
    boolean settled() {
        return settled.get();
    }

    /**
     * Runs a step of the answer; a bug in it is logged and answered 500 (or ends a response under
     * way).
     */
    void guarded(Runnable step) {
        try {
            step.run();
        } catch (RuntimeException | Error e) {
            log.println(
                    "toolcalls serve: internal error on "
                            + request.getMethod()
                            + " "
                            + Request.getPathInContext(request)
                            + ": "
                            + e);
            settle();
            if (response.isCommitted()) done.failed(e);
            else error(500, "internal error: " + e, "server_error", "internal_error", null);
        }
    }

    void send(int status, String body) {
        response.setStatus(status);
        response.getHeaders().put(HttpHeader.CONTENT_TYPE, "application/json; charset=utf-8");
        Content.Sink.write(response, true, body, done);
    }

    /**
     * The protocol's error object ({@link Protocol#error}); after a 408, 413 or 503 the connection
     * is closed.
     */
    void error(int status, String message, String type, String code, String param) {
        if (status == 413 || status == 408 || status == 503)
            response.getHeaders().put(HttpHeader.CONNECTION, "close");
        send(status, protocol.error(status, message, type, code, param));
    }
}
