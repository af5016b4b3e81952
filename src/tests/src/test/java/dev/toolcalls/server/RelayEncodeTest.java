package dev.toolcalls.server;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;

import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.Random;

/** The relay's UTF-8 writing equals {@link String#getBytes}, lone surrogates included. */
class RelayEncodeTest {
    @Test
    void sameBytesAsTheJdk() {
        Random random = new Random(11);
        char[] pool = {'a', '"', '\n', 'é', '☀', '\u07ff', '\u0800', '\uffff', '\ud83d', '\ude00'};
        for (int round = 0; round < 20_000; round++) {
            StringBuilder b = new StringBuilder();
            for (int i = random.nextInt(12); i > 0; i--)
                b.append(
                        random.nextBoolean()
                                ? pool[random.nextInt(pool.length)]
                                : (char) random.nextInt(0x10000));
            String text = b.toString();
            byte[] a = new byte[3 * text.length()];
            int n = Relay.encode(b, a);
            assertArrayEquals(text.getBytes(StandardCharsets.UTF_8), Arrays.copyOf(a, n), text);
        }
    }
}
