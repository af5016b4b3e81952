package dev.toolcalls;

import dev.toolcalls.internal.format.BundledFormat;
import dev.toolcalls.internal.format.BundledSources;
import dev.toolcalls.internal.format.CompiledFormat;
import dev.toolcalls.internal.format.FormatFile;
import dev.toolcalls.internal.format.FormatFolders;
import dev.toolcalls.internal.format.FormatSource;
import dev.toolcalls.internal.format.GrammarText;
import dev.toolcalls.internal.grammar.BundledFormats;
import dev.toolcalls.internal.lex.LexerData;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.ServiceLoader;
import java.util.function.Function;
import java.util.function.Supplier;

/**
 * The registry of formats, by name and alias (case-insensitive), for the whole process.
 *
 * <p>Bundled formats come from an index generated at build time from {@code grammars/} (no jar
 * scanning, no class loading by name), so the registry works the same on the class path, the module
 * path, in shaded or nested jars and in jlink or native images. Each bundled format builds its
 * lexer on first use. More formats come from {@link FormatProvider}s found with {@link
 * ServiceLoader}, and from format folders read at run time ({@link #register(Path)}): a grammar and
 * a format file, no Java and no build.
 *
 * <pre>{@code
 * Format f = Formats.get(nameOrAlias);
 * for (Format each : Formats.all()) System.out.println(each.name() + " " + each.aliases());
 * Formats.register(Path.of("formats"));                    // formats/acme/AcmeLexer.g4 + acme.json
 * Format acme = Formats.get("acme");
 * }</pre>
 *
 * <p>A folder's {@code .g4} is compiled when the ANTLR tool ({@code org.antlr:antlr4}) is on the
 * class path. With the runtime alone, write the grammar's interpreter data beside it first, {@code
 * java -jar toolcalls.jar check --format-dir formats --write-interp}, which puts {@code
 * formats/acme/AcmeLexer.interp} there; the runtime reads that file instead.
 *
 * <p>A broken format disables only itself (see {@link FormatRegistry}); {@link #problems()} says
 * what went wrong.
 */
public final class Formats {
    private static volatile FormatRegistry registry;

    /**
     * The bundled formats, each made when first asked for: one by its name ({@link
     * #bundled(String)}), all of them for a registry ({@link #bundled()}); the same object either
     * way.
     */
    private static final GrammarFormat[] BUNDLED = new GrammarFormat[BundledFormats.count()];

    private Formats() {}

    /**
     * The registry this class answers from: the standard one, plus the folders registered so far.
     */
    public static FormatRegistry registry() {
        FormatRegistry r = registry;
        if (r == null) {
            synchronized (Formats.class) {
                if (registry == null) registry = FormatRegistry.standard();
                r = registry;
            }
        }
        return r;
    }

    /** Every bundled format, by name. */
    static List<Format> bundled() {
        List<Format> out = new ArrayList<>(BUNDLED.length);
        for (int i = 0; i < BUNDLED.length; i++) out.add(bundled(i));
        return out;
    }

    /**
     * The bundled format with this name or alias (any case), or null, made alone: the others'
     * format files are not read.
     */
    static GrammarFormat bundled(String name) {
        int i = BundledFormats.indexOf(name.toLowerCase(Locale.ROOT));
        return i < 0 ? null : bundled(i);
    }

    private static GrammarFormat bundled(int i) {
        synchronized (BUNDLED) {
            GrammarFormat f = BUNDLED[i];
            if (f == null) {
                BundledFormat b = BundledFormats.get(i);
                String origin = "grammars/" + b.name() + "/" + b.name() + ".json (bundled)";
                f =
                        BUNDLED[i] =
                                new GrammarFormat(
                                        b.name(),
                                        b.aliases(),
                                        b.description(),
                                        origin,
                                        new Bundled(b));
            }
            return f;
        }
    }

    /**
     * The source of a bundled format, read on first use (a class rather than a lambda: the first
     * lambda of a process costs a fresh JVM several milliseconds of method-handle set-up).
     */
    private static final class Bundled implements Supplier<FormatSource> {
        private final BundledFormat format;

        Bundled(BundledFormat format) {
            this.format = format;
        }

        @Override
        public FormatSource get() {
            return BundledSources.of(format);
        }
    }

    /**
     * The format with this name or alias, built and checked.
     *
     * @throws IllegalArgumentException when no format has this name
     * @throws FormatException when the format cannot be built (its message says why)
     */
    public static Format get(String name) {
        if (registry == null) {
            GrammarFormat f = bundled(name); // no folder registered: what registry() holds
            if (f != null) {
                f.compiled();
                return f;
            }
        }
        return registry().get(name);
    }

