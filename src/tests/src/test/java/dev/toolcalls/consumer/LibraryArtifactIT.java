package dev.toolcalls.consumer;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.File;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.lang.module.ModuleDescriptor;
import java.lang.module.ModuleFinder;
import java.lang.module.ModuleReference;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.TimeUnit;
import java.util.jar.JarEntry;
import java.util.jar.JarFile;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.spi.ToolProvider;
import java.util.stream.Collectors;
import java.util.stream.Stream;

/**
 * The library jar as a server project sees it, run after {@code package} (failsafe): a program on
 * the module path that requires {@code dev.toolcalls}, the jar's module descriptor, and the
 * dependencies a consumer project resolves from the artifact's POM.
 */
class LibraryArtifactIT {
    static final Path TARGET = Path.of("src/core/target");

    static Path libraryJar() throws IOException {
        try (Stream<Path> s = Files.list(TARGET)) {
            List<Path> jars =
                    s.filter(
                                    p ->
                                            p.getFileName()
                                                    .toString()
                                                    .matches("toolcalls-[^-]+(-SNAPSHOT)?\\.jar"))
                            .toList();
            assertEquals(1, jars.size(), "one library jar in src/core/target/: " + jars);
            return jars.get(0);
        }
    }

    /** A jar of the test's class path whose file name starts with {@code prefix}. */
    static Path dependency(String prefix) {
        return Arrays.stream(System.getProperty("java.class.path").split(File.pathSeparator))
                .map(Path::of)
                .filter(
                        p ->
                                p.getFileName().toString().startsWith(prefix)
                                        && p.toString().endsWith(".jar"))
                .findFirst()
                .orElseThrow(() -> new AssertionError("no " + prefix + " jar on the class path"));
    }

    static String run(Path dir, String... command) throws IOException, InterruptedException {
        Process p =
                new ProcessBuilder(command)
                        .directory(dir.toFile())
                        .redirectErrorStream(true)
                        .start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertTrue(p.waitFor(120, TimeUnit.SECONDS), "timed out: " + String.join(" ", command));
        assertEquals(0, p.exitValue(), String.join(" ", command) + " failed:\n" + out);
        return out;
    }

    static String jdkTool(String name) {
        return Path.of(System.getProperty("java.home"), "bin", name).toString();
    }

    @Test
    void aModulePathProgramParsesAndStreamsThroughTheExportedApiOnly(@TempDir Path dir)
            throws Exception {
        Path src = dir.resolve("src/consumer");
        Files.createDirectories(src.resolve("app"));
        Files.writeString(
                src.resolve("module-info.java"), "module consumer { requires dev.toolcalls; }\n");
        Files.writeString(
                src.resolve("app/Main.java"),
                String.join(
                        "\n",
                        "package app;",
                        "import dev.toolcalls.*;",
                        "import dev.toolcalls.protocol.ValueJson;",
                        "public class Main {",
                        "  public static void main(String[] a) {",
                        "    Format f = Formats.get(\"hermes\");",
                        "    String text = \"Let me check. <tool_call>{\\\"name\\\": \\\"get_weather\\\", \\\"arguments\\\": {\\\"city\\\": \\\"Paris\\\"}}</tool_call>\";",
                        "    ChatMessage m = f.parse(text, Tools.none(), ParseOptions.defaults().withIds(() -> IdGenerator.seeded(0)));",
                        "    System.out.println(\"batch \" + ValueJson.message(m));",
                        "    StreamParser s = f.newStream(Tools.none(), ParseOptions.defaults().withIds(() -> IdGenerator.seeded(0)));",
                        "    StringBuilder args = new StringBuilder();",
                        "    for (int i = 0; i < text.length(); i += 3)",
                        "      for (DeltaMessage d : DeltaMessage.of(s.feed(text.substring(i, Math.min(text.length(), i + 3)))))",
                        "        if (d.isToolCall()) args.append(d.toolCall().arguments());",
                        "    for (DeltaMessage d : DeltaMessage.of(s.finish())) if (d.isToolCall()) args.append(d.toolCall().arguments());",
                        "    System.out.println(\"streamed \" + args);",
                        "    System.out.println(\"module \" + Format.class.getModule().getName());",
                        "  }",
                        "}",
                        ""));
        String modulePath =
                String.join(
                        File.pathSeparator,
                        libraryJar().toAbsolutePath().toString(),
                        dependency("antlr4-runtime").toString(),
                        dependency("gson").toString());
        run(
                dir,
                jdkTool("javac"),
                "-d",
                "out",
                "--module-path",
                modulePath,
                "--module-source-path",
                "src",
                "-m",
                "consumer");
        String out =
                run(
                        dir,
                        jdkTool("java"),
                        "--module-path",
                        modulePath + File.pathSeparator + "out",
                        "-m",
                        "consumer/app.Main");
        assertTrue(
                out.contains(
                        "batch {\"content\":\"Let me check. \",\"tool_calls\":[{\"id\":\"call_"),
                out);
        assertTrue(
                out.contains(
                        "\"name\":\"get_weather\",\"arguments\":\"{\\\"city\\\": \\\"Paris\\\"}\""),
                out);
        assertTrue(out.contains("streamed {\"city\": \"Paris\"}"), out);
        assertTrue(out.contains("module dev.toolcalls"), out);
    }

