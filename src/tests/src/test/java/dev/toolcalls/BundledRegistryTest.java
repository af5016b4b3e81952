package dev.toolcalls;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * The bundled formats alone ({@link FormatRegistry#bundled()}, what a lookup of a bundled name
 * uses, without a search for providers) answer exactly as the standard registry, which also holds
 * the providers' formats (the tests' {@code toy}, registered through {@code META-INF/services}).
 */
class BundledRegistryTest {
    @Test
    void everyBundledNameAndAliasIsTheStandardRegistrysFormat() {
        FormatRegistry bundled = FormatRegistry.bundled();
        FormatRegistry standard = FormatRegistry.standard();
        int names = 0;
        for (Format f : bundled.all()) {
            List<String> keys = new ArrayList<>(f.aliases());
            keys.add(f.name());
            keys.add(f.name().toUpperCase(Locale.ROOT));
            for (String key : keys) {
                assertSame(standard.find(key).orElseThrow(), bundled.find(key).orElseThrow(), key);
                assertSame(standard.find(key).orElseThrow(), Formats.find(key).orElseThrow(), key);
                names++;
            }
        }
        assertTrue(names > 70, names + " names");
        assertSame(standard.get("hermes"), Formats.get("hermes"));
        assertTrue(bundled.problems().isEmpty(), bundled.problems().toString());
    }

    @Test
    void providersFormatsAreInTheStandardRegistryOnly() {
        assertTrue(FormatRegistry.bundled().find("toy").isEmpty());
        assertEquals("toy", FormatRegistry.standard().find("toy").orElseThrow().name());
        assertEquals("toy", Formats.get("toy").name());
        assertEquals(
                FormatRegistry.bundled().all().size() + 1, FormatRegistry.standard().all().size());
    }
}
