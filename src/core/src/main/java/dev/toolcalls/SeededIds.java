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
        for (int i = p; i < out.length; i++)
            out[i] = (byte) ALPHANUMERIC.charAt(nextInt(ALPHANUMERIC.length()));
        return new String(out, StandardCharsets.ISO_8859_1);
    }
}
