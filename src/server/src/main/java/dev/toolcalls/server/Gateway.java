package dev.toolcalls.server;

import com.google.gson.Gson;
import com.google.gson.JsonElement;
import com.google.gson.JsonObject;

import dev.toolcalls.IdGenerator;
import dev.toolcalls.ParseOptions;
import dev.toolcalls.Tools;
import dev.toolcalls.internal.json.Json;
import dev.toolcalls.protocol.Protocol;
import dev.toolcalls.templates.ChatInput;
import dev.toolcalls.templates.TemplateException;

import java.io.PrintStream;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The gateway: a protocol request becomes the model's prompt (its chat template), the engine's raw
 * completion ({@code POST /v1/completions}, streamed) is parsed by the model's format and answered
 * in the request's protocol ({@link Relay}).
 *
 * <p>Sent to the engine: {@code prompt}, {@code stream: true}, {@code stream_options:
 * {"include_usage": true}}, {@code skip_special_tokens: false} (special tokens stay in the text the
 * parser reads), the sampling fields the request gives ({@code max_tokens} from {@code max_tokens},
 * {@code max_completion_tokens}, {@code max_output_tokens}; {@code temperature}, {@code top_p},
 * {@code top_k}, {@code seed}, {@code stop} or {@code stop_sequences}, {@code presence_penalty},
 * {@code frequency_penalty}), then the model's defaults for fields the request leaves out, then the
 * {@link Constraints}.
 */
final class Gateway implements Backend {
    private static final Gson GSON = new Gson();

    private final Map<String, Upstream> models = new LinkedHashMap<>();
    private final EngineClient client;
    private final int maxStreams;
    private final long upstreamTimeoutMs;
    private final PrintStream log;
    private final Constraints constraints;
    private final Set<Relay> relays = ConcurrentHashMap.newKeySet();
    private final AtomicInteger active = new AtomicInteger();

    Gateway(
            List<Upstream> upstreams,
            EngineClient client,
            int maxStreams,
            long upstreamTimeoutMs,
            Constraints constraints,
            PrintStream log) {
        for (Upstream u : upstreams)
            if (models.put(u.name(), u) != null)
                throw new IllegalArgumentException("model '" + u.name() + "' is named twice");
        if (models.isEmpty()) throw new IllegalArgumentException("no models to serve");
        this.client = client;
        this.maxStreams = maxStreams;
        this.upstreamTimeoutMs = upstreamTimeoutMs;
        this.constraints = constraints;
        this.log = log;
    }

    @Override
    public List<String> models() {
        return new ArrayList<>(models.keySet());
    }

    @Override
    public String owner() {
        return "toolcalls-gateway";
    }

    long upstreamTimeoutMs() {
        return upstreamTimeoutMs;
    }

    /** Requests relayed now. */
    int active() {
        return active.get();
    }

    /** Runs work that may take long (a whole output's parse) on the server's pool. */
    void execute(Runnable work) {
        client.executor().execute(work);
    }

    void log(String line) {
        log.println("toolcalls serve: " + line);
    }

    void ended(Relay r) {
        if (relays.remove(r)) active.decrementAndGet();
    }

    @Override
    public int endStreams() {
        int n = 0;
        for (Relay r : relays) if (r.endNow()) n++;
        return n;
    }

