import com.google.gson.JsonElement;
import com.google.gson.JsonObject;
import com.google.gson.JsonParser;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.stream.Stream;

/**
 * Build step (generate-sources): writes {@code dev.toolcalls.internal.grammar.BundledFormats}, the
 * index of the formats under {@code grammars/}: each format's names, its format file's text and a
 * factory of its generated lexer ({@code new HermesLexer(input)}), plus the role files of the
 * shared grammars and the build's version. The registry reads this class instead of scanning jars
 * or loading classes by name, so it works the same on the class path, the module path, in shaded or
 * nested jars, jlink and native images.
 *
 * <p>Usage: {@code java -cp gson.jar src/build/GenerateFormatIndex.java GRAMMARS OUT_DIR VERSION
 * [CLASSES GENERATED_LEXERS]}
 *
 * <p>With CLASSES and GENERATED_LEXERS (the build's output folder and the ANTLR plugin's output),
 * it also removes what earlier builds left there for grammars that no longer exist: generated lexer
 * sources, their compiled classes and copied grammar sources. A deleted grammar is then gone from
 * the next build without {@code mvn clean}.
 */
public final class GenerateFormatIndex {
    public static void main(String[] args) throws IOException {
        Path grammars = Path.of(args[0]);
        Path outDir = Path.of(args[1]);
        String version = args[2];
        List<String> entries = new ArrayList<>();
        StringBuilder lexers = new StringBuilder();
        // each format's name and aliases, lower case, to the format's place in the index
        Map<String, Integer> keys = new LinkedHashMap<>();
        Map<String, String> keyOwner = new HashMap<>();
        List<String> problems = new ArrayList<>();
        List<Path> folders;
        try (Stream<Path> s = Files.list(grammars)) {
            folders =
                    s.filter(Files::isDirectory)
                            .filter(p -> !p.getFileName().toString().equals("imports"))
                            .sorted()
                            .toList();
        }
        for (Path folder : folders) {
            String dir = folder.getFileName().toString();
            Path file = folder.resolve(dir + ".json");
            if (!Files.isRegularFile(file)) {
                problems.add(folder + ": no format file " + file.getFileName());
                continue;
            }
            String text = Files.readString(file, StandardCharsets.UTF_8);
            JsonObject o;
            try {
                JsonElement e = JsonParser.parseString(text);
                if (!e.isJsonObject()) throw new IllegalStateException("not a JSON object");
                o = e.getAsJsonObject();
            } catch (RuntimeException e) {
                problems.add(file + ": " + e.getMessage());
                continue;
            }
            String name = str(o, "name");
            String lexer = str(o, "lexer");
            if (name == null || lexer == null) {
                problems.add(file + ": needs \"name\" and \"lexer\" strings");
                continue;
            }
            if (!name.equals(dir))
                problems.add(file + ": \"name\" is '" + name + "' but the folder is '" + dir + "'");
            if (!lexer.matches("[A-Z][A-Za-z0-9_]*")) {
                problems.add(file + ": \"lexer\" must be the grammar's name, e.g. HermesLexer");
                continue;
            }
            // a format may share another format's lexer (same convention, other options)
            if (folders.stream().noneMatch(f -> Files.isRegularFile(f.resolve(lexer + ".g4"))))
                problems.add(
                        file
                                + ": no grammar "
                                + lexer
                                + ".g4 in "
                                + dir
                                + "/ or another format's folder");
            List<String> aliases = new ArrayList<>();
            if (o.has("aliases") && o.get("aliases").isJsonArray())
                for (JsonElement a : o.getAsJsonArray("aliases"))
                    if (a.isJsonPrimitive()) aliases.add(a.getAsString());
            List<String> names = new ArrayList<>(List.of(name));
            names.addAll(aliases);
            for (String n : names) {
                String key = n.toLowerCase(Locale.ROOT);
                String owner = keyOwner.putIfAbsent(key, name);
                if (owner == null) keys.put(key, entries.size());
                else if (!owner.equals(name))
                    problems.add(file + ": the name '" + n + "' is already format " + owner + "'s");
            }
            String description = str(o, "description");
            StringBuilder aliasList = new StringBuilder();
            for (String a : aliases)
                aliasList.append(aliasList.length() == 0 ? "" : ", ").append(lit(a));
            entries.add(
                    "            case "
                            + entries.size()
                            + ": return new BundledFormat("
                            + lit(name)
                            + ", List.of("
                            + aliasList
                            + "), "
                            + lit(description == null ? "" : description)
                            + ",\n                    "
                            + lit(text)
                            + ",\n                    new Factory("
                            + lit(name)
                            + "));\n");
            lexers.append("            case ")
                    .append(lit(name))
                    .append(": return new ")
                    .append(lexer)
                    .append("(input);\n");
        }
        StringBuilder imports = new StringBuilder();
        List<String> importGrammars = new ArrayList<>();
        Path importDir = grammars.resolve("imports");
        if (Files.isDirectory(importDir)) {
            try (Stream<Path> s = Files.list(importDir)) {
                for (Path p : s.sorted().toList()) {
                    String file = p.getFileName().toString();
                    if (file.endsWith(".g4"))
                        importGrammars.add(lit(file.replaceFirst("\\.g4$", "")));
                    if (!file.endsWith(".json")) continue;
                    String n = file.replaceFirst("\\.json$", "");
                    imports.append("            case ")
                            .append(lit(n))
                            .append(": return ")
                            .append(lit(Files.readString(p, StandardCharsets.UTF_8)))
                            .append(";\n");
                }
            }
        }
        if (!problems.isEmpty()) {
            System.err.println("format index: " + problems.size() + " problem(s):");
            for (String p : problems) System.err.println("  " + p);
            System.exit(1);
        }
        String src =
                "package dev.toolcalls.internal.grammar;\n\n"
                        + "import java.util.List;\n\n"
                        + "import org.antlr.v4.runtime.CharStream;\n"
                        + "import org.antlr.v4.runtime.Lexer;\n\n"
                        + "import dev.toolcalls.internal.format.BundledFormat;\n"
                        + "import dev.toolcalls.internal.lex.FastRuns;\n\n"
                        + "/** Generated by src/build/GenerateFormatIndex.java from grammars/; do not edit. */\n"
                        + "public final class BundledFormats {\n"
                        + "    /** The project version this was built as. */\n"
                        + "    public static final String VERSION = "
                        + lit(version)
                        + ";\n\n"
                        + "    private BundledFormats() { }\n\n"
                        + "    /** How many formats are bundled. */\n"
                        + "    public static int count() {\n"
                        + "        return "
                        + entries.size()
                        + ";\n"
                        + "    }\n\n"
                        + "    /** The bundled format at this place (0 to count() - 1), by name; a new record each time. */\n"
                        + "    public static BundledFormat get(int index) {\n"
                        + "        switch (index) {\n"
                        + String.join("", entries)
                        + "            default: throw new IndexOutOfBoundsException(index);\n"
                        + "        }\n"
                        + "    }\n\n"
                        + "    /**\n"
                        + "     * The place of the bundled format with this name or alias in lower case (Locale.ROOT), or -1:\n"
                        + "     * one format is found without making the others.\n"
                        + "     */\n"
                        + "    public static int indexOf(String lowerCaseName) {\n"
                        + "        switch (lowerCaseName) {\n"
                        + cases(keys)
                        + "            default: return -1;\n"
                        + "        }\n"
                        + "    }\n\n"
                        + "    /** Every bundled format, by name. */\n"
                        + "    public static List<BundledFormat> all() {\n"
                        + "        BundledFormat[] all = new BundledFormat[count()];\n"
                        + "        for (int i = 0; i < all.length; i++) all[i] = get(i);\n"
                        + "        return List.of(all);\n"
                        + "    }\n\n"
                        + "    /**\n"
                        + "     * A new lexer of a bundled format: one switch rather than a lambda class per format, and typed\n"
                        + "     * Object so that verifying this method loads none of the lexer classes (cheaper to start).\n"
                        + "     */\n"
                        + "    static Object lexer(String format, CharStream input) {\n"
                        + "        switch (format) {\n"
                        + lexers
                        + "            default: throw new IllegalArgumentException(format);\n"
                        + "        }\n"
                        + "    }\n\n"
                        + "    /**\n"
                        + "     * Makes the lexers of one format (one class for all: a lambda per format would be a class each)\n"
                        + "     * and gives the fast-path analysis the build stored for it (BundledRuns).\n"
                        + "     */\n"
                        + "    private static final class Factory\n"
                        + "            implements java.util.function.Function<CharStream, Lexer>, FastRuns.Stored {\n"
                        + "        private final String format;\n\n"
                        + "        Factory(String format) { this.format = format; }\n\n"
                        + "        @Override public Lexer apply(CharStream input) { return (Lexer) lexer(format, input); }\n\n"
                        + "        @Override public String storedRuns() { return BundledRuns.of(format); }\n"
                        + "    }\n\n"
                        + "    /** The shared grammars of grammars/imports, by name (their sources are resources under META-INF/toolcalls/grammars/imports). */\n"
                        + "    public static List<String> importGrammars() {\n"
                        + "        return List.of("
                        + String.join(", ", importGrammars)
                        + ");\n"
                        + "    }\n\n"
                        + "    /** The role file of a shared grammar in grammars/imports, or null. */\n"
                        + "    public static String importRoles(String grammar) {\n"
                        + "        switch (grammar) {\n"
                        + imports
                        + "            default: return null;\n"
                        + "        }\n"
                        + "    }\n"
                        + "}\n";
        Path out = outDir.resolve("dev/toolcalls/internal/grammar/BundledFormats.java");
        Files.createDirectories(out.getParent());
        if (!Files.exists(out) || !Files.readString(out, StandardCharsets.UTF_8).equals(src))
            Files.writeString(out, src, StandardCharsets.UTF_8);
        // what src/build/WriteBundledRuns.java replaces once the library is compiled
        String stub =
                "package dev.toolcalls.internal.grammar;\n\n"
                        + "/**\n"
                        + " * The fast-path analysis (FastRuns) of each bundled format, by name. Generated by\n"
                        + " * src/build/GenerateFormatIndex.java; this form has none, and src/build/WriteBundledRuns.java\n"
                        + " * replaces its class with one that has each format's once the library is compiled.\n"
                        + " */\n"
                        + "final class BundledRuns {\n"
                        + "    private BundledRuns() { }\n\n"
                        + "    static String of(String format) {\n"
                        + "        return null;\n"
                        + "    }\n"
                        + "}\n";
        Path runs = outDir.resolve("dev/toolcalls/internal/grammar/BundledRuns.java");
        if (!Files.exists(runs) || !Files.readString(runs, StandardCharsets.UTF_8).equals(stub))
            Files.writeString(runs, stub, StandardCharsets.UTF_8);
        if (args.length >= 5) removeStale(grammars, folders, Path.of(args[3]), Path.of(args[4]));
    }

