package dev.toolcalls.server;

import com.google.gson.JsonElement;
import com.google.gson.JsonObject;

import dev.toolcalls.internal.json.Json;

import java.util.List;

/**
 * What answers the protocol endpoints behind {@link Routes}: the replay of recorded outputs, or the
 * gateway to an inference engine.
 */
interface Backend {
    /**
     * Answers a protocol request ({@code ex.protocol} is set) whose body is a JSON object that
     * passed the protocol's request checks.
     */
    void reply(Exchange ex, JsonObject body);

    /**
     * A protocol request whose whole body has arrived: a body that is not a JSON object, or not a
     * valid request of the protocol, is answered 400 here; any other goes to {@link #reply}.
     */
    default void receive(Exchange ex, String text) {
        JsonObject body;
        try {
            JsonElement e = Json.parseStrict(text);
            if (!e.isJsonObject()) {
                ex.error(
                        400,
                        "the request body must be a JSON object",
                        "invalid_request_error",
                        "invalid_json",
                        null);
                return;
            }
            body = e.getAsJsonObject();
        } catch (Json.NotJson e) {
            ex.error(
                    400,
                    "the request body is not valid JSON: " + JsonChecks.plain(e.getMessage()),
                    "invalid_request_error",
                    "invalid_json",
                    null);
            return;
        }
        RequestCheck.Invalid invalid = RequestCheck.check(ex.protocol, body);
        if (invalid != null) {
            ex.error(
                    400,
                    invalid.message(),
                    "invalid_request_error",
                    "invalid_type",
                    invalid.param());
            return;
        }
        reply(ex, body);
    }

    /** The model names {@code GET /v1/models} lists. */
    List<String> models();

    /** The {@code owned_by} of the listed models. */
    String owner();

    /**
     * At the shutdown deadline: every stream still running goes on to its failure event now.
     *
     * @return how many streams were still running
     */
    int endStreams();
}
