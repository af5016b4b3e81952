package dev.toolcalls.internal.format;

import dev.toolcalls.internal.grammar.BundledFormats;
import dev.toolcalls.internal.lex.LexerData;

import org.antlr.v4.runtime.CharStream;
import org.antlr.v4.runtime.Lexer;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.InvalidPathException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import java.util.function.Supplier;
import java.util.stream.Stream;

/**
 * Reads format folders at run time, laid out like the repository's {@code grammars/}:
 *
 * <pre>
 * DIR/acme/AcmeLexer.g4     the lexer grammar (or AcmeLexer.interp, the ANTLR tool's output for it)
 * DIR/acme/acme.json        the format file
 * DIR/imports/              optional: shared grammars and their role files (the bundled ones are always there)
 * </pre>
 *
 * {@code DIR} may also be one format folder itself ({@code DIR/acme.json}), with an optional {@code
 * imports/} inside. A grammar is compiled from its {@code .g4} when the ANTLR tool is on the class
 * path, else read from its {@code .interp}; a format file may also name the lexer of another folder
 * or of a bundled format. Each folder is read on its own: a broken one comes back with its
 * problems, each naming the file, and does not affect the others.
 */
public final class FormatFolders {
    private FormatFolders() {}

    /** The format folders of {@code dir}, each read. */
    public static List<FormatSource> load(Path dir) {
        List<Path> folders = folders(dir);
        boolean single = folders.size() == 1 && folders.get(0).equals(dir);
        List<FormatSource> out = new ArrayList<>();
        for (Path folder : folders) out.add(read(folder, single ? null : dir, folders));
        return out;
    }

    /**
     * Writes the interpreter data of every grammar of the format folders under {@code dir} beside
     * it ({@code AcmeLexer.interp}), so that the folder loads with the ANTLR runtime alone. Needs
     * the ANTLR tool; grammars with errors are skipped (loading them says why).
     *
     * @return the files written (an unchanged one is not rewritten)
     */
    public static List<Path> writeInterp(Path dir) {
        if (!GrammarTool.available())
            throw new IllegalStateException(
                    "writing .interp files needs the ANTLR tool (org.antlr:antlr4) on the class path");
        List<Path> folders = folders(dir);
        boolean single = folders.size() == 1 && folders.get(0).equals(dir);
        List<Path> written = new ArrayList<>();
        for (Path folder : folders) {
            try (Stream<Path> s = Files.list(folder)) {
                for (Path listed :
                        s.filter(p -> p.getFileName().toString().endsWith(".g4"))
                                .sorted()
                                .toList()) {
                    String lexer = listed.getFileName().toString().replaceFirst("\\.g4$", "");
                    List<Path> importDirs = importDirs(folder, single ? null : dir);
                    String interp;
                    Path g4;
                    Path target;
                    try {
                        g4 = fileIn(folder, lexer + ".g4");
                        if (g4 == null) continue;
                        fileIn(
                                folder,
                                lexer + ".interp"); // an existing one is overwritten: it must lie
                        // in the folder too
                        interp =
                                GrammarTool.interp(
                                        g4, f -> importFile(f, folder, importDirs), f -> f);
                        target = folder.resolve(lexer + ".interp");
                    } catch (GrammarTool.GrammarErrors | IllegalArgumentException e) {
                        continue;
                    }
                    if (Files.isRegularFile(target)
                            && Files.readString(target, StandardCharsets.UTF_8).equals(interp))
                        continue;
                    Files.writeString(target, interp, StandardCharsets.UTF_8);
                    written.add(target);
                }
            } catch (IOException e) {
                throw new UncheckedIOException("cannot write into " + folder, e);
            }
        }
        return written;
    }

    private static List<Path> importDirs(Path folder, Path parent) {
        List<Path> importDirs = new ArrayList<>();
        importDirs.add(folder.resolve("imports"));
        if (parent != null) importDirs.add(parent.resolve("imports"));
        return importDirs;
    }

