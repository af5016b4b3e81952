package dev.toolcalls.internal.format;

import org.antlr.v4.runtime.RuntimeMetaData;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.lang.reflect.Field;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Proxy;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.function.Function;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * The ANTLR tool ({@code org.antlr:antlr4}), when it is on the class path: turns a lexer grammar
 * file into the interpreter data the runtime reads ({@link dev.toolcalls.internal.lex.LexerData}).
 *
 * <p>The tool is reached by reflection, in this class only. The library must run without it, and
 * its jar has no module name of its own: naming it in {@code module-info} ({@code requires static
 * antlr4}, a name derived from the file name) would make the published module descriptor depend on
 * how a jar file is called. Reflection needs neither, and works whether the tool is on the class
 * path or the module path.
 */
final class GrammarTool {
    private static final String TOOL = "org.antlr.v4.Tool";
    private static final boolean AVAILABLE = probe();

    private GrammarTool() {}

    private static boolean probe() {
        try {
            Class.forName(TOOL, false, GrammarTool.class.getClassLoader());
            return true;
        } catch (ClassNotFoundException | LinkageError e) {
            return false;
        }
    }

    /** Whether the ANTLR tool can be used here. */
    static boolean available() {
        return AVAILABLE;
    }

    /** A grammar the ANTLR tool rejected: each message says file:line:column and what. */
    static final class GrammarErrors extends Exception {
        final List<String> messages;

        GrammarErrors(List<String> messages) {
            super(String.join("; ", messages));
            this.messages = List.copyOf(messages);
        }
    }

    /**
     * The interpreter data of a lexer grammar. Warnings count as errors, as in the build.
     *
     * @param importFile an imported grammar's file by file name ({@code JsonCall.g4}), or null
     * @param displayName how a file is named in messages (its path as the user knows it)
     */
    static synchronized String interp(
            Path grammar, Function<String, Path> importFile, Function<String, String> displayName)
            throws GrammarErrors {
        Path imports = null;
        try {
            // the tool looks for an imported grammar beside the grammar, then in one library
            // folder:
            // that folder gets the imports found elsewhere (imports/ folders, the bundled shared
            // grammars)
            imports = Files.createTempDirectory("toolcalls-grammar");
            for (String name : importedNames(grammar, importFile)) {
                Path from = importFile.apply(name + ".g4");
                if (from != null && !from.getParent().equals(grammar.toAbsolutePath().getParent()))
                    Files.copy(
                            from,
                            imports.resolve(name + ".g4"),
                            StandardCopyOption.REPLACE_EXISTING);
            }
            return run(grammar, imports, importFile, displayName);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot prepare the imports of " + grammar, e);
        } finally {
            if (imports != null) deleteTree(imports);
        }
    }

    /** The grammars a grammar imports, transitively. */
    private static List<String> importedNames(Path grammar, Function<String, Path> importFile)
            throws IOException {
        List<String> names = new ArrayList<>();
        List<Path> queue = new ArrayList<>(List.of(grammar));
        Pattern importLine = Pattern.compile("(?m)^[ \\t]*import[ \\t]+([^;]+);");
        for (int i = 0; i < queue.size(); i++) {
            var m = importLine.matcher(Files.readString(queue.get(i)));
            while (m.find()) {
                for (String n : m.group(1).split(",")) {
                    String name = n.strip().replaceFirst(".*=", "").strip();
                    if (name.isEmpty() || names.contains(name)) continue;
                    names.add(name);
                    Path p = importFile.apply(name + ".g4");
                    if (p != null) queue.add(p);
                }
            }
        }
        return names;
    }