    @Test
    void aModulePathProgramCannotReachTheInternals(@TempDir Path dir) throws Exception {
        Path src = dir.resolve("src/consumer");
        Files.createDirectories(src.resolve("app"));
        Files.writeString(
                src.resolve("module-info.java"), "module consumer { requires dev.toolcalls; }\n");
        Files.writeString(
                src.resolve("app/Main.java"),
                "package app;\npublic class Main { dev.toolcalls.internal.lex.LexerDriver d; }\n");
        String modulePath =
                String.join(
                        File.pathSeparator,
                        libraryJar().toAbsolutePath().toString(),
                        dependency("antlr4-runtime").toString(),
                        dependency("gson").toString());
        Process p =
                new ProcessBuilder(
                                jdkTool("javac"),
                                "-d",
                                "out",
                                "--module-path",
                                modulePath,
                                "--module-source-path",
                                "src",
                                "-m",
                                "consumer")
                        .directory(dir.toFile())
                        .redirectErrorStream(true)
                        .start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        p.waitFor(120, TimeUnit.SECONDS);
        assertTrue(p.exitValue() != 0 && out.contains("is not visible"), out);
    }

    @Test
    void theJarsModuleDescriptorExportsOnlyApiPackages() throws Exception {
        ModuleReference ref = ModuleFinder.of(libraryJar()).findAll().iterator().next();
        ModuleDescriptor d = ref.descriptor();
        assertEquals("dev.toolcalls", d.name());
        assertTrue(!d.isAutomatic() && !d.isOpen(), "a named, explicit, non-open module");
        Set<String> exported =
                d.exports().stream()
                        .map(ModuleDescriptor.Exports::source)
                        .collect(Collectors.toCollection(TreeSet::new));
        Set<String> api =
                d.exports().stream()
                        .filter(e -> !e.isQualified())
                        .map(ModuleDescriptor.Exports::source)
                        .collect(Collectors.toCollection(TreeSet::new));
        assertEquals(Set.of("dev.toolcalls", "dev.toolcalls.protocol"), api);
        // the runtime is exported to the project's own modules only (tools, server, command line)
        for (ModuleDescriptor.Exports e : d.exports())
            if (e.isQualified())
                assertTrue(
                        e.source().startsWith("dev.toolcalls.internal")
                                && e.targets().stream()
                                        .allMatch(t -> t.startsWith("dev.toolcalls.")),
                        e.toString());
        // every internal package (runtime, generated lexers) is in the jar, and none is exported
        assertTrue(
                d.packages().contains("dev.toolcalls.internal.grammar")
                        && d.packages().contains("dev.toolcalls.internal.lex"),
                d.packages().toString());
        for (String pkg : d.packages())
            if (pkg.contains(".internal")) assertTrue(!api.contains(pkg), pkg);
        // no package of the command line, the replay server, the suite runner or the tools
        for (String pkg : d.packages())
            assertTrue(
                    !pkg.matches("dev\\.toolcalls\\.(cli|server|suite|tools)(\\..*)?"),
                    "not a library package: " + pkg);
        Set<String> required =
                d.requires().stream()
                        .map(ModuleDescriptor.Requires::name)
                        .collect(Collectors.toCollection(TreeSet::new));
        assertEquals(Set.of("java.base", "com.google.gson", "org.antlr.antlr4.runtime"), required);
        for (ModuleDescriptor.Requires r : d.requires())
            assertTrue(
                    r.modifiers().stream()
                            .allMatch(m -> m == ModuleDescriptor.Requires.Modifier.MANDATED),
                    "neither static nor transitive: " + r);
        assertTrue(d.opens().isEmpty(), "opens nothing: " + d.opens());
    }

