package dev.toolcalls.consumer;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.google.gson.JsonObject;
import com.google.gson.JsonParser;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.BufferedReader;
import java.io.File;
import java.io.IOException;
import java.io.InputStreamReader;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

/**
 * An operator's new format, with the published jars only: a format folder that is not in the
 * repository (grammar, format file and ten cases) used through {@code --format-dir} by parse, parse
 * --stream, test, check and serve, from a {@code formats/} folder next to the jar, and through the
 * API, with the ANTLR tool on the class path (from the .g4) and without it (from the .interp that
 * {@code check --write-interp} wrote), on the class path and the module path. No Java written for
 * the format, no build.
 */
class RuntimeFormatIT {
    static final Path FIXTURE = Path.of("src/tests/src/test/resources/runtime-formats");
    static final Path CLI = Path.of("target/toolcalls.jar");

    record Result(int code, String out) {}

    static Result run(Path dir, String... command) throws IOException, InterruptedException {
        Process p =
                new ProcessBuilder(command)
                        .directory(dir.toFile())
                        .redirectErrorStream(true)
                        .start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertTrue(p.waitFor(120, TimeUnit.SECONDS), "timed out: " + String.join(" ", command));
        return new Result(p.exitValue(), out);
    }

    static Result cli(Path dir, String... args) throws IOException, InterruptedException {
        List<String> command =
                new ArrayList<>(
                        List.of(
                                LibraryArtifactIT.jdkTool("java"),
                                "-jar",
                                CLI.toAbsolutePath().toString()));
        command.addAll(List.of(args));
        return run(dir, command.toArray(String[]::new));
    }

    static void copyTree(Path from, Path to) throws IOException {
        try (Stream<Path> s = Files.walk(from)) {
            for (Path p : s.toList()) {
                Path target = to.resolve(from.relativize(p).toString());
                if (Files.isDirectory(p)) Files.createDirectories(target);
                else Files.copy(p, target);
            }
        }
    }

    @Test
    void aFormatFolderWorksWithThePublishedJarsAlone(@TempDir Path dir) throws Exception {
        copyTree(FIXTURE, dir);
        Files.writeString(
                dir.resolve("in.txt"),
                "Let me look.[[call get_weather {\"city\": \"Paris\"}]] Done.");

        Result check =
                cli(dir, "check", "--format-dir", "formats", "--tests", "cases", "--write-interp");
        assertEquals(0, check.code(), check.out());
        assertTrue(
                check.out().contains("checked 1 format: no findings")
                        && check.out().contains("AcmeLexer.interp"),
                check.out());

        Result batch = cli(dir, "parse", "--format-dir", "formats", "--format", "acme", "in.txt");
        assertEquals(0, batch.code(), batch.out());
        assertTrue(
                batch.out()
                        .startsWith(
                                "{\"content\":\"Let me look. Done.\",\"tool_calls\":[{\"id\":\"call_"),
                batch.out());
        assertTrue(
                batch.out()
                        .contains(
                                "\"name\":\"get_weather\",\"arguments\":\"{\\\"city\\\": \\\"Paris\\\"}\""),
                batch.out());

        Result stream =
                cli(
                        dir,
                        "parse",
                        "--format-dir",
                        "formats",
                        "--format",
                        "acme",
                        "--stream",
                        "--chunk-max",
                        "2",
                        "in.txt");
        assertEquals(0, stream.code(), stream.out());
        StringBuilder args = new StringBuilder();
        for (String line : stream.out().split("\n")) {
            JsonObject d = JsonParser.parseString(line).getAsJsonObject();
            if (d.has("tool_calls"))
                args.append(
                        d.getAsJsonArray("tool_calls")
                                .get(0)
                                .getAsJsonObject()
                                .getAsJsonObject("function")
                                .get("arguments")
                                .getAsString());
        }
        assertEquals("{\"city\": \"Paris\"}", args.toString(), stream.out());
        assertTrue(
                stream.out().split("\n").length > 5, "arguments stream in pieces: " + stream.out());

        Result suite = cli(dir, "test", "--format-dir", "formats", "cases");
        assertEquals(0, suite.code(), suite.out());
        assertTrue(suite.out().contains("acme        10      10       0"), suite.out());

        // a formats/ folder next to the jar needs no option
        Path bin = dir.resolve("bin");
        Files.createDirectories(bin);
        Files.copy(CLI, bin.resolve("toolcalls.jar"));
        copyTree(dir.resolve("formats"), bin.resolve("formats"));
        Result nextToJar =
                run(
                        dir,
                        LibraryArtifactIT.jdkTool("java"),
                        "-jar",
                        bin.resolve("toolcalls.jar").toString(),
                        "parse",
                        "--format",
                        "acme-chat",
                        "in.txt");
        assertEquals(batch, nextToJar);

        serve(dir);
        api(dir);
    }

