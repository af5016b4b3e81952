package dev.toolcalls.cli;

import picocli.CommandLine.Model.ArgSpec;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Model.OptionSpec;
import picocli.CommandLine.Model.PositionalParamSpec;

import java.nio.file.InvalidPathException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;

/**
 * A command's options, declared once and read two ways: {@link #read} takes an ordinary command
 * line directly (no reflection, no picocli: what a short {@code parse} run needs to start fast),
 * and {@link #spec} hands the same options to picocli as its command model, for help, usage errors
 * and every command line {@code read} leaves to it.
 *
 * <pre>{@code
 * CommandOptions options = new CommandOptions("parse", "Parses one model output.")
 *         .required("--format", "NAME", "format name or alias", v -> format = (String) v)
 *         .flag("--stream", "print one delta per line", v -> stream = (Boolean) v)
 *         .positional("FILE", "input file", v -> file = (String) v);
 * if (!options.read(args, 1)) new CommandLine(options.spec(command)).execute(rest);
 * }</pre>
 *
 * <p>{@code read} takes a command line only where it reads it exactly as picocli would: long
 * options as {@code --name value} or {@code --name=value}, flags as {@code --name}, at most one
 * positional argument. Anything else (an unknown or repeated option, a missing value, a value that
 * begins with {@code -}, a number with a sign or a leading zero, {@code --}, an {@code @file}, a
 * short option, a missing required option) is answered {@code false}, and picocli reads the line,
 * printing its own error and usage where it is one.
 */
final class CommandOptions {
    private final String name;
    private final String description;
    private final List<Arg> args = new ArrayList<>();
    private Picocli picocli; // the model picocli read the command line with, when it did

    /**
     * One option or the positional argument ({@code name} null). {@code type}: {@code String},
     * {@code int}, {@code long}, {@code Path} or {@code boolean} (a flag).
     */
    private record Arg(
            String name,
            String label,
            String description,
            Class<?> type,
            boolean required,
            boolean repeatable,
            Consumer<Object> set) {}

    CommandOptions(String name, String description) {
        this.name = name;
        this.description = description;
    }

    /** An option that must be given once; {@code set} receives its value as a String. */
    CommandOptions required(String name, String label, String description, Consumer<Object> set) {
        args.add(new Arg(name, label, description, String.class, true, false, set));
        return this;
    }

    /**
     * An option given at most once; {@code set} receives its value converted to {@code type}
     * ({@code String}, {@code int}, {@code long} or {@code Path}).
     */
    CommandOptions option(
            String name, String label, String description, Class<?> type, Consumer<Object> set) {
        args.add(new Arg(name, label, description, type, false, false, set));
        return this;
    }

    /** An option given any number of times; {@code set} receives each value in order. */
    CommandOptions repeatable(
            String name, String label, String description, Class<?> type, Consumer<Object> set) {
        args.add(new Arg(name, label, description, type, false, true, set));
        return this;
    }

    /**
     * An option without a value; {@code set} receives {@code true} when it is given (picocli also
     * reads {@code --name=false}).
     */
    CommandOptions flag(String name, String description, Consumer<Object> set) {
        args.add(new Arg(name, null, description, boolean.class, false, false, set));
        return this;
    }

    /** The one optional positional argument, a String. */
    CommandOptions positional(String label, String description, Consumer<Object> set) {
        args.add(new Arg(null, label, description, String.class, false, false, set));
        return this;
    }