    /**
     * An imported grammar file: beside the grammar, in an imports/ folder, or a bundled shared
     * grammar.
     *
     * @throws IllegalArgumentException when the name leads outside those folders ({@link #fileIn})
     */
    private static Path importFile(String fileName, Path grammarDir, List<Path> importDirs) {
        List<Path> dirs = new ArrayList<>();
        dirs.add(grammarDir);
        dirs.addAll(importDirs);
        for (Path d : dirs) {
            Path f = fileIn(d, fileName);
            if (f != null) return f;
        }
        if (fileName.endsWith(".g4")
                && BundledFormats.importGrammars()
                        .contains(fileName.substring(0, fileName.length() - 3)))
            return BundledSources.importsFolder().resolve(fileName);
        return null;
    }

    private static List<Path> folders(Path dir) {
        if (!Files.isDirectory(dir)) throw new IllegalArgumentException("no format folder " + dir);
        boolean single = Files.isRegularFile(dir.resolve(dir.getFileName() + ".json"));
        List<Path> folders = new ArrayList<>();
        if (single) {
            folders.add(dir);
        } else {
            try (Stream<Path> s = Files.list(dir)) {
                for (Path p : s.filter(Files::isDirectory).sorted().toList()) {
                    if (p.getFileName().toString().equals("imports")) continue;
                    if (isFormatFolder(p)) folders.add(p);
                }
            } catch (IOException e) {
                throw new UncheckedIOException("cannot list " + dir, e);
            }
        }
        if (folders.isEmpty())
            throw new IllegalArgumentException(
                    "no format folder in "
                            + dir
                            + " (a format folder NAME/ holds NAME.json and its lexer grammar)");
        return folders;
    }

    private static boolean isFormatFolder(Path p) {
        try (Stream<Path> s = Files.list(p)) {
            return s.map(f -> f.getFileName().toString())
                    .anyMatch(
                            n -> n.endsWith(".json") || n.endsWith(".g4") || n.endsWith(".interp"));
        } catch (IOException e) {
            return false;
        }
    }

    /**
     * The file {@code name} names in {@code dir}, or null when there is none: the one check every
     * path of a format folder goes through (its format file, the role files it includes, its
     * lexer's grammar or interpreter data, the grammars they import). {@code name} is a relative
     * path without {@code ..} that stays inside {@code dir} once normalized, and an existing file's
     * real path (links followed) lies inside {@code dir}'s: nothing outside is read or written.
     *
     * @throws IllegalArgumentException naming the path and the folder it must stay in
     */
    static Path fileIn(Path dir, String name) {
        Path relative;
        try {
            relative = dir.getFileSystem().getPath(name);
        } catch (InvalidPathException e) {
            throw outside(dir, name);
        }
        if (name.isEmpty() || relative.isAbsolute() || relative.getRoot() != null)
            throw outside(dir, name);
        for (Path part : relative) if (part.toString().equals("..")) throw outside(dir, name);
        Path base = dir.toAbsolutePath().normalize();
        if (!base.resolve(relative).normalize().startsWith(base)) throw outside(dir, name);
        Path file = dir.resolve(relative);
        if (!Files.isRegularFile(file)) return null;
        try {
            if (!file.toRealPath().startsWith(base.toRealPath())) throw outside(dir, name);
        } catch (IOException e) {
            return null;
        }
        return file;
    }

    private static IllegalArgumentException outside(Path dir, String name) {
        return new IllegalArgumentException(
                "\""
                        + name
                        + "\" is not a file inside "
                        + dir
                        + " (a format folder reads only files inside it, "
                        + "inside an imports/ folder, or bundled ones: name a file, not a path)");
    }