    @Override
    public void reply(Exchange ex, JsonObject body) {
        Protocol protocol = ex.protocol;
        String model = body.has("model") ? body.get("model").getAsString() : "";
        Upstream upstream = models.get(model);
        if (upstream == null && models.size() == 1) upstream = models.values().iterator().next();
        if (upstream == null) {
            ex.error(
                    404,
                    "The model '"
                            + model
                            + "' does not exist; served: "
                            + String.join(", ", models.keySet()),
                    "invalid_request_error",
                    "model_not_found",
                    "model");
            return;
        }
        JsonElement n = body.get("n");
        if (n != null && !n.isJsonNull() && n.getAsLong() != 1) {
            ex.error(
                    400,
                    "n: only 1 choice is supported",
                    "invalid_request_error",
                    "unsupported_value",
                    "n");
            return;
        }
        JsonObject conversation;
        try {
            conversation = Conversation.of(protocol, body);
        } catch (Conversation.Invalid e) {
            ex.error(400, e.getMessage(), "invalid_request_error", "invalid_value", e.param);
            return;
        }
        JsonElement defaultKwargs =
                GSON.toJsonTree(upstream.defaults().get("chat_template_kwargs"));
        if (defaultKwargs != null && defaultKwargs.isJsonObject()) {
            JsonObject kwargs =
                    conversation.has("chat_template_kwargs")
                            ? conversation.getAsJsonObject("chat_template_kwargs")
                            : new JsonObject();
            for (var d : defaultKwargs.getAsJsonObject().entrySet())
                if (!kwargs.has(d.getKey())) kwargs.add(d.getKey(), d.getValue());
            if (!kwargs.isEmpty()) conversation.add("chat_template_kwargs", kwargs);
        }
        Tools tools;
        try {
            tools =
                    Tools.parse(
                            conversation.has("tools")
                                    ? Json.write(conversation.get("tools"))
                                    : "null");
        } catch (IllegalArgumentException e) {
            ex.error(
                    400,
                    "invalid tools: " + e.getMessage(),
                    "invalid_request_error",
                    "invalid_tools",
                    "tools");
            return;
        }
        String prompt;
        try {
            prompt =
                    upstream.template()
                            .render(ChatInput.fromChatCompletionsJson(Json.write(conversation)));
        } catch (TemplateException e) {
            ex.error(
                    400,
                    "the chat template of model '"
                            + upstream.name()
                            + "' cannot render this request: "
                            + e.getMessage(),
                    "invalid_request_error",
                    "template_error",
                    null);
            return;
        } catch (IllegalArgumentException e) {
            ex.error(400, e.getMessage(), "invalid_request_error", "invalid_value", "messages");
            return;
        }
        JsonObject up = upstreamBody(upstream, protocol, body, prompt, tools);
        boolean stream =
                body.has("stream")
                        && !body.get("stream").isJsonNull()
                        && body.get("stream").getAsBoolean();
        boolean usageChunk = false;
        JsonElement so = body.get("stream_options");
        if (so != null && so.isJsonObject()) {
            JsonElement iu = so.getAsJsonObject().get("include_usage");
            usageChunk =
                    iu != null
                            && iu.isJsonPrimitive()
                            && iu.getAsJsonPrimitive().isBoolean()
                            && iu.getAsBoolean();
        }
        IdGenerator ids = IdGenerator.random();
        String id =
                (protocol == Protocol.CHAT_COMPLETIONS
                                ? "chatcmpl-"
                                : protocol == Protocol.RESPONSES ? "resp_" : "msg_")
                        + ids.alphanumeric(24);
        ParseOptions options =
                ParseOptions.defaults()
                        .withIds(() -> ids)
                        .withThinking(Replay.thinking(conversation));
        Relay relay =
                new Relay(
                        this,
                        ex,
                        upstream,
                        stream,
                        usageChunk,
                        tools,
                        options,
                        id,
                        model.isEmpty() ? upstream.name() : model,
                        System.currentTimeMillis() / 1000);
        if (active.incrementAndGet() > maxStreams) {
            active.decrementAndGet();
            ex.error(
                    503,
                    "the gateway is relaying "
                            + maxStreams
                            + " requests, its limit (serve --max-streams); retry later",
                    "server_error",
                    "overloaded",
                    null);
            return;
        }
        relays.add(relay);
        byte[] json = Json.write(up).getBytes(StandardCharsets.UTF_8);
        URI uri = upstream.completions();
        byte[] head =
                EngineClient.head(
                        uri,
                        "Accept: text/event-stream",
                        "Content-Type: application/json",
                        "Content-Length: " + json.length,
                        upstream.apiKey() == null
                                ? ""
                                : "Authorization: Bearer " + upstream.apiKey());
        try {
            relay.start(receiver -> client.call(uri, head, json, receiver));
        } catch (RuntimeException | Error e) {
            ended(relay);
            throw e;
        }
    }

    /** The engine's request body. */
    JsonObject upstreamBody(
            Upstream upstream, Protocol protocol, JsonObject body, String prompt, Tools tools) {
        JsonObject up = new JsonObject();
        if (upstream.upstreamModel() != null) up.addProperty("model", upstream.upstreamModel());
        up.addProperty("prompt", prompt);
        up.addProperty("stream", true);
        JsonObject so = new JsonObject();
        so.addProperty("include_usage", true);
        up.add("stream_options", so);
        up.addProperty("skip_special_tokens", false);
        for (String k : new String[] {"max_tokens", "max_completion_tokens", "max_output_tokens"}) {
            JsonElement v = body.get(k);
            if (v != null && !v.isJsonNull() && !up.has("max_tokens")) up.add("max_tokens", v);
        }
        for (String k :
                new String[] {
                    "temperature", "top_p", "top_k", "seed", "presence_penalty", "frequency_penalty"
                }) {
            JsonElement v = body.get(k);
            if (v != null && !v.isJsonNull()) up.add(k, v);
        }
        JsonElement stop = body.get(protocol == Protocol.MESSAGES ? "stop_sequences" : "stop");
        if (stop != null && !stop.isJsonNull()) up.add("stop", stop);
        for (Map.Entry<String, Object> d : upstream.defaults().entrySet()) {
            if (d.getKey().equals("chat_template_kwargs") || up.has(d.getKey())) continue;
            up.add(d.getKey(), GSON.toJsonTree(d.getValue()));
        }
        constraints.add(
                upstream.kind(), upstream.format(), tools, body.get("tool_choice"), body, up);
        return up;
    }
}
