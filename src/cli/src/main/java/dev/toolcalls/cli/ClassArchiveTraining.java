package dev.toolcalls.cli;

import dev.toolcalls.Format;
import dev.toolcalls.Formats;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;

/**
 * The training run of the class-data archive the build writes beside the jar ({@code
 * target/toolcalls.jsa}, see src/build/WriteClassArchive.java): runs the command line in this JVM
 * the way users run it, so that the JVM, dumping the classes it loaded at exit, archives what a
 * {@code parse} needs. Every bundled format parses one of its regression cases (from {@code
 * tests-data/FORMAT/}, the argument) in batch and streaming, and the first one parses in every
 * output shape, and once through the library with its default options; {@code formats}, {@code
 * --help} and a {@code parse} usage error run once. Outputs go nowhere; exit codes are not checked
 * (a case may be one that fails on purpose).
 *
 * <p>{@code java -XX:ArchiveClassesAtExit=target/toolcalls.jsa -cp target/toolcalls.jar
 * dev.toolcalls.cli.ClassArchiveTraining tests-data}
 */
public final class ClassArchiveTraining {
    private static final List<String> OUTPUTS = List.of("chat", "responses", "messages", "events");

    private ClassArchiveTraining() {}

    public static void main(String[] args) throws IOException {
        Path cases = Path.of(args.length > 0 ? args[0] : "tests-data");
        PrintStream sink =
                new PrintStream(OutputStream.nullOutputStream(), false, StandardCharsets.UTF_8);
        int runs = 0;
        run(new String[] {"formats"}, sink);
        run(new String[] {"--help"}, sink);
        run(new String[] {"parse"}, sink); // a usage error: picocli's model of parse
        runs += 3;
        boolean first = true;
        for (Format f : Formats.all()) {
            Path input = firstCase(cases.resolve(f.name()));
            if (input == null) continue;
            List<String> outputs = first ? OUTPUTS : List.of("chat");
            for (String output : outputs) {
                String file = input.toString();
                run(new String[] {"parse", "--format", f.name(), "--output", output, file}, sink);
                run(
                        new String[] {
                            "parse", "--format", f.name(), "--output", output, "--stream", file
                        },
                        sink);
                runs += 2;
            }
            if (first) library(f, input);
            first = false;
        }
        System.out.println("class-data archive training: " + runs + " command lines");
    }

    /**
     * One parse through the library with its default options, as a program that runs the library
     * from the jar does (random ids, which the command line's seeded ids never load).
     */
    private static void library(Format format, Path input) throws IOException {
        try {
            format.parse(Files.readString(input, StandardCharsets.UTF_8));
        } catch (RuntimeException e) {
            // a case that fails on purpose: the classes are loaded all the same
        }
    }

    private static void run(String[] args, PrintStream sink) {
        Main.run(args, sink, sink, new ByteArrayInputStream(new byte[0]));
    }

    /** The format's first case, by name, whose expected result is a message (not an error). */
    private static Path firstCase(Path dir) throws IOException {
        if (!Files.isDirectory(dir)) return null;
        List<Path> texts = new ArrayList<>();
        try (Stream<Path> s = Files.list(dir)) {
            s.filter(p -> p.getFileName().toString().endsWith(".txt")).sorted().forEach(texts::add);
        }
        for (Path t : texts) {
            String n = t.getFileName().toString();
            Path expected = t.resolveSibling(n.substring(0, n.length() - 4) + ".json");
            if (Files.isRegularFile(expected)
                    && !Files.readString(expected, StandardCharsets.UTF_8).contains("\"error\""))
                return t;
        }
        return texts.isEmpty() ? null : texts.get(0);
    }
}