    private static String run(
            Path grammar,
            Path imports,
            Function<String, Path> importFile,
            Function<String, String> displayName)
            throws GrammarErrors {
        List<String> messages = new ArrayList<>();
        Path copies = imports.toAbsolutePath();
        Function<String, String> name =
                file -> {
                    if (file == null) return "";
                    Path p = Path.of(file).toAbsolutePath();
                    // a copy in the library folder is named after its original
                    if (p.startsWith(copies)) {
                        Path original = importFile.apply(p.getFileName().toString());
                        return displayName.apply(
                                original == null
                                        ? p.getFileName().toString()
                                        : original.toString());
                    }
                    // files beside the grammar: named as the grammar was (the tool was given
                    // absolute paths)
                    if (p.getParent() != null
                            && p.getParent().equals(grammar.toAbsolutePath().getParent()))
                        return displayName.apply(
                                grammar.resolveSibling(p.getFileName()).toString());
                    return displayName.apply(file);
                };
        try {
            ClassLoader loader = GrammarTool.class.getClassLoader();
            Class<?> toolClass = Class.forName(TOOL, true, loader);
            Object tool = toolClass.getConstructor().newInstance();
            toolClass
                    .getField("inputDirectory")
                    .set(tool, grammar.toAbsolutePath().getParent().toFile());
            toolClass.getField("libDirectory").set(tool, imports.toAbsolutePath().toString());
            Class<?> listenerType =
                    Class.forName("org.antlr.v4.tool.ANTLRToolListener", true, loader);
            Object listener =
                    Proxy.newProxyInstance(
                            listenerType.getClassLoader(),
                            new Class<?>[] {listenerType},
                            (proxy, method, args) -> {
                                switch (method.getName()) {
                                    case "error":
                                    case "warning":
                                        messages.add(render(args[0], name));
                                        return null;
                                    case "info":
                                        return null;
                                    case "hashCode":
                                        return System.identityHashCode(proxy);
                                    case "equals":
                                        return proxy == args[0];
                                    case "toString":
                                        return "toolcalls grammar listener";
                                    default:
                                        return null;
                                }
                            });
            toolClass.getMethod("addListener", listenerType).invoke(tool, listener);
            Object g =
                    toolClass
                            .getMethod("loadGrammar", String.class)
                            .invoke(tool, grammar.toAbsolutePath().toString());
            if (!messages.isEmpty()) throw new GrammarErrors(messages);
            if (g == null
                    || !Class.forName("org.antlr.v4.tool.LexerGrammar", true, loader).isInstance(g))
                throw new GrammarErrors(
                        List.of(
                                displayName.apply(grammar.toString())
                                        + ": a format needs a lexer grammar ('lexer grammar NAME;')"));
            if (g.getClass().getField("atn").get(g) == null)
                throw new GrammarErrors(
                        List.of(
                                displayName.apply(grammar.toString())
                                        + ": the ANTLR tool built no ATN"));
            Class<?> grammarType = Class.forName("org.antlr.v4.tool.Grammar", true, loader);
            return (String)
                    toolClass.getMethod("generateInterpreterData", grammarType).invoke(null, g);
        } catch (InvocationTargetException e) {
            if (!messages.isEmpty()) throw new GrammarErrors(messages);
            throw new GrammarErrors(
                    List.of(
                            displayName.apply(grammar.toString())
                                    + ": the ANTLR tool failed: "
                                    + e.getCause()));
        } catch (ReflectiveOperationException | LinkageError e) {
            throw new GrammarErrors(
                    List.of(
                            displayName.apply(grammar.toString())
                                    + ": the ANTLR tool on the class path cannot be used ("
                                    + e
                                    + "); use version "
                                    + RuntimeMetaData.VERSION
                                    + ", the runtime's"));
        }
    }

    /** {@code file:line:column: error(code): message}, from the tool's ANTLRMessage. */
    private static String render(Object msg, Function<String, String> name) {
        try {
            Class<?> c = msg.getClass();
            String file = (String) field(c, "fileName").get(msg);
            int line = field(c, "line").getInt(msg);
            int column = field(c, "charPosition").getInt(msg);
            Object type = c.getMethod("getErrorType").invoke(msg);
            int code = type.getClass().getField("code").getInt(type);
            Object severity = type.getClass().getField("severity").get(type);
            String kind = (String) severity.getClass().getMethod("getText").invoke(severity);
            String text;
            try {
                Object template =
                        c.getMethod("getMessageTemplate", boolean.class).invoke(msg, false);
                text = (String) template.getClass().getMethod("render").invoke(template);
            } catch (ReflectiveOperationException e) {
                text = String.valueOf(type);
            }
            String where =
                    file == null
                            ? ""
                            : name.apply(file) + (line > 0 ? ":" + line + ":" + (column + 1) : "");
            return (where.isEmpty() ? "" : where + ": ") + kind + "(" + code + "): " + text;
        } catch (ReflectiveOperationException | RuntimeException e) {
            return String.valueOf(msg);
        }
    }

    private static Field field(Class<?> c, String name) throws NoSuchFieldException {
        return c.getField(name);
    }

    private static void deleteTree(Path dir) {
        try (Stream<Path> s = Files.walk(dir)) {
            for (Path p : s.sorted(Comparator.reverseOrder()).toList()) Files.deleteIfExists(p);
        } catch (IOException e) {
            dir.toFile().deleteOnExit();
        }
    }
}
