package dev.toolcalls.templates.raw;

import com.google.gson.Gson;
import com.google.gson.JsonElement;
import com.google.gson.JsonObject;
import com.google.gson.JsonParseException;
import com.google.gson.JsonParser;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;

/**
 * A {@link RawTextSource} over an OpenAI-compatible completions endpoint ({@code POST
 * BASE/completions} with {@code "stream": true}, read as server-sent events), as vLLM, SGLang,
 * llama.cpp's server and TGI serve it.
 *
 * <pre>{@code
 * RawTextSource source = CompletionsSource.builder()
 *         .baseUrl("http://localhost:8000/v1")
 *         .model("Qwen/Qwen3-8B")
 *         .build();
 * }</pre>
 *
 * <p>The request asks for {@code "skip_special_tokens": false}, so that markers the tokenizer
 * declares special (such as {@code <|channel|>}) reach the parser; {@link Builder#extraBody} sets
 * or removes any field of the request body.
 */
public final class CompletionsSource implements RawTextSource {
    private static final Gson GSON = new Gson();
    private static final int EXCERPT = 500;

    private final URI endpoint;
    private final String apiKey;
    private final String model;
    private final Duration timeout;
    private final HttpClient client;
    private final Map<String, Object> extraBody;

    private CompletionsSource(Builder b) {
        String base = Objects.requireNonNull(b.baseUrl, "baseUrl");
        this.endpoint = URI.create(base.replaceAll("/+$", "") + "/completions");
        this.apiKey = b.apiKey;
        this.model = b.model;
        this.timeout = b.timeout;
        this.client =
                b.client != null
                        ? b.client
                        : HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(30)).build();
        this.extraBody = new LinkedHashMap<>(b.extraBody);
    }

    public static Builder builder() {
        return new Builder();
    }

    /** The endpoint requests go to: the base URL with {@code /completions} appended. */
    public URI endpoint() {
        return endpoint;
    }

    @Override
    public RawCompletion complete(RawRequest request, Sink sink) throws IOException {
        HttpRequest.Builder http =
                HttpRequest.newBuilder(endpoint)
                        .header("Content-Type", "application/json")
                        .header("Accept", "text/event-stream")
                        .POST(HttpRequest.BodyPublishers.ofString(body(request)));
        if (apiKey != null) http.header("Authorization", "Bearer " + apiKey);
        if (timeout != null) http.timeout(timeout);
        HttpResponse<InputStream> response;
        try {
            response = client.send(http.build(), HttpResponse.BodyHandlers.ofInputStream());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IOException("interrupted while waiting for " + endpoint, e);
        }
        try (InputStream in = response.body()) {
            if (response.statusCode() / 100 != 2) {
                String text = new String(in.readNBytes(EXCERPT * 4), StandardCharsets.UTF_8);
                throw new IOException(
                        endpoint
                                + " answered HTTP "
                                + response.statusCode()
                                + ": "
                                + excerpt(text));
            }
            return read(in, sink);
        }
    }

    String body(RawRequest request) {
        Map<String, Object> body = new LinkedHashMap<>();
        String m = request.model() != null ? request.model() : model;
        if (m != null) body.put("model", m);
        body.put("prompt", request.prompt());
        body.put("stream", true);
        body.put("stream_options", Map.of("include_usage", true));
        body.put("skip_special_tokens", false);
        putIfSet(body, "max_tokens", request.maxTokens());
        putIfSet(body, "temperature", request.temperature());
        putIfSet(body, "top_p", request.topP());
        putIfSet(body, "top_k", request.topK());
        putIfSet(body, "frequency_penalty", request.frequencyPenalty());
        putIfSet(body, "presence_penalty", request.presencePenalty());
        if (!request.stop().isEmpty()) body.put("stop", request.stop());
        extraBody.forEach(
                (k, v) -> {
                    if (v == null) body.remove(k);
                    else body.put(k, v);
                });
        return GSON.toJson(body);
    }

    private static void putIfSet(Map<String, Object> body, String key, Object value) {
        if (value != null) body.put(key, value);
    }

    /** Reads the event stream: {@code data: {json}} lines until {@code data: [DONE]}. */
    private RawCompletion read(InputStream in, Sink sink) throws IOException {
        BufferedReader reader =
                new BufferedReader(new InputStreamReader(in, StandardCharsets.UTF_8));
        String finishReason = null;
        Integer promptTokens = null;
        Integer completionTokens = null;
        StringBuilder data = new StringBuilder();
        String line;
        boolean done = false;
        while (!done && (line = reader.readLine()) != null) {
            if (sink.isCancelled()) return new RawCompletion("cancelled", null, null);
            if (line.startsWith("data:")) {
                if (data.length() > 0) data.append('\n');
                data.append(line.substring(line.startsWith("data: ") ? 6 : 5));
                continue;
            }
            if (!line.isEmpty() || data.length() == 0)
                continue; // comments, event names, blank runs
            String event = data.toString();
            data.setLength(0);
            if (event.equals("[DONE]")) {
                done = true;
                continue;
            }
            JsonObject chunk = object(event);
            if (chunk.has("error"))
                throw new IOException(endpoint + " sent an error: " + excerpt(event));
            if (chunk.has("choices") && chunk.get("choices").isJsonArray()) {
                for (JsonElement c : chunk.getAsJsonArray("choices")) {
                    if (!c.isJsonObject()) continue;
                    JsonObject choice = c.getAsJsonObject();
                    String text = string(choice, "text");
                    if (text != null && !text.isEmpty()) sink.text(text);
                    String reason = string(choice, "finish_reason");
                    if (reason != null) finishReason = reason;
                }
            }
            if (chunk.has("usage") && chunk.get("usage").isJsonObject()) {
                JsonObject usage = chunk.getAsJsonObject("usage");
                promptTokens = integer(usage, "prompt_tokens", promptTokens);
                completionTokens = integer(usage, "completion_tokens", completionTokens);
            }
        }
        if (!done && finishReason == null)
            throw new IOException(endpoint + " closed the stream before it ended");
        return new RawCompletion(finishReason, promptTokens, completionTokens);
    }

    private JsonObject object(String event) throws IOException {
        try {
            JsonElement e = JsonParser.parseString(event);
            if (e.isJsonObject()) return e.getAsJsonObject();
        } catch (JsonParseException e) {
            // reported below
        }
        throw new IOException(
                endpoint + " sent an event that is not a JSON object: " + excerpt(event));
    }

    private static String string(JsonObject o, String key) {
        JsonElement e = o.get(key);
        return e != null && e.isJsonPrimitive() ? e.getAsString() : null;
    }

    private static Integer integer(JsonObject o, String key, Integer otherwise) {
        JsonElement e = o.get(key);
        return e != null && e.isJsonPrimitive() && e.getAsJsonPrimitive().isNumber()
                ? e.getAsInt()
                : otherwise;
    }

    private static String excerpt(String text) {
        return text.length() <= EXCERPT ? text : text.substring(0, EXCERPT) + "…";
    }

    /** Settings of a {@link CompletionsSource}. */
    public static final class Builder {
        private String baseUrl;
        private String apiKey;
        private String model;
        private Duration timeout;
        private HttpClient client;
        private final Map<String, Object> extraBody = new LinkedHashMap<>();

        private Builder() {}

        /**
         * The API base, e.g. {@code http://localhost:8000/v1}; {@code /completions} is appended.
         */
        public Builder baseUrl(String baseUrl) {
            this.baseUrl = baseUrl;
            return this;
        }

        /** Sent as {@code Authorization: Bearer KEY}; none by default. */
        public Builder apiKey(String apiKey) {
            this.apiKey = apiKey;
            return this;
        }

        /** The {@code model} field, unless the chat request names one. */
        public Builder model(String model) {
            this.model = model;
            return this;
        }

        /** The longest a whole completion may take; none by default. */
        public Builder timeout(Duration timeout) {
            this.timeout = timeout;
            return this;
        }

        /** The HTTP client to use (proxy, TLS, executor); a new one by default. */
        public Builder httpClient(HttpClient client) {
            this.client = client;
            return this;
        }

        /**
         * A field of the request body, set after the others (e.g. {@code "repetition_penalty"}); a
         * null value removes the field.
         */
        public Builder extraBody(String key, Object value) {
            this.extraBody.put(key, value);
            return this;
        }

        public CompletionsSource build() {
            return new CompletionsSource(this);
        }
    }
}
