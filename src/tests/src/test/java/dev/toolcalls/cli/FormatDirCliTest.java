package dev.toolcalls.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.google.gson.JsonObject;
import com.google.gson.JsonParser;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** --format-dir on every command, broken formats reported once, generate, new. */
class FormatDirCliTest {
    static final Path FIXTURE = Path.of("src/tests/src/test/resources/runtime-formats");

    @TempDir Path dir;

    static void copyTree(Path from, Path to) throws IOException {
        try (var s = Files.walk(from)) {
            for (Path p : s.toList()) {
                Path target = to.resolve(from.relativize(p).toString());
                if (Files.isDirectory(p)) Files.createDirectories(target);
                else Files.copy(p, target);
            }
        }
    }

    Path formats() throws IOException {
        copyTree(FIXTURE.resolve("formats"), dir.resolve("formats"));
        return dir.resolve("formats");
    }

    Path write(String name, String text) throws IOException {
        Path p = dir.resolve(name);
        Files.createDirectories(p.getParent());
        Files.writeString(p, text, StandardCharsets.UTF_8);
        return p;
    }

    /** A format whose token LT has no role. */
    void breakOne(Path formats) throws IOException {
        Files.createDirectories(formats.resolve("broken"));
        Files.writeString(
                formats.resolve("broken/BrokenLexer.g4"),
                "lexer grammar BrokenLexer;\nTEXT : ~'<'+ ;\nLT : '<' ;\n");
        Files.writeString(
                formats.resolve("broken/broken.json"),
                "{\"name\": \"broken\", \"lexer\": \"BrokenLexer\", \"roles\": {\"TEXT\": \"content\"}}");
    }

    @Test
    void parseAndStreamAFormatFromAFolder() throws IOException {
        String dirArg = formats().toString();
        Path in = write("in.txt", "Let me look.[[call get_weather {\"city\": \"Paris\"}]] Done.");
        CliTest.Run batch =
                CliTest.run(
                        "",
                        "parse",
                        "--format-dir",
                        dirArg,
                        "--format",
                        "acme-chat",
                        in.toString());
        assertEquals(0, batch.code(), batch.err());
        assertEquals("", batch.err());
        JsonObject m = JsonParser.parseString(batch.out()).getAsJsonObject();
        assertEquals("Let me look. Done.", m.get("content").getAsString());
        CliTest.Run stream =
                CliTest.run(
                        "",
                        "parse",
                        "--format-dir",
                        dirArg,
                        "--format",
                        "acme",
                        "--stream",
                        "--chunk-max",
                        "3",
                        in.toString());
        assertEquals(0, stream.code(), stream.err());
        assertEquals(m, CliTest.reassemble(stream.lines()));
    }

    @Test
    void aBrokenFormatIsReportedOnceAndDisablesOnlyItself() throws IOException {
        Path formats = formats();
        breakOne(formats);
        Path in = write("in.txt", "[[call ping]]");
        CliTest.Run ok =
                CliTest.run(
                        "",
                        "parse",
                        "--format-dir",
                        formats.toString(),
                        "--format",
                        "acme",
                        in.toString());
        assertEquals(0, ok.code(), ok.err());
        assertEquals(1, ok.err().split("\n").length, ok.err());
        assertTrue(
                ok.err()
                        .startsWith(
                                "warning: "
                                        + formats.resolve("broken/broken.json")
                                        + ": format broken: token type LT has no role"),
                ok.err());
        assertEquals(
                0,
                CliTest.run("hi", "parse", "--format-dir", formats.toString(), "--format", "hermes")
                        .code(),
                "bundled formats keep working");

        CliTest.Run bad =
                CliTest.run(
                        "hi", "parse", "--format-dir", formats.toString(), "--format", "broken");
        assertEquals(3, bad.code());
        assertEquals(1, bad.err().split("\n").length, "reported once, as the error: " + bad.err());
        JsonObject error =
                JsonParser.parseString(bad.err()).getAsJsonObject().getAsJsonObject("error");
        assertEquals("format_error", error.get("type").getAsString());
        assertTrue(error.get("message").getAsString().contains("broken.json"), bad.err());

        CliTest.Run list = CliTest.run("", "formats", "--format-dir", formats.toString());
        assertEquals(0, list.code());
        assertTrue(
                list.out()
                        .lines()
                        .anyMatch(
                                l ->
                                        l.startsWith("broken")
                                                && l.contains("DISABLED: ")
                                                && l.contains("LT has no role")),
                list.out());
        assertTrue(
                list.out()
                        .lines()
                        .anyMatch(
                                l ->
                                        l.startsWith("acme  (aliases: acme-chat)")
                                                && l.contains("acme.json")),
                list.out());
        assertTrue(list.out().lines().anyMatch(l -> l.startsWith("hermes ")), list.out());
    }

