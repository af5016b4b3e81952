package dev.toolcalls.internal.format;

import dev.toolcalls.Format;

/**
 * What a {@link Format} is made of, for the project's tools ({@code check}, {@code generate},
 * {@code new}): the sources it was read from and its compiled lexer. Every format the library makes
 * is one; the package is exported to the tools and the command line only.
 */
public interface FormatDefinition {
    /** The format file, the grammar and where they came from. */
    FormatSource source();

    /**
     * The built format.
     *
     * @throws dev.toolcalls.FormatException when it cannot be built
     */
    CompiledFormat compiled();

    /**
     * The definition of a format the library made.
     *
     * @throws IllegalArgumentException for a {@link Format} implemented elsewhere
     */
    static FormatDefinition of(Format format) {
        if (format instanceof FormatDefinition d) return d;
        throw new IllegalArgumentException(
                "format "
                        + format.name()
                        + " was not made by toolcalls (Formats.define, Formats.load or a bundled format)");
    }
}
