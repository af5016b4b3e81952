package dev.toolcalls.cli;

import dev.toolcalls.Format;
import dev.toolcalls.FormatException;
import dev.toolcalls.FormatRegistry;

import picocli.CommandLine.Option;

import java.io.PrintStream;
import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * {@code --format-dir DIR} (repeatable): format folders read at run time, registered beside the
 * bundled formats. A {@code formats/} folder next to the CLI jar is read too, without the option.
 */
final class FormatDirs {
    static final String OPTION = "--format-dir";
    static final String LABEL = "DIR";
    static final String DESCRIPTION =
            "a folder of format folders (DIR/NAME/NAME.json + its lexer grammar; DIR/imports/ optional), or one format "
                    + "folder, registered beside the bundled formats; repeatable. A formats/ folder next to the jar is read as well.";

    @Option(names = OPTION, paramLabel = LABEL, description = DESCRIPTION)
    List<Path> dirs = new ArrayList<>();

    /** The folders read: the one next to the jar (if any), then the options' in order. */
    List<Path> folders() {
        List<Path> out = new ArrayList<>();
        Optional<Path> jarFolder = nextToJar();
        if (jarFolder.isPresent()) out.add(jarFolder.get());
        out.addAll(dirs);
        return out;
    }

    /**
     * The standard registry plus the folders. A folder that is missing or holds no format folder is
     * a usage error.
     */
    FormatRegistry registry() {
        FormatRegistry r = FormatRegistry.standard();
        for (Path d : folders()) {
            if (!Files.isDirectory(d))
                throw new Main.UsageException("--format-dir " + d + ": no such folder");
            try {
                r = r.withFolder(d);
            } catch (FormatException e) {
                throw e;
            } catch (IllegalArgumentException e) {
                throw new Main.UsageException("--format-dir " + d + ": " + e.getMessage());
            }
        }
        return r;
    }

    /**
     * The registry, after telling on {@code err} once about each format that cannot be used (except
     * {@code selected}, whose problem the command reports itself).
     */
    FormatRegistry registry(PrintStream err, String selected) {
        FormatRegistry r = registry();
        FormatException own =
                selected == null ? null : r.find(selected).flatMap(Format::problem).orElse(null);
        for (FormatException p : r.problems())
            if (p != own) err.println("warning: " + p.getMessage());
        return r;
    }

    /**
     * The format a command runs with, after the warnings of {@link #registry(PrintStream, String)}.
     * With no folder to read, a bundled format is the standard registry's own and nothing else is
     * looked at (no search for format providers: see {@link FormatRegistry#bundled()}).
     *
     * @throws Main.UsageException when no format has this name
     * @throws FormatException when the format cannot be used
     */
    Format format(PrintStream err, String name) {
        Optional<Format> found =
                folders().isEmpty() ? FormatRegistry.bundled().find(name) : Optional.empty();
        if (found.isEmpty()) found = registry(err, name).find(name);
        if (found.isEmpty())
            throw new Main.UsageException(
                    "unknown format '" + name + "'; run 'formats' to list them");
        Format f = found.get();
        Optional<FormatException> problem = f.problem();
        if (problem.isPresent()) throw problem.get();
        return f;
    }

    /** {@code formats/} next to the jar the CLI runs from, when there is one. */
    static Optional<Path> nextToJar() {
        try {
            var location = Main.class.getProtectionDomain().getCodeSource();
            if (location == null) return Optional.empty();
            Path jar = Path.of(location.getLocation().toURI());
            if (!Files.isRegularFile(jar)) return Optional.empty();
            Path dir = jar.toAbsolutePath().getParent().resolve("formats");
            return Files.isDirectory(dir) ? Optional.of(dir) : Optional.empty();
        } catch (URISyntaxException | SecurityException | IllegalArgumentException e) {
            return Optional.empty();
        }
    }
}
