package dev.toolcalls;

import java.security.SecureRandom;

/**
 * The default id source: made on first use and shared (never one per response), drawn from in bulk:
 * a kilobyte of random bytes at a time, each handed out once.
 */
final class StrongIds {
    private static final SecureRandom SOURCE = new SecureRandom();

    /** Random bytes drawn ahead, in bulk (one draw of the source per 1 KiB, not per id). */
    private static final byte[] POOL = new byte[1024];

    private static int used = POOL.length;

    static final IdGenerator GENERATOR =
            length -> {
                char[] out = new char[length];
                int n = 0;
                synchronized (POOL) {
                    while (n < length) {
                        if (used == POOL.length) {
                            SOURCE.nextBytes(POOL);
                            used = 0;
                        }
                        int v = POOL[used] & 63;
                        POOL[used++] = 0; // a byte is handed out once
                        // 6 bits; 62 and 63 are drawn again, so every character is equally likely
                        if (v < 62) out[n++] = IdGenerator.ALPHANUMERIC.charAt(v);
                    }
                }
                return new String(out);
            };

    private StrongIds() {}
}
