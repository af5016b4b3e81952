package dev.toolcalls;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

import java.math.BigInteger;
import java.util.Random;

class SeededIdsTest {
    /** The seeded ids are those of java.util.Random's nextInt(62), character by character. */
    @Test
    void sameSequenceAsJavaUtilRandom() {
        for (long seed : new long[] {0, 1, 42, -7, Long.MAX_VALUE, 0x5DEECE66DL}) {
            IdGenerator ids = IdGenerator.seeded(seed);
            Random random = new Random(seed);
            for (int length : new int[] {1, 9, 24, 24, 3, 100}) {
                StringBuilder expected = new StringBuilder();
                for (int i = 0; i < length; i++)
                    expected.append(IdGenerator.ALPHANUMERIC.charAt(random.nextInt(62)));
                assertEquals(expected.toString(), ids.alphanumeric(length), "seed " + seed);
            }
        }
    }

    /**
     * Draws that nextInt(62) rejects (2 in 2^31 of them) are drawn again as java.util.Random draws
     * them: seeds built by running the generator back from a state whose draw is 2^31 - 1, so that
     * the rejected draw comes first, second, third or fourth.
     */
    @Test
    void rejectedDrawsAsJavaUtilRandom() {
        long multiplier = 0x5DEECE66DL;
        long mask = (1L << 48) - 1;
        long inverse =
                BigInteger.valueOf(multiplier).modInverse(BigInteger.ONE.shiftLeft(48)).longValue();
        for (int before = 0; before < 4; before++) {
            long state = (long) Integer.MAX_VALUE << 17 | 12345;
            for (int k = 0; k <= before; k++) state = (state - 0xBL) * inverse & mask;
            long seed = state ^ multiplier;
            Random probe = new Random(seed);
            for (int k = 0; k < before; k++) probe.nextInt();
            assertEquals(Integer.MAX_VALUE, probe.nextInt() >>> 1, "the draw built to be rejected");
            IdGenerator ids = IdGenerator.seeded(seed);
            Random random = new Random(seed);
            for (int length : new int[] {24, 9}) {
                StringBuilder expected = new StringBuilder();
                for (int i = 0; i < length; i++)
                    expected.append(IdGenerator.ALPHANUMERIC.charAt(random.nextInt(62)));
                assertEquals(expected.toString(), ids.alphanumeric(length), "seed " + seed);
            }
        }
    }
}
