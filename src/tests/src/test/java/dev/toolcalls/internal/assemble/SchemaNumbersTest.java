package dev.toolcalls.internal.assemble;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.regex.Pattern;

/**
 * The shapes of numbers that type raw argument values, checked by hand, accept exactly what their
 * regular expressions accept: every string of up to five characters over the characters that
 * matter, and a few longer ones.
 */
class SchemaNumbersTest {
    private static final Pattern INTEGER = Pattern.compile("[-+]?[0-9]+");
    private static final Pattern NUMBER =
            Pattern.compile("[-+]?([0-9]+\\.?[0-9]*|\\.[0-9]+)([eE][-+]?[0-9]+)?");
    private static final Pattern JSON_NUMBER =
            Pattern.compile("-?(0|[1-9][0-9]*)(\\.[0-9]+)?([eE][-+]?[0-9]+)?");

    @Test
    void sameAsTheRegularExpressions() {
        List<String> all = new ArrayList<>(List.of("", "١٢", "12345678901234567890", "1.5e+10x"));
        List<String> last = List.of("");
        for (int length = 1; length <= 5; length++) {
            List<String> next = new ArrayList<>();
            for (String s : last) for (char c : "019-+.eEx ".toCharArray()) next.add(s + c);
            all.addAll(next);
            last = next;
        }
        int numbers = 0;
        for (String v : all) {
            assertEquals(INTEGER.matcher(v).matches(), SchemaTypes.integer(v), v);
            assertEquals(NUMBER.matcher(v).matches(), SchemaTypes.number(v), v);
            assertEquals(JSON_NUMBER.matcher(v).matches(), SchemaTypes.jsonNumber(v), v);
            if (NUMBER.matcher(v).matches()) numbers++;
        }
        assertTrue(numbers > 1000, numbers + " numbers among " + all.size());
    }
}
