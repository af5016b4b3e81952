package dev.toolcalls.cli;

import com.google.gson.GsonBuilder;
import com.google.gson.JsonArray;
import com.google.gson.JsonElement;
import com.google.gson.JsonObject;
import com.google.gson.JsonParser;
import com.google.gson.JsonPrimitive;

import dev.toolcalls.Format;
import dev.toolcalls.internal.format.BundledSources;
import dev.toolcalls.internal.format.FormatDefinition;
import dev.toolcalls.internal.format.FormatFile;
import dev.toolcalls.internal.format.FormatSource;
import dev.toolcalls.internal.format.GrammarText;

import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

import java.io.File;
import java.io.IOException;
import java.io.InputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.InvalidPathException;
import java.nio.file.Path;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.stream.Stream;

@Command(
        name = "new",
        sortOptions = false,
        description =
                "Starts a format from an existing one: writes grammars/NAME/ (its grammar and format file, renamed, and a card to fill in) "
                        + "and tests-data/NAME/ (the existing format's cases, when tests-data/FORMAT/ is here), ready to edit. Outside the "
                        + "repository grammars/NAME/ is self-contained: the shared grammars it imports and their role files are copied into "
                        + "grammars/NAME/imports/.")
final class NewCommand implements Callable<Integer>, Main.IoAware {
    @Parameters(
            index = "0",
            paramLabel = "NAME",
            description = "the new format's name: lower case, digits, '_', '-' or '.'")
    String name;

    @Option(
            names = "--like",
            required = true,
            paramLabel = "FORMAT",
            description = "the format to start from (bundled, or from --format-dir)")
    String like;

    @Option(
            names = "--dir",
            paramLabel = "DIR",
            description = "where grammars/ and tests-data/ are (default: the current folder)")
    Path dir = Path.of(".");

    @Mixin FormatDirs formatDirs = new FormatDirs();

    private PrintStream out;
    private PrintStream err;

    @Override
    public void io(PrintStream out, PrintStream err, InputStream in) {
        this.out = out;
        this.err = err;
    }

    @Override
    public Integer call() throws IOException {
        if (!name.matches("[a-z0-9][a-z0-9_.\\-]*"))
            throw new Main.UsageException(
                    "a format name is lower case: letters, digits, '_', '-', '.'");
        Format from = formatDirs.format(err, like);
        Path grammars = dir.resolve("grammars").resolve(name).normalize();
        Path cases = dir.resolve("tests-data").resolve(name).normalize();
        if (Files.exists(grammars)) throw new Main.UsageException(grammars + " already exists");
        if (Files.exists(cases) && !isEmptyDir(cases))
            throw new Main.UsageException(cases + " already exists");

        FormatSource source = FormatDefinition.of(from).source();
        String oldLexer = source.file().lexer();
        String newLexer = lexerName(name);
        String grammarFile = source.grammar().get().file();
        String grammar = grammarFile.endsWith(".g4") ? read(grammarFile) : null;
        if (grammar == null)
            throw new Main.UsageException(
                    "format "
                            + from.name()
                            + " has no grammar source to copy (it was loaded from "
                            + source.grammar().get().file()
                            + ")");
        String formatFile = read(source.formatFile());
        if (formatFile == null)
            throw new Main.UsageException(
                    "cannot read the format file of "
                            + from.name()
                            + " ("
                            + source.formatFile()
                            + ")");

        Files.createDirectories(grammars);
        Files.writeString(
                grammars.resolve(newLexer + ".g4"),
                grammar.replaceAll("\\b" + oldLexer + "\\b", newLexer),
                StandardCharsets.UTF_8);
        JsonObject o = JsonParser.parseString(formatFile).getAsJsonObject();
        JsonObject renamed = new JsonObject();
        for (var e : o.entrySet()) {
            if (e.getKey().equals("registries"))
                continue; // the names peers give the other convention, not this one
            JsonElement v = e.getValue();
            switch (e.getKey()) {
                case "name":
                    v = new JsonPrimitive(name);
                    break;
                case "aliases":
                    v = new JsonArray();
                    break;
                case "description":
                    v =
                            new JsonPrimitive(
                                    "TODO: models and wire syntax (started from "
                                            + from.name()
                                            + ")");
                    break;
                case "lexer":
                    v = new JsonPrimitive(newLexer);
                    break;
                default:
            }
            renamed.add(e.getKey(), v);
        }
        Files.writeString(
                grammars.resolve(name + ".json"),
                new GsonBuilder().setPrettyPrinting().disableHtmlEscaping().create().toJson(renamed)
                        + "\n",
                StandardCharsets.UTF_8);
        Files.writeString(
                grammars.resolve("README.md"),
                String.join(
                        "\n",
                        "# " + name,
                        "",
                        "Started from `"
                                + from.name()
                                + "` with `toolcalls new "
                                + name
                                + " --like "
                                + from.name()
                                + "`. To fill in:",
                        "",
                        "- **Models**: which models write this convention.",
                        "- **Wire syntax**: the exact text, with an example from `tests-data/"
                                + name
                                + "/`.",
                        "- **Reasoning**: its markers and whether thinking is on by default.",
                        "- **Aliases**: the names peer servers register for it.",
                        "- **Sources**: the parsers and tests you checked it against.",
                        ""),
                StandardCharsets.UTF_8);
        out.println(
                "wrote "
                        + grammars.resolve(newLexer + ".g4")
                        + ", "
                        + grammars.resolve(name + ".json")
                        + ", "
                        + grammars.resolve("README.md"));
        boolean repository =
                Files.isRegularFile(dir.resolve("pom.xml"))
                        && Files.isDirectory(dir.resolve("grammars/imports"));
        if (!repository) copyImports(source, grammars.resolve("imports"));

        Files.createDirectories(cases);
        Path likeCases = dir.resolve("tests-data").resolve(from.name());
        int copied = 0;
        if (Files.isDirectory(likeCases)) {
            try (Stream<Path> s = Files.list(likeCases)) {
                for (Path p : s.filter(Files::isRegularFile).sorted().toList()) {
                    Files.copy(p, cases.resolve(p.getFileName()));
                    if (p.getFileName().toString().endsWith(".txt")) copied++;
                }
            }
            out.println(
                    "copied "
                            + copied
                            + " cases of "
                            + from.name()
                            + " to "
                            + cases
                            + ": make them this format's");
        } else {
            out.println(
                    "created "
                            + cases
                            + " (no "
                            + likeCases
                            + " here to copy): write at least 10 cases, NAME.txt (the raw output) + NAME.json");
        }
        Path grammarsDir = grammars.getParent();
        Path casesDir = cases.getParent();
        out.println(
                repository
                        ? "next: edit them, then mvn -B -q package -DskipTests && java -jar target/toolcalls.jar check "
                                + name
                                + " && java -jar target/toolcalls.jar test tests-data"
                        : "next: edit them, then java -jar toolcalls.jar check --format-dir "
                                + grammarsDir
                                + " "
                                + name
                                + " and java -jar toolcalls.jar test --format-dir "
                                + grammarsDir
                                + " "
                                + casesDir);
        out.flush();
        return 0;
    }

