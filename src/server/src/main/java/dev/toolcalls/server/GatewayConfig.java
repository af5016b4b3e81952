package dev.toolcalls.server;

import com.google.gson.GsonBuilder;
import com.google.gson.JsonElement;
import com.google.gson.JsonObject;
import com.google.gson.ToNumberPolicy;
import com.google.gson.reflect.TypeToken;

import dev.toolcalls.Format;
import dev.toolcalls.internal.json.Json;
import dev.toolcalls.templates.ChatTemplate;
import dev.toolcalls.templates.TemplateException;

import java.io.IOException;
import java.net.URI;
import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.function.Function;

/**
 * A gateway's models read from a JSON file, so one gateway serves several:
 *
 * <pre>{@code
 * {"models": {
 *   "qwen3": {"upstream": "http://127.0.0.1:8001/v1", "format": "qwen3_coder",
 *             "chat_template": "qwen3/tokenizer_config.json", "kind": "vllm",
 *             "upstream_model": "Qwen/Qwen3-Coder-30B-A3B-Instruct",
 *             "api_key_env": "VLLM_API_KEY",
 *             "defaults": {"temperature": 0.7, "max_tokens": 4096,
 *                          "chat_template_kwargs": {"enable_thinking": false}}},
 *   "gpt-oss": {"upstream": "http://127.0.0.1:8080/v1", "format": "gpt_oss",
 *               "chat_template": "gpt-oss/chat_template.jinja", "kind": "llama.cpp"}}}
 * }</pre>
 *
 * Template paths are relative to the file's folder. {@code kind} ({@code openai}, {@code
 * llama.cpp}, {@code vllm}, {@code sglang}; default {@code openai}) says which constraint fields
 * the engine takes. The key is read from the environment variable {@code api_key_env} names, never
 * from the file.
 */
public final class GatewayConfig {
    private static final Set<String> KEYS =
            Set.of(
                    "upstream",
                    "format",
                    "chat_template",
                    "kind",
                    "upstream_model",
                    "api_key_env",
                    "defaults");

    private GatewayConfig() {}

    /**
     * Reads the file.
     *
     * @param formats the format of a name (throws IllegalArgumentException for an unknown one)
     * @throws IOException unreadable, not JSON, or a model described wrongly: the message names the
     *     model and the field
     */
    public static List<Upstream> read(Path file, Function<String, Format> formats)
            throws IOException {
        String text = BodyReader.decode(Files.readAllBytes(file), file.toString());
        JsonElement root;
        try {
            root = Json.parseStrict(text);
        } catch (Json.NotJson e) {
            throw new IOException(file + " is not valid JSON: " + JsonChecks.plain(e.getMessage()));
        }
        if (!root.isJsonObject()
                || !root.getAsJsonObject().has("models")
                || !root.getAsJsonObject().get("models").isJsonObject())
            throw new IOException(file + ": expected {\"models\": {NAME: {...}, ...}}");
        Path dir = file.toAbsolutePath().getParent();
        List<Upstream> out = new ArrayList<>();
        for (Map.Entry<String, JsonElement> m :
                root.getAsJsonObject().getAsJsonObject("models").entrySet()) {
            String name = m.getKey();
            String at = file + ": model '" + name + "'";
            if (!m.getValue().isJsonObject()) throw new IOException(at + ": expected an object");
            JsonObject o = m.getValue().getAsJsonObject();
            for (String k : o.keySet())
                if (!KEYS.contains(k))
                    throw new IOException(
                            at
                                    + ": unknown field '"
                                    + k
                                    + "' (known: "
                                    + String.join(", ", new TreeSet<>(KEYS))
                                    + ")");
            String upstream = string(o, "upstream", at, true);
            String formatName = string(o, "format", at, true);
            String template = string(o, "chat_template", at, true);
            String kindName = string(o, "kind", at, false);
            String keyEnv = string(o, "api_key_env", at, false);
            URI uri;
            try {
                uri = new URI(upstream);
            } catch (URISyntaxException e) {
                throw new IOException(at + ": upstream is not a URL: " + e.getMessage());
            }
            Format format;
            try {
                format = formats.apply(formatName);
            } catch (IllegalArgumentException e) {
                throw new IOException(at + ": " + e.getMessage());
            }
            Upstream.Kind kind = Upstream.Kind.OPENAI;
            if (kindName != null)
                kind =
                        Upstream.Kind.byName(kindName)
                                .orElseThrow(
                                        () ->
                                                new IOException(
                                                        at
                                                                + ": kind must be openai, llama.cpp, vllm or sglang, got '"
                                                                + kindName
                                                                + "'"));
            String key = null;
            if (keyEnv != null) {
                key = System.getenv(keyEnv);
                if (key == null || key.isEmpty())
                    throw new IOException(
                            at
                                    + ": the environment variable "
                                    + keyEnv
                                    + " (api_key_env) is not set");
            }
            Map<String, Object> defaults = Map.of();
            JsonElement d = o.get("defaults");
            if (d != null && !d.isJsonNull()) {
                if (!d.isJsonObject()) throw new IOException(at + ": defaults must be an object");
                defaults =
                        new GsonBuilder()
                                .setObjectToNumberStrategy(ToNumberPolicy.LONG_OR_DOUBLE)
                                .create()
                                .fromJson(d, new TypeToken<Map<String, Object>>() {}.getType());
            }
            try {
                out.add(
                        new Upstream(
                                name,
                                uri,
                                string(o, "upstream_model", at, false),
                                format,
                                loadTemplate(dir.resolve(template)),
                                kind,
                                defaults,
                                key));
            } catch (IllegalArgumentException e) {
                throw new IOException(at + ": " + e.getMessage());
            }
        }
        if (out.isEmpty()) throw new IOException(file + ": no models");
        return out;
    }

    /** A chat template from a {@code tokenizer_config.json} or a {@code .jinja} file. */
    public static ChatTemplate loadTemplate(Path file) throws IOException {
        try {
            return ChatTemplate.load(file);
        } catch (TemplateException e) {
            throw new IOException(
                    "the chat template " + file + " cannot be used: " + e.getMessage());
        }
    }

    private static String string(JsonObject o, String key, String at, boolean required)
            throws IOException {
        JsonElement v = o.get(key);
        if (v == null || v.isJsonNull()) {
            if (required) throw new IOException(at + ": " + key + " is required");
            return null;
        }
        if (!JsonChecks.is(v, JsonChecks.Kind.STRING))
            throw new IOException(at + ": " + key + " must be a string");
        return v.getAsString();
    }
}
