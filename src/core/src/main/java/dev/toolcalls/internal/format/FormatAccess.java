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

    /** Where the format came from and what it is made of. */
    public static FormatSource source(Format f) {
        return sources.apply(f); // a Format instance exists, so its class has run its initializer and installed this
    }

    /** The built format. @throws dev.toolcalls.FormatException when it cannot be built */
    public static CompiledFormat compiled(Format f) {
        return compiled.apply(f);
    }
}