    /**
     * {@code javap -public} over the exported packages: the API is made of Java and toolcalls types
     * only.
     */
    @Test
    void theExportedApiShowsNoAntlrOrGsonType() throws Exception {
        List<String> classes = new ArrayList<>();
        try (JarFile jar = new JarFile(libraryJar().toFile())) {
            for (JarEntry e : Collections.list(jar.entries())) {
                String n = e.getName();
                if (n.matches("dev/toolcalls/(protocol/)?[^/]+\\.class")
                        && !n.endsWith("package-info.class"))
                    classes.add(n.substring(0, n.length() - ".class".length()).replace('/', '.'));
            }
        }
        assertTrue(
                classes.contains("dev.toolcalls.Format")
                        && classes.contains("dev.toolcalls.protocol.Protocol"),
                classes.toString());
        List<String> args = new ArrayList<>(List.of("-public", "-cp", libraryJar().toString()));
        args.addAll(classes);
        StringWriter out = new StringWriter();
        int code =
                ToolProvider.findFirst("javap")
                        .orElseThrow()
                        .run(
                                new PrintWriter(out),
                                new PrintWriter(out),
                                args.toArray(String[]::new));
        assertEquals(0, code, out.toString());
        String api = out.toString();
        assertTrue(
                api.contains("public interface dev.toolcalls.Format")
                        && api.contains("public final class dev.toolcalls.StreamParser"),
                api);
        for (String line : api.lines().toList())
            assertTrue(
                    !line.contains("org.antlr") && !line.contains("com.google.gson"),
                    "a foreign type in the API: " + line);
    }

    /**
     * A fresh Maven project depending on the artifact resolves exactly antlr4-runtime and gson at
     * run time. The artifact (jar and this project's POM, under a version of its own) is put in a
     * file repository that the consumer's POM names.
     */
    @Test
    void aConsumerProjectGetsOnlyAntlrRuntimeAndGson(@TempDir Path dir) throws Exception {
        String version = "0.0.0-consumer-check";
        Path repo = dir.resolve("repo/dev/toolcalls/toolcalls/" + version);
        Files.createDirectories(repo);
        Files.copy(libraryJar(), repo.resolve("toolcalls-" + version + ".jar"));
        // the artifact's POM and its parent's, as a repository serves them, under the check's
        // version
        Matcher m =
                Pattern.compile("<version>([^<]+)</version>")
                        .matcher(Files.readString(Path.of("pom.xml")));
        assertTrue(m.find(), "the reactor's version");
        String projectVersion = m.group(1);
        Files.writeString(
                repo.resolve("toolcalls-" + version + ".pom"),
                Files.readString(Path.of("src/core/pom.xml"), StandardCharsets.UTF_8)
                        .replace(projectVersion, version));
        Path parent = dir.resolve("repo/dev/toolcalls/toolcalls-parent/" + version);
        Files.createDirectories(parent);
        Files.writeString(
                parent.resolve("toolcalls-parent-" + version + ".pom"),
                Files.readString(Path.of("pom.xml"), StandardCharsets.UTF_8)
                        .replace(projectVersion, version));
        Path consumer = dir.resolve("consumer");
        Files.createDirectories(consumer);
        Files.writeString(
                consumer.resolve("pom.xml"),
                String.join(
                        "\n",
                        "<project xmlns=\"http://maven.apache.org/POM/4.0.0\">",
                        "  <modelVersion>4.0.0</modelVersion>",
                        "  <groupId>example</groupId><artifactId>server</artifactId><version>1</version>",
                        "  <repositories><repository><id>local-artifact</id><url>"
                                + dir.resolve("repo").toUri()
                                + "</url></repository></repositories>",
                        "  <dependencies><dependency><groupId>dev.toolcalls</groupId><artifactId>toolcalls</artifactId><version>"
                                + version
                                + "</version></dependency></dependencies>",
                        "</project>",
                        ""));
        Path list = dir.resolve("deps.txt");
        List<String> mvn =
                new ArrayList<>(
                        List.of(
                                System.getProperty("os.name").startsWith("Windows")
                                        ? "mvn.cmd"
                                        : "mvn",
                                "-B",
                                "-q"));
        String localRepo = System.getProperty("maven.repo.local");
        if (localRepo != null && !localRepo.isEmpty()) mvn.add("-Dmaven.repo.local=" + localRepo);
        mvn.addAll(
                List.of(
                        "dependency:list",
                        "-DincludeScope=runtime",
                        "-DexcludeTransitive=false",
                        "-DoutputFile=" + list,
                        "-DoutputAbsoluteArtifactFilename=false"));
        run(consumer, mvn.toArray(String[]::new));
        Set<String> deps = new TreeSet<>();
        for (String line : Files.readAllLines(list)) {
            String l = line.strip();
            if (l.matches("[\\w.\\-]+:[\\w.\\-]+:jar:.*"))
                deps.add(l.split(":")[0] + ":" + l.split(":")[1]);
        }
        assertEquals(
                Set.of(
                        "dev.toolcalls:toolcalls",
                        "org.antlr:antlr4-runtime",
                        "com.google.code.gson:gson"),
                deps,
                "runtime dependencies of a consumer:\n" + Files.readString(list));
    }
}
