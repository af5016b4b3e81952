package dev.toolcalls.server;

import dev.toolcalls.Format;
import dev.toolcalls.templates.ChatTemplate;

import java.net.URI;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;

/**
 * One model the gateway serves: the engine that generates for it, the format its outputs follow,
 * the chat template that renders its prompts, and the request defaults.
 *
 * @param name the {@code model} clients ask for
 * @param baseUrl the engine's base URL as OpenAI clients take it ({@code http://host:port/v1}); the
 *     gateway posts to {@code baseUrl + "/completions"}
 * @param upstreamModel the {@code model} sent to the engine, or null to send none (an engine that
 *     serves one model)
 * @param format the format whose parser reads the engine's raw output
 * @param template the model's chat template
 * @param kind the engine's kind: where the request's extra fields (constraints) go
 * @param defaults request fields used where a request has none ({@code temperature}, {@code
 *     max_tokens}, {@code chat_template_kwargs}...), as JSON values (Map, List, String, Number,
 *     Boolean)
 * @param apiKey the bearer token the engine wants, or null; never logged
 */
public record Upstream(
        String name,
        URI baseUrl,
        String upstreamModel,
        Format format,
        ChatTemplate template,
        Kind kind,
        Map<String, Object> defaults,
        String apiKey) {

    /**
     * The engine's kind. All take the OpenAI-compatible {@code POST /v1/completions}; they differ
     * in the fields that constrain decoding (llama.cpp: {@code grammar}; vLLM: {@code
     * structured_outputs}; SGLang: {@code ebnf} or {@code structural_tag}).
     */
    public enum Kind {
        OPENAI,
        LLAMA_CPP,
        VLLM,
        SGLANG;

        /**
         * The kind named {@code openai}, {@code llama.cpp} (or {@code llamacpp}), {@code vllm},
         * {@code sglang}.
         */
        public static Optional<Kind> byName(String name) {
            String n =
                    name.toLowerCase(Locale.ROOT)
                            .replace(".", "")
                            .replace("-", "")
                            .replace("_", "");
            for (Kind k : values())
                if (k.name().toLowerCase(Locale.ROOT).replace("_", "").equals(n))
                    return Optional.of(k);
            return Optional.empty();
        }
    }

    public Upstream {
        if (name == null || name.isEmpty())
            throw new IllegalArgumentException("a model needs a name");
        if (baseUrl == null
                || !("http".equals(baseUrl.getScheme()) || "https".equals(baseUrl.getScheme()))
                || baseUrl.getHost() == null)
            throw new IllegalArgumentException(
                    "model '"
                            + name
                            + "': the upstream must be an http(s) URL such as http://127.0.0.1:8080/v1, got "
                            + baseUrl);
        if (format == null)
            throw new IllegalArgumentException("model '" + name + "' needs a format");
        if (template == null)
            throw new IllegalArgumentException("model '" + name + "' needs a chat template");
        if (apiKey != null && apiKey.chars().anyMatch(c -> c < 0x20 || c == 0x7F))
            throw new IllegalArgumentException(
                    "model '" + name + "': the upstream key has a control character");
        if (kind == null) kind = Kind.OPENAI;
        defaults = defaults == null ? Map.of() : Map.copyOf(defaults);
    }

    /** {@code baseUrl + "/completions"}. */
    public URI completions() {
        String s = baseUrl.toString();
        while (s.endsWith("/")) s = s.substring(0, s.length() - 1);
        return URI.create(s + "/completions");
    }

    @Override
    public String toString() { // no key
        return "Upstream[" + name + " -> " + baseUrl + ", " + format.name() + ", " + kind + "]";
    }
}
