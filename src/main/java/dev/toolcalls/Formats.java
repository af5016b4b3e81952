package dev.toolcalls;

import java.util.ArrayList;
import java.util.Collections;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.ServiceLoader;
import java.util.function.Function;
import java.util.stream.Collectors;

import org.antlr.v4.runtime.CharStream;
import org.antlr.v4.runtime.Lexer;

import dev.toolcalls.internal.format.BundledFormat;
import dev.toolcalls.internal.format.CompiledFormat;
import dev.toolcalls.internal.format.FormatFile;
import dev.toolcalls.internal.grammar.BundledFormats;

/**
 * The registry of formats, by name and alias (case-insensitive).
 *
 * <p>Bundled formats come from an index generated at build time from {@code grammars/} (no jar
 * scanning, no class loading by name), so the registry works the same on the class path, the
 * module path, in shaded or nested jars and in jlink or native images. Each bundled format builds
 * its lexer on first use. More formats come from {@link FormatProvider}s found with
 * {@link ServiceLoader}.
 *
 * <pre>{@code
 * Format f = Formats.get(nameOrAlias);
 * for (Format each : Formats.all()) System.out.println(each.name() + " " + each.aliases());
 * }</pre>
 */
public final class Formats {
    private Formats() { }

    private static final class Registry {
        static final Registry INSTANCE;
        static final RuntimeException FAILURE;

        static {
            Registry r = null;
            RuntimeException failure = null;
            try {
                r = new Registry();
            } catch (RuntimeException e) {
                failure = e;
            }
            INSTANCE = r;
            FAILURE = failure;
        }

        static Registry get() {
            if (FAILURE != null) throw new FormatException("the format registry could not load: " + FAILURE.getMessage(), FAILURE);
            return INSTANCE;
        }

        final List<Format> formats;
        final Map<String, Format> byName = new LinkedHashMap<>();

        Registry() {
            List<Format> found = new ArrayList<>();
            for (BundledFormat b : BundledFormats.all()) found.add(bundled(b));
            for (FormatProvider p : ServiceLoader.load(FormatProvider.class, Formats.class.getClassLoader())) found.addAll(p.formats());
            found.sort(Comparator.comparing(Format::name));
            for (Format f : found) {
                for (String key : names(f)) {
                    Format clash = byName.putIfAbsent(key, f);
                    if (clash != null && clash != f)
                        throw new FormatException("format name '" + key + "' is used by both " + clash.name() + " and " + f.name());
                }
            }
            formats = Collections.unmodifiableList(found);
        }

        private static List<String> names(Format f) {
            List<String> n = new ArrayList<>();
            n.add(f.name().toLowerCase(Locale.ROOT));
            for (String a : f.aliases()) n.add(a.toLowerCase(Locale.ROOT));
            return n;
        }
    }

    private static Format bundled(BundledFormat b) {
        return new Format(b.name(), b.aliases(), b.description(), () -> CompiledFormat.compile(
                FormatFile.parse(b.formatFile(), "grammars/" + b.name() + "/" + b.name() + ".json"), b.lexer(), include -> {
                    String roles = BundledFormats.importRoles(include);
                    return roles == null ? null : FormatFile.parse(roles, "grammars/imports/" + include + ".json");
                }));
    }

    /**
     * The format with this name or alias, built and checked.
     *
     * @throws IllegalArgumentException when no format has this name
     * @throws FormatException when the format cannot be built (its message says why)
     */
    public static Format get(String name) {
        return find(name).orElseThrow(() -> new IllegalArgumentException(
                "unknown format '" + name + "'; known formats: " + all().stream().map(Format::name).collect(Collectors.joining(", "))));
    }

    /**
     * The format with this name or alias, built and checked, if there is one.
     *
     * @throws FormatException when the format cannot be built (its message says why)
     */
    public static Optional<Format> find(String name) {
        Format f = Registry.get().byName.get(name.toLowerCase(Locale.ROOT));
        if (f != null) f.compiled();
        return Optional.ofNullable(f);
    }

    /** Every registered format, by name; listing them builds none. */
    public static List<Format> all() { return Registry.get().formats; }

    /**
     * A format from its parts, checked at once: the text of its format file, a factory of its
     * lexer (a generated ANTLR lexer's constructor, e.g. {@code MyLexer::new}, or a
     * {@code LexerInterpreter}), and the role files of the shared grammars it includes, by name
     * (return null for an unknown one). For {@link FormatProvider}s and tests.
     *
     * @throws FormatException naming the format and what is wrong with it
     */
    public static Format define(String formatFile, Function<CharStream, ? extends Lexer> lexer, Function<String, String> includes) {
        CompiledFormat c;
        try {
            FormatFile file = FormatFile.parse(formatFile, "format file");
            c = CompiledFormat.compile(file, lexer, include -> {
                String roles = includes.apply(include);
                return roles == null ? null : FormatFile.parse(roles, "role file " + include);
            });
        } catch (FormatException e) {
            throw e;
        } catch (IllegalArgumentException e) {
            throw new FormatException(e.getMessage(), e);
        }
        FormatFile f = c.file();
        return new Format(f.name(), f.aliases(), f.description(), () -> c);
    }
}
