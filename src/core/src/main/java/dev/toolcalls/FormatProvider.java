package dev.toolcalls;

import java.util.Collection;

/**
 * Adds formats to the registry from another jar, found with {@link java.util.ServiceLoader}: list
 * the implementation in {@code META-INF/services/dev.toolcalls.FormatProvider} (class path) or
 * {@code provides dev.toolcalls.FormatProvider with ...} (module path). Providers build their
 * formats with {@link Formats#define}.
 */
public interface FormatProvider {
    Collection<Format> formats();
}
