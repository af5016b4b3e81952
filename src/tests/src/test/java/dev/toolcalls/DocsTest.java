package dev.toolcalls;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import dev.toolcalls.internal.lex.Role;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import java.util.stream.Stream;

/**
 * The documentation says what the code does: the generated page of formats matches {@code
 * grammars/}, the README stays short, every error kind has its troubleshooting heading (and its
 * message points there), the roles "How it works" lists are the runtime's, and every relative link
 * resolves.
 */
class DocsTest {
    static final String REGENERATE =
            "java -cp target/toolcalls.jar src/build/GenerateFormatDocs.java grammars docs/formats.md";
    static final Pattern LINK =
            Pattern.compile(
                    "\\[(?:[^\\[\\]]|\\[[^\\]]*\\])*\\]\\(([^)\\s]+)(?:\\s+\"[^\"]*\")?\\)");
    static final Pattern POINTER =
            Pattern.compile(
                    "\\(see https://github\\.com/toolcalls/toolcalls/blob/main/(docs/[a-z-]+\\.md)#([a-z0-9_-]+)\\)$");

    /**
     * The repository's top folder: where grammars/ and README.md are, at or above the working
     * folder.
     */
    static Path root() {
        for (Path p = Path.of("").toAbsolutePath(); p != null; p = p.getParent())
            if (Files.isDirectory(p.resolve("grammars"))
                    && Files.isRegularFile(p.resolve("README.md"))
                    && Files.isRegularFile(p.resolve("src/build/GenerateFormatDocs.java")))
                return p;
        throw new IllegalStateException(
                "no repository (grammars/, README.md) at or above " + Path.of("").toAbsolutePath());
    }

    static String read(Path p) throws IOException {
        return Files.readString(p, StandardCharsets.UTF_8);
    }

    @Test
    void formatsPageIsWhatGrammarsGiveNow(@TempDir Path tmp) throws Exception {
        Path root = root();
        Path generated = tmp.resolve("formats.md");
        Process p =
                new ProcessBuilder(
                                Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                                "-cp",
                                System.getProperty("java.class.path"),
                                root.resolve("src/build/GenerateFormatDocs.java").toString(),
                                root.resolve("grammars").toString(),
                                generated.toString())
                        .redirectErrorStream(true)
                        .start();
        String log = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertTrue(p.waitFor(120, TimeUnit.SECONDS), "the generator did not finish");
        assertEquals(0, p.exitValue(), "src/build/GenerateFormatDocs.java failed: " + log);
        String want = read(generated);
        Path page = root.resolve("docs/formats.md");
        String have = Files.isRegularFile(page) ? read(page) : "";
        if (!want.equals(have)) {
            String[] w = want.split("\n", -1);
            String[] h = have.split("\n", -1);
            int line = 0;
            while (line < Math.min(w.length, h.length) && w[line].equals(h[line])) line++;
            fail(
                    "docs/formats.md is stale: it differs from what grammars/ gives now, first at line "
                            + (line + 1)
                            + " (page: "
                            + excerpt(h, line)
                            + "; grammars: "
                            + excerpt(w, line)
                            + "). Regenerate it from the repository's top folder: "
                            + REGENERATE);
        }
    }

    static String excerpt(String[] lines, int i) {
        if (i >= lines.length) return "(end of page)";
        String l = lines[i];
        return "'" + (l.length() > 120 ? l.substring(0, 120) + "…" : l) + "'";
    }

    @Test
    void readmeFitsInThreeHundredLines() throws IOException {
        long lines = read(root().resolve("README.md")).lines().count();
        assertTrue(
                lines <= 300,
                "README.md has " + lines + " lines; at most 300 (the rest belongs in docs/)");
    }

