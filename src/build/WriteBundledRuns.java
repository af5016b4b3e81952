import dev.toolcalls.internal.format.BundledSources;
import dev.toolcalls.internal.format.CompiledFormat;
import dev.toolcalls.internal.format.FormatSource;
import dev.toolcalls.internal.grammar.BundledFormats;

import org.antlr.v4.runtime.CharStream;
import org.antlr.v4.runtime.Lexer;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Function;

import javax.tools.JavaCompiler;
import javax.tools.ToolProvider;

/**
 * Build step (process-classes, after the library is compiled): derives the fast-path analysis
 * ({@code FastRuns}) of every mode of every bundled format with the compiled library and replaces
 * the class {@code dev.toolcalls.internal.grammar.BundledRuns} (a stub that has none, generated
 * with the index of bundled formats) with one that gives each format's in its compact form. A
 * format's first load then reads its runs back instead of deriving them from the ATN; the analysis
 * checks that what it reads was written for the same rules, types, roles and streamable tokens.
 *
 * <p>Usage: {@code java -cp CLASSES:antlr4-runtime.jar:gson.jar src/build/WriteBundledRuns.java
 * CLASSES SOURCE_DIR}: CLASSES is the library's compiled classes (the class is written there),
 * SOURCE_DIR where its source is written. Without a Java compiler (a JRE) the stub stays and the
 * runs are derived at run time, as for a format loaded from a folder.
 */
public final class WriteBundledRuns {
    public static void main(String[] args) throws IOException {
        Path classes = Path.of(args[0]);
        Path sources = Path.of(args[1]);
        StringBuilder cases = new StringBuilder();
        List<String> skipped = new ArrayList<>();
        for (int i = 0; i < BundledFormats.count(); i++) {
            String name = BundledFormats.get(i).name();
            String runs;
            try {
                // built as a format without stored runs is, whatever an earlier build left
                FormatSource source = BundledSources.of(BundledFormats.get(i));
                Function<CharStream, ? extends Lexer> lexers = source.lexer();
                CompiledFormat f =
                        CompiledFormat.compile(
                                source.file(), input -> lexers.apply(input), source.includes());
                runs = f.model().runs.storedForm();
            } catch (RuntimeException e) {
                // a format that does not build fails at its load with its own message
                skipped.add(name + " (" + e.getMessage() + ")");
                continue;
            }
            cases.append("            case ")
                    .append(lit(name))
                    .append(":\n                return ")
                    .append(lit(runs))
                    .append(";\n");
        }
        String src =
                """
                package dev.toolcalls.internal.grammar;

                /**
                 * The fast-path analysis (FastRuns) of each bundled format, by name, in its compact form.
                 * Written by src/build/WriteBundledRuns.java with the compiled library; do not edit.
                 */
                final class BundledRuns {
                    private BundledRuns() { }

                    static String of(String format) {
                        switch (format) {
                %s            default:
                                return null;
                        }
                    }
                }
                """
                        .formatted(cases);
        Path out = sources.resolve("dev/toolcalls/internal/grammar/BundledRuns.java");
        Files.createDirectories(out.getParent());
        Files.writeString(out, src, StandardCharsets.UTF_8);
        for (String s : skipped) System.err.println("[WARNING] no stored runs for " + s);
        JavaCompiler javac = ToolProvider.getSystemJavaCompiler();
        if (javac == null) {
            System.err.println(
                    "[WARNING] no Java compiler: the bundled formats derive their runs at run time");
            return;
        }
        // compiled apart and copied: javac compiles into a folder that holds module-info.class as
        // part of that module, whose requirements are not on its path here
        Path apart = Files.createTempDirectory("toolcalls-runs");
        int rc =
                javac.run(
                        null,
                        null,
                        null,
                        "--release",
                        "17",
                        "-proc:none",
                        "-implicit:none",
                        "-d",
                        apart.toString(),
                        out.toString());
        if (rc != 0) throw new IllegalStateException("javac failed on " + out + ": " + rc);
        Path compiled = apart.resolve("dev/toolcalls/internal/grammar/BundledRuns.class");
        Files.copy(
                compiled,
                classes.resolve("dev/toolcalls/internal/grammar/BundledRuns.class"),
                StandardCopyOption.REPLACE_EXISTING);
        Files.delete(compiled);
        for (Path p = compiled.getParent(); !p.equals(apart.getParent()); p = p.getParent())
            Files.delete(p);
    }

    /**
     * A Java string literal, ASCII only: an octal escape for each character below 256 and a Unicode
     * escape above (no Unicode escape that javac would read as a line break or a quote).
     */
    private static String lit(String s) {
        StringBuilder b = new StringBuilder("\"");
        for (char c : s.toCharArray())
            b.append(String.format(c < 0x100 ? "\\%03o" : "\\u%04x", (int) c));
        return b.append('"').toString();
    }
}
