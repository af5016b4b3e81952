package dev.toolcalls.server;

import dev.toolcalls.protocol.Protocol;

import org.eclipse.jetty.http.HttpFields;
import org.eclipse.jetty.http.HttpHeader;
import org.eclipse.jetty.http.HttpStatus;
import org.eclipse.jetty.io.Content;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.server.handler.ErrorHandler;
import org.eclipse.jetty.util.Callback;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;

/**
 * The errors Jetty answers itself (a malformed request, headers too large), in the JSON of the
 * route's protocol ({@link Protocol#error}): never an HTML page. The server's own error answers
 * take the same bodies ({@code Exchange.error}).
 *
 * <ul>
 *   <li>OpenAI (Chat Completions, Responses, and every path but {@code /v1/messages}): {@code
 *       {"error": {"message", "type", "param", "code"}}}, {@code type} {@code
 *       invalid_request_error} for a 4xx and {@code server_error} for a 5xx, {@code code} the
 *       specific cause.
 *   <li>Anthropic (Messages): {@code {"type": "error", "error": {"type", "message"}}}, {@code type}
 *       from the status: {@code not_found_error} (404), {@code request_timeout} (408), {@code
 *       request_too_large} (413), {@code overloaded_error} (503), {@code api_error} (other 5xx),
 *       {@code invalid_request_error} (other 4xx).
 * </ul>
 */
final class Errors {
    private Errors() {}

    /** Jetty's own error responses, in the protocols' JSON instead of its HTML page. */
    static final class JettyErrors extends ErrorHandler {
        @Override
        public boolean errorPageForMethod(String method) {
            return true;
        }

        @Override
        public ByteBuffer badMessageError(int status, String reason, HttpFields.Mutable fields) {
            fields.put(HttpHeader.CONTENT_TYPE, "application/json; charset=utf-8");
            return ByteBuffer.wrap(
                    Protocol.CHAT_COMPLETIONS
                            .error(
                                    status,
                                    reason(status, reason),
                                    type(status),
                                    "http_" + status,
                                    null)
                            .getBytes(StandardCharsets.UTF_8));
        }

        @Override
        protected void generateResponse(
                Request request,
                Response response,
                int code,
                String message,
                Throwable cause,
                Callback callback) {
            Protocol protocol = Routes.errorShape(Request.getPathInContext(request));
            response.getHeaders().put(HttpHeader.CONTENT_TYPE, "application/json; charset=utf-8");
            Content.Sink.write(
                    response,
                    true,
                    protocol.error(code, reason(code, message), type(code), "http_" + code, null),
                    callback);
        }

        private static String reason(int status, String reason) {
            String standard = HttpStatus.getMessage(status);
            return reason == null || reason.isBlank() || reason.equals(standard)
                    ? status + " " + standard
                    : status + " " + standard + ": " + reason;
        }

        private static String type(int status) {
            return status >= 500 ? "server_error" : "invalid_request_error";
        }
    }
}
