package dev.toolcalls;

/**
 * Source of the random part of generated call ids. One generator serves one response.
 *
 * <pre>{@code
 * ParseOptions.defaults().withIds(() -> IdGenerator.seeded(42));   // reproducible ids in tests
 * }</pre>
 */
@FunctionalInterface
public interface IdGenerator {
    String ALPHANUMERIC = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789";

    /** {@code length} characters from {@code [A-Za-z0-9]}. */
    String alphanumeric(int length);

    /**
     * Unpredictable ids (the default): one shared strong source, drawn from in bulk, one call per
     * id.
     */
    static IdGenerator random() {
        return StrongIds.GENERATOR;
    }

    /**
     * The same sequence of ids for the same seed: each character is {@code ALPHANUMERIC.charAt(new
     * java.util.Random(seed).nextInt(62))} in turn, drawn by the same generator without its atomic
     * update (one generator serves one response, on one thread at a time).
     */
    static IdGenerator seeded(long seed) {
        return new SeededIds(seed);
    }
}
