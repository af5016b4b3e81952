package dev.toolcalls.templates.raw;

import java.util.List;

/**
 * One completion request: the prompt as the chat template rendered it, and the sampling parameters
 * of the chat request ({@code null} where the request left one unset, so the engine's default
 * applies).
 *
 * @param prompt the rendered prompt, special tokens written out as text
 * @param model the model name, or null
 * @param temperature sampling temperature, or null
 * @param topP nucleus sampling, or null
 * @param topK top-k sampling, or null
 * @param maxTokens the most tokens to generate, or null
 * @param stop stop sequences, possibly empty
 * @param frequencyPenalty frequency penalty, or null
 * @param presencePenalty presence penalty, or null
 */
public record RawRequest(
        String prompt,
        String model,
        Double temperature,
        Double topP,
        Integer topK,
        Integer maxTokens,
        List<String> stop,
        Double frequencyPenalty,
        Double presencePenalty) {
    public RawRequest {
        if (prompt == null) throw new IllegalArgumentException("prompt is null");
        stop = stop == null ? List.of() : List.copyOf(stop);
    }

    /** A request with only a prompt: every sampling parameter left to the engine. */
    public static RawRequest of(String prompt) {
        return new RawRequest(prompt, null, null, null, null, null, List.of(), null, null);
    }
}
