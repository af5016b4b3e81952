package dev.toolcalls.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.toolcalls.Format;
import dev.toolcalls.FormatRegistry;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.UnaryOperator;

/**
 * {@code toolcalls check}: one planted mistake per test, each named with its file, line:column
 * (where the grammar has one), the token or mode, what is wrong and how to fix it; exit 1 on any
 * finding.
 */
class CheckCommandTest {
    @TempDir Path dir;

    static final String GRAMMAR =
            String.join(
                    "\n",
                    "// a good format: text <call NAME>{json}</call> text",
                    "lexer grammar MLexer;",
                    "",
                    "TEXT      : ~'<'+ ;",
                    "LT        : '<' ;",
                    "OPEN      : '<call ' -> pushMode(HEAD) ;",
                    "",
                    "mode HEAD;",
                    "NAME      : [a-z_]+ ;",
                    "ARGS_OPEN : '>' -> mode(ARGS) ;",
                    "",
                    "mode ARGS;",
                    "ARG_TEXT  : ~'<'+ ;",
                    "ARG_LT    : '<' ;",
                    "CLOSE     : '</call>' -> popMode ;",
                    "");

    /**
     * In this order (not Map.of's, which changes from run to run): tests cut an entry out by its
     * text with its trailing comma.
     */
    static final Map<String, String> ROLES = new LinkedHashMap<>();

    static {
        String[] pairs = {
            "TEXT",
            "content",
            "LT",
            "content",
            "OPEN",
            "call.begin",
            "NAME",
            "name",
            "ARGS_OPEN",
            "skip",
            "ARG_TEXT",
            "args.json",
            "ARG_LT",
            "args.json",
            "CLOSE",
            "call.end"
        };
        for (int i = 0; i < pairs.length; i += 2) ROLES.put(pairs[i], pairs[i + 1]);
    }

    /**
     * Writes format m (grammar and format file, each changed by the test, and 10 cases) and runs
     * check on it.
     */
    CliTest.Run check(
            UnaryOperator<String> grammar, UnaryOperator<String> formatFile, String... more)
            throws IOException {
        Path cases = dir.resolve("cases/m");
        if (!Files.isDirectory(cases)) {
            Files.createDirectories(cases);
            for (int i = 0; i < 10; i++) {
                Files.writeString(cases.resolve("c" + i + ".txt"), "hi " + i);
                Files.writeString(
                        cases.resolve("c" + i + ".json"), "{\"content\": \"hi " + i + "\"}");
            }
        }
        Path folder = dir.resolve("formats/m");
        Files.createDirectories(folder);
        Files.writeString(
                folder.resolve("MLexer.g4"), grammar.apply(GRAMMAR), StandardCharsets.UTF_8);
        StringBuilder roles = new StringBuilder();
        for (var e : ROLES.entrySet())
            roles.append(roles.length() == 0 ? "" : ", ")
                    .append('"')
                    .append(e.getKey())
                    .append("\": \"")
                    .append(e.getValue())
                    .append('"');
        String file =
                "{\n  \"name\": \"m\",\n  \"lexer\": \"MLexer\",\n  \"roles\": {"
                        + roles
                        + "},\n  \"streamable\": [\"TEXT\", \"ARG_TEXT\"]\n}\n";
        Files.writeString(folder.resolve("m.json"), formatFile.apply(file), StandardCharsets.UTF_8);
        List<String> args =
                new ArrayList<>(
                        List.of(
                                "check",
                                "--format-dir",
                                dir.resolve("formats").toString(),
                                "--tests",
                                dir.resolve("cases").toString()));
        args.addAll(List.of(more));
        return CliTest.run("", args.toArray(String[]::new));
    }

    String grammarFile() {
        return dir.resolve("formats/m/MLexer.g4").toString();
    }

    String formatFile() {
        return dir.resolve("formats/m/m.json").toString();
    }

