package dev.toolcalls.templates.raw;

import java.io.IOException;

/**
 * Where a model's raw output comes from: anything that completes a rendered prompt and yields text,
 * such as an OpenAI-compatible {@code /v1/completions} endpoint ({@link CompletionsSource}) or an
 * engine running in the JVM. The model classes render the chat with the model's chat template, hand
 * the prompt here, and parse what comes back.
 *
 * <pre>{@code
 * RawTextSource engine = (request, sink) -> {
 *     for (String piece : myEngine.generate(request.prompt(), request.maxTokens())) {
 *         if (sink.isCancelled()) return RawCompletion.of("cancelled");
 *         sink.text(piece);
 *     }
 *     return RawCompletion.of("stop");
 * };
 * }</pre>
 */
@FunctionalInterface
public interface RawTextSource {
    /**
     * Completes the request's prompt, handing each piece of output to the sink as it is produced
     * (in order, from one thread at a time), and returns once the output has ended.
     *
     * @throws IOException when the output cannot be had (the engine is unreachable or failed)
     */
    RawCompletion complete(RawRequest request, Sink sink) throws IOException;

    /** Receives the output of one completion. */
    interface Sink {
        /** A piece of detokenized output text (special tokens written out as text). */
        void text(String chunk);

        /**
         * One special token of the model's vocabulary, for a source that knows token identities: a
         * marker written this way is a marker, and the same spelling in ordinary text is content.
         */
        void specialToken(String token);

        /** Whether the consumer has stopped listening; a source should then stop generating. */
        boolean isCancelled();
    }
}
