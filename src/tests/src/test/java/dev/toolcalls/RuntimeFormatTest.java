package dev.toolcalls;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.toolcalls.internal.format.FormatFile;
import dev.toolcalls.internal.format.FormatFolders;
import dev.toolcalls.protocol.ValueJson;
import dev.toolcalls.suite.CaseRunner;
import dev.toolcalls.suite.SuiteCase;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.File;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import java.util.stream.Stream;

/**
 * Formats read at run time from a folder (Formats.load, FormatRegistry.withFolder): from the .g4
 * with the ANTLR tool, from the .interp with the runtime alone, or reusing a bundled lexer; they
 * behave exactly like bundled formats, and a broken one disables only itself.
 */
class RuntimeFormatTest {
    static final Path FIXTURE = Path.of("src/tests/src/test/resources/runtime-formats");

    static final ParseOptions SEEDED = ParseOptions.defaults().withIds(() -> IdGenerator.seeded(0));

    @TempDir Path dir;

    /** A copy of the fixture's format folders (acme), to change at will. */
    static Path formats(Path dir) {
        copyTree(FIXTURE.resolve("formats"), dir.resolve("formats"));
        return dir.resolve("formats");
    }

    static void copyTree(Path from, Path to) {
        try (Stream<Path> s = Files.walk(from)) {
            for (Path p : s.toList()) {
                Path target = to.resolve(from.relativize(p).toString());
                if (Files.isDirectory(p)) Files.createDirectories(target);
                else Files.copy(p, target);
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    static void write(Path file, String text) {
        try {
            Files.createDirectories(file.getParent());
            Files.writeString(file, text, StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    @Test
    void aFolderFormatParsesAndStreamsLikeABundledOne() {
        List<Format> loaded = Formats.load(formats(dir));
        assertEquals(1, loaded.size());
        Format acme = loaded.get(0);
        assertEquals("acme", acme.name());
        assertEquals(List.of("acme-chat"), acme.aliases());
        assertTrue(acme.origin().endsWith("acme" + File.separator + "acme.json"), acme.origin());
        assertTrue(acme.problem().isEmpty());
        String text = "Let me look.[[call get_weather {\"city\": \"Paris\"}]] Done.";
        ChatMessage m = acme.parse(text, Tools.none(), SEEDED);
        assertEquals("Let me look. Done.", m.content());
        assertEquals("get_weather", m.toolCalls().get(0).name());
        assertEquals("{\"city\": \"Paris\"}", m.toolCalls().get(0).arguments());
        StreamParser s = acme.newStream(Tools.none(), SEEDED);
        List<DeltaMessage> deltas = new ArrayList<>();
        for (int i = 0; i < text.length(); i++)
            deltas.addAll(DeltaMessage.of(s.feed(text.substring(i, i + 1))));
        deltas.addAll(DeltaMessage.of(s.finish()));
        assertEquals(m, ChatMessage.fromDeltas(deltas));
        assertTrue(
                deltas.stream().filter(DeltaMessage::isToolCall).count() > 3,
                "arguments stream as they arrive: " + deltas);
    }

    @Test
    void theRuntimeFormatsCasesPassUnderEveryChunking() {
        FormatRegistry registry = FormatRegistry.standard().withFolder(formats(dir));
        CaseRunner runner = CaseRunner.standard().withFormats(registry);
        List<SuiteCase> cases = SuiteCase.load(FIXTURE.resolve("cases")).get("acme");
        assertEquals(10, cases.size());
        for (SuiteCase c : cases) assertEquals(List.of(), runner.run(c), c.toString());
    }

    /**
     * A copy of a bundled grammar loaded at run time gives exactly what the bundled format gives on
     * every one of its cases, batch and streamed: same hold-back, same deltas.
     */
    @Test
    void aBundledGrammarLoadedAtRunTimeBehavesExactlyLikeTheBundledFormat() throws IOException {
        Path folder = dir.resolve("formats/hermes_copy");
        String grammar =
                Files.readString(Path.of("grammars/hermes/HermesLexer.g4"))
                        .replace("lexer grammar HermesLexer;", "lexer grammar HermesCopyLexer;");
        write(folder.resolve("HermesCopyLexer.g4"), grammar);
        write(
                folder.resolve("hermes_copy.json"),
                Files.readString(Path.of("grammars/hermes/hermes.json"))
                        .replace("\"name\": \"hermes\"", "\"name\": \"hermes_copy\"")
                        .replace("\"lexer\": \"HermesLexer\"", "\"lexer\": \"HermesCopyLexer\"")
                        .replaceAll("\"aliases\": \\[[^\\]]*\\]", "\"aliases\": []"));
        FormatRegistry registry = FormatRegistry.standard().withFolder(dir.resolve("formats"));
        Format copy = registry.get("hermes_copy");
        Format bundled = registry.get("hermes");
        CaseRunner runner = CaseRunner.standard().withFormats(registry);
        List<SuiteCase> cases = SuiteCase.load(Path.of("tests-data")).get("hermes");
        assertTrue(cases.size() >= 10);
        for (SuiteCase c : cases) {
            SuiteCase renamed =
                    new SuiteCase("hermes_copy", c.name(), c.rawFile(), c.input(), c.expected());
            assertEquals(List.of(), runner.run(renamed), renamed.toString());
            assertEquals(outcome(bundled, c), outcome(copy, c), c.toString());
            for (int cut = 1; cut < c.input().length(); cut += 7)
                assertEquals(
                        streamed(bundled, c, cut), streamed(copy, c, cut), c + " split at " + cut);
        }
    }

    private static String outcome(Format f, SuiteCase c) {
        try {
            return ValueJson.message(f.parse(c.input(), Tools.none(), c.options()));
        } catch (ToolCallParseException e) {
            return e.kind() + "@" + e.offset();
        }
    }

    /** The deltas as sent, chunk by chunk: the hold-back shows in where they fall. */
    private static List<String> streamed(Format f, SuiteCase c, int cut) {
        StreamParser s = f.newStream(Tools.none(), c.options());
        List<String> out = new ArrayList<>();
        try {
            out.add(DeltaMessage.of(s.feed(c.input().substring(0, cut))).toString());
            out.add(DeltaMessage.of(s.feed(c.input().substring(cut))).toString());
            out.add(DeltaMessage.of(s.finish()).toString());
        } catch (ToolCallParseException e) {
            out.add(e.kind() + "@" + e.offset() + " " + DeltaMessage.of(e.eventsBeforeError()));
        }
        return out;
    }

    @Test
    void withTheRuntimeAloneAFolderLoadsFromTheInterpreterDataTheToolWrote() throws IOException {
        Path formats = formats(dir);
        List<Path> written = FormatFolders.writeInterp(formats);
        Path interp = formats.resolve("acme/AcmeLexer.interp");
        assertEquals(List.of(interp), written);
        assertEquals(
                List.of(),
                FormatFolders.writeInterp(formats),
                "an unchanged .interp is not rewritten");
        Files.delete(
                formats.resolve(
                        "acme/AcmeLexer.g4")); // the ANTLR tool is on this class path: take the .g4
        // away
        Format acme = Formats.load(formats).get(0);
        assertTrue(acme.problem().isEmpty(), () -> acme.problem().get().getMessage());
        assertEquals("ping", acme.parse("[[call ping]]").toolCalls().get(0).name());

        Files.writeString(interp, "token literal names:\nnull\n\natn:\n[1, 2\n");
        String m = Formats.load(formats).get(0).problem().orElseThrow().getMessage();
        assertTrue(m.contains("AcmeLexer.interp"), m);
    }

    @Test
    void aFormatFileMayReuseABundledLexerWithOtherOptions() {
        write(
                dir.resolve("formats/hermes_ids/hermes_ids.json"),
                "{\"name\": \"hermes_ids\", \"lexer\": \"HermesLexer\", \"ids\": \"{random:9}\","
                        + " \"include\": [\"HermesCall\", \"JsonCall\", \"JsonValue\", \"HermesLenient\"], \"roles\": {\"TEXT\": \"content\", \"LT\": \"content\"}, \"streamable\": [\"TEXT\"]}");
        Format f = Formats.load(dir.resolve("formats")).get(0);
        assertTrue(f.problem().isEmpty(), () -> f.problem().get().getMessage());
        ToolCall call =
                f.parse("<tool_call>{\"name\": \"f\", \"arguments\": {}}</tool_call>")
                        .toolCalls()
                        .get(0);
        assertTrue(call.id().matches("[A-Za-z0-9]{9}"), call.id());
    }

    /** A format file reusing the bundled Hermes lexer, with these aliases. */
    static String hermesLike(String name, int aliases) {
        StringBuilder a = new StringBuilder();
        for (int i = 0; i < aliases; i++)
            a.append(i == 0 ? "" : ", ")
                    .append("\"")
                    .append(name)
                    .append("-alias-")
                    .append(i)
                    .append("\"");
        return "{\"name\": \""
                + name
                + "\", \"aliases\": ["
                + a
                + "], \"lexer\": \"HermesLexer\", \"include\": [\"HermesCall\", \"JsonCall\", "
                + "\"JsonValue\", \"HermesLenient\"], \"roles\": {\"TEXT\": \"content\", \"LT\": \"content\"}, \"streamable\": [\"TEXT\"]}";
    }

    /**
     * A format file may give its format at most {@link
     * dev.toolcalls.internal.format.FormatFile#MAX_ALIASES} aliases and hold at most {@link
     * dev.toolcalls.internal.format.FormatFile#MAX_SIZE} bytes: one at the limit registers every
     * alias, one past either limit is disabled with a message naming its file and the limit, and
     * the others (bundled ones included) work as before.
     */
    @Test
    void aliasesAndFormatFilesHaveALimit() {
        int max = FormatFile.MAX_ALIASES;
        Path formats = dir.resolve("formats");
        write(formats.resolve("most/most.json"), hermesLike("most", max));
        write(formats.resolve("toomany/toomany.json"), hermesLike("toomany", max + 1));
        write(formats.resolve("huge/huge.json"), hermesLike("huge", 100_000)); // about 1.7 MB

        FormatRegistry registry = FormatRegistry.standard().withFolder(formats);
        assertEquals("most", registry.get("MOST-alias-" + (max - 1)).name());
        assertEquals("most", registry.get("most-alias-0").name());
        assertEquals(
                "f",
                registry.get("most-alias-" + (max - 1))
                        .parse("<tool_call>{\"name\": \"f\"}</tool_call>")
                        .toolCalls()
                        .get(0)
                        .name());
        assertEquals("hermes", registry.get("hermes").name());

        String tooMany =
                assertThrows(FormatException.class, () -> registry.get("toomany")).getMessage();
        assertTrue(
                tooMany.contains(formats.resolve("toomany/toomany.json").toString())
                        && tooMany.contains((max + 1) + " names")
                        && tooMany.contains("more than the " + max),
                tooMany);
        String huge = assertThrows(FormatException.class, () -> registry.get("huge")).getMessage();
        assertTrue(
                huge.contains(formats.resolve("huge/huge.json").toString())
                        && huge.contains("larger than 1 MiB"),
                huge);
        assertFalse(
                registry.find("toomany-alias-0").isPresent(),
                "a refused format file registers none of its aliases");
        assertFalse(
                registry.find("huge-alias-0").isPresent(),
                "a refused format file registers none of its aliases");
        assertEquals(2, registry.problems().size(), registry.problems().toString());

        // the same limits for a format defined from its text
        FormatException defined =
                assertThrows(
                        FormatException.class,
                        () ->
                                Formats.define(
                                        hermesLike("defined", max + 1),
                                        "not interpreter data: refused before it is read",
                                        n -> null));
        assertTrue(defined.getMessage().contains("more than the " + max), defined.getMessage());
    }

    /**
     * Every path a format folder names stays inside it: an include that climbs out ({@code ../..})
     * or is absolute, and a role file or grammar that is a link to a file outside, disable the
     * format with a message naming the path, and nothing outside is read (the files there are not
     * JSON: reading one would say so). A role file in imports/ and the bundled ones still load.
     */
    @Test
    void pathsAFormatFolderNamesStayInsideIt() throws IOException {
        Path formats = dir.resolve("formats");
        write(dir.resolve("secret.json"), "secret, not JSON");
        write(formats.resolve("secret.json"), "secret, not JSON");
        write(
                dir.resolve("outside/OutLexer.g4"),
                "lexer grammar OutLexer;\nTEXT : ~'<'+ ;\nLT : '<' ;\n");
        String hermes =
                "\"lexer\": \"HermesLexer\", \"roles\": {\"TEXT\": \"content\", \"LT\": \"content\"}, \"streamable\": [\"TEXT\"]";
        String bundled = "\"HermesCall\", \"JsonCall\", \"JsonValue\", \"HermesLenient\"";
        write(
                formats.resolve("climb/climb.json"),
                "{\"name\": \"climb\", \"include\": ["
                        + bundled
                        + ", \"../../secret\"], "
                        + hermes
                        + "}");
        write(
                formats.resolve("absolute/absolute.json"),
                "{\"name\": \"absolute\", \"include\": ["
                        + bundled
                        + ", \""
                        + dir.resolve("secret").toAbsolutePath().toString().replace("\\", "\\\\")
                        + "\"], "
                        + hermes
                        + "}");
        write(formats.resolve("imports/Extra.json"), "{\"roles\": {\"LT\": \"content\"}}");
        write(
                formats.resolve("inside/inside.json"),
                "{\"name\": \"inside\", \"include\": ["
                        + bundled
                        + ", \"Extra\"], "
                        + hermes
                        + "}");
        boolean links = true;
        try {
            Files.createSymbolicLink(
                    formats.resolve("imports/Linked.json"),
                    dir.resolve("secret.json").toAbsolutePath());
            Files.createDirectories(formats.resolve("linkedlexer"));
            Files.createSymbolicLink(
                    formats.resolve("linkedlexer/OutLexer.g4"),
                    dir.resolve("outside/OutLexer.g4").toAbsolutePath());
        } catch (UnsupportedOperationException | IOException e) {
            links = false; // a file system without symbolic links
        }
        if (links) {
            write(
                    formats.resolve("linked/linked.json"),
                    "{\"name\": \"linked\", \"include\": ["
                            + bundled
                            + ", \"Linked\"], "
                            + hermes
                            + "}");
            write(
                    formats.resolve("linkedlexer/linkedlexer.json"),
                    "{\"name\": \"linkedlexer\", \"lexer\": \"OutLexer\", "
                            + "\"roles\": {\"TEXT\": \"content\", \"LT\": \"content\"}}");
        }

        FormatRegistry registry = FormatRegistry.standard().withFolder(formats);
        assertEquals(
                "f",
                registry.get("inside")
                        .parse("<tool_call>{\"name\": \"f\"}</tool_call>")
                        .toolCalls()
                        .get(0)
                        .name());
        Map<String, String> refused = new LinkedHashMap<>();
        refused.put("climb", "\"../../secret.json\" is not a file inside");
        refused.put(
                "absolute",
                "\"" + dir.resolve("secret").toAbsolutePath() + ".json\" is not a file inside");
        if (links) {
            refused.put(
                    "linked", "\"Linked.json\" is not a file inside " + formats.resolve("imports"));
            refused.put(
                    "linkedlexer",
                    "\"OutLexer.g4\" is not a file inside " + formats.resolve("linkedlexer"));
        }
        for (Map.Entry<String, String> r : refused.entrySet()) {
            String m =
                    assertThrows(FormatException.class, () -> registry.get(r.getKey()), r.getKey())
                            .getMessage();
            assertTrue(
                    m.contains(formats.resolve(r.getKey() + "/" + r.getKey() + ".json").toString())
                            && m.contains(r.getValue()),
                    m);
            assertFalse(
                    m.contains("not valid JSON") || m.contains("secret,"),
                    "nothing outside was read: " + m);
        }
        assertEquals(refused.size(), registry.problems().size(), registry.problems().toString());
    }

    @Test
    void oneFormatFolderAloneLoadsToo() {
        Path acme = formats(dir).resolve("acme");
        assertEquals(List.of("acme"), Formats.load(acme).stream().map(Format::name).toList());
        assertThrows(
                IllegalArgumentException.class, () -> Formats.load(dir.resolve("nothing-here")));
        Path empty = dir.resolve("empty");
        write(empty.resolve("notes.txt"), "no format here");
        String m =
                assertThrows(IllegalArgumentException.class, () -> Formats.load(empty))
                        .getMessage();
        assertTrue(m.contains("no format folder"), m);
    }

    /**
     * Beside one good format: a format file that is not JSON, a token without a role, a streamable
     * token that is not safe to cut, a grammar error, and a name a bundled format holds. Each is
     * reported once with its file and disables only itself.
     */
    @Test
    void aBrokenFormatDisablesOnlyItself() {
        Path formats = formats(dir);
        write(formats.resolve("badjson/badjson.json"), "{\"name\": \"badjson\", ");
        write(
                formats.resolve("norole/NoroleLexer.g4"),
                "lexer grammar NoroleLexer;\nTEXT : ~'<'+ ;\nLT : '<' ;\n");
        write(
                formats.resolve("norole/norole.json"),
                "{\"name\": \"norole\", \"lexer\": \"NoroleLexer\", \"roles\": {\"TEXT\": \"content\"}}");
        write(
                formats.resolve("uncut/UncutLexer.g4"),
                "lexer grammar UncutLexer;\nTEXT : ~'x'+ ;\nX : 'x' ;\nOPEN : '<c>' ;\n");
        write(
                formats.resolve("uncut/uncut.json"),
                "{\"name\": \"uncut\", \"lexer\": \"UncutLexer\", \"roles\": {\"TEXT\": \"content\", \"X\": \"content\","
                        + " \"OPEN\": \"call.begin\"}, \"streamable\": [\"TEXT\"]}");
        write(
                formats.resolve("syntax/SyntaxLexer.g4"),
                "lexer grammar SyntaxLexer;\nTEXT : ~'<'+ \nLT : '<' ;\n");
        write(
                formats.resolve("syntax/syntax.json"),
                "{\"name\": \"syntax\", \"lexer\": \"SyntaxLexer\", \"roles\": {\"TEXT\": \"content\", \"LT\": \"content\"}}");
        write(
                formats.resolve("clash/ClashLexer.g4"),
                "lexer grammar ClashLexer;\nTEXT : ~'<'+ ;\nLT : '<' ;\n");
        write(
                formats.resolve("clash/clash.json"),
                "{\"name\": \"clash\", \"aliases\": [\"Qwen2.5\"], \"lexer\": \"ClashLexer\", "
                        + "\"roles\": {\"TEXT\": \"content\", \"LT\": \"content\"}}");

        FormatRegistry registry = FormatRegistry.standard().withFolder(formats);
        assertEquals(
                "get_weather",
                registry.get("acme").parse("[[call get_weather {}]]").toolCalls().get(0).name());
        assertEquals(
                "hermes", registry.get("qwen2.5").name(), "the bundled holder keeps its alias");
        assertEquals(
                "f",
                registry.get("hermes")
                        .parse("<tool_call>{\"name\": \"f\"}</tool_call>")
                        .toolCalls()
                        .get(0)
                        .name());

        Map<String, String> problems =
                registry.problems().stream()
                        .collect(
                                Collectors.toMap(
                                        p ->
                                                p.getMessage()
                                                        .replaceAll(
                                                                "(?s).*?(badjson|norole|uncut|syntax|clash).*",
                                                                "$1"),
                                        Throwable::getMessage));
        assertEquals(5, registry.problems().size(), problems.toString());
        assertTrue(
                problems.get("badjson").contains("badjson.json")
                        && problems.get("badjson").contains("not valid JSON"),
                problems.get("badjson"));
        assertTrue(
                problems.get("norole").contains("norole.json")
                        && problems.get("norole").contains("token type LT has no role"),
                problems.get("norole"));
        assertTrue(
                problems.get("uncut")
                        .contains(
                                "streamable token TEXT and token OPEN can start with the same character"),
                problems.get("uncut"));
        assertTrue(
                problems.get("syntax").matches("(?s).*SyntaxLexer\\.g4:\\d+:\\d+: .*"),
                problems.get("syntax"));
        assertTrue(
                problems.get("clash").contains("'qwen2.5'")
                        && problems.get("clash").contains("clash.json")
                        && problems.get("clash").contains("grammars/hermes/hermes.json"),
                problems.get("clash"));
        for (String broken : List.of("badjson", "norole", "uncut", "syntax", "clash")) {
            FormatException e =
                    assertThrows(FormatException.class, () -> registry.get(broken), broken);
            assertTrue(e.getMessage().equals(problems.get(broken)), e.getMessage());
            Format found =
                    registry.find(broken)
                            .orElseThrow(
                                    () ->
                                            new AssertionError(
                                                    "find returns the disabled format " + broken));
            assertEquals(broken, found.name());
            assertEquals(problems.get(broken), found.problem().orElseThrow().getMessage());
        }
        assertFalse(
                Formats.all().stream().anyMatch(f -> f.name().equals("acme")),
                "withFolder leaves the process registry alone");
    }

    @Test
    void aNameTakenTwiceDisablesTheLaterFormatOnly() {
        Format first = Formats.get("toy");
        Format second =
                ToyFormats.compile(
                        ToyFormats.resource("dev/toolcalls/toy/ToyLexer.g4"),
                        ToyFormats.resource("dev/toolcalls/toy/toy.json")
                                .replace("\"name\": \"toy\"", "\"name\": \"toy2\""));
        FormatRegistry r = FormatRegistry.of(List.of(first, second));
        assertSame(first, r.get("toy-alias"));
        String m = assertThrows(FormatException.class, () -> r.get("toy2")).getMessage();
        assertTrue(m.contains("'toy-alias'") && m.contains("already taken by format toy"), m);
        assertEquals(
                m,
                r.find("toy2").orElseThrow().problem().orElseThrow().getMessage(),
                "find returns the disabled format");
        assertEquals(1, r.problems().size());
        assertEquals(2, r.all().size());
    }

    @Test
    void registeringAFolderMakesItsFormatsFoundByNameOnceOnly() {
        Path formats = formats(dir);
        FormatRegistry once = FormatRegistry.standard().withFolder(formats);
        assertSame(once, once.withFolder(formats), "the same folder is not read twice");
        assertEquals("acme", once.get("ACME-CHAT").name());
    }

    @Test
    void lexingErrorsNameTheModeStack() {
        ToolCallParseException e =
                assertThrows(
                        ToolCallParseException.class,
                        () ->
                                Formats.get("hermes")
                                        .parse("<tool_call>{\"name\": \"f\", oops}</tool_call>"));
        assertTrue(e.getMessage().contains("(in HC_AFTER_OBJ > JC_KEY)"), e.getMessage());
        e =
                assertThrows(
                        ToolCallParseException.class,
                        () -> Formats.get("toy").parse("<call f #!>{}</call>"));
        assertTrue(e.getMessage().contains("(in HEAD > IDENT)"), e.getMessage());
    }
}
