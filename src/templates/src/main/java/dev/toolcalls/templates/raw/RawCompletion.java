package dev.toolcalls.templates.raw;

/**
 * How a completion ended.
 *
 * @param finishReason the engine's reason, as OpenAI-compatible engines spell it: {@code stop} (the
 *     model ended its turn or hit a stop sequence), {@code length} (the token limit), {@code
 *     content_filter}, or another word; null when unknown
 * @param promptTokens tokens in the prompt, or null when the engine did not say
 * @param completionTokens tokens generated, or null when the engine did not say
 */
public record RawCompletion(String finishReason, Integer promptTokens, Integer completionTokens) {
    /** A completion that ended for the given reason, with no token counts. */
    public static RawCompletion of(String finishReason) {
        return new RawCompletion(finishReason, null, null);
    }
}