    @Test
    void theSuiteRunsFolderFormatsAndFailsOnABrokenOneOnce() throws IOException {
        Path formats = formats();
        CliTest.Run r =
                CliTest.run(
                        "",
                        "test",
                        "--format-dir",
                        formats.toString(),
                        FIXTURE.resolve("cases").toString());
        assertEquals(0, r.code(), r.out());
        assertTrue(r.out().contains("acme        10      10       0"), r.out());
        breakOne(formats);
        Path suite = dir.resolve("suite");
        copyTree(FIXTURE.resolve("cases"), suite);
        Files.createDirectories(suite.resolve("broken"));
        for (int i = 0; i < 3; i++) {
            Files.writeString(suite.resolve("broken/c" + i + ".txt"), "hi");
            Files.writeString(suite.resolve("broken/c" + i + ".json"), "{\"content\": \"hi\"}");
        }
        r = CliTest.run("", "test", "--format-dir", formats.toString(), suite.toString());
        assertEquals(1, r.code(), r.out());
        assertEquals(
                1,
                r.out().lines().filter(l -> l.contains("token type LT has no role")).count(),
                r.out());
        assertTrue(
                r.out().contains("acme        10      10       0")
                        && r.out().contains("broken       3       0       3"),
                r.out());
    }

    @Test
    void aNameClashIsAnErrorNamingBothSources() throws IOException {
        Path formats = formats();
        Files.writeString(
                formats.resolve("acme/acme.json"),
                Files.readString(formats.resolve("acme/acme.json"))
                        .replace("\"acme-chat\"", "\"qwen\""));
        CliTest.Run r =
                CliTest.run(
                        "", "parse", "--format-dir", formats.toString(), "--format", "acme", "-");
        assertEquals(3, r.code(), r.err());
        String message =
                JsonParser.parseString(r.err())
                        .getAsJsonObject()
                        .getAsJsonObject("error")
                        .get("message")
                        .getAsString();
        assertTrue(
                message.contains("'qwen'")
                        && message.contains(formats.resolve("acme/acme.json").toString())
                        && message.contains(
                                "format hermes (grammars/hermes/hermes.json (bundled))"),
                message);
    }

    @Test
    void aMissingFolderIsAUsageError() {
        CliTest.Run r =
                CliTest.run(
                        "",
                        "parse",
                        "--format-dir",
                        dir.resolve("nope").toString(),
                        "--format",
                        "hermes");
        assertEquals(2, r.code());
        assertTrue(
                r.err().contains("--format-dir " + dir.resolve("nope") + ": no such folder"),
                r.err());
    }