    /**
     * Copies the grammars the format's grammar imports (directly or through another) and the role
     * files its format file includes into {@code imports}, so that the new folder refers to no file
     * outside it: the author sees and can change every rule, and the folder loads anywhere.
     */
    private void copyImports(FormatSource source, Path imports) throws IOException {
        Map<String, GrammarText.SourceFile> grammars = source.grammar().get().imports();
        List<String> include = source.file().include();
        if (grammars.isEmpty() && include.isEmpty()) return;
        Files.createDirectories(imports);
        for (Map.Entry<String, GrammarText.SourceFile> g : grammars.entrySet())
            Files.writeString(
                    imports.resolve(g.getKey() + ".g4"),
                    g.getValue().text(),
                    StandardCharsets.UTF_8);
        int roleFiles = 0;
        for (String r : new LinkedHashSet<>(include)) {
            GrammarText.SourceFile g = grammars.get(r);
            String text = g == null ? null : read(roleFileBeside(g.path(), r));
            if (text == null) { // not beside its grammar: the role file as the format reads it
                FormatFile roles = source.includes().apply(r);
                if (roles == null) continue; // check names the missing role file
                JsonObject o = new JsonObject();
                JsonObject map = new JsonObject();
                roles.roles().forEach(map::addProperty);
                o.add("roles", map);
                JsonArray streamable = new JsonArray();
                roles.streamable().forEach(streamable::add);
                if (!roles.streamable().isEmpty()) o.add("streamable", streamable);
                text =
                        new GsonBuilder()
                                        .setPrettyPrinting()
                                        .disableHtmlEscaping()
                                        .create()
                                        .toJson(o)
                                + "\n";
            }
            Files.writeString(imports.resolve(r + ".json"), text, StandardCharsets.UTF_8);
            roleFiles++;
        }
        out.println(
                "copied "
                        + grammars.size()
                        + " imported grammar"
                        + (grammars.size() == 1 ? "" : "s")
                        + " and "
                        + roleFiles
                        + " role file"
                        + (roleFiles == 1 ? "" : "s")
                        + " to "
                        + imports
                        + ": the folder is self-contained");
    }

    /** The role file of an imported grammar: {@code NAME.json} beside its {@code NAME.g4}. */
    private static String roleFileBeside(String grammarPath, String name) {
        String path = grammarPath.replaceFirst(" \\(bundled\\)$", "");
        int slash = Math.max(path.lastIndexOf('/'), path.lastIndexOf(File.separatorChar));
        return path.substring(0, slash + 1) + name + ".json";
    }

    /** {@code acme} -> {@code AcmeLexer}, {@code my-fmt_2} -> {@code MyFmt2Lexer}. */
    static String lexerName(String format) {
        StringBuilder b = new StringBuilder();
        for (String part : format.split("[^A-Za-z0-9]+")) {
            if (part.isEmpty()) continue;
            b.append(Character.toUpperCase(part.charAt(0))).append(part.substring(1));
        }
        if (b.length() == 0 || !Character.isLetter(b.charAt(0))) b.insert(0, "F");
        return b + "Lexer";
    }

    /**
     * A file the source names: bundled ones from the jar, the others from disk; null if unreadable.
     */
    private static String read(String path) {
        String bundled = path.replaceFirst(" \\(bundled\\)$", "");
        if (bundled.startsWith("grammars/")) {
            String text = BundledSources.text(bundled.substring("grammars/".length()));
            if (text != null) return text;
        }
        try {
            Path p = Path.of(path);
            return Files.isRegularFile(p) ? Files.readString(p, StandardCharsets.UTF_8) : null;
        } catch (IOException | InvalidPathException e) {
            return null;
        }
    }

    private static boolean isEmptyDir(Path p) throws IOException {
        try (Stream<Path> s = Files.list(p)) {
            return s.findAny().isEmpty();
        }
    }
}
