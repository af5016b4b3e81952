package dev.toolcalls;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.HashSet;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.ServiceConfigurationError;
import java.util.ServiceLoader;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * An immutable set of formats by name and alias (case-insensitive). {@link #standard()} holds the
 * bundled formats and those of {@link FormatProvider}s; {@link #withFolder(Path)} adds the formats
 * of a folder read at run time (see {@link Formats#load(Path)}), without touching this registry.
 * {@link Formats} keeps one for the process; a server that wants its own builds it here.
 *
 * <pre>{@code
 * FormatRegistry formats = FormatRegistry.standard().withFolder(Path.of("formats"));
 * Format acme = formats.get("acme");
 * for (FormatException problem : formats.problems()) log.warn(problem.getMessage());
 * }</pre>
 *
 * <p>A broken format disables only itself: a format whose name or alias is already taken (by a
 * format registered before it) is kept but disabled, and its use throws a {@link FormatException}
 * naming both sources; a provider that fails is skipped; a folder format that cannot be read is
 * disabled. {@link #find(String)} returns a disabled format as well, and its {@link
 * Format#problem()} says why. Every other format keeps working, and {@link #problems()} lists what
 * went wrong.
 */
public final class FormatRegistry {
    private final List<Format> formats;
    private final Map<String, Format> byName;
    private final List<FormatException> problems;
    private final Set<Path> folders;

    /** Formats by name (a class rather than a lambda: see {@code Formats.Bundled}). */
    private static final Comparator<Format> BY_NAME =
            new Comparator<>() {
                @Override
                public int compare(Format a, Format b) {
                    return a.name().compareTo(b.name());
                }
            };

    /**
     * The bundled formats: answers a name from the index of bundled formats, making only the format
     * named ({@code formats} and {@code byName} null); {@link Bundled#INSTANCE} holds them all,
     * made when something needs every one.
     */
    private static final FormatRegistry BUNDLED =
            new FormatRegistry(null, null, List.of(), Set.of());

    private FormatRegistry(
            List<Format> formats,
            Map<String, Format> byName,
            List<FormatException> problems,
            Set<Path> folders) {
        this.formats = formats;
        this.byName = byName;
        this.problems = problems;
        this.folders = folders;
    }

    private static final class Bundled {
        static final FormatRegistry INSTANCE = build();

        static FormatRegistry build() {
            List<Format> bundled = new ArrayList<>(Formats.bundled());
            bundled.sort(BY_NAME);
            return new FormatRegistry(List.of(), Map.of(), List.of(), Set.of())
                    .with(bundled, List.of(), Set.of());
        }
    }

    private static final class Standard {
        static final FormatRegistry INSTANCE = build();

        static FormatRegistry build() {
            List<Format> found = new ArrayList<>();
            List<FormatException> problems = new ArrayList<>();
            Iterator<FormatProvider> providers =
                    ServiceLoader.load(FormatProvider.class, Formats.class.getClassLoader())
                            .iterator();
            for (int tries = 0; tries < 1000; tries++) {
                FormatProvider p;
                try {
                    if (!providers.hasNext()) break;
                    p = providers.next();
                } catch (ServiceConfigurationError e) {
                    problems.add(
                            new FormatException(
                                    "a format provider cannot be loaded: " + e.getMessage(), e));
                    continue;
                }
                String origin = "format provider " + p.getClass().getName();
                try {
                    for (Format f : p.formats()) found.add(made(f).from(origin));
                } catch (RuntimeException | LinkageError e) {
                    problems.add(
                            new FormatException(
                                    origin + " failed, its formats are not registered: " + e, e));
                }
            }
            found.sort(BY_NAME);
            return Bundled.INSTANCE.with(found, problems, Set.of());
        }
    }

    /**
     * The bundled formats and those of the {@link FormatProvider}s found with {@link
     * ServiceLoader}; built once. The bundled formats are registered first: a provider's format
     * whose name or alias is a bundled format's is the one disabled.
     */
    public static FormatRegistry standard() {
        return Standard.INSTANCE;
    }

    /**
     * The bundled formats alone, the same {@link Format} objects as {@link #standard()} holds under
     * their names (no provider can take a bundled name), built without looking for providers: a
     * {@link ServiceLoader} search of the class path and the JDK's modules is most of a cold JVM's
     * time to its first {@link Formats#get} of a bundled format. A name is answered from the index
     * of bundled formats, so finding one format makes no other (listing them makes them all).
     */
    public static FormatRegistry bundled() {
        return BUNDLED;
    }

    /** This registry with every format made ({@link #BUNDLED} names them when asked). */
    private FormatRegistry whole() {
        return formats == null ? Bundled.INSTANCE : this;
    }

    /** A registry of just these formats (no bundled ones), e.g. for tests. */
    public static FormatRegistry of(Collection<Format> formats) {
        return new FormatRegistry(List.of(), Map.of(), List.of(), Set.of()).withFormats(formats);
    }

    /**
     * This registry and these formats. A format whose name or an alias is taken by one already
     * registered is kept disabled; the ones before it are not affected.
     *
     * @throws IllegalArgumentException for a format not made by {@link Formats} (define, load,
     *     bundled)
     */
    public FormatRegistry withFormats(Collection<Format> more) {
        return with(more, List.of(), Set.of());
    }

    /**
     * This registry and every format folder under {@code dir} (see {@link Formats#load(Path)}). A
     * folder already added is not added again.
     *
     * @throws IllegalArgumentException when {@code dir} is not a folder or holds no format folder
     */
    public FormatRegistry withFolder(Path dir) {
        Path key = canonical(dir);
        if (folders.contains(key)) return this;
        return with(Formats.load(dir), List.of(), Set.of(key));
    }

    private FormatRegistry with(
            Collection<Format> more, List<FormatException> moreProblems, Set<Path> moreFolders) {
        if (formats == null) return whole().with(more, moreProblems, moreFolders);
        List<Format> all = new ArrayList<>(formats);
        Map<String, Format> names = new LinkedHashMap<>(byName);
        List<FormatException> found = new ArrayList<>(problems);
        found.addAll(moreProblems);
        for (Format f : more) {
            made(f);
            Format holder = null;
            String taken = null;
            Set<String> keys = keys(f);
            for (String key : keys) {
                Format h = names.get(key);
                if (h != null && h != f) {
                    holder = h;
                    taken = key;
                    break;
                }
            }
            Format registered = f;
            if (holder != null) {
                FormatException clash =
                        new FormatException(
                                "format name '"
                                        + taken
                                        + "' of "
                                        + f.name()
                                        + " ("
                                        + f.origin()
                                        + ") is already taken by format "
                                        + holder.name()
                                        + " ("
                                        + holder.origin()
                                        + "); "
                                        + f.name()
                                        + " is disabled: rename it or drop the alias");
                registered = made(f).disabled(clash);
                found.add(clash);
            }
            all.add(registered);
            for (String key : keys) names.putIfAbsent(key, registered);
        }
        Set<Path> dirs = new HashSet<>(folders);
        dirs.addAll(moreFolders);
        return new FormatRegistry(
                List.copyOf(all), Map.copyOf(names), List.copyOf(found), Set.copyOf(dirs));
    }

    /** A format the library made (the only kind a registry holds). */
    private static GrammarFormat made(Format f) {
        if (f instanceof GrammarFormat g) return g;
        throw new IllegalArgumentException(
                "format " + f.name() + " was not made by Formats.define or Formats.load");
    }

    /**
     * The format's name and aliases, lower case, each once, in order (a hash set: linear in the
     * aliases).
     */
    private static Set<String> keys(Format f) {
        Set<String> n = new LinkedHashSet<>();
        n.add(f.name().toLowerCase(Locale.ROOT));
        for (String a : f.aliases()) n.add(a.toLowerCase(Locale.ROOT));
        return n;
    }

    private static Path canonical(Path dir) {
        try {
            return dir.toRealPath();
        } catch (IOException e) {
            return dir.toAbsolutePath().normalize();
        }
    }

    /**
     * The format registered under this name or alias, if there is one, whether or not it can be
     * used: a disabled format (a broken format file or grammar, or a name taken by another format)
     * is returned too, and its {@link Format#problem()} says why. Throws nothing.
     */
    public Optional<Format> find(String name) {
        if (byName == null) return Optional.<Format>ofNullable(Formats.bundled(name));
        return Optional.ofNullable(byName.get(name.toLowerCase(Locale.ROOT)));
    }

    /**
     * The format with this name or alias, built and checked.
     *
     * @throws IllegalArgumentException when no format has this name
     * @throws FormatException when that format cannot be used (its message says why and names the
     *     file)
     */
    public Format get(String name) {
        Format f = find(name).orElse(null);
        if (f == null)
            throw new IllegalArgumentException(
                    "unknown format '"
                            + name
                            + "'; known formats: "
                            + all().stream()
                                    .map(Format::name)
                                    .distinct()
                                    .collect(Collectors.joining(", ")));
        made(f).compiled();
        return f;
    }

    /** Every registered format, by name, disabled ones included; listing them builds none. */
    public List<Format> all() {
        if (formats == null) return whole().all();
        List<Format> sorted = new ArrayList<>(formats);
        sorted.sort(BY_NAME);
        return List.copyOf(sorted);
    }

    /**
     * What went wrong while registering, known without building any format: names taken twice,
     * providers that failed, folder formats that cannot be read. A bundled format that cannot be
     * built shows up when it is used (or in {@link Format#problem()}).
     */
    public List<FormatException> problems() {
        if (formats == null) return whole().problems();
        List<FormatException> out = new ArrayList<>(problems);
        for (Format f : formats) {
            if (!made(f).loadedAtRunTime()) continue;
            f.problem().filter(p -> !out.contains(p)).ifPresent(out::add);
        }
        return List.copyOf(out);
    }
}