    /** Generated outputs feed parse --jsonl, and parse the same in batch and streaming. */
    @Test
    void generatedOutputsParseTheSameInBatchAndStreaming() throws IOException {
        String formats = formats().toString();
        for (String format : List.of("acme", "hermes", "qwen3_coder")) {
            CliTest.Run g =
                    CliTest.run(
                            "",
                            "generate",
                            "--format-dir",
                            formats,
                            "--format",
                            format,
                            "--count",
                            "25",
                            "--seed",
                            "7");
            assertEquals(0, g.code(), g.err());
            assertEquals(25, g.lines().size());
            for (String line : g.lines())
                assertTrue(JsonParser.parseString(line).getAsJsonObject().has("input"), line);
            assertEquals(
                    g.out(),
                    CliTest.run(
                                    "",
                                    "generate",
                                    "--format-dir",
                                    formats,
                                    "--format",
                                    format,
                                    "--count",
                                    "25",
                                    "--seed",
                                    "7")
                            .out(),
                    "the same seed, the same outputs");
            Path in = write(format + ".jsonl", g.out());
            List<String> batch =
                    CliTest.run(
                                    "",
                                    "parse",
                                    "--format-dir",
                                    formats,
                                    "--format",
                                    format,
                                    "--jsonl",
                                    in.toString())
                            .lines();
            List<String> streamed =
                    CliTest.run(
                                    "",
                                    "parse",
                                    "--format-dir",
                                    formats,
                                    "--format",
                                    format,
                                    "--jsonl",
                                    "--stream",
                                    "--chunk-max",
                                    "3",
                                    in.toString())
                            .lines();
            assertEquals(25, batch.size());
            for (int i = 0; i < batch.size(); i++) {
                JsonObject b = JsonParser.parseString(batch.get(i)).getAsJsonObject();
                JsonObject s = JsonParser.parseString(streamed.get(i)).getAsJsonObject();
                if (b.has("error")) {
                    assertEquals(
                            b.getAsJsonObject("error").get("offset"),
                            s.getAsJsonObject("error").get("offset"),
                            g.lines().get(i));
                } else {
                    List<String> deltas = new ArrayList<>();
                    for (var d : s.getAsJsonArray("deltas")) deltas.add(d.toString());
                    assertEquals(
                            b.getAsJsonObject("message"),
                            CliTest.reassemble(deltas),
                            g.lines().get(i));
                }
            }
        }
        assertEquals(2, CliTest.run("", "generate", "--format", "hermes", "--count", "-1").code());
        assertEquals(2, CliTest.run("", "generate", "--format", "nope", "--count", "1").code());
    }

    @Test
    void newStartsAFormatFromAnExistingOneThatLoadsAtOnce() throws IOException {
        CliTest.Run r =
                CliTest.run("", "new", "acme2", "--like", "hermes", "--dir", dir.toString());
        assertEquals(0, r.code(), r.err());
        Path folder = dir.resolve("grammars/acme2");
        String grammar = Files.readString(folder.resolve("Acme2Lexer.g4"));
        assertTrue(
                grammar.contains("lexer grammar Acme2Lexer;") && !grammar.contains("HermesLexer"),
                grammar);
        JsonObject file =
                JsonParser.parseString(Files.readString(folder.resolve("acme2.json")))
                        .getAsJsonObject();
        assertEquals("acme2", file.get("name").getAsString());
        assertEquals("Acme2Lexer", file.get("lexer").getAsString());
        assertEquals(0, file.getAsJsonArray("aliases").size());
        assertTrue(Files.isRegularFile(folder.resolve("README.md")));
        assertTrue(Files.isDirectory(dir.resolve("tests-data/acme2")));
        CliTest.Run parse =
                CliTest.run(
                        "<tool_call>{\"name\": \"f\"}</tool_call>",
                        "parse",
                        "--format-dir",
                        dir.resolve("grammars").toString(),
                        "--format",
                        "acme2");
        assertEquals(0, parse.code(), parse.err());
        assertTrue(parse.out().contains("\"name\":\"f\""), parse.out());
        assertEquals(
                2,
                CliTest.run("", "new", "acme2", "--like", "hermes", "--dir", dir.toString()).code(),
                "it does not overwrite");
        assertEquals(
                2,
                CliTest.run("", "new", "Bad Name", "--like", "hermes", "--dir", dir.toString())
                        .code());

        // in a checkout, the cases of the format it starts from come along
        Files.createDirectories(dir.resolve("repo/tests-data"));
        copyTree(Path.of("tests-data/hermes"), dir.resolve("repo/tests-data/hermes"));
        r =
                CliTest.run(
                        "",
                        "new",
                        "acme3",
                        "--like",
                        "hermes",
                        "--dir",
                        dir.resolve("repo").toString());
        assertEquals(0, r.code(), r.err());
        try (var s = Files.list(dir.resolve("repo/tests-data/acme3"))) {
            assertTrue(s.count() >= 20);
        }
        CliTest.Run suite =
                CliTest.run(
                        "",
                        "test",
                        "--format-dir",
                        dir.resolve("repo/grammars").toString(),
                        dir.resolve("repo/tests-data").toString());
        assertFalse(suite.out().contains("FAIL acme3"), suite.out());
    }

