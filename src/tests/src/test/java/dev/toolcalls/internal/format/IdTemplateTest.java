package dev.toolcalls.internal.format;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;

import org.junit.jupiter.api.Test;

import java.util.regex.Pattern;

/**
 * A model-written id is kept exactly when it matches the format file's {@code idPattern} as a
 * regular expression, whether the pattern is checked by hand (one class of letters and digits with
 * a count) or compiled.
 */
class IdTemplateTest {
    private static final String[] PATTERNS = {
        "[A-Za-z0-9]{9}",
        "[a-z0-9]{10}",
        "[a-c]{2}",
        "[Z]{1}",
        "[0-9a-f]{0}",
        "[a-z0-9]{12}x",
        "[a-]{2}",
        "[^a-z]{3}",
        "[a-z]+",
        "[a-z]{1,3}",
        "(?!)",
        "call_[A-Za-z0-9]{24}",
    };

    private static final String[] IDS = {
        "",
        "a1B2c3D4e",
        "a1b2c3d4e",
        "a1B2c3D4",
        "a1B2c3D4e5",
        "a1B2c3D4!",
        "abcdefghij",
        "0123456789",
        "ABCDEFGHIJ",
        "ab",
        "ad",
        "Z",
        "z",
        "a-",
        "abc",
        "ABC",
        "é1B2c3D4e",
        "\uD835\uDC9C1B2c3D4e",
        "a1B2c3D4\u0065\u0301",
        "call_abcdefghijklmnopqrstuvwx",
    };

    @Test
    void keptExactlyWhenThePatternMatches() {
        for (String p : PATTERNS) {
            IdTemplate t = IdTemplate.parse("openai", p);
            for (String id : IDS)
                assertEquals(
                        !id.isEmpty() && Pattern.matches(p, id),
                        t.keeps(id, null),
                        p + " on " + id);
        }
    }

    @Test
    void onlyAClassOfLettersAndDigitsWithACountIsCheckedByHand() {
        assertNotNull(IdTemplate.characterClassRun("[A-Za-z0-9]{9}"));
        assertNotNull(IdTemplate.characterClassRun("[a-z0-9]{10}"));
        for (String p :
                new String[] {"[a-]{2}", "[^a-z]{3}", "[a-z]+", "[a-z]{1,3}", "(?!)", "[z-a]{2}"})
            assertNull(IdTemplate.characterClassRun(p), p);
    }
}
