package dev.toolcalls.internal.format;

import org.antlr.v4.runtime.CharStream;
import org.antlr.v4.runtime.Lexer;

import java.util.List;
import java.util.function.Function;
import java.util.function.Supplier;

/**
 * Everything a format is made of, wherever it came from (compiled into the library, a format folder
 * read at run time, another jar): its format file, a factory of its lexer, the role files of the
 * shared grammars it includes, and where each was written, so that every message names the file. A
 * source that could not be read carries its problems instead.
 *
 * @param name the format's name (the folder's when the format file cannot be read)
 * @param formatFile the format file's path as the user knows it (null: given as text, e.g. to
 *     {@code Formats.define})
 * @param file the format file, read; null when it cannot be
 * @param lexer a factory of the lexer; null when there is none
 * @param includes the role file of an included shared grammar, by name, or null
 * @param grammar where the grammar's rules and modes are written (read when asked: only {@code
 *     check} needs it)
 * @param problems why the format cannot be built before its grammar is even looked at (an
 *     unreadable file, grammar errors reported by the ANTLR tool...), each naming its file
 */
public record FormatSource(
        String name,
        String formatFile,
        FormatFile file,
        Function<CharStream, ? extends Lexer> lexer,
        Function<String, FormatFile> includes,
        Supplier<GrammarText> grammar,
        List<String> problems) {

    public FormatSource {
        problems = List.copyOf(problems);
    }

    /** A source that cannot be built, for these reasons. */
    public static FormatSource broken(
            String name,
            String formatFile,
            FormatFile file,
            Supplier<GrammarText> grammar,
            List<String> problems) {
        return new FormatSource(name, formatFile, file, null, n -> null, grammar, problems);
    }

    /**
     * Builds the format.
     *
     * @throws IllegalArgumentException whose message names the format file (or the grammar file and
     *     line) and everything wrong
     */
    public CompiledFormat compile() {
        if (!problems.isEmpty()) throw new IllegalArgumentException(String.join("; ", problems));
        try {
            return CompiledFormat.compile(file, lexer, includes);
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException(
                    formatFile == null ? e.getMessage() : formatFile + ": " + e.getMessage(), e);
        }
    }
}
