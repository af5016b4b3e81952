package dev.toolcalls.spark;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.toolcalls.Formats;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.net.URISyntaxException;
import java.nio.file.Path;
import java.util.Collections;
import java.util.jar.JarEntry;
import java.util.jar.JarFile;

/**
 * The packaged jar, as spark-submit gets it: the library and the function come from the shaded jar
 * alone (the build's unshaded library is kept off this class path), its ANTLR runtime is its own
 * relocated copy beside Spark's, and every regression case still gives the command line's output.
 */
class ShadedJarIT {
    @BeforeAll
    static void start() {
        ParseToolCallsSparkTest.start();
    }

    @AfterAll
    static void stop() {
        ParseToolCallsSparkTest.stop();
    }

    private static Path source(Class<?> c) throws URISyntaxException {
        return Path.of(c.getProtectionDomain().getCodeSource().getLocation().toURI());
    }

    @Test
    void theLibraryAndItsRuntimeComeFromTheShadedJar() throws Exception {
        Path jar = source(ParseToolCalls.class);
        assertTrue(
                jar.getFileName().toString().matches("toolcalls-spark-.*\\.jar"),
                "the function runs from the packaged jar, not " + jar);
        assertEquals(jar, source(Formats.class), "the library comes from the same jar");
        Class<?> lexer = Class.forName("dev.toolcalls.spark.shaded.antlr.Lexer");
        assertEquals(jar, source(lexer), "ANTLR's runtime is relocated into it");
        assertEquals(jar, source(Class.forName("dev.toolcalls.spark.shaded.gson.Gson")));
        Class<?> sparks = Class.forName("org.antlr.v4.runtime.Lexer");
        assertNotEquals(jar, source(sparks), "Spark's own ANTLR runtime stays Spark's");
        int lexers = 0;
        try (JarFile file = new JarFile(jar.toFile())) {
            for (JarEntry e : Collections.list(file.entries())) {
                String name = e.getName();
                if (!name.startsWith("dev/toolcalls/internal/grammar/")
                        || !name.endsWith("Lexer.class")) continue;
                Class<?> c = Class.forName(name.replace('/', '.').replaceFirst("\\.class$", ""));
                assertEquals(
                        lexer, c.getSuperclass(), name + " extends the relocated ANTLR runtime");
                lexers++;
            }
        }
        assertTrue(lexers > 50, "the bundled formats' lexers are in the jar: " + lexers);
    }

    @Test
    void everyRegressionCaseGivesTheCommandLinesBatchOutput() {
        ParseToolCallsSparkTest.everyRegressionCaseInSql();
    }
}
