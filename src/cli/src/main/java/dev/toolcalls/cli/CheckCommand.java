package dev.toolcalls.cli;

import dev.toolcalls.Format;
import dev.toolcalls.FormatException;
import dev.toolcalls.FormatRegistry;
import dev.toolcalls.Vocabulary;
import dev.toolcalls.internal.format.FormatDefinition;
import dev.toolcalls.internal.format.FormatFolders;
import dev.toolcalls.tools.FormatLinter;

import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

import java.io.IOException;
import java.io.InputStream;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.Callable;

@Command(
        name = "check",
        sortOptions = false,
        description =
                "Lints formats: every finding names the file (line:column where the grammar has one), the token or mode, what is "
                        + "wrong and how to fix it. Exits 1 on any finding. Without NAME: the formats of the --format-dir folders, or every "
                        + "registered format when there are none.")
final class CheckCommand implements Callable<Integer>, Main.IoAware {
    @Mixin FormatDirs formatDirs = new FormatDirs();

    @Option(
            names = "--tests",
            paramLabel = "DIR",
            description =
                    "suite folder laid out like tests-data/ whose NAME/ must hold at least 10 cases (default: tests-data, when it exists)")
    Path tests;

    @Option(
            names = "--write-interp",
            description =
                    "also write each --format-dir grammar's .interp file (the ANTLR tool's interpreter "
                            + "data) beside it, so that a server with the library and antlr4-runtime alone can load the folder")
    boolean writeInterp;

    @Option(
            names = "--tokenizer",
            paramLabel = "PATH",
            description =
                    "also check each format against this model vocabulary (a folder holding tokenizer.json, or the file): "
                            + "listed special tokens it spells as several tokens, and its tokens that a marker spells out unlisted")
    Path tokenizer;

    @Option(
            names = "--format",
            paramLabel = "NAME",
            description = "a format to check (the same as naming it after the options)")
    List<String> formatOptions = new ArrayList<>();

    @Parameters(
            paramLabel = "NAME",
            arity = "0..*",
            description = "formats to check, by name or alias")
    List<String> names = new ArrayList<>();

    private PrintStream out;
    private PrintStream err;

    @Override
    public void io(PrintStream out, PrintStream err, InputStream in) {
        this.out = out;
        this.err = err;
    }

    @Override
    public Integer call() {
        names.addAll(formatOptions);
        Vocabulary vocabulary = null;
        if (tokenizer != null) {
            try {
                vocabulary = Vocabulary.load(tokenizer);
            } catch (IOException e) {
                throw new Main.UsageException("--tokenizer: " + e.getMessage());
            }
        }
        FormatRegistry formats = formatDirs.registry();
        Path cases =
                tests != null
                        ? tests
                        : Files.isDirectory(Path.of("tests-data")) ? Path.of("tests-data") : null;
        if (tests != null && !Files.isDirectory(tests))
            throw new Main.UsageException("--tests " + tests + ": no such folder");
        List<Format> targets = targets(formats);
        List<String> findings = new ArrayList<>();
        Set<FormatException> explained = Collections.newSetFromMap(new IdentityHashMap<>());
        for (Format f : targets) {
            List<String> lines = FormatLinter.lint(FormatDefinition.of(f).source(), cases);
            if (vocabulary != null)
                lines.addAll(
                        FormatLinter.lintVocabulary(FormatDefinition.of(f).source(), vocabulary));
            Optional<FormatException> problem = f.problem();
            problem.ifPresent(explained::add);
            // a format disabled for its name, or broken in a way the lint did not see, says so too
            if (problem.isPresent()
                    && (lines.isEmpty()
                            || problem.get().getMessage().contains("is already taken by")))
                lines.add(f.origin() + ": format " + f.name() + ": " + problem.get().getMessage());
            findings.addAll(lines);
        }
        if (names.isEmpty())
            for (FormatException p : formats.problems())
                if (!explained.contains(p)) findings.add(p.getMessage());
        for (String finding : findings) out.println(finding);
        if (writeInterp) {
            for (Path d : formatDirs.folders())
                for (Path written : FormatFolders.writeInterp(d)) err.println("wrote " + written);
        }
        err.println(
                "checked "
                        + targets.size()
                        + " format"
                        + (targets.size() == 1 ? "" : "s")
                        + ": "
                        + (findings.isEmpty()
                                ? "no findings"
                                : findings.size() + " finding" + (findings.size() == 1 ? "" : "s"))
                        + (cases == null
                                ? " (no tests-data folder: case counts not checked; --tests DIR)"
                                : ""));
        out.flush();
        return findings.isEmpty() ? 0 : Main.FAILED;
    }

    private List<Format> targets(FormatRegistry formats) {
        List<Format> out = new ArrayList<>();
        if (!names.isEmpty()) {
            for (String n : names) {
                Format found = null;
                for (Format f : formats.all()) {
                    boolean named =
                            f.name().equalsIgnoreCase(n)
                                    || f.aliases().stream().anyMatch(a -> a.equalsIgnoreCase(n));
                    if (named
                            && (found == null
                                    || found.problem().isPresent() && f.problem().isEmpty()))
                        found = f;
                }
                if (found == null)
                    throw new Main.UsageException(
                            "unknown format '" + n + "'; run 'formats' to list them");
                if (!out.contains(found)) out.add(found);
            }
            return out;
        }
        if (formatDirs.folders().isEmpty()) return formats.all();
        Set<Format> standard = Collections.newSetFromMap(new IdentityHashMap<>());
        standard.addAll(FormatRegistry.standard().all());
        for (Format f : formats.all()) if (!standard.contains(f)) out.add(f);
        return out;
    }
}
