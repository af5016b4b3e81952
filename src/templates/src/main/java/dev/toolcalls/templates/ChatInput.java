package dev.toolcalls.templates;

import com.google.gson.JsonArray;
import com.google.gson.JsonElement;
import com.google.gson.JsonObject;
import com.google.gson.JsonParseException;
import com.google.gson.JsonParser;
import com.google.gson.JsonPrimitive;
import com.google.gson.Strictness;
import com.google.gson.stream.JsonReader;

import java.io.StringReader;
import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * What a chat template renders: OpenAI-shaped messages and tools as plain Java values (Map, List,
 * String, Number, Boolean, null), {@code add_generation_prompt} and the template's keyword
 * arguments ({@code chat_template_kwargs}, e.g. {@code enable_thinking}). Values are copied on
 * {@link Builder#build()}: maps keep their key order, integral numbers become {@code Long}, others
 * {@code Double}.
 */
public final class ChatInput {
    private final List<Map<String, Object>> messages;
    private final List<Map<String, Object>> tools;
    private final boolean addGenerationPrompt;
    private final Map<String, Object> kwargs;

    private ChatInput(Builder b) {
        this.messages =
                Collections.unmodifiableList(castMaps(Values.plain(b.messages), "messages"));
        this.tools =
                b.tools == null
                        ? null
                        : Collections.unmodifiableList(castMaps(Values.plain(b.tools), "tools"));
        this.addGenerationPrompt = b.addGenerationPrompt;
        @SuppressWarnings("unchecked")
        Map<String, Object> k = (Map<String, Object>) Values.plain(b.kwargs);
        this.kwargs = Collections.unmodifiableMap(k);
    }

    /**
     * A builder: no messages, no tools, {@code add_generation_prompt} true, no keyword arguments.
     */
    public static Builder builder() {
        return new Builder();
    }

    /**
     * From an OpenAI Chat Completions request body: {@code messages}, {@code tools}, {@code
     * add_generation_prompt} (default true) and {@code chat_template_kwargs}. An assistant tool
     * call's {@code arguments}, a JSON string on the wire, becomes the value it encodes, as Hugging
     * Face templates expect.
     *
     * @throws IllegalArgumentException when the body is not a JSON object with a {@code messages}
     *     array of objects, or a tool call's arguments are not JSON
     */
    public static ChatInput fromChatCompletionsJson(String requestJson) {
        JsonElement root;
        try {
            JsonReader reader = new JsonReader(new StringReader(requestJson));
            reader.setStrictness(Strictness.STRICT);
            root = JsonParser.parseReader(reader);
        } catch (JsonParseException e) {
            throw new IllegalArgumentException("request body is not JSON: " + e.getMessage(), e);
        }
        if (!root.isJsonObject()) {
            throw new IllegalArgumentException("request body is not a JSON object");
        }
        JsonObject body = root.getAsJsonObject();
        Builder b = builder();
        JsonElement messages = body.get("messages");
        if (messages == null || !messages.isJsonArray()) {
            throw new IllegalArgumentException("request body has no \"messages\" array");
        }
        JsonArray list = messages.getAsJsonArray();
        for (int i = 0; i < list.size(); i++) {
            JsonElement m = list.get(i);
            if (!m.isJsonObject()) {
                throw new IllegalArgumentException("messages[" + i + "] is not an object");
            }
            @SuppressWarnings("unchecked")
            Map<String, Object> message = (Map<String, Object>) fromJson(m);
            argumentsAsValues(message, i);
            b.addMessage(message);
        }
        JsonElement tools = body.get("tools");
        if (tools != null && !tools.isJsonNull()) {
            if (!tools.isJsonArray()) {
                throw new IllegalArgumentException("\"tools\" is not an array");
            }
            b.tools(castMaps(fromJson(tools), "tools"));
        }
        JsonElement agp = body.get("add_generation_prompt");
        if (agp != null && !agp.isJsonNull()) {
            if (!agp.isJsonPrimitive() || !agp.getAsJsonPrimitive().isBoolean()) {
                throw new IllegalArgumentException("\"add_generation_prompt\" is not a boolean");
            }
            b.addGenerationPrompt(agp.getAsBoolean());
        }
        JsonElement kwargs = body.get("chat_template_kwargs");
        if (kwargs != null && !kwargs.isJsonNull()) {
            if (!kwargs.isJsonObject()) {
                throw new IllegalArgumentException("\"chat_template_kwargs\" is not an object");
            }
            for (Map.Entry<String, JsonElement> e : kwargs.getAsJsonObject().entrySet()) {
                b.kwarg(e.getKey(), fromJson(e.getValue()));
            }
        }
        return b.build();
    }

    private static void argumentsAsValues(Map<String, Object> message, int index) {
        if (!(message.get("tool_calls") instanceof List<?> calls)) {
            return;
        }
        for (int j = 0; j < calls.size(); j++) {
            if (calls.get(j) instanceof Map<?, ?> call
                    && call.get("function") instanceof Map<?, ?> function
                    && function.get("arguments") instanceof String text) {
                Object value;
                try {
                    JsonReader reader = new JsonReader(new StringReader(text));
                    reader.setStrictness(Strictness.STRICT);
                    value = fromJson(JsonParser.parseReader(reader));
                } catch (JsonParseException e) {
                    throw new IllegalArgumentException(
                            "messages["
                                    + index
                                    + "].tool_calls["
                                    + j
                                    + "].function.arguments is not JSON: "
                                    + e.getMessage(),
                            e);
                }
                @SuppressWarnings("unchecked")
                Map<String, Object> f = (Map<String, Object>) function;
                f.put("arguments", value);
            }
        }
    }

    /** JSON as plain Java values: LinkedHashMap, ArrayList, String, Long, Double, Boolean, null. */
    static Object fromJson(JsonElement e) {
        if (e == null || e.isJsonNull()) {
            return null;
        }
        if (e.isJsonObject()) {
            Map<String, Object> m = new LinkedHashMap<>();
            for (Map.Entry<String, JsonElement> x : e.getAsJsonObject().entrySet()) {
                m.put(x.getKey(), fromJson(x.getValue()));
            }
            return m;
        }
        if (e.isJsonArray()) {
            List<Object> l = new ArrayList<>();
            for (JsonElement x : e.getAsJsonArray()) {
                l.add(fromJson(x));
            }
            return l;
        }
        JsonPrimitive p = e.getAsJsonPrimitive();
        if (p.isBoolean()) {
            return p.getAsBoolean();
        }
        if (p.isString()) {
            return p.getAsString();
        }
        return Values.number(new BigDecimal(p.getAsString()));
    }

    @SuppressWarnings("unchecked")
    private static List<Map<String, Object>> castMaps(Object value, String what) {
        if (!(value instanceof List<?> list)) {
            throw new IllegalArgumentException(what + " is not a list");
        }
        for (int i = 0; i < list.size(); i++) {
            if (!(list.get(i) instanceof Map)) {
                throw new IllegalArgumentException(what + "[" + i + "] is not an object");
            }
        }
        return (List<Map<String, Object>>) list;
    }

    /** The messages, in order. */
    public List<Map<String, Object>> messages() {
        return messages;
    }

    /** The tools (OpenAI tool objects), or null when none were given (the template sees none). */
    public List<Map<String, Object>> tools() {
        return tools;
    }

    /** Whether the prompt ends with the opening of the assistant's turn. */
    public boolean addGenerationPrompt() {
        return addGenerationPrompt;
    }

    /** The template's keyword arguments, e.g. {@code enable_thinking}. */
    public Map<String, Object> kwargs() {
        return kwargs;
    }

    /** Builds a {@link ChatInput}. */
    public static final class Builder {
        private final List<Map<String, Object>> messages = new ArrayList<>();
        private List<Map<String, Object>> tools;
        private boolean addGenerationPrompt = true;
        private final Map<String, Object> kwargs = new LinkedHashMap<>();

        private Builder() {}

        /** Replaces the messages. */
        public Builder messages(List<Map<String, Object>> m) {
            messages.clear();
            messages.addAll(m);
            return this;
        }

        /** Appends a message. */
        public Builder addMessage(Map<String, Object> m) {
            messages.add(m);
            return this;
        }

        /**
         * The tools: OpenAI tool objects {@code {type: "function", function: {...}}}; null for
         * none.
         */
        public Builder tools(List<Map<String, Object>> t) {
            tools = t == null ? null : new ArrayList<>(t);
            return this;
        }

        /** Whether to open the assistant's turn at the end; default true. */
        public Builder addGenerationPrompt(boolean b) {
            addGenerationPrompt = b;
            return this;
        }

        /** A keyword argument of the template, e.g. {@code enable_thinking = false}. */
        public Builder kwarg(String name, Object value) {
            kwargs.put(name, value);
            return this;
        }

        /** The input; its values are copied. */
        public ChatInput build() {
            return new ChatInput(this);
        }
    }
}