    /**
     * The finding that starts with {@code start} (a planted mistake may cause others too, e.g. a
     * token that is both an unsafe cut and a swallowed marker), checked for exit code 1; every
     * finding names the format and says how to fix it.
     */
    static String finding(CliTest.Run r, String start) {
        assertEquals(1, r.code(), r.out() + r.err());
        for (String f : r.lines()) assertTrue(f.contains("format m: ") && f.contains("; fix: "), f);
        return r.lines().stream()
                .filter(f -> f.startsWith(start))
                .findFirst()
                .orElseThrow(
                        () ->
                                new AssertionError(
                                        "no finding starting with " + start + " in:\n" + r.out()));
    }

    @Test
    void aGoodFormatHasNoFindings() throws IOException {
        CliTest.Run r = check(g -> g, f -> f);
        assertEquals(0, r.code(), r.out() + r.err());
        assertEquals("", r.out());
        assertTrue(r.err().contains("checked 1 format: no findings"), r.err());
    }

    @Test
    void aTokenWithoutARole() throws IOException {
        String f =
                finding(
                        check(g -> g, file -> file.replace("\"NAME\": \"name\", ", "")),
                        grammarFile()
                                + ":9:1: format m: token type NAME has no role; fix: give it one in the format file's \"roles\"");
    }

    @Test
    void anUnknownRoleIsNamedWhereTheFormatFileWritesItWithTheNearestRole() throws IOException {
        finding(
                check(
                        g -> g,
                        file -> file.replace("\"NAME\": \"name\"", "\n    \"NAME\": \"conten\"")),
                formatFile()
                        + ":5:5: format m: token NAME has unknown role 'conten'; fix: did you mean content? roles: content, reasoning, skip");
        finding(
                check(
                        g -> g,
                        file ->
                                file.replace(
                                        "\"NAME\": \"name\"", "\n      \"NAME\": \"call_begin\"")),
                formatFile()
                        + ":5:7: format m: token NAME has unknown role 'call_begin'; fix: did you mean call.begin? roles: content,");
        // nothing near: the roles only
        finding(
                check(
                        g -> g,
                        file -> file.replace("\"NAME\": \"name\"", "\n    \"NAME\": \"banana\"")),
                formatFile()
                        + ":5:5: format m: token NAME has unknown role 'banana'; fix: roles: content, reasoning, skip");
        // a role given to a token the grammar lacks
        finding(
                check(
                        g -> g,
                        file ->
                                file.replace(
                                        "\"NAME\": \"name\"",
                                        "\"NAME\": \"name\",\n  \"NAEM\": \"name\"")),
                formatFile()
                        + ":5:3: format m: role given for unknown token NAEM; fix: remove it from \"roles\"");
    }

    @Test
    void anUnknownRoleInAnIncludedRoleFileIsNamedThere() throws IOException {
        Path imports = dir.resolve("formats/imports");
        Files.createDirectories(imports);
        Files.writeString(imports.resolve("Shared.g4"), "lexer grammar Shared;\nAT : '@' ;\n");
        Files.writeString(
                imports.resolve("Shared.json"),
                "{\n  \"roles\": {\n    \"AT\": \"contnt\"\n  }\n}\n");
        finding(
                check(
                        g ->
                                g.replace(
                                                "lexer grammar MLexer;",
                                                "lexer grammar MLexer;\nimport Shared;")
                                        .replace("TEXT      : ~'<'+ ;", "TEXT      : ~[<@]+ ;"),
                        file ->
                                file.replace(
                                        "\"lexer\": \"MLexer\",",
                                        "\"lexer\": \"MLexer\", \"include\": [\"Shared\"],")),
                imports.resolve("Shared.json")
                        + ":3:5: format m: token AT has unknown role 'contnt'; fix: did you mean content?");
    }

