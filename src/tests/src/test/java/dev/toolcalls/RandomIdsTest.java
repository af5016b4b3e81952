package dev.toolcalls;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

import java.util.HashSet;
import java.util.Set;

class RandomIdsTest {
    private static final int IDS = 10_000;
    private static final int LENGTH = 24;

    /**
     * The default ids' characters are equally likely: a chi-square test of the 62 characters'
     * counts over 240,000 characters (61 degrees of freedom: mean 61, a statistic over 130 has a
     * chance under 1e-8). A character drawn as 6 random bits modulo 62 (two characters twice as
     * likely) gives a statistic in the thousands.
     */
    @Test
    void everyCharacterEquallyLikely() {
        IdGenerator ids = IdGenerator.random();
        long[] counts = new long[128];
        for (int i = 0; i < IDS; i++) {
            String id = ids.alphanumeric(LENGTH);
            assertEquals(LENGTH, id.length());
            for (int k = 0; k < id.length(); k++) counts[id.charAt(k)]++;
        }
        double expected = (double) IDS * LENGTH / IdGenerator.ALPHANUMERIC.length();
        double chiSquare = 0;
        long total = 0;
        for (int c = 0; c < 128; c++) {
            if (IdGenerator.ALPHANUMERIC.indexOf(c) < 0) {
                assertEquals(0, counts[c], "character " + (char) c + " is not alphanumeric");
                continue;
            }
            double d = counts[c] - expected;
            chiSquare += d * d / expected;
            total += counts[c];
        }
        assertEquals((long) IDS * LENGTH, total);
        assertTrue(chiSquare < 130, "chi-square " + chiSquare + " over 61 degrees of freedom");
    }

    /** Ids drawn one after another, of every length, with and without a prefix, never repeat. */
    @Test
    void idsDoNotRepeat() {
        IdGenerator ids = IdGenerator.random();
        Set<String> seen = new HashSet<>();
        for (int i = 0; i < IDS; i++) {
            String id = ids.alphanumeric(1 + i % 40);
            if (id.length() >= 12) assertTrue(seen.add(id), "repeated id " + id);
        }
        Format f = Formats.get("hermes");
        for (int i = 0; i < 200; i++) {
            String id =
                    f.parse("<tool_call>{\"name\": \"f\", \"arguments\": {}}</tool_call>")
                            .toolCalls()
                            .get(0)
                            .id();
            assertTrue(id.startsWith("call_") && id.length() == 5 + LENGTH, id);
            assertTrue(seen.add(id), "repeated id " + id);
        }
    }
}