    /** {@code case "key": return place;} for each name and alias. */
    static String cases(Map<String, Integer> keys) {
        StringBuilder out = new StringBuilder();
        for (Map.Entry<String, Integer> k : keys.entrySet())
            out.append("            case ")
                    .append(lit(k.getKey()))
                    .append(": return ")
                    .append(k.getValue())
                    .append(";\n");
        return out.toString();
    }

    /**
     * Removes what an earlier build made from grammars that are gone: the ANTLR plugin's output
     * folder of a deleted format, generated lexers and token files of grammars that no longer
     * exist, their compiled classes, and grammar sources copied as resources.
     */
    static void removeStale(Path grammars, List<Path> folders, Path classes, Path generated)
            throws IOException {
        Set<String> grammarNames = new HashSet<>();
        Set<String> folderNames = new HashSet<>();
        for (Path folder : folders) {
            folderNames.add(folder.getFileName().toString());
            try (Stream<Path> s = Files.list(folder)) {
                s.map(p -> p.getFileName().toString())
                        .filter(n -> n.endsWith(".g4"))
                        .forEach(n -> grammarNames.add(n.replaceFirst("\\.g4$", "")));
            }
        }
        Set<String> importNames = new HashSet<>();
        Path importDir = grammars.resolve("imports");
        if (Files.isDirectory(importDir)) {
            try (Stream<Path> s = Files.list(importDir)) {
                s.map(p -> p.getFileName().toString()).forEach(importNames::add);
            }
        }
        // the plugin mirrors grammars/: one folder per format, token files at the top
        if (Files.isDirectory(generated)) {
            try (Stream<Path> s = Files.list(generated)) {
                for (Path p : s.toList()) {
                    String n = p.getFileName().toString();
                    if (Files.isDirectory(p)) {
                        if (!folderNames.contains(n) && !n.equals("imports") && !n.equals("dev"))
                            deleteTree(p);
                        else if (folderNames.contains(n)) removeFilesOfGone(p, grammarNames);
                    } else if (n.endsWith(".tokens")
                            && !grammarNames.contains(base(n))
                            && !importNames.contains(base(n) + ".g4")) {
                        Files.delete(p);
                    }
                }
            }
        }
        Path lexerClasses = classes.resolve("dev/toolcalls/internal/grammar");
        if (Files.isDirectory(lexerClasses)) {
            try (Stream<Path> s = Files.list(lexerClasses)) {
                for (Path p : s.toList()) {
                    String n = p.getFileName().toString();
                    String outer = base(n).replaceFirst("\\$.*", "");
                    if (n.endsWith(".class")
                            && !outer.equals("BundledFormats")
                            && !outer.equals("BundledRuns")
                            && !grammarNames.contains(outer)) Files.delete(p);
                }
            }
        }
        Path copied = classes.resolve("META-INF/toolcalls/grammars");
        if (Files.isDirectory(copied)) {
            try (Stream<Path> s = Files.walk(copied)) {
                for (Path p : s.sorted(Comparator.reverseOrder()).toList()) {
                    Path source = grammars.resolve(copied.relativize(p).toString());
                    if (!p.equals(copied) && !Files.exists(source)) deleteTree(p);
                }
            }
        }
    }

