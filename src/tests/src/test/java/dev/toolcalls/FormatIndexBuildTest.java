package dev.toolcalls;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.concurrent.TimeUnit;

/**
 * The build step that writes the index of bundled formats ({@code
 * src/build/GenerateFormatIndex.java}) also removes what an earlier build left for a grammar that
 * is gone, so a deleted format disappears from the next build without {@code mvn clean}.
 */
class FormatIndexBuildTest {
    @TempDir Path dir;

    static void write(Path file, String text) throws IOException {
        Files.createDirectories(file.getParent());
        Files.writeString(file, text, StandardCharsets.UTF_8);
    }

    @Test
    void aDeletedGrammarLeavesNothingBehind() throws Exception {
        Path grammars = dir.resolve("grammars");
        Path classes = dir.resolve("target/classes");
        Path generated = dir.resolve("target/generated-sources/antlr4");
        write(grammars.resolve("kept/KeptLexer.g4"), "lexer grammar KeptLexer;\nTEXT : ~'<'+ ;\n");
        write(
                grammars.resolve("kept/kept.json"),
                "{\"name\": \"kept\", \"lexer\": \"KeptLexer\", \"roles\": {\"TEXT\": \"content\"}}");
        write(grammars.resolve("imports/Shared.g4"), "lexer grammar Shared;\n");
        // what a build made before 'gone' was deleted
        for (String lexer : new String[] {"KeptLexer", "GoneLexer"}) {
            String folder = lexer.equals("KeptLexer") ? "kept" : "gone";
            write(generated.resolve(folder + "/" + lexer + ".java"), "class " + lexer + " { }");
            write(generated.resolve(folder + "/" + lexer + ".interp"), "");
            write(generated.resolve(lexer + ".tokens"), "");
            write(classes.resolve("dev/toolcalls/internal/grammar/" + lexer + ".class"), "");
            write(
                    classes.resolve("META-INF/toolcalls/grammars/" + folder + "/" + lexer + ".g4"),
                    "");
        }
        write(
                generated.resolve("kept/OldLexer.java"),
                "class OldLexer { }"); // a grammar renamed inside a kept folder
        write(classes.resolve("dev/toolcalls/internal/grammar/BundledFormats.class"), "");
        write(classes.resolve("META-INF/toolcalls/grammars/imports/Shared.g4"), "");
        write(classes.resolve("META-INF/toolcalls/grammars/imports/Removed.g4"), "");

        Path gson =
                Arrays.stream(System.getProperty("java.class.path").split(File.pathSeparator))
                        .map(Path::of)
                        .filter(p -> p.getFileName().toString().startsWith("gson"))
                        .findFirst()
                        .orElseThrow();
        Process p =
                new ProcessBuilder(
                                Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                                "-cp",
                                gson.toString(),
                                Path.of("src/build/GenerateFormatIndex.java")
                                        .toAbsolutePath()
                                        .toString(),
                                grammars.toString(),
                                dir.resolve("out").toString(),
                                "1",
                                classes.toString(),
                                generated.toString())
                        .redirectErrorStream(true)
                        .start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertTrue(p.waitFor(120, TimeUnit.SECONDS));
        assertEquals(0, p.exitValue(), out);

        String index =
                Files.readString(
                        dir.resolve("out/dev/toolcalls/internal/grammar/BundledFormats.java"));
        assertTrue(index.contains("new KeptLexer(input)") && !index.contains("Gone"), index);
        assertTrue(
                Files.exists(generated.resolve("kept/KeptLexer.java"))
                        && Files.exists(generated.resolve("KeptLexer.tokens")));
        assertTrue(Files.exists(classes.resolve("dev/toolcalls/internal/grammar/KeptLexer.class")));
        assertTrue(
                Files.exists(
                        classes.resolve("dev/toolcalls/internal/grammar/BundledFormats.class")));
        assertTrue(Files.exists(classes.resolve("META-INF/toolcalls/grammars/kept/KeptLexer.g4")));
        assertTrue(Files.exists(classes.resolve("META-INF/toolcalls/grammars/imports/Shared.g4")));
        assertFalse(
                Files.exists(generated.resolve("gone")),
                "the plugin's output for the deleted folder");
        assertFalse(Files.exists(generated.resolve("GoneLexer.tokens")));
        assertFalse(Files.exists(generated.resolve("kept/OldLexer.java")));
        assertFalse(
                Files.exists(classes.resolve("dev/toolcalls/internal/grammar/GoneLexer.class")),
                "the compiled lexer");
        assertFalse(
                Files.exists(classes.resolve("META-INF/toolcalls/grammars/gone")),
                "the copied grammar source");
        assertFalse(
                Files.exists(classes.resolve("META-INF/toolcalls/grammars/imports/Removed.g4")));
    }
}
