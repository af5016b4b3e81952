package dev.toolcalls.server;

import static dev.toolcalls.server.JsonChecks.Kind.ARRAY;
import static dev.toolcalls.server.JsonChecks.Kind.BOOLEAN;
import static dev.toolcalls.server.JsonChecks.Kind.INTEGER;
import static dev.toolcalls.server.JsonChecks.Kind.NULL;
import static dev.toolcalls.server.JsonChecks.Kind.NUMBER;
import static dev.toolcalls.server.JsonChecks.Kind.OBJECT;
import static dev.toolcalls.server.JsonChecks.Kind.STRING;

import com.google.gson.JsonArray;
import com.google.gson.JsonElement;
import com.google.gson.JsonObject;

import dev.toolcalls.protocol.Protocol;
import dev.toolcalls.server.JsonChecks.Kind;

import java.util.List;
import java.util.Map;

/**
 * The fields of a request body that each protocol documents, checked by kind: a field of the wrong
 * kind ({@code "stream": "yes"}, {@code "messages": 5}, an object as {@code model}) is a 400 that
 * names it, as the real APIs answer. Fields not listed are accepted unread (the APIs have many);
 * the fields the replay reads ({@code model}, {@code tools}, thinking) must also be Unicode text.
 */
final class RequestCheck {
    /** What is wrong, and with which field ({@code param} in OpenAI errors). */
    record Invalid(String param, String message) {}

    private record Field(String name, Kind[] kinds, Kind elements) {
        static Field of(String name, Kind... kinds) {
            return new Field(name, kinds, null);
        }

        static Field arrayOf(String name, Kind elements, Kind... kinds) {
            return new Field(name, kinds, elements);
        }
    }

    private static final List<Field> COMMON =
            List.of(
                    Field.of("model", STRING),
                    Field.of("stream", BOOLEAN, NULL),
                    Field.arrayOf("tools", OBJECT, ARRAY, NULL),
                    Field.of("chat_template_kwargs", OBJECT, NULL),
                    Field.of("temperature", NUMBER, NULL),
                    Field.of("top_p", NUMBER, NULL),
                    Field.of("metadata", OBJECT, NULL));

    private static final Map<Protocol, List<Field>> FIELDS =
            Map.of(
                    Protocol.CHAT_COMPLETIONS,
                            List.of(
                                    Field.arrayOf("messages", OBJECT, ARRAY),
                                    Field.of("max_tokens", INTEGER, NULL),
                                    Field.of("max_completion_tokens", INTEGER, NULL),
                                    Field.of("n", INTEGER, NULL),
                                    Field.of("seed", INTEGER, NULL),
                                    Field.of("stop", STRING, ARRAY, NULL),
                                    Field.of("stream_options", OBJECT, NULL),
                                    Field.of("tool_choice", STRING, OBJECT, NULL),
                                    Field.of("parallel_tool_calls", BOOLEAN, NULL),
                                    Field.of("response_format", OBJECT, NULL),
                                    Field.of("presence_penalty", NUMBER, NULL),
                                    Field.of("frequency_penalty", NUMBER, NULL),
                                    Field.of("user", STRING, NULL)),
                    Protocol.RESPONSES,
                            List.of(
                                    Field.of("input", STRING, ARRAY, NULL),
                                    Field.of("instructions", STRING, NULL),
                                    Field.of("max_output_tokens", INTEGER, NULL),
                                    Field.of("tool_choice", STRING, OBJECT, NULL),
                                    Field.of("parallel_tool_calls", BOOLEAN, NULL),
                                    Field.of("previous_response_id", STRING, NULL),
                                    Field.of("reasoning", OBJECT, NULL),
                                    Field.of("text", OBJECT, NULL),
                                    Field.of("store", BOOLEAN, NULL),
                                    Field.of("user", STRING, NULL)),
                    Protocol.MESSAGES,
                            List.of(
                                    Field.arrayOf("messages", OBJECT, ARRAY),
                                    Field.of("system", STRING, ARRAY, NULL),
                                    Field.of("max_tokens", INTEGER),
                                    Field.of("thinking", OBJECT, NULL),
                                    Field.of("top_k", INTEGER, NULL),
                                    Field.arrayOf("stop_sequences", STRING, ARRAY, NULL),
                                    Field.of("tool_choice", OBJECT, NULL)));

    private RequestCheck() {}

    /** The first problem with the body, or null. */
    static Invalid check(Protocol protocol, JsonObject body) {
        for (List<Field> fields : List.of(COMMON, FIELDS.get(protocol))) {
            for (Field f : fields) {
                JsonElement v = body.get(f.name());
                if (v == null) continue;
                Invalid bad = kind(f.name(), v, f.kinds());
                if (bad != null) return bad;
                if (f.elements() != null && v.isJsonArray()) {
                    JsonArray a = v.getAsJsonArray();
                    for (int i = 0; i < a.size(); i++) {
                        bad = kind(f.name() + "[" + i + "]", a.get(i), f.elements());
                        if (bad != null) return bad;
                    }
                }
            }
        }
        JsonElement kwargs = body.get("chat_template_kwargs");
        if (kwargs != null && kwargs.isJsonObject()) {
            for (String key : new String[] {"enable_thinking", "thinking"}) {
                JsonElement v = kwargs.getAsJsonObject().get(key);
                Invalid bad =
                        v == null ? null : kind("chat_template_kwargs." + key, v, BOOLEAN, NULL);
                if (bad != null) return bad;
            }
        }
        JsonElement thinking = body.get("thinking");
        if (protocol == Protocol.MESSAGES && thinking != null && thinking.isJsonObject()) {
            JsonElement type = thinking.getAsJsonObject().get("type");
            if (type == null) return new Invalid("thinking.type", "thinking.type: Field required");
            Invalid bad = kind("thinking.type", type, STRING);
            if (bad != null) return bad;
        }
        for (String read : new String[] {"model", "tools", "chat_template_kwargs", "thinking"}) {
            JsonElement v = body.get(read);
            String lone = v == null ? null : JsonChecks.loneSurrogate(v, read);
            if (lone != null) return new Invalid(read, lone);
        }
        return null;
    }

    private static Invalid kind(String name, JsonElement v, Kind... kinds) {
        if (JsonChecks.is(v, kinds)) return null;
        return new Invalid(
                name,
                name
                        + ": expected "
                        + JsonChecks.expected(kinds)
                        + ", got "
                        + JsonChecks.describe(v));
    }
}