    @Test
    void newWritesAFolderThatRefersToNothingOutsideItAndWorksOnItsOwn() throws IOException {
        Path work = dir.resolve("work");
        CliTest.Run r =
                CliTest.run("", "new", "acme", "--like", "hermes", "--dir", work.toString());
        assertEquals(0, r.code(), r.err());
        // only the folder, moved elsewhere
        Path acme = dir.resolve("elsewhere/acme");
        copyTree(work.resolve("grammars/acme"), acme);

        // every grammar it imports and every role file it includes is inside it
        Pattern importLine = Pattern.compile("(?m)^\\s*import\\s+([^;]+);");
        List<Path> grammars;
        try (var s = Files.walk(acme)) {
            grammars = s.filter(p -> p.toString().endsWith(".g4")).toList();
        }
        assertTrue(grammars.size() > 1, grammars.toString());
        for (Path g : grammars) {
            Matcher m = importLine.matcher(Files.readString(g));
            while (m.find()) {
                for (String name : m.group(1).split(",")) {
                    String n = name.strip();
                    assertTrue(
                            Files.isRegularFile(acme.resolve("imports/" + n + ".g4"))
                                    || Files.isRegularFile(acme.resolve(n + ".g4")),
                            g + " imports " + n + ", which is not in the folder");
                }
            }
        }
        JsonObject file =
                JsonParser.parseString(Files.readString(acme.resolve("acme.json")))
                        .getAsJsonObject();
        assertTrue(file.getAsJsonArray("include").size() > 0);
        for (var include : file.getAsJsonArray("include"))
            assertTrue(
                    Files.isRegularFile(acme.resolve("imports/" + include.getAsString() + ".json")),
                    "role file of " + include);
        assertTrue(Files.isRegularFile(acme.resolve(file.get("lexer").getAsString() + ".g4")));

        // check and parse with that folder alone
        Path cases = dir.resolve("cases/acme");
        Files.createDirectories(cases);
        for (int i = 0; i < 10; i++) {
            Files.writeString(cases.resolve("c" + i + ".txt"), "hi " + i);
            Files.writeString(cases.resolve("c" + i + ".json"), "{\"content\": \"hi " + i + "\"}");
        }
        CliTest.Run check =
                CliTest.run(
                        "",
                        "check",
                        "--format-dir",
                        acme.toString(),
                        "--tests",
                        dir.resolve("cases").toString(),
                        "acme");
        assertEquals(0, check.code(), check.out() + check.err());
        CliTest.Run parse =
                CliTest.run(
                        "Hi <tool_call>{\"name\": \"f\", \"arguments\": {\"a\": 1}}</tool_call>",
                        "parse",
                        "--format-dir",
                        acme.toString(),
                        "--format",
                        "acme");
        assertEquals(0, parse.code(), parse.err());
        assertTrue(
                parse.out().contains("\"name\":\"f\"")
                        && parse.out().contains("\"content\":\"Hi \""),
                parse.out());

        // the copies are what the format is made of: changing one changes the format
        Path shared = acme.resolve("imports/HermesCall.g4");
        Files.writeString(
                shared,
                Files.readString(shared)
                        .replace("'<tool_call>'", "'<acme_call>'")
                        .replace("'</tool_call>'", "'</acme_call>'"));
        parse =
                CliTest.run(
                        "<acme_call>{\"name\": \"g\"}</acme_call>",
                        "parse",
                        "--format-dir",
                        acme.toString(),
                        "--format",
                        "acme");
        assertEquals(0, parse.code(), parse.err());
        assertTrue(parse.out().contains("\"name\":\"g\""), parse.out());
    }
}
