package dev.toolcalls.server;

import com.anthropic.core.JsonValue;
import com.anthropic.core.ObjectMappers;
import com.anthropic.errors.NotFoundException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.json.JsonMapper;

/**
 * The Anthropic SDK classes whose simple names the OpenAI SDK uses too ({@code ObjectMappers},
 * {@code JsonValue}, {@code NotFoundException}), for the tests that import OpenAI's.
 */
final class AnthropicSdk {
    /** The Anthropic SDK's own JSON mapper. */
    static final JsonMapper MAPPER = ObjectMappers.jsonMapper();

    /** What the Anthropic client throws for a 404. */
    static final Class<NotFoundException> NOT_FOUND = NotFoundException.class;

    private AnthropicSdk() {}

    /** {@code value} (a map, list, string, number...) as an Anthropic request's JSON value. */
    static JsonValue from(Object value) {
        return JsonValue.from(value);
    }

    /** {@code node} as an Anthropic request's JSON value. */
    static JsonValue fromJsonNode(JsonNode node) {
        return JsonValue.fromJsonNode(node);
    }
}
