package dev.toolcalls.internal.format;

import dev.toolcalls.internal.grammar.BundledFormats;

import org.antlr.v4.runtime.CharStream;
import org.antlr.v4.runtime.Lexer;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Function;
import java.util.function.Supplier;

/**
 * The sources of the bundled formats, which the build copies into the jar under {@code
 * META-INF/toolcalls/grammars/} (the same layout as {@code grammars/}): the shared grammars that
 * runtime-loaded formats import, the grammars {@code new --like} copies, the lines {@code check}
 * points at.
 */
public final class BundledSources {
    private static final String ROOT = "/META-INF/toolcalls/grammars/";
    private static volatile Path importsCopy;

    private BundledSources() {}

    /** The text of a file under {@code grammars/} (e.g. {@code imports/JsonCall.g4}), or null. */
    public static String text(String relativePath) {
        try (InputStream in = BundledSources.class.getResourceAsStream(ROOT + relativePath)) {
            return in == null ? null : new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /**
     * A folder holding the bundled shared grammars as files (the ANTLR tool reads imports from
     * files), written once per process into a temporary folder removed at exit.
     */
    static Path importsFolder() {
        Path p = importsCopy;
        if (p != null) return p;
        synchronized (BundledSources.class) {
            if (importsCopy != null) return importsCopy;
            try {
                Path dir = Files.createTempDirectory("toolcalls-imports");
                dir.toFile().deleteOnExit();
                for (String name : BundledFormats.importGrammars()) {
                    String g4 = text("imports/" + name + ".g4");
                    if (g4 == null) continue;
                    Path f = dir.resolve(name + ".g4");
                    Files.writeString(f, g4, StandardCharsets.UTF_8);
                    f.toFile().deleteOnExit();
                }
                importsCopy = dir;
                return dir;
            } catch (IOException e) {
                throw new UncheckedIOException(
                        "cannot write the bundled shared grammars to a temporary folder", e);
            }
        }
    }

    /** Whether {@code file} is one of the copies made by {@link #importsFolder()}. */
    static Optional<String> bundledImportName(String file) {
        Path p = importsCopy;
        if (p == null || file == null) return Optional.empty();
        Path f = Path.of(file).toAbsolutePath();
        return f.startsWith(p.toAbsolutePath())
                ? Optional.of("grammars/imports/" + f.getFileName() + " (bundled)")
                : Optional.empty();
    }

    /**
     * The bundled generated lexers by grammar name (e.g. {@code MyModelLexer}), for formats that
     * reuse one.
     */
    static Map<String, Function<CharStream, Lexer>> lexers() {
        Map<String, Function<CharStream, Lexer>> out = new LinkedHashMap<>();
        for (var b : BundledFormats.all()) {
            try {
                FormatFile f =
                        FormatFile.parse(
                                b.formatFile(), "grammars/" + b.name() + "/" + b.name() + ".json");
                if (f.lexer() != null) out.putIfAbsent(f.lexer(), b.lexer());
            } catch (IllegalArgumentException e) {
                // a broken bundled format file shares nothing
            }
        }
        return out;
    }

    /** The bundled format whose lexer grammar has this name, if any. */
    static Optional<String> formatOfLexer(String lexer) {
        for (var b : BundledFormats.all()) {
            try {
                if (lexer.equals(FormatFile.parse(b.formatFile(), b.name()).lexer()))
                    return Optional.of(b.name());
            } catch (IllegalArgumentException e) {
                // skip
            }
        }
        return Optional.empty();
    }

    /**
     * The source of a bundled format: its format file and generated lexer; its grammar text from
     * the jar.
     */
    public static FormatSource of(BundledFormat b) {
        String path = "grammars/" + b.name() + "/" + b.name() + ".json";
        FormatFile file;
        try {
            file = FormatFile.parseBundled(b.formatFile(), path);
        } catch (IllegalArgumentException e) {
            return FormatSource.broken(
                    b.name(),
                    path,
                    null,
                    () -> GrammarText.fileOnly(path),
                    List.of(e.getMessage()));
        }
        return new FormatSource(
                b.name(),
                path,
                file,
                b.lexer(),
                new Includes(),
                new Grammar(b.name(), file.lexer()),
                List.of());
    }

    /**
     * The role files of the bundled shared grammars (classes rather than lambdas, here and below:
     * the first lambda of a process costs a fresh JVM several milliseconds).
     */
    private static final class Includes implements Function<String, FormatFile> {
        @Override
        public FormatFile apply(String include) {
            String roles = BundledFormats.importRoles(include);
            return roles == null
                    ? null
                    : FormatFile.parseBundled(roles, "grammars/imports/" + include + ".json");
        }
    }

    /** Where a bundled format's grammar is written, read when asked. */
    private static final class Grammar implements Supplier<GrammarText> {
        private final String format;
        private final String lexer;

        Grammar(String format, String lexer) {
            this.format = format;
            this.lexer = lexer;
        }

        @Override
        public GrammarText get() {
            return grammarText(format, lexer);
        }
    }

    /**
     * Where a bundled format's grammar is written: its own folder, or the folder of the format
     * whose lexer it shares.
     */
    static GrammarText grammarText(String format, String lexer) {
        if (lexer == null) return GrammarText.fileOnly("grammars/" + format);
        List<String> folders = new ArrayList<>(List.of(format));
        for (var b : BundledFormats.all()) folders.add(b.name());
        for (String folder : folders) {
            String rel = folder + "/" + lexer + ".g4";
            String text = text(rel);
            if (text != null)
                return GrammarText.of(
                        new GrammarText.SourceFile("grammars/" + rel, text),
                        name -> {
                            String imported = text("imports/" + name + ".g4");
                            return imported == null
                                    ? null
                                    : new GrammarText.SourceFile(
                                            "grammars/imports/" + name + ".g4", imported);
                        });
        }
        return GrammarText.fileOnly("grammars/" + format + "/" + lexer + ".g4");
    }
}