    private static FormatSource read(Path folder, Path parent, List<Path> siblings) {
        String name = folder.getFileName().toString();
        String jsonPath = folder.resolve(name + ".json").toString();
        Path json;
        try {
            json = fileIn(folder, name + ".json");
        } catch (IllegalArgumentException e) {
            return FormatSource.broken(
                    name,
                    jsonPath,
                    null,
                    () -> GrammarText.fileOnly(jsonPath),
                    List.of(jsonPath + ": " + e.getMessage()));
        }
        if (json == null)
            return FormatSource.broken(
                    name,
                    jsonPath,
                    null,
                    () -> GrammarText.fileOnly(folder.toString()),
                    List.of(
                            folder
                                    + ": no format file "
                                    + name
                                    + ".json (a format folder is named after its format and holds NAME.json)"));
        FormatFile file;
        try {
            file = FormatFile.parse(readFormatFile(json), jsonPath);
        } catch (IOException e) {
            return FormatSource.broken(
                    name,
                    jsonPath,
                    null,
                    () -> GrammarText.fileOnly(jsonPath),
                    List.of(jsonPath + ": cannot read it: " + e.getMessage()));
        } catch (IllegalArgumentException e) {
            return FormatSource.broken(
                    name,
                    jsonPath,
                    null,
                    () -> GrammarText.fileOnly(jsonPath),
                    List.of(e.getMessage()));
        }
        if (file.name() == null || !file.name().equals(name))
            return FormatSource.broken(
                    name,
                    jsonPath,
                    file,
                    () -> GrammarText.fileOnly(jsonPath),
                    List.of(
                            jsonPath
                                    + ": \"name\" is "
                                    + (file.name() == null ? "missing" : "'" + file.name() + "'")
                                    + " but the folder is '"
                                    + name
                                    + "' (a format folder is named after its format)"));
        if (file.lexer() == null || !file.lexer().matches("[A-Za-z][A-Za-z0-9_]*"))
            return FormatSource.broken(
                    name,
                    jsonPath,
                    file,
                    () -> GrammarText.fileOnly(jsonPath),
                    List.of(
                            jsonPath
                                    + ": \"lexer\" must name the lexer grammar, e.g. \""
                                    + Character.toUpperCase(name.charAt(0))
                                    + name.substring(1).replaceAll("[^A-Za-z0-9]", "")
                                    + "Lexer\""));

        List<Path> importDirs = importDirs(folder, parent);
        Map<String, Path> roleFiles =
                new HashMap<>(); // the included role files found in an imports/ folder
        String lexer = file.lexer();
        Path g4 = null;
        Path interp = null;
        try {
            for (String include : file.include()) {
                for (Path d : importDirs) {
                    Path roles;
                    try {
                        roles = fileIn(d, include + ".json");
                    } catch (IllegalArgumentException e) {
                        throw new IllegalArgumentException("\"include\": " + e.getMessage(), e);
                    }
                    if (roles != null) {
                        roleFiles.putIfAbsent(include, roles);
                        break;
                    }
                }
            }
            List<Path> lookIn = new ArrayList<>(List.of(folder));
            for (Path s : siblings) if (!s.equals(folder)) lookIn.add(s);
            for (Path d : lookIn) {
                if (g4 == null) g4 = fileIn(d, lexer + ".g4");
                if (interp == null) interp = fileIn(d, lexer + ".interp");
            }
            if (g4 != null && interp == null) interp = fileIn(g4.getParent(), lexer + ".interp");
        } catch (IllegalArgumentException e) {
            return FormatSource.broken(
                    name,
                    jsonPath,
                    file,
                    () -> GrammarText.fileOnly(jsonPath),
                    List.of(jsonPath + ": " + e.getMessage()));
        }
        Function<String, FormatFile> includes =
                include -> {
                    Path roles = roleFiles.get(include);
                    if (roles != null) {
                        try {
                            return FormatFile.parse(readFormatFile(roles), roles.toString());
                        } catch (IOException e) {
                            throw new UncheckedIOException(e);
                        }
                    }
                    String bundled = BundledFormats.importRoles(include);
                    return bundled == null
                            ? null
                            : FormatFile.parse(
                                    bundled, "grammars/imports/" + include + ".json (bundled)");
                };
        Path grammarDir = g4 != null ? g4.getParent() : folder;
        Function<String, Path> importFile =
                fileName -> importFile(fileName, grammarDir, importDirs);
        Path grammarFile = g4;
        Supplier<GrammarText> text = () -> grammarText(grammarFile, importFile);

        Function<CharStream, ? extends Lexer> factory;
        if (g4 != null && GrammarTool.available()) {
            try {
                LexerData data =
                        LexerData.parse(
                                GrammarTool.interp(
                                        g4,
                                        f -> importFile.apply(f),
                                        f -> BundledSources.bundledImportName(f).orElse(f)),
                                lexer,
                                g4.toString());
                factory = data::newLexer;
            } catch (GrammarTool.GrammarErrors e) {
                return FormatSource.broken(name, jsonPath, file, text, e.messages);
            } catch (IllegalArgumentException e) { // an import that leads outside the folders
                return FormatSource.broken(
                        name, jsonPath, file, text, List.of(g4 + ": " + e.getMessage()));
            }
        } else if (interp != null) {
            try {
                LexerData data =
                        LexerData.parse(
                                Files.readString(interp, StandardCharsets.UTF_8),
                                lexer,
                                interp.toString());
                factory = data::newLexer;
            } catch (IOException e) {
                return FormatSource.broken(
                        name,
                        jsonPath,
                        file,
                        text,
                        List.of(interp + ": cannot read it: " + e.getMessage()));
            } catch (IllegalArgumentException e) {
                return FormatSource.broken(name, jsonPath, file, text, List.of(e.getMessage()));
            }
            if (g4 == null) {
                Path at = interp;
                text = () -> GrammarText.fileOnly(at.toString());
            }
        } else if (g4 != null) {
            return FormatSource.broken(
                    name,
                    jsonPath,
                    file,
                    text,
                    List.of(
                            g4
                                    + ": reading a grammar needs the ANTLR tool (org.antlr:antlr4) on the "
                                    + "class path, or the interpreter data it writes beside the grammar: java -jar toolcalls.jar check --format-dir "
                                    + (parent != null ? parent : folder)
                                    + " --write-interp (writes "
                                    + lexer
                                    + ".interp)"));
        } else {
            Map<String, Function<CharStream, Lexer>> bundled = BundledSources.lexers();
            if (!bundled.containsKey(lexer))
                return FormatSource.broken(
                        name,
                        jsonPath,
                        file,
                        () -> GrammarText.fileOnly(jsonPath),
                        List.of(
                                jsonPath
                                        + ": no grammar "
                                        + lexer
                                        + ".g4 (or "
                                        + lexer
                                        + ".interp) in "
                                        + folder
                                        + (parent == null
                                                ? ""
                                                : " or another format folder of " + parent)
                                        + ", and no bundled format has a lexer "
                                        + lexer));
            factory = bundled.get(lexer);
            String bundledFormat = BundledSources.formatOfLexer(lexer).orElse(name);
            text = () -> BundledSources.grammarText(bundledFormat, lexer);
        }
        return new FormatSource(name, jsonPath, file, factory, includes, text, List.of());
    }

    /**
     * The text of a format file or role file; one larger than {@link FormatFile#MAX_SIZE} is
     * refused unread.
     */
    private static String readFormatFile(Path file) throws IOException {
        if (Files.size(file) > FormatFile.MAX_SIZE) throw FormatFile.tooLarge(file.toString());
        return Files.readString(file, StandardCharsets.UTF_8);
    }

    private static GrammarText grammarText(Path g4, Function<String, Path> importFile) {
        if (g4 == null) return GrammarText.fileOnly("");
        try {
            return GrammarText.of(
                    new GrammarText.SourceFile(
                            g4.toString(), Files.readString(g4, StandardCharsets.UTF_8)),
                    n -> {
                        Path p;
                        try {
                            p = importFile.apply(n + ".g4");
                        } catch (IllegalArgumentException e) {
                            return null; // loading the format says why
                        }
                        if (p == null) return null;
                        try {
                            return new GrammarText.SourceFile(
                                    BundledSources.bundledImportName(p.toString())
                                            .orElse(p.toString()),
                                    Files.readString(p, StandardCharsets.UTF_8));
                        } catch (IOException e) {
                            return null;
                        }
                    });
        } catch (IOException e) {
            return GrammarText.fileOnly(g4.toString());
        }
    }
}