    /**
     * Reads {@code line} from index {@code from} into the command; false, having set nothing that
     * matters, when the line is one that picocli must read (the caller then gives picocli a fresh
     * command object).
     */
    boolean read(String[] line, int from) {
        boolean[] seen = new boolean[args.size()];
        for (int i = from; i < line.length; i++) {
            String a = line[i];
            String value;
            int at;
            if (a.startsWith("--") && a.length() > 2) {
                int eq = a.indexOf('=');
                at = option(eq < 0 ? a : a.substring(0, eq));
                if (at < 0) return false;
                Arg o = args.get(at);
                if (o.type() == boolean.class) {
                    if (eq >= 0) return false;
                    value = null;
                } else if (eq >= 0) {
                    value = a.substring(eq + 1);
                } else {
                    if (i + 1 == line.length) return false;
                    value = line[++i];
                    if (value.startsWith("-")) return false;
                }
                if (value != null && (value.isEmpty() || value.startsWith("@"))) return false;
            } else if (a.equals("-") || !(a.startsWith("-") || a.startsWith("@"))) {
                at = option(null);
                if (at < 0) return false;
                value = a;
            } else {
                return false;
            }
            Arg o = args.get(at);
            if (seen[at] && !o.repeatable()) return false;
            seen[at] = true;
            Object typed = convert(o.type(), value);
            if (typed == null) return false;
            o.set().accept(typed);
        }
        for (int k = 0; k < args.size(); k++) if (args.get(k).required() && !seen[k]) return false;
        return true;
    }

    private int option(String optionName) {
        for (int k = 0; k < args.size(); k++) {
            String n = args.get(k).name();
            if (optionName == null ? n == null : optionName.equals(n)) return k;
        }
        return -1;
    }

    /** The value as picocli converts it, or null where this reader leaves it to picocli. */
    private static Object convert(Class<?> type, String value) {
        if (type == boolean.class) return Boolean.TRUE;
        if (type == String.class) return value;
        if (type == Path.class) {
            try {
                return Path.of(value);
            } catch (InvalidPathException e) {
                return null;
            }
        }
        // plain decimal digits only: signs, leading zeros and overflow are picocli's to judge
        if (value.length() > 18 || (value.length() > 1 && value.charAt(0) == '0')) return null;
        for (int i = 0; i < value.length(); i++)
            if (value.charAt(i) < '0' || value.charAt(i) > '9') return null;
        long n = Long.parseLong(value);
        if (type == long.class) return n;
        return n <= Integer.MAX_VALUE ? (Object) (int) n : null;
    }

    /**
     * The options as picocli's model of the command, {@code command} its user object (a {@code
     * Runnable} or {@code Callable} that calls {@link #takeParsed} first).
     */
    CommandSpec spec(Object command) {
        picocli = new Picocli(command);
        return picocli.spec;
    }

    /** Hands the values picocli read (when it read the command line) to the command. */
    void takeParsed() {
        if (picocli != null) picocli.takeParsed();
    }

    /**
     * picocli's side, in a class of its own: a command line that {@link #read} takes loads none of
     * picocli's classes.
     */
    private final class Picocli {
        final CommandSpec spec;
        final List<ArgSpec> specs = new ArrayList<>();

        Picocli(Object command) {
            spec = CommandSpec.wrapWithoutInspection(command);
            spec.name(name);
            spec.usageMessage().description(description).sortOptions(false);
            for (Arg a : args) {
                if (a.name() == null) {
                    PositionalParamSpec p =
                            PositionalParamSpec.builder()
                                    .index("0")
                                    .arity("0..1")
                                    .paramLabel(a.label())
                                    .description(a.description())
                                    .type(String.class)
                                    .build();
                    spec.addPositional(p);
                    specs.add(p);
                    continue;
                }
                OptionSpec.Builder b =
                        OptionSpec.builder(a.name())
                                .description(a.description())
                                .required(a.required());
                if (a.label() != null) b.paramLabel(a.label());
                if (a.repeatable()) b.type(List.class).auxiliaryTypes(a.type());
                else b.type(a.type());
                OptionSpec o = b.build();
                spec.addOption(o);
                specs.add(o);
            }
        }

        void takeParsed() {
            for (int k = 0; k < args.size(); k++) {
                ArgSpec s = specs.get(k);
                if (s.typedValues().isEmpty()) continue; // not on the command line
                Arg a = args.get(k);
                if (a.repeatable()) for (Object v : (List<?>) s.getValue()) a.set().accept(v);
                else a.set().accept(s.getValue());
            }
        }
    }
}
