package dev.toolcalls;

import java.util.Random;

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

    /** The same sequence of ids for the same seed. */
    static IdGenerator seeded(long seed) {
        return fromRandom(new Random(seed));
    }

    private static IdGenerator fromRandom(Random random) {
        return length -> {
            char[] out = new char[length];
            for (int i = 0; i < length; i++)
                out[i] = ALPHANUMERIC.charAt(random.nextInt(ALPHANUMERIC.length()));
            return new String(out);
        };
    }
}