    @Test
    void aStreamableTokenThatIsNotSafeToCut() throws IOException {
        String f =
                finding(
                        check(
                                g ->
                                        g.replace("TEXT      : ~'<'+ ;", "TEXT      : ~'@'+ ;")
                                                .replace("LT        : '<' ;", "LT        : '@' ;"),
                                file -> file),
                        grammarFile()
                                + ":4:1: format m: streamable token TEXT and token OPEN can start with the same character in mode DEFAULT_MODE");
        assertTrue(f.contains("fix: exclude '<' from TEXT"), f);
        f =
                finding(
                        check(
                                g -> g,
                                file ->
                                        file.replace(
                                                "[\"TEXT\", \"ARG_TEXT\"]",
                                                "[\"TEXT\", \"ARG_TEXT\", \"CLOSE\"]")),
                        grammarFile()
                                + ":15:1: format m: streamable token CLOSE has a command; fix: streamable tokens must be plain [set]+ loops");
    }

    @Test
    void aModeThatCanNeverBeLeft() throws IOException {
        String f =
                finding(
                        check(
                                g ->
                                        g.replace(
                                                "CLOSE     : '</call>' -> popMode ;",
                                                "CLOSE     : '</call>' ;"),
                                file -> file),
                        grammarFile()
                                + ":12:1: format m: mode ARGS can never be left: once pushed, no sequence of its tokens pops it");
        assertTrue(f.contains("fix: end it with a rule doing -> popMode"), f);
    }

    /**
     * The same mistake with mode switches instead of a push: the default mode is never reached
     * again.
     */
    @Test
    void aModeThatNeverGetsBackToTheDefaultMode() throws IOException {
        String f =
                finding(
                        check(
                                g ->
                                        g.replace(
                                                        "OPEN      : '<call ' -> pushMode(HEAD) ;",
                                                        "OPEN      : '<call ' -> mode(HEAD) ;")
                                                .replace(
                                                        "CLOSE     : '</call>' -> popMode ;",
                                                        "CLOSE     : '</call>' ;"),
                                file -> file),
                        grammarFile()
                                + ":12:1: format m: mode ARGS can never be left: no sequence of its tokens gets back to DEFAULT_MODE");
        assertTrue(f.contains("fix: end it with a rule doing -> mode(DEFAULT_MODE)"), f);
    }

    @Test
    void aModeThatIsNeverEntered() throws IOException {
        String f =
                finding(
                        check(
                                g -> g + "\nmode ORPHAN;\nORPHAN_TEXT : 'o' ;\n",
                                file ->
                                        file.replace(
                                                "\"CLOSE\": \"call.end\"",
                                                "\"CLOSE\": \"call.end\", \"ORPHAN_TEXT\": \"skip\"")),
                        grammarFile()
                                + ":17:1: format m: mode ORPHAN is never entered: no rule that can match switches or pushes to it");
        assertTrue(f.contains("fix: enter it with -> pushMode(ORPHAN)"), f);
    }

    @Test
    void aRuleThatCanNeverMatch() throws IOException {
        String f =
                finding(
                        check(
                                g ->
                                        g.replace(
                                                "NAME      : [a-z_]+ ;",
                                                "NAME      : [a-z_]+ ;\nGET       : 'get' ;"),
                                file ->
                                        file.replace(
                                                "\"NAME\": \"name\"",
                                                "\"NAME\": \"name\", \"GET\": \"name\"")),
                        grammarFile()
                                + ":10:1: format m: token GET in mode HEAD can never match: the earlier rule NAME ("
                                + grammarFile()
                                + ":9:1) matches everything it matches; fix: move GET above NAME");
    }

    @Test
    void aCallOpenerWithNoWayToACallEnd() throws IOException {
        String f =
                finding(
                        check(
                                g -> g,
                                file ->
                                        file.replace(
                                                "\"CLOSE\": \"call.end\"", "\"CLOSE\": \"skip\"")),
                        grammarFile()
                                + ":6:1: format m: call opener OPEN (mode DEFAULT_MODE) leads to modes with no token of role call.end");
        assertTrue(f.contains("fix: give the close marker the role call.end"), f);
    }