    private static void removeFilesOfGone(Path folder, Set<String> grammarNames)
            throws IOException {
        try (Stream<Path> s = Files.list(folder)) {
            for (Path p : s.toList())
                if (Files.isRegularFile(p)
                        && !grammarNames.contains(base(p.getFileName().toString())))
                    Files.delete(p);
        }
    }

    private static String base(String fileName) {
        int dot = fileName.lastIndexOf('.');
        return dot < 0 ? fileName : fileName.substring(0, dot);
    }

    private static void deleteTree(Path p) throws IOException {
        if (!Files.exists(p)) return;
        try (Stream<Path> s = Files.walk(p)) {
            for (Path q : s.sorted(Comparator.reverseOrder()).toList()) Files.delete(q);
        }
    }

    private static String str(JsonObject o, String key) {
        JsonElement e = o.get(key);
        return e != null && e.isJsonPrimitive() ? e.getAsString() : null;
    }

    /** A Java string literal, ASCII only. */
    private static String lit(String s) {
        StringBuilder b = new StringBuilder("\"");
        for (char c : s.toCharArray()) {
            switch (c) {
                case '"':
                    b.append("\\\"");
                    break;
                case '\\':
                    b.append("\\\\");
                    break;
                case '\n':
                    b.append("\\n");
                    break;
                case '\r':
                    b.append("\\r");
                    break;
                case '\t':
                    b.append("\\t");
                    break;
                default:
                    if (c < 0x20 || c > 0x7e) b.append(String.format("\\u%04x", (int) c));
                    else b.append(c);
            }
        }
        return b.append('"').toString();
    }
}
