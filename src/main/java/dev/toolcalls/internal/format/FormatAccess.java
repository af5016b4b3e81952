package dev.toolcalls.internal.format;

import java.util.function.Function;

import dev.toolcalls.Format;

/**
 * What the command line and the suite runner (same module, other packages) may see of a
 * {@link Format} beyond the API: its source and its compiled form, for {@code check} and
 * {@code generate}. {@code Format} installs the accessors when it is loaded, so the API needs no
 * public method returning an internal type.
 */
public final class FormatAccess {
    private FormatAccess() { }

    private static Function<Format, FormatSource> sources;
    private static Function<Format, CompiledFormat> compiled;

    /** Called once, by {@code Format}. */
    public static synchronized void install(Function<Format, FormatSource> sourceOf, Function<Format, CompiledFormat> compiledOf) {
        if (sources != null) throw new IllegalStateException("installed twice");
        sources = sourceOf;
        compiled = compiledOf;
    }

    private static void ensureLoaded() {
        try {
            Class.forName(Format.class.getName(), true, Format.class.getClassLoader());
        } catch (ClassNotFoundException e) {
            throw new IllegalStateException(e);
        }
    }

    /** Where the format came from and what it is made of. */
    public static FormatSource source(Format f) {
        ensureLoaded();
        return sources.apply(f);
    }

    /** The built format. @throws dev.toolcalls.FormatException when it cannot be built */
    public static CompiledFormat compiled(Format f) {
        ensureLoaded();
        return compiled.apply(f);
    }
}
