package dev.toolcalls.server;

import com.google.gson.JsonArray;
import com.google.gson.JsonObject;

import dev.toolcalls.internal.json.Json;
import dev.toolcalls.protocol.Protocol;

import org.eclipse.jetty.http.HttpHeader;
import org.eclipse.jetty.io.Connection;
import org.eclipse.jetty.server.Handler;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.util.Callback;

import java.io.PrintStream;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Which path and method goes where: {@code POST} to one of the three protocol endpoints reads the
 * body and hands it to the {@link Backend}; {@code GET /v1/models} lists its models; a known path
 * with another method is a 405 (with {@code Allow}), anything else a 404; while shutting down,
 * every request that is not yet answered is a 503. Counts the requests being answered.
 */
final class Routes extends Handler.Abstract {
    static final String MODELS = "/v1/models";

    private final Backend backend;
    private final Deadlines deadlines;
    private final ReplayServer.Limits limits;
    private final PrintStream log;
    private final AtomicInteger inFlight = new AtomicInteger();

    Routes(Backend backend, Deadlines deadlines, ReplayServer.Limits limits, PrintStream log) {
        this.backend = backend;
        this.deadlines = deadlines;
        this.limits = limits;
        this.log = log;
    }

    /**
     * The protocol whose error shape a path's failures take: Anthropic's on its path, OpenAI's on
     * every other.
     */
    static Protocol errorShape(String path) {
        return path.equals(Protocol.MESSAGES.path())
                ? Protocol.MESSAGES
                : Protocol.CHAT_COMPLETIONS;
    }

    /** Requests being answered now (streams included). */
    int inFlight() {
        return inFlight.get();
    }

    @Override
    public boolean handle(Request request, Response response, Callback callback) {
        Connection connection = request.getConnectionMetaData().getConnection();
        inFlight.incrementAndGet();
        deadlines.processing(connection);
        Callback done =
                new Callback() {
                    @Override
                    public void succeeded() {
                        end();
                        callback.succeeded();
                    }

                    @Override
                    public void failed(Throwable x) {
                        end();
                        callback.failed(x);
                    }

                    private void end() {
                        deadlines.waiting(connection);
                        inFlight.decrementAndGet();
                    }
                };
        Exchange ex = new Exchange(request, response, done, connection, log);
        ex.guarded(() -> route(ex));
        return true;
    }

    private void route(Exchange ex) {
        String path = Request.getPathInContext(ex.request);
        String method = ex.request.getMethod();
        Protocol endpoint = Protocol.byPath(path).orElse(null);
        if (endpoint != null && method.equals("POST") && !deadlines.draining()) {
            ex.protocol = endpoint;
            BodyReader.receive(
                    ex,
                    limits,
                    deadlines,
                    backend::receive); // the body reader settles the response
            return;
        }
        ex.settle();
        if (deadlines.draining()) {
            ex.error(503, "the server is shutting down", "server_error", "shutting_down", null);
        } else if (path.equals(MODELS) && method.equals("GET")) {
            models(ex);
        } else if (endpoint != null || path.equals(MODELS)) {
            ex.response.getHeaders().put(HttpHeader.ALLOW, path.equals(MODELS) ? "GET" : "POST");
            ex.error(
                    405,
                    "method " + method + " is not allowed on " + path,
                    "invalid_request_error",
                    "method_not_allowed",
                    null);
        } else {
            ex.error(
                    404,
                    "no route " + method + " " + path,
                    "invalid_request_error",
                    "not_found",
                    null);
        }
    }

    private void models(Exchange ex) {
        JsonArray data = new JsonArray();
        for (String name : backend.models()) {
            JsonObject m = new JsonObject();
            m.addProperty("id", name);
            m.addProperty("object", "model");
            m.addProperty("created", 0);
            m.addProperty("owned_by", backend.owner());
            data.add(m);
        }
        JsonObject o = new JsonObject();
        o.addProperty("object", "list");
        o.add("data", data);
        ex.send(200, Json.write(o));
    }
}
