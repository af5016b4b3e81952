package dev.toolcalls.cli;

import dev.toolcalls.FormatException;
import dev.toolcalls.internal.grammar.BundledFormats;

import picocli.CommandLine;
import picocli.CommandLine.Command;

import java.io.BufferedOutputStream;
import java.io.FileDescriptor;
import java.io.FileOutputStream;
import java.io.InputStream;
import java.io.PrintStream;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.function.Supplier;

/**
 * {@code java -jar target/toolcalls.jar parse|formats|test|serve|check|generate|new ...}. Exit
 * codes: 0 done, 1 the output broke its format (or a suite failed, or check found something), 2
 * usage error or input that is not UTF-8, 3 a format that cannot be loaded ({@code format_error})
 * or an internal error (out of memory included). Never a stack trace.
 */
public final class Main {
    static final int FAILED = 1;
    static final int USAGE = 2;
    static final int INTERNAL = 3;

    /** The commands, in the order {@code --help} lists them. */
    static final List<String> COMMANDS =
            List.of(
                    "parse",
                    "formats",
                    "test",
                    "serve",
                    "check",
                    "generate",
                    "new",
                    "tokens",
                    "grammar");

    private Main() {}

    /**
     * {@code toolcalls} itself, picocli's top command: its options are {@code --help} and {@code
     * --version}; alone, it is a usage error. (A class of its own: a {@code parse} run that never
     * reaches picocli loads none of picocli's classes.)
     */
    @Command(
            name = "toolcalls",
            mixinStandardHelpOptions = true,
            versionProvider = Main.Version.class,
            description =
                    "Turns LLM output text into OpenAI-style tool calls, in one piece or streaming.")
    static final class Root implements Runnable {
        @CommandLine.Spec CommandLine.Model.CommandSpec spec;

        @Override
        public void run() {
            throw new CommandLine.ParameterException(
                    spec.commandLine(),
                    "a command is required: parse, formats, test, serve, check, generate, new or tokens");
        }
    }

    public static void main(String[] args) {
        // stdout buffered (a delta per line would otherwise be a write each); flushed before
        // anything goes to stderr
        PrintStream out =
                new PrintStream(
                        new BufferedOutputStream(new FileOutputStream(FileDescriptor.out), 1 << 16),
                        false,
                        StandardCharsets.UTF_8);
        PrintStream err =
                new PrintStream(
                        new FileOutputStream(FileDescriptor.err), true, StandardCharsets.UTF_8);
        int code = run(args, out, err, System.in);
        out.flush();
        System.exit(code);
    }

    /**
     * Runs the command line with the given streams; returns the exit code. Nothing escapes as a
     * stack trace.
     */
    public static int run(String[] args, PrintStream out, PrintStream err, InputStream in) {
        try {
            return execute(args, out, err, in);
        } catch (
                Throwable
                        t) { // OutOfMemoryError, StackOverflowError, a bug: the JSON error object,
            // exit 3
            return internal(t, out, err);
        }
    }

    /**
     * What an error that escaped a command prints: one {@code internal_error} object on stderr,
     * exit 3.
     */
    static int internal(Throwable t, PrintStream out, PrintStream err) {
        Throwable cause = t;
        while (cause instanceof CommandLine.ExecutionException && cause.getCause() != null)
            cause = cause.getCause();
        String message =
                cause instanceof OutOfMemoryError
                        ? "out of memory ("
                                + cause.getMessage()
                                + "): give the JVM more heap (java -Xmx...); --stream reads the input piece by piece"
                        : String.valueOf(cause);
        try {
            out.flush();
        } catch (Throwable ignored) {
            // stdout may be what failed; the error still goes to stderr
        }
        err.println(ErrorJson.wrap(ErrorJson.of("internal_error", message, null, null)));
        err.flush();
        return INTERNAL;
    }

    /** A new command object by its name (for {@code parse}, picocli's model of it). */
    private static Object command(String name) {
        switch (name) {
            case "parse":
                {
                    ParseCommand parse = new ParseCommand();
                    return parse.options.spec(parse);
                }
            case "formats":
                return new FormatsCommand();
            case "test":
                return new TestCommand();
            case "serve":
                return new ServeCommand();
            case "check":
                return new CheckCommand();
            case "generate":
                return new GenerateCommand();
            case "new":
                return new NewCommand();
            case "tokens":
                return new TokensCommand();
            case "grammar":
                return new GrammarCommand();
            default:
                throw new IllegalArgumentException(name);
        }
    }

    private static int execute(String[] args, PrintStream out, PrintStream err, InputStream in) {
        // an ordinary parse command line is read without picocli, whose start-up (its classes, its
        // reflection over annotated options) would be most of a short parse run's
        if (args.length > 0 && args[0].equals("parse")) {
            ParseCommand parse = new ParseCommand();
            if (parse.options.read(args, 1)) {
                parse.io(out, err, in);
                try {
                    return parse.call();
                } catch (Exception e) {
                    return failed(
                            e,
                            out,
                            err,
                            () ->
                                    picocli(new String[] {"parse"})
                                            .getSubcommands()
                                            .get("parse")
                                            .getUsageMessage());
                }
            }
        }
        CommandLine cl = picocli(args);
        cl.setOut(new PrintWriter(out, true));
        cl.setErr(new PrintWriter(err, true));
        cl.setParameterExceptionHandler(
                (e, commandLine) -> {
                    err.println("error: " + e.getMessage());
                    err.println(e.getCommandLine().getUsageMessage());
                    return USAGE;
                });
        cl.setExecutionExceptionHandler(
                (e, commandLine, parseResult) -> failed(e, out, err, commandLine::getUsageMessage));
        for (CommandLine sub : cl.getSubcommands().values()) {
            Object cmd = sub.getCommand();
            if (cmd instanceof IoAware) ((IoAware) cmd).io(out, err, in);
        }
        return cl.execute(args);
    }

    /**
     * picocli's model of the command line: a command line that names its command gets only that one
     * (picocli reads a command's options by reflection when it is added), anything else ({@code
     * --help}, {@code --version}, a mistyped command) gets them all.
     */
    private static CommandLine picocli(String[] args) {
        CommandLine cl = new CommandLine(new Root());
        if (args.length > 0 && COMMANDS.contains(args[0])) cl.addSubcommand(command(args[0]));
        else for (String name : COMMANDS) cl.addSubcommand(command(name));
        return cl;
    }

    /**
     * The exit code and stderr of an exception a command threw: a usage error with the command's
     * usage, a format that cannot be loaded as {@code format_error}, anything else as {@code
     * internal_error}.
     */
    private static int failed(
            Exception e, PrintStream out, PrintStream err, Supplier<String> usage) {
        if (e instanceof UsageException) {
            err.println("error: " + e.getMessage());
            err.println(usage.get());
            return USAGE;
        }
        if (e instanceof FormatException) {
            err.println(ErrorJson.wrap(ErrorJson.of("format_error", e.getMessage(), null, null)));
            return INTERNAL;
        }
        return internal(e, out, err);
    }

    /** A bad command line found after option parsing (unknown format, unreadable file...). */
    static final class UsageException extends RuntimeException {
        UsageException(String message) {
            super(message);
        }
    }

    /** {@code toolcalls --version}: the version the build stamped into the format index. */
    static final class Version implements CommandLine.IVersionProvider {
        @Override
        public String[] getVersion() {
            return new String[] {"toolcalls " + BundledFormats.VERSION};
        }
    }

    interface IoAware {
        void io(PrintStream out, PrintStream err, InputStream in);
    }
}