    /**
     * The format registered under this name or alias, if there is one, whether or not it can be
     * used (see {@link FormatRegistry#find(String)}): a disabled one is returned too, and its
     * {@link Format#problem()} says why. Throws nothing.
     */
    public static Optional<Format> find(String name) {
        if (registry == null) {
            GrammarFormat f = bundled(name); // no folder registered: what registry() holds
            if (f != null) return Optional.of(f);
        }
        return registry().find(name);
    }

    /** Every registered format, by name; listing them builds none. */
    public static List<Format> all() {
        return registry().all();
    }

    /** What went wrong while registering formats (see {@link FormatRegistry#problems()}). */
    public static List<FormatException> problems() {
        return registry().problems();
    }

    /**
     * Reads the formats of a folder at run time, without registering them:
     *
     * <pre>
     * DIR/acme/AcmeLexer.g4     the lexer grammar
     * DIR/acme/acme.json        the format file (name, aliases, lexer, roles, ...)
     * DIR/imports/              optional: shared grammars (the bundled ones are always available)
     * </pre>
     *
     * or {@code DIR} itself is one format folder ({@code DIR/acme.json}). A grammar is read from
     * its {@code .g4} when the ANTLR tool ({@code org.antlr:antlr4}) is on the class path,
     * otherwise from the {@code AcmeLexer.interp} file the tool writes beside it, with the runtime
     * alone; a format file may also name the lexer of a bundled format. The formats are built at
     * once and behave exactly like bundled ones. A folder that cannot be read gives a format whose
     * use throws a {@link FormatException} naming the file ({@link Format#problem()}); the others
     * are not affected.
     *
     * @throws IllegalArgumentException when {@code dir} is not a folder or holds no format folder
     */
    public static List<Format> load(Path dir) {
        List<Format> out = new ArrayList<>();
        for (FormatSource s : FormatFolders.load(dir)) {
            FormatFile f = s.file();
            out.add(
                    GrammarFormat.fromFolder(
                            s.name(),
                            f == null ? List.of() : f.aliases(),
                            f == null ? "" : f.description(),
                            s.formatFile(),
                            s));
        }
        return out;
    }

    /**
     * Reads the formats of a folder ({@link #load(Path)}) and registers them beside the others, so
     * that {@link #get} finds them. A name already taken disables the newcomer, not the holder;
     * registering the same folder again does nothing.
     *
     * @return the registry now in use
     * @throws IllegalArgumentException when {@code dir} is not a folder or holds no format folder
     */
    public static synchronized FormatRegistry register(Path dir) {
        registry = registry().withFolder(dir);
        return registry;
    }

    /**
     * A format from data, checked at once: the text of its format file, the text of its lexer's
     * interpreter data (the {@code NameLexer.interp} file the ANTLR tool writes for the grammar the
     * format file names in {@code "lexer"}: {@code java -jar toolcalls.jar check --format-dir DIR
     * --write-interp}, or the antlr4 Maven plugin), and the role files of the shared grammars it
     * includes, by name (return null for an unknown one). For {@link FormatProvider}s: a jar of
     * formats needs no generated code and no ANTLR tool.
     *
     * <pre>{@code
     * Format acme = Formats.define(read("acme/acme.json"), read("acme/AcmeLexer.interp"), include -> null);
     * }</pre>
     *
     * @throws FormatException naming the format and what is wrong with it
     */
    public static Format define(
            String formatFile, String lexerInterp, Function<String, String> includes) {
        FormatSource source;
        CompiledFormat c;
        try {
            FormatFile file = FormatFile.parse(formatFile, "format file");
            LexerData data =
                    LexerData.parse(
                            lexerInterp,
                            file.lexer() != null ? file.lexer() : file.name(),
                            "interpreter data of format " + file.name());
            source =
                    new FormatSource(
                            file.name(),
                            null,
                            file,
                            data::newLexer,
                            include -> {
                                String roles = includes.apply(include);
                                return roles == null
                                        ? null
                                        : FormatFile.parse(roles, "role file " + include);
                            },
                            () -> GrammarText.fileOnly("(grammar of format " + file.name() + ")"),
                            List.of());
            c = source.compile();
        } catch (FormatException e) {
            throw e;
        } catch (IllegalArgumentException e) {
            throw new FormatException(e.getMessage(), e);
        }
        return GrammarFormat.built("format file of " + c.file().name(), source, c);
    }
}