    /**
     * The classic: a marker before the content rule wins on its own, but text right before it runs
     * over it.
     */
    @Test
    void aMarkerThatContentSwallows() throws IOException {
        String f =
                finding(
                        check(
                                g ->
                                        g.replace(
                                                "TEXT      : ~'<'+ ;",
                                                "AT_OPEN   : '@call ' -> pushMode(HEAD) ;\nTEXT      : ~'<'+ ;"),
                                file ->
                                        file.replace(
                                                "\"OPEN\": \"call.begin\"",
                                                "\"OPEN\": \"call.begin\", \"AT_OPEN\": \"call.begin\"")),
                        grammarFile()
                                + ":4:1: format m: marker AT_OPEN (mode DEFAULT_MODE) is swallowed by content rule TEXT ("
                                + grammarFile()
                                + ":5:1) when text comes right before it: TEXT goes on with '@', which starts AT_OPEN; fix: exclude '@' from TEXT");
    }

    @Test
    void aThinkingModeThatIsNoMode() throws IOException {
        String f =
                finding(
                        check(
                                g -> g,
                                file ->
                                        file.replace(
                                                "\"lexer\": \"MLexer\",",
                                                "\"lexer\": \"MLexer\", \"thinkingMode\": \"THINK\",")),
                        formatFile()
                                + ": format m: thinkingMode 'THINK' is not a mode of the lexer; fix: name the mode that is inside reasoning; modes: HEAD, ARGS");
    }

    @Test
    void anIncludeOfAMissingFile() throws IOException {
        String f =
                finding(
                        check(
                                g -> g,
                                file ->
                                        file.replace(
                                                "\"lexer\": \"MLexer\",",
                                                "\"lexer\": \"MLexer\", \"include\": [\"Nope\"],")),
                        formatFile()
                                + ": format m: no role file for included grammar Nope; fix: add Nope.json to an imports/ folder");
    }

    @Test
    void fewerThanTenCases() throws IOException {
        Path cases = dir.resolve("cases/m");
        Files.createDirectories(cases);
        for (int i = 0; i < 3; i++) {
            Files.writeString(cases.resolve("c" + i + ".txt"), "hi");
            Files.writeString(cases.resolve("c" + i + ".json"), "{\"content\": \"hi\"}");
        }
        String f =
                finding(
                        check(g -> g, file -> file),
                        cases
                                + ": format m: only 3 regression cases, at least 10 are needed; fix: add cases");
    }

    @Test
    void aGrammarErrorNamesItsLine() throws IOException {
        CliTest.Run r =
                check(
                        g -> g.replace("NAME      : [a-z_]+ ;", "NAME      : [a-z_]+ "),
                        file -> file);
        assertEquals(1, r.code(), r.out() + r.err());
        assertTrue(r.out().startsWith(grammarFile() + ":10:"), r.out());
        assertTrue(r.out().contains("error("), r.out());
    }

    @Test
    void namedFormatsAreCheckedAndUnknownNamesAreUsageErrors() throws IOException {
        assertEquals(0, check(g -> g, f -> f, "m").code());
        CliTest.Run r = check(g -> g, f -> f, "nope");
        assertEquals(2, r.code());
        assertTrue(r.err().contains("unknown format 'nope'"), r.err());
    }

    /** Every bundled format passes its own checker (and has its 10 cases in tests-data/). */
    @Test
    void everyBundledFormatIsClean() {
        List<String> args = new ArrayList<>(List.of("check", "--tests", "tests-data"));
        for (Format f : FormatRegistry.standard().all())
            if (!f.name().equals("toy"))
                args.add(f.name()); // the runtime's test fixture; its cases are elsewhere
        CliTest.Run r = CliTest.run("", args.toArray(String[]::new));
        assertEquals(0, r.code(), r.out() + r.err());
        assertEquals("", r.out());
    }
}