    private void serve(Path dir) throws Exception {
        Process server =
                new ProcessBuilder(
                                LibraryArtifactIT.jdkTool("java"),
                                "-jar",
                                CLI.toAbsolutePath().toString(),
                                "serve",
                                "--format-dir",
                                "formats",
                                "--format",
                                "acme",
                                "--replay",
                                "cases/acme",
                                "--port",
                                "0")
                        .directory(dir.toFile())
                        .redirectErrorStream(true)
                        .start();
        try {
            BufferedReader lines =
                    new BufferedReader(
                            new InputStreamReader(server.getInputStream(), StandardCharsets.UTF_8));
            String first = lines.readLine();
            assertTrue(
                    first != null && first.startsWith("toolcalls replay server: http://127.0.0.1:"),
                    String.valueOf(first));
            String base =
                    first.substring("toolcalls replay server: ".length(), first.indexOf("/v1") + 3);
            HttpClient http = HttpClient.newHttpClient();
            HttpResponse<String> r =
                    http.send(
                            HttpRequest.newBuilder(URI.create(base + "/chat/completions"))
                                    .POST(
                                            HttpRequest.BodyPublishers.ofString(
                                                    "{\"model\": \"content-around-call\", \"messages\": []}"))
                                    .build(),
                            HttpResponse.BodyHandlers.ofString());
            assertEquals(200, r.statusCode(), r.body());
            assertTrue(
                    r.body().contains("\"content\":\"Let me look. Done.\"")
                            && r.body().contains("\"name\":\"get_weather\""),
                    r.body());
            r =
                    http.send(
                            HttpRequest.newBuilder(URI.create(base + "/chat/completions"))
                                    .POST(
                                            HttpRequest.BodyPublishers.ofString(
                                                    "{\"model\": \"two-calls\", \"stream\": true, \"messages\": []}"))
                                    .build(),
                            HttpResponse.BodyHandlers.ofString());
            assertEquals(200, r.statusCode(), r.body());
            assertTrue(
                    r.body().contains("\"name\":\"a\"")
                            && r.body().contains("\"name\":\"b\"")
                            && r.body().contains("data: [DONE]"),
                    r.body());
        } finally {
            server.destroy();
            server.waitFor(30, TimeUnit.SECONDS);
        }
    }

