package dev.toolcalls;

import dev.toolcalls.internal.format.IdTemplate;

import java.io.FileInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.security.SecureRandom;

/**
 * The default id source: made on first use and shared (never one per response), drawn from in bulk:
 * four kilobytes of random bytes at a time, each handed out once.
 *
 * <p>The bytes come from the operating system's random device, {@code /dev/urandom}, read directly
 * where there is one: it is what {@code SecureRandom}'s default on Linux and macOS (NativePRNG)
 * reads, and reading it skips the set-up of the security providers, which takes a fresh JVM longer
 * than the rest of its first parse. The device is opened once and kept open, as NativePRNG keeps it
 * (opening it per draw cost each id more than the rest of a small parse). Where it cannot be read,
 * a {@code SecureRandom}.
 */
final class StrongIds {
    private static final String DEVICE = "/dev/urandom";

    /** Null until the device could not be read. */
    private static SecureRandom fallback;

    /** The device, open once read (null before the first draw, or when it failed). */
    private static InputStream device;

    /**
     * Random bytes drawn ahead, in bulk (one draw of the source per 4 KiB, not per id), used three
     * at a time.
     */
    private static final byte[] POOL = new byte[4096];

    private static int used = POOL.length;

    /** The characters of {@link IdGenerator#ALPHANUMERIC}, as bytes. */
    private static final byte[] CHARACTERS =
            IdGenerator.ALPHANUMERIC.getBytes(StandardCharsets.ISO_8859_1);

    /** Where an id is written before its string is made (guarded by the pool's lock). */
    private static byte[] scratch = new byte[64];

    /** The generator (a class rather than a lambda: see {@code ParseOptions.RandomIds}). */
    static final IdGenerator GENERATOR = new Generator();

    private StrongIds() {}

    /**
     * Ids drawn from the pool, written with the template's literal into one string where that is
     * Latin-1.
     */
    private static final class Generator implements IdTemplate.Prefixed {
        @Override
        public String alphanumeric(String prefix, int length) {
            int p = prefix.length();
            synchronized (POOL) {
                byte[] out = scratch;
                if (out.length < p + length) out = scratch = new byte[p + length];
                if (!IdTemplate.Prefixed.writeLatin1(prefix, out))
                    return prefix.concat(alphanumeric(length));
                int n = p;
                int end = p + length;
                while (n < end) {
                    if (POOL.length - used < 3) {
                        fill();
                        used = 0;
                    }
                    // three bytes are four draws of 6 bits; 62 and 63 are drawn again, so every
                    // character is equally likely; the bytes are handed out once (draws left
                    // over at the end of an id are dropped)
                    int bits =
                            (POOL[used] & 0xFF) << 16
                                    | (POOL[used + 1] & 0xFF) << 8
                                    | POOL[used + 2] & 0xFF;
                    POOL[used++] = 0;
                    POOL[used++] = 0;
                    POOL[used++] = 0;
                    for (int shift = 18; shift >= 0 && n < end; shift -= 6) {
                        int v = bits >>> shift & 63;
                        if (v < 62) out[n++] = CHARACTERS[v];
                    }
                }
                return new String(out, 0, end, StandardCharsets.ISO_8859_1);
            }
        }
    }

    /** Refills the pool (the caller holds its lock). */
    private static void fill() {
        if (fallback == null) {
            try {
                if (device == null) device = new FileInputStream(DEVICE);
                if (device.readNBytes(POOL, 0, POOL.length) == POOL.length) return;
            } catch (IOException | SecurityException e) {
                // no such device here: the platform's SecureRandom from now on
            }
            fallback = new SecureRandom();
            close();
        }
        fallback.nextBytes(POOL);
    }

    private static void close() {
        try {
            if (device != null) device.close();
        } catch (IOException e) {
            // nothing was read from it: nothing to keep
        }
        device = null;
    }
}
