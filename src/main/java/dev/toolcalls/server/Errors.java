package dev.toolcalls.server;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;

import com.google.gson.JsonObject;
import org.eclipse.jetty.http.HttpFields;
import org.eclipse.jetty.http.HttpHeader;
import org.eclipse.jetty.http.HttpStatus;
import org.eclipse.jetty.io.Content;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.server.handler.ErrorHandler;
import org.eclipse.jetty.util.Callback;

import dev.toolcalls.internal.json.Json;
import dev.toolcalls.server.ReplayServer.Protocol;

/**
 * The JSON error bodies of each protocol, for the server's own answers and for the errors Jetty
 * answers itself (a malformed request, headers too large): never an HTML page.
 * <ul>
 * <li>OpenAI (Chat Completions, Responses, and every path but {@code /v1/messages}):
 *     {@code {"error": {"message", "type", "param", "code"}}}, {@code type} {@code invalid_request_error}
 *     for a 4xx and {@code server_error} for a 5xx, {@code code} the specific cause.</li>
 * <li>Anthropic (Messages): {@code {"type": "error", "error": {"type", "message"}}}, {@code type} from
 *     the status: {@code not_found_error} (404), {@code request_timeout} (408), {@code request_too_large}
 *     (413), {@code overloaded_error} (503), {@code api_error} (other 5xx), {@code invalid_request_error}
 *     (other 4xx).</li>
 * </ul>
 */
final class Errors {
    private Errors() { }

    /** An OpenAI error object (also a Chat Completions stream's error chunk). */
    static String openAi(String message, String type, String code, String param) {
        JsonObject err = new JsonObject();
        err.addProperty("message", message);
        err.addProperty("type", type);
        err.addProperty("param", param);
        err.addProperty("code", code);
        JsonObject o = new JsonObject();
        o.add("error", err);
        return Json.write(o);
    }

    /** The error body of {@code protocol} for an answer with {@code status}. */
    static String body(Protocol protocol, int status, String message, String type, String code, String param) {
        if (protocol != Protocol.MESSAGES) return openAi(message, type, code, param);
        String anthropicType = switch (status) {
            case 404 -> "not_found_error";
            case 408 -> "request_timeout";
            case 413 -> "request_too_large";
            case 503 -> "overloaded_error";
            default -> status >= 500 ? "api_error" : "invalid_request_error";
        };
        return Replay.messagesError(anthropicType, message);
    }

    /** Jetty's own error responses, in the protocols' JSON instead of its HTML page. */
    static final class JettyErrors extends ErrorHandler {
        @Override public boolean errorPageForMethod(String method) { return true; }

        @Override public ByteBuffer badMessageError(int status, String reason, HttpFields.Mutable fields) {
            fields.put(HttpHeader.CONTENT_TYPE, "application/json; charset=utf-8");
            return ByteBuffer.wrap(openAi(reason(status, reason), type(status), "http_" + status, null).getBytes(StandardCharsets.UTF_8));
        }

        @Override protected void generateResponse(Request request, Response response, int code, String message, Throwable cause, Callback callback) {
            Protocol protocol = Routes.errorShape(Request.getPathInContext(request));
            response.getHeaders().put(HttpHeader.CONTENT_TYPE, "application/json; charset=utf-8");
            Content.Sink.write(response, true, body(protocol, code, reason(code, message), type(code), "http_" + code, null), callback);
        }

        private static String reason(int status, String reason) {
            String standard = HttpStatus.getMessage(status);
            return reason == null || reason.isBlank() || reason.equals(standard) ? status + " " + standard : status + " " + standard + ": " + reason;
        }

        private static String type(int status) { return status >= 500 ? "server_error" : "invalid_request_error"; }
    }
}
