package dev.toolcalls.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.toolcalls.cli.FirstParse;
import dev.toolcalls.internal.format.BundledFormat;
import dev.toolcalls.internal.grammar.BundledFormats;

import org.junit.jupiter.api.Test;

import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

/**
 * What a fresh JVM loads to reach its first parsed output ({@link FirstParse}, the library alone on
 * the class path): the lexer of the format asked for and no other, and none of the classes a parse
 * does not need (Gson's type adapters and tree, the ANTLR tool and ANTLR's {@code CharStreams},
 * picocli, the tools, the constraint compiler, the method-handle bootstrap of records' equals and
 * hashCode, the security providers behind {@code SecureRandom}, the service loader, the registry of
 * every bundled format, the lambda bootstrap, the method-handle class spinner, the making of a
 * {@code VarHandle} and {@code EnumSet}, the walk over the ATN that derives a mode's runs), also
 * for a format that finds a call's name in its id by a pattern. Classes, not times: a guard that
 * does not depend on the machine's load.
 */
class FirstParseClassesTest {
    private static final List<String> NOT_ON_THE_PARSE_PATH =
            List.of(
                    "com.google.gson.Gson ",
                    "com.google.gson.GsonBuilder ",
                    "com.google.gson.internal.bind.TypeAdapters ",
                    "org.antlr.v4.Tool ",
                    "picocli.",
                    "dev.toolcalls.tools.",
                    "dev.toolcalls.internal.constraint.",
                    "java.lang.runtime.ObjectMethods ",
                    // random ids read the system's random device, without the security providers
                    "java.security.SecureRandom ",
                    // a bundled format is found without a search for format providers, and
                    // without making the registry of every bundled format
                    "java.util.ServiceLoader ",
                    "dev.toolcalls.FormatRegistry$Bundled ",
                    // format files are read into plain values, not Gson's tree
                    "com.google.gson.internal.LinkedTreeMap ",
                    // the lexer's prototype reads an empty stream of the driver's own
                    "org.antlr.v4.runtime.CharStreams ",
                    // no lambda is linked and no method-handle class is spun
                    "java.lang.invoke.LambdaMetafactory ",
                    "java.lang.invoke.InvokerBytecodeGenerator ",
                    // no VarHandle is made (an atomic array or a field's handle: the first sets
                    // up the method-handle machinery), no EnumSet (it finds its enum's
                    // constants by reflection)
                    "java.lang.invoke.VarHandles ",
                    "java.util.EnumSet ",
                    // a bundled format reads the runs the build stored: no walk over the ATN
                    "dev.toolcalls.internal.lex.FastRuns$Config ",
                    "dev.toolcalls.internal.lex.FastRuns$Visit ");

    @Test
    void aFreshJvmLoadsOnlyTheLexerOfTheFormatItParses() throws Exception {
        List<BundledFormat> all = BundledFormats.all();
        // and a format that finds the name in the id by its pattern (matched without
        // java.util.regex, whose character classes link lambdas)
        BundledFormat byId = BundledFormats.get(BundledFormats.indexOf("kimi_k2"));
        for (BundledFormat f :
                List.of(all.get(0), all.get(all.size() / 2), all.get(all.size() - 1), byId)) {
            String text = firstMessageCase(f.name());
            List<String> loaded = classesBeforeFirstOutput(f.name(), text);
            List<String> lexers = new ArrayList<>();
            for (String line : loaded) {
                for (String banned : NOT_ON_THE_PARSE_PATH)
                    assertTrue(!line.contains(" " + banned), f.name() + " loads " + line);
                int at = line.indexOf(" dev.toolcalls.internal.grammar.");
                if (at >= 0 && line.contains("Lexer ")) lexers.add(line.substring(at + 1));
            }
            assertEquals(1, lexers.size(), f.name() + " loads the lexers " + lexers);
        }
    }

    static String firstMessageCase(String format) throws IOException {
        Path dir = Path.of("tests-data", format);
        try (Stream<Path> s = Files.list(dir)) {
            for (Path t : s.filter(p -> p.toString().endsWith(".txt")).sorted().toList()) {
                String n = t.getFileName().toString();
                Path expected = t.resolveSibling(n.substring(0, n.length() - 4) + ".json");
                if (!Files.readString(expected, StandardCharsets.UTF_8).contains("\"error\""))
                    return Files.readString(t, StandardCharsets.UTF_8);
            }
        }
        throw new IllegalStateException("no case of " + format + " parses to a message");
    }

    /** The class-load log lines of a fresh JVM from FirstParse's main to its first output. */
    static List<String> classesBeforeFirstOutput(String format, String text) throws Exception {
        List<String> cp = new ArrayList<>();
        for (String e : System.getProperty("java.class.path").split(File.pathSeparator)) {
            // the library (and the CLI's module, which holds FirstParse) is its classes folder
            // under `test`, its jar once the reactor packaged it
            boolean library =
                    Path.of(e).getFileName().toString().matches("toolcalls-(cli-)?\\d.*\\.jar");
            if (e.endsWith("classes")
                    || library
                    || e.contains("antlr4-runtime")
                    || e.contains("gson")) cp.add(e);
        }
        Process p =
                new ProcessBuilder(
                                Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                                "-Xlog:class+load:stdout",
                                "-cp",
                                String.join(File.pathSeparator, cp),
                                FirstParse.class.getName(),
                                format,
                                text)
                        .redirectErrorStream(true)
                        .start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertTrue(p.waitFor(120, TimeUnit.SECONDS));
        assertEquals(0, p.exitValue(), out);
        List<String> lines = new ArrayList<>();
        boolean on = false;
        for (String line : out.split("\n")) {
            if (line.equals("first-output")) return lines;
            if (on) lines.add(line);
            else on = line.contains(" " + FirstParse.class.getName() + " ");
        }
        throw new AssertionError("no first output: " + out);
    }
}
