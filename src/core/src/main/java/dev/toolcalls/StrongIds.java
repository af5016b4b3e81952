package dev.toolcalls;

import java.security.SecureRandom;

/**
 * The default id source: made on first use and shared (never one per response), drawn from in bulk,
 * one call per id.
 */
final class StrongIds {
    private static final SecureRandom SOURCE = new SecureRandom();

    static final IdGenerator GENERATOR =
            length -> {
                char[] out = new char[length];
                byte[] bytes = new byte[length + 16];
                int n = 0;
                while (n < length) {
                    SOURCE.nextBytes(bytes);
                    for (int i = 0; i < bytes.length && n < length; i++) {
                        int v = bytes[i] & 63; // 6 bits; 62 and 63 are drawn again, so every
                        // character is equally likely
                        if (v < 62) out[n++] = IdGenerator.ALPHANUMERIC.charAt(v);
                    }
                }
                return new String(out);
            };

    private StrongIds() {}
}
