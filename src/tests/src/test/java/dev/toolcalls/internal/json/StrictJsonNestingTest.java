package dev.toolcalls.internal.json;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import org.junit.jupiter.api.Test;

import java.util.Random;

/** Containers nested below and beyond the 64 levels the checker keeps as bits, closed by kind. */
class StrictJsonNestingTest {
    @Test
    void everyDepthClosesByItsKind() throws Exception {
        Random random = new Random(7);
        for (int depth : new int[] {1, 2, 63, 64, 65, 66, 127, 128, 129, 300}) {
            for (int round = 0; round < 20; round++) {
                boolean[] object = new boolean[depth];
                StringBuilder b = new StringBuilder();
                for (int d = 0; d < depth; d++) {
                    object[d] = random.nextBoolean();
                    b.append(object[d] ? "{\"k\": " : "[1, ");
                }
                b.append("true");
                for (int d = depth - 1; d >= 0; d--) b.append(object[d] ? ", \"z\": 2}" : ", 3]");
                String valid = b.toString();
                assertEquals(object[0] ? '{' : '[', Json.check(valid, 512), valid);
                // the same with one container, at any depth, closed by the other kind
                int wrong = random.nextInt(depth);
                int at = valid.length();
                for (int d = 0; d <= wrong; d++)
                    at = valid.lastIndexOf(object[d] ? '}' : ']', at - 1);
                String bad =
                        valid.substring(0, at)
                                + (object[wrong] ? ']' : '}')
                                + valid.substring(at + 1);
                assertThrows(Json.NotJson.class, () -> Json.check(bad, 512), bad);
            }
        }
    }

    @Test
    void theNestingLimitHolds() throws Exception {
        String hundred = "[".repeat(100) + "]".repeat(100);
        assertEquals('[', Json.check(hundred, 100));
        assertThrows(Json.TooDeep.class, () -> Json.check(hundred, 99));
    }
}