    @Test
    void everyErrorKindHasItsTroubleshootingHeadingAndItsMessagePointsThere() throws IOException {
        Path root = root();
        Set<String> anchors = anchors(root.resolve("docs/troubleshooting.md"));
        for (ToolCallParseException.Kind kind : ToolCallParseException.Kind.values()) {
            String type = kind.name().toLowerCase(Locale.ROOT);
            assertTrue(
                    anchors.contains(type),
                    "docs/troubleshooting.md has no heading for "
                            + type
                            + " (anchors: "
                            + anchors
                            + ")");
            String message =
                    new ToolCallParseException("fmt", kind, 3, "hi <x", "what is wrong")
                            .getMessage();
            Matcher m = POINTER.matcher(message);
            assertTrue(m.find(), "the message does not end with its pointer: " + message);
            assertEquals("docs/troubleshooting.md", m.group(1), message);
            assertEquals(type, m.group(2), message);
        }
        Matcher m =
                POINTER.matcher(
                        new FormatException("acme/acme.json: format acme: broken").getMessage());
        assertTrue(
                m.find() && anchors.contains(m.group(2)),
                "a format error points at a heading of docs/troubleshooting.md");
        String once = new FormatException(new FormatException("broken").getMessage()).getMessage();
        assertEquals(
                1,
                once.split("troubleshooting", -1).length - 1,
                "the pointer appears once: " + once);
        // the command line's own error types and exit codes
        for (String anchor :
                List.of(
                        "format_error",
                        "invalid_input",
                        "invalid_utf8",
                        "internal_error",
                        "too_large",
                        "usage-errors",
                        "exit-code-0",
                        "exit-code-1",
                        "exit-code-2",
                        "exit-code-3"))
            assertTrue(
                    anchors.contains(anchor),
                    "docs/troubleshooting.md has no heading for "
                            + anchor
                            + " (anchors: "
                            + anchors
                            + ")");
    }

    @Test
    void roleTablesListExactlyTheRuntimesRoles() throws IOException {
        Set<String> roles =
                Arrays.stream(Role.values())
                        .map(r -> r.wire)
                        .collect(Collectors.toCollection(TreeSet::new));
        Map<String, Set<String>> tables = roleTables();
        assertTrue(
                tables.containsKey("how-it-works.md"),
                "docs/how-it-works.md lists the roles in a table whose first column is 'role'");
        for (Map.Entry<String, Set<String>> t : tables.entrySet()) {
            Set<String> missing = new TreeSet<>(roles);
            Set<String> extra = new TreeSet<>(t.getValue());
            missing.removeAll(t.getValue());
            extra.removeAll(roles);
            assertTrue(
                    missing.isEmpty() && extra.isEmpty(),
                    "the role table of docs/"
                            + t.getKey()
                            + " is not "
                            + Role.class.getName()
                            + ": missing "
                            + missing
                            + ", not roles "
                            + extra);
        }
    }

    /**
     * Every table in docs/*.md whose first column is headed "role": the roles its rows name ({@code
     * `a` / `b`} names two).
     */
    static Map<String, Set<String>> roleTables() throws IOException {
        Map<String, Set<String>> out = new HashMap<>();
        for (Path doc : docs()) {
            if (doc.getFileName().toString().equals("README.md") && doc.getParent().equals(root()))
                continue;
            Set<String> rows = null;
            for (String line : read(doc).lines().toList()) {
                if (line.matches("\\|\\s*role\\s*\\|.*")) {
                    rows =
                            out.computeIfAbsent(
                                    doc.getFileName().toString(), k -> new LinkedHashSet<>());
                } else if (rows != null && line.startsWith("|")) {
                    if (line.matches("\\|[-\\s|:]+")) continue;
                    String first = line.substring(1, line.indexOf('|', 1));
                    Matcher m = Pattern.compile("`([^`]+)`").matcher(first);
                    while (m.find()) rows.add(m.group(1));
                } else {
                    rows = null;
                }
            }
        }
        return out;
    }

