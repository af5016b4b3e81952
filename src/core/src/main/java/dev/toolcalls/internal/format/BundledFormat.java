package dev.toolcalls.internal.format;

import org.antlr.v4.runtime.CharStream;
import org.antlr.v4.runtime.Lexer;

import java.util.List;
import java.util.function.Function;

/**
 * A format compiled into the library: its names (known without building anything), its format
 * file's text and a factory of its generated lexer. The generated index {@code BundledFormats}
 * lists them.
 */
public record BundledFormat(
        String name,
        List<String> aliases,
        String description,
        String formatFile,
        Function<CharStream, Lexer> lexer) {}
