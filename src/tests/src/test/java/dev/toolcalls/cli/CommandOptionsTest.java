package dev.toolcalls.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

import picocli.CommandLine;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import java.util.concurrent.TimeUnit;

/**
 * {@code parse}'s options read without picocli ({@link CommandOptions#read}) give the command
 * exactly what picocli gives it for the same line, and a {@code parse} run loads none of picocli's
 * classes (nor the others a short run does without).
 */
class CommandOptionsTest {
    /** Pieces of command lines: options, values, and what the direct reader must leave alone. */
    private static final String[] WORDS = {
        "--format",
        "--format",
        "--format",
        "hermes",
        "mistral",
        "--tools",
        "tools.json",
        "--lenient",
        "--unknown-tool",
        "text",
        "--stream",
        "--stream",
        "--chunk-seed",
        "7",
        "-5",
        "+3",
        "010",
        "0x10",
        "99999999999",
        "--chunk-max",
        "4",
        "0",
        "--thinking",
        "on",
        "--output",
        "events",
        "--jsonl",
        "--tokenizer",
        "tok",
        "--format-dir",
        "dir",
        "out.txt",
        "-",
        "--",
        "@args",
        "--format=hermes",
        "--chunk-max=2",
        "--stream=true",
        "--format=",
        "--bogus",
        "-h",
        "x=y",
        "--help",
        "--chunk-seed=-1"
    };

    /**
     * What a short {@code parse} run (batch and streaming) does not load: picocli, Gson's writer
     * and type adapters (the output is written by hand), the service loader (a bundled format is
     * found without a search for format providers), the lambda bootstrap, the method-handle class
     * spinner, the making of a {@code VarHandle} and {@code EnumSet}.
     */
    private static final List<String> NOT_IN_A_PARSE_RUN =
            List.of(
                    " picocli.",
                    " com.google.gson.Gson ",
                    " com.google.gson.internal.bind.TypeAdapters ",
                    " java.util.ServiceLoader ",
                    " java.lang.invoke.LambdaMetafactory ",
                    " java.lang.invoke.InvokerBytecodeGenerator ",
                    " java.lang.invoke.VarHandles ",
                    " java.util.EnumSet ");

    private static final List<String> FORMAT = List.of("--format", "hermes");

    @Test
    void everyLineReadDirectlyGivesWhatPicocliGives() {
        Random random = new Random(27);
        int taken = 0;
        for (int n = 0; n < 20_000; n++) {
            List<String> words = new ArrayList<>();
            for (int i = random.nextInt(7); i > 0; i--)
                words.add(WORDS[random.nextInt(WORDS.length)]);
            // the required option, most of the time, anywhere in the line
            if (random.nextInt(5) > 0) words.addAll(random.nextInt(words.size() + 1), FORMAT);
            words.add(0, "parse");
            String[] line = words.toArray(new String[0]);
            ParseCommand direct = new ParseCommand();
            if (!direct.options.read(line, 1)) continue;
            taken++;
            ParseCommand picocli = new ParseCommand();
            new CommandLine(picocli.options.spec(picocli))
                    .parseArgs(Arrays.copyOfRange(line, 1, line.length));
            picocli.options.takeParsed();
            assertEquals(fields(picocli), fields(direct), String.join(" ", line));
        }
        assertTrue(taken > 2_000, "lines read directly: " + taken);
    }

    @Test
    void ordinaryLinesAreReadDirectlyAndOthersAreLeftToPicocli() {
        for (String line :
                List.of(
                        "parse --format hermes out.txt",
                        "parse out.txt --format=hermes --stream --chunk-max 4 --chunk-seed 3",
                        "parse --format hermes --tools t.json --output events --format-dir a --format-dir b -"))
            assertTrue(new ParseCommand().options.read(line.split(" "), 1), line);
        for (String line :
                List.of(
                        "parse",
                        "parse --format hermes --bogus",
                        "parse --format hermes --help",
                        "parse --format hermes --stream --stream",
                        "parse --format hermes a b",
                        "parse --format hermes --chunk-seed -5",
                        "parse --format hermes --chunk-max 010",
                        "parse --format hermes --chunk-max 99999999999",
                        "parse --format hermes -- out.txt",
                        "parse --format hermes @args",
                        "parse --format"))
            assertFalse(new ParseCommand().options.read(line.split(" "), 1), line);
    }

    @Test
    void aParseRunLoadsNoPicocliClass() throws Exception {
        Path input = Files.createTempFile("command-options", ".txt");
        Files.writeString(input, "Hello.", StandardCharsets.UTF_8);
        for (String stream : List.of("--stream", "--lenient")) {
            Process p =
                    new ProcessBuilder(
                                    Path.of(System.getProperty("java.home"), "bin", "java")
                                            .toString(),
                                    "-Xlog:class+load:stdout",
                                    "-cp",
                                    System.getProperty("java.class.path"),
                                    Main.class.getName(),
                                    "parse",
                                    "--format",
                                    "hermes",
                                    stream,
                                    input.toString())
                            .redirectErrorStream(true)
                            .start();
            String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            assertTrue(p.waitFor(120, TimeUnit.SECONDS));
            assertEquals(0, p.exitValue(), out);
            assertTrue(out.contains("{\"content\":\"Hel"), out);
            assertTrue(out.contains(" dev.toolcalls.cli.ParseCommand "), "the log names classes");
            List<String> banned = new ArrayList<>();
            for (String line : out.split("\n"))
                for (String b : NOT_IN_A_PARSE_RUN) if (line.contains(b)) banned.add(line);
            assertEquals(List.of(), banned, "classes a parse " + stream + " run loads");
        }
        Files.delete(input);
        assertTrue(
                System.getProperty("java.class.path").contains("picocli"),
                "picocli is on the run's class path");
    }

    private static List<Object> fields(ParseCommand c) {
        return Arrays.asList(
                c.formatName,
                c.toolsFile,
                c.lenient,
                c.unknownTool,
                c.stream,
                c.chunkSeed,
                c.chunkMax,
                c.thinking,
                c.output,
                c.jsonl,
                c.tokenizer,
                c.file,
                c.formatDirs.dirs);
    }
}
