package dev.toolcalls;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

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
}