    /**
     * The API on the class path: the library jar, antlr4-runtime and gson, with and without the
     * ANTLR tool.
     */
    private void api(Path dir) throws Exception {
        Path src = dir.resolve("app/src/app");
        Files.createDirectories(src);
        Files.writeString(
                src.resolve("Main.java"),
                String.join(
                        "\n",
                        "package app;",
                        "import dev.toolcalls.*;",
                        "import java.nio.file.Path;",
                        "import dev.toolcalls.protocol.ValueJson;",
                        "public class Main {",
                        "  public static void main(String[] a) throws Exception {",
                        "    boolean tool;",
                        "    try { Class.forName(\"org.antlr.v4.Tool\"); tool = true; } catch (ClassNotFoundException e) { tool = false; }",
                        "    System.out.println(\"tool \" + tool);",
                        "    long t0 = System.nanoTime();",
                        "    Formats.register(Path.of(a[0]));",
                        "    System.out.println(\"problems \" + Formats.problems());",
                        "    Format acme = Formats.get(\"acme-chat\");",
                        "    System.out.printf(\"loaded in %d ms%n\", (System.nanoTime() - t0) / 1_000_000);",
                        "    String text = \"Let me look.[[call get_weather {\\\"city\\\": \\\"Paris\\\"}]] Done.\";",
                        "    ChatMessage m = acme.parse(text, Tools.none(), ParseOptions.defaults().withIds(() -> IdGenerator.seeded(0)));",
                        "    System.out.println(\"batch \" + ValueJson.message(m));",
                        "    StreamParser s = acme.newStream(Tools.none(), ParseOptions.defaults().withIds(() -> IdGenerator.seeded(0)));",
                        "    java.util.List<DeltaMessage> deltas = new java.util.ArrayList<>();",
                        "    for (int i = 0; i < text.length(); i += 3) deltas.addAll(DeltaMessage.of(s.feed(text.substring(i, Math.min(text.length(), i + 3)))));",
                        "    deltas.addAll(DeltaMessage.of(s.finish()));",
                        "    System.out.println(\"same \" + ChatMessage.fromDeltas(deltas).equals(m));",
                        "  }",
                        "}",
                        ""));
        String sep = File.pathSeparator;
        String runtimeOnly =
                String.join(
                        sep,
                        LibraryArtifactIT.libraryJar().toAbsolutePath().toString(),
                        LibraryArtifactIT.dependency("antlr4-runtime").toString(),
                        LibraryArtifactIT.dependency("gson").toString());
        Result javac =
                run(
                        dir,
                        LibraryArtifactIT.jdkTool("javac"),
                        "-d",
                        "app/out",
                        "-cp",
                        runtimeOnly,
                        "app/src/app/Main.java");
        assertEquals(0, javac.code(), javac.out());

        Result interp =
                run(
                        dir,
                        LibraryArtifactIT.jdkTool("java"),
                        "-cp",
                        runtimeOnly + sep + "app/out",
                        "app.Main",
                        "formats");
        assertEquals(0, interp.code(), interp.out());
        assertTrue(
                interp.out().contains("tool false") && interp.out().contains("problems []"),
                interp.out());
        assertTrue(
                interp.out()
                        .contains(
                                "batch {\"content\":\"Let me look. Done.\",\"tool_calls\":[{\"id\":\"call_"),
                interp.out());
        assertTrue(
                interp.out().contains("\"name\":\"get_weather\"")
                        && interp.out().contains("same true"),
                interp.out());

        Files.delete(dir.resolve("formats/acme/AcmeLexer.interp"));
        String withTool =
                String.join(
                        sep,
                        runtimeOnly,
                        LibraryArtifactIT.dependency("antlr4-4").toString(),
                        LibraryArtifactIT.dependency("ST4").toString(),
                        LibraryArtifactIT.dependency("antlr-runtime").toString());
        Result g4 =
                run(
                        dir,
                        LibraryArtifactIT.jdkTool("java"),
                        "-cp",
                        withTool + sep + "app/out",
                        "app.Main",
                        "formats");
        assertEquals(0, g4.code(), g4.out());
        assertTrue(
                g4.out().contains("tool true")
                        && g4.out().contains("problems []")
                        && g4.out().contains("same true"),
                g4.out());
        assertEquals(
                interp.out().replaceAll("(?m)^(tool|loaded).*$", ""),
                g4.out().replaceAll("(?m)^(tool|loaded).*$", ""));

        // the same on the module path, with the runtime alone: a named module reads the interpreter
        // data
        Path mod = dir.resolve("mod/src/consumer");
        Files.createDirectories(mod.resolve("app"));
        Files.writeString(
                mod.resolve("module-info.java"), "module consumer { requires dev.toolcalls; }\n");
        Files.writeString(mod.resolve("app/Main.java"), Files.readString(src.resolve("Main.java")));
        Result write = cli(dir, "check", "--format-dir", "formats", "--write-interp");
        assertEquals(0, write.code(), write.out());
        Result modJavac =
                run(
                        dir,
                        LibraryArtifactIT.jdkTool("javac"),
                        "-d",
                        "mod/out",
                        "--module-path",
                        runtimeOnly,
                        "--module-source-path",
                        "mod/src",
                        "-m",
                        "consumer");
        assertEquals(0, modJavac.code(), modJavac.out());
        Result onModulePath =
                run(
                        dir,
                        LibraryArtifactIT.jdkTool("java"),
                        "--module-path",
                        runtimeOnly + sep + "mod/out",
                        "-m",
                        "consumer/app.Main",
                        "formats");
        assertEquals(0, onModulePath.code(), onModulePath.out());
        assertEquals(
                interp.out().replaceAll("(?m)^loaded.*$", ""),
                onModulePath.out().replaceAll("(?m)^loaded.*$", ""));
        Files.delete(dir.resolve("formats/acme/AcmeLexer.interp"));

        // without the tool, a .g4 alone is a clear problem, not a crash
        Result missing =
                run(
                        dir,
                        LibraryArtifactIT.jdkTool("java"),
                        "-cp",
                        runtimeOnly + sep + "app/out",
                        "app.Main",
                        "formats");
        assertTrue(
                missing.code() != 0
                        && missing.out()
                                .contains(
                                        "needs the ANTLR tool (org.antlr:antlr4) on the class path")
                        && missing.out().contains("--write-interp"),
                missing.out());
    }
}