    @Test
    void everyRelativeLinkPointsAtAFileAndHeadingThatExist() throws IOException {
        List<String> broken = new ArrayList<>();
        Map<Path, Set<String>> anchorCache = new HashMap<>();
        for (Path doc : docs()) {
            for (String target : links(read(doc))) {
                if (target.matches("(?i)[a-z][a-z0-9+.-]*:.*")) continue; // https:, mailto:
                int hash = target.indexOf('#');
                String file = hash < 0 ? target : target.substring(0, hash);
                String anchor = hash < 0 ? null : target.substring(hash + 1);
                Path to = file.isEmpty() ? doc : doc.getParent().resolve(file).normalize();
                if (!Files.exists(to)) {
                    broken.add(root().relativize(doc) + ": " + target + " (no such file)");
                    continue;
                }
                if (anchor != null
                        && to.toString().endsWith(".md")
                        && !anchorCache
                                .computeIfAbsent(to, DocsTest::anchorsUnchecked)
                                .contains(anchor))
                    broken.add(
                            root().relativize(doc)
                                    + ": "
                                    + target
                                    + " (no such heading in "
                                    + root().relativize(to)
                                    + ")");
            }
        }
        assertTrue(broken.isEmpty(), "broken links:\n" + String.join("\n", broken));
    }

    /** README.md and every page under docs/. */
    static List<Path> docs() throws IOException {
        Path root = root();
        List<Path> out = new ArrayList<>(List.of(root.resolve("README.md")));
        try (Stream<Path> s = Files.list(root.resolve("docs"))) {
            s.filter(p -> p.toString().endsWith(".md")).sorted().forEach(out::add);
        }
        return out;
    }

    /** The targets of the Markdown links of a page, outside code blocks and code spans. */
    static List<String> links(String markdown) {
        List<String> out = new ArrayList<>();
        for (String line : prose(markdown)) {
            Matcher m = LINK.matcher(line.replaceAll("``[^`]*``|`[^`]*`", "code"));
            while (m.find()) out.add(m.group(1));
        }
        return out;
    }

    /** The lines of a page outside fenced code blocks. */
    static List<String> prose(String markdown) {
        List<String> out = new ArrayList<>();
        boolean fenced = false;
        for (String line : markdown.lines().toList()) {
            if (line.stripLeading().startsWith("```")) {
                fenced = !fenced;
                continue;
            }
            if (!fenced) out.add(line);
        }
        return out;
    }

    static Set<String> anchorsUnchecked(Path page) {
        try {
            return anchors(page);
        } catch (IOException e) {
            throw new IllegalStateException(e);
        }
    }

    /**
     * The anchors GitHub gives a page's headings (a repeated one gets -1, -2 ...), and explicit
     * {@code id}s.
     */
    static Set<String> anchors(Path page) throws IOException {
        Set<String> out = new LinkedHashSet<>();
        Map<String, Integer> seen = new HashMap<>();
        for (String line : prose(read(page))) {
            Matcher h = Pattern.compile("^#{1,6}\\s+(.*?)\\s*#*\\s*$").matcher(line);
            if (h.matches()) {
                String slug = slug(h.group(1));
                int n = seen.merge(slug, 1, Integer::sum);
                out.add(n == 1 ? slug : slug + "-" + (n - 1));
            }
            Matcher id = Pattern.compile("<a (?:name|id)=\"([^\"]+)\"").matcher(line);
            while (id.find()) out.add(id.group(1));
        }
        return out;
    }

    /**
     * GitHub's heading anchor: link text kept, lower case, only letters, digits, '-', '_' and
     * spaces, spaces as '-'.
     */
    static String slug(String heading) {
        String text =
                heading.replaceAll("\\[([^\\]]*)\\]\\([^)]*\\)", "$1").toLowerCase(Locale.ROOT);
        return text.replaceAll("[^\\p{L}\\p{N}\\p{M} _-]", "").replace(' ', '-');
    }

    @Test
    void slugsAreGitHubs() {
        assertEquals("malformed_arguments", slug("`malformed_arguments`"));
        assertEquals("exit-code-2", slug("Exit code 2"));
        assertEquals("registry-names", slug("Registry names"));
        assertEquals("check-the-mistakes-it-names", slug("`check`: the mistakes it names"));
        assertFalse(slug("A [link](x.md) here").contains("x.md"));
    }
}
