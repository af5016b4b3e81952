package dev.toolcalls;

import dev.toolcalls.internal.format.IdTemplate;

import java.nio.charset.StandardCharsets;

/**
 * {@link IdGenerator#seeded}: the linear congruential generator of {@code java.util.Random} (its
 * documented {@code next} and {@code nextInt(bound)}), in a plain field instead of an atomic one,
 * so that each character of an id costs a multiplication rather than a compare-and-set. The
 * sequence is exactly that of {@code new Random(seed)}.
 */
final class SeededIds implements IdTemplate.Prefixed {
    private static final long MULTIPLIER = 0x5DEECE66DL;
    private static final long ADDEND = 0xBL;
    private static final long MASK = (1L << 48) - 1;

    /** Two steps of the generator at once: {@code seed * MULTIPLIER_2 + ADDEND_2}. */
    private static final long MULTIPLIER_2 = MULTIPLIER * MULTIPLIER & MASK;

    private static final long ADDEND_2 = MULTIPLIER * ADDEND + ADDEND & MASK;

    private static final byte[] CHARACTERS = ALPHANUMERIC.getBytes(StandardCharsets.ISO_8859_1);

    private long seed;

    SeededIds(long seed) {
        this.seed = (seed ^ MULTIPLIER) & MASK;
    }

    private int next31() {
        seed = (seed * MULTIPLIER + ADDEND) & MASK;
        return (int) (seed >>> 17);
    }

    /** {@code Random.nextInt(bound)} for a bound that is not a power of two. */
    private int nextInt(int bound) {
        int m = bound - 1;
        int r = next31();
        for (int u = r; u - (r = u % bound) + m < 0; u = next31()) {}
        return r;
    }

    /** The literal and the random characters written into one array, made a string once. */
    @Override
    public String alphanumeric(String prefix, int length) {
        int p = prefix.length();
        byte[] out = new byte[p + length];
        if (!IdTemplate.Prefixed.writeLatin1(prefix, out))
            return prefix.concat(alphanumeric(length));
        int bound = CHARACTERS.length;
        int i = p;
        // two characters per step from the same seed (the second by the two-step constants), so
        // that the two multiplications do not wait on each other; a draw that nextInt would
        // reject leaves the rest to it
        long s = seed;
        for (; i + 1 < out.length; i += 2) {
            long s1 = s * MULTIPLIER + ADDEND & MASK;
            long s2 = s * MULTIPLIER_2 + ADDEND_2 & MASK;
            int u1 = (int) (s1 >>> 17);
            int u2 = (int) (s2 >>> 17);
            int r1 = u1 % bound;
            int r2 = u2 % bound;
            if (u1 - r1 + bound - 1 < 0 || u2 - r2 + bound - 1 < 0) break;
            out[i] = CHARACTERS[r1];
            out[i + 1] = CHARACTERS[r2];
            s = s2;
        }
        seed = s;
        for (; i < out.length; i++) out[i] = CHARACTERS[nextInt(bound)];
        return new String(out, StandardCharsets.ISO_8859_1);
    }
}
