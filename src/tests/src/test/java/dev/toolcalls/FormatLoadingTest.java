package dev.toolcalls;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.toolcalls.internal.json.Json;

import org.junit.jupiter.api.Test;

/** A grammar mistake is a clear message at load time, never a wrong parse later. */
class FormatLoadingTest {
    static final String GRAMMAR =
            "lexer grammar T;\nTEXT : ~'<'+ ;\nLT : '<' ;\nOPEN : '<c>' -> pushMode(IN) ;\nmode IN;\nNAME : [a-z]+ ;\nCLOSE : '</c>' -> popMode ;\n";

    static final String ROLES =
            "\"TEXT\": \"content\", \"LT\": \"content\", \"OPEN\": \"call.begin\", \"NAME\": \"name\", \"CLOSE\": \"call.end\"";

    static String file(String roles, String streamable) {
        return "{\"name\": \"t\", \"roles\": {"
                + roles
                + "}, \"streamable\": ["
                + streamable
                + "]}";
    }

    static String loadError(String grammar, String file) {
        return assertThrows(IllegalArgumentException.class, () -> ToyFormats.compile(grammar, file))
                .getMessage();
    }

    @Test
    void aWellFormedFormatLoadsAndParses() {
        Format f = ToyFormats.compile(GRAMMAR, file(ROLES, "\"TEXT\""));
        ChatMessage m = f.parse("hi <c>get</c>");
        assertEquals("hi ", m.content());
        assertEquals("get", m.toolCalls().get(0).name());
        assertEquals("{}", m.toolCalls().get(0).arguments());
    }

    @Test
    void tokenTypesWithoutARoleAreNamed() {
        String m =
                loadError(
                        GRAMMAR,
                        file(
                                "\"TEXT\": \"content\", \"LT\": \"content\", \"OPEN\": \"call.begin\"",
                                ""));
        assertTrue(
                m.contains("format t")
                        && m.contains("token type NAME has no role")
                        && m.contains("token type CLOSE has no role"),
                m);
    }

    @Test
    void unknownRolesAndTokensAreNamed() {
        String m =
                loadError(
                        GRAMMAR,
                        file(ROLES.replace("\"name\"", "\"nom\"") + ", \"GHOST\": \"skip\"", ""));
        assertTrue(m.contains("token NAME has unknown role 'nom'"), m);
        assertTrue(m.contains("role given for unknown token GHOST"), m);
    }

    @Test
    void streamableTokensMustBePlainAndNotOverlapOtherRules() {
        assertTrue(
                loadError(GRAMMAR, file(ROLES, "\"OPEN\""))
                        .contains("streamable token OPEN has a command"));
        String overlap = "lexer grammar T;\nTEXT : ~'x'+ ;\nX : 'x' ;\nOPEN : '<c>' ;\n";
        String m =
                loadError(
                        overlap,
                        "{\"name\": \"t\", \"roles\": {\"TEXT\": \"content\", \"X\": \"content\", \"OPEN\": \"call.begin\"}, \"streamable\": [\"TEXT\"]}");
        assertTrue(
                m.contains(
                        "streamable token TEXT and token OPEN can start with the same character"),
                m);
    }

    @Test
    void commandsOtherThanModesAndTypeAreRejected() {
        String skipping = "lexer grammar T;\nTEXT : ~'<'+ ;\nWS : '<' -> skip ;\n";
        String m =
                loadError(
                        skipping,
                        "{\"name\": \"t\", \"roles\": {\"TEXT\": \"content\", \"WS\": \"skip\"}}");
        assertTrue(m.contains("rule WS uses 'skip'"), m);
    }

    @Test
    void rulesMatchingEofAreRejected() {
        String eof = "lexer grammar T;\nTEXT : ~'<'+ ;\nEND : '<' EOF ;\n";
        String m =
                loadError(
                        eof,
                        "{\"name\": \"t\", \"roles\": {\"TEXT\": \"content\", \"END\": \"content\"}}");
        assertTrue(m.contains("rule END matches EOF"), m);
    }

    @Test
    void unknownIdPlaceholderIsRejected() {
        String m =
                loadError(
                        GRAMMAR,
                        "{\"name\": \"t\", \"ids\": \"id-{uuid}\", \"roles\": {" + ROLES + "}}");
        assertTrue(
                m.contains("format t: ids: id template 'id-{uuid}' has an unknown placeholder"), m);
    }

    @Test
    void registryNamesAreListsOfNamesByKnownServer() {
        String ok =
                "{\"name\": \"t\", \"aliases\": [\"t-x\"], \"registries\": {\"vllm\": [\"t\"], \"ollama\": [\"T-X\"]}, \"roles\": {"
                        + ROLES
                        + "}}";
        assertEquals(
                "t", ToyFormats.compile(GRAMMAR, ok).parse("<c>t</c>").toolCalls().get(0).name());
        assertTrue(
                loadError(GRAMMAR, ok.replace("\"vllm\"", "\"vllm2\""))
                        .contains(
                                "\"registries\": unknown server \"vllm2\" (known: vllm, sglang, llama.cpp, ollama, lmdeploy)"));
        assertTrue(
                loadError(GRAMMAR, ok.replace("[\"t\"]", "[]"))
                        .contains("vllm must be a non-empty array of parser names"));
        assertTrue(
                loadError(GRAMMAR, ok.replace("[\"t\"]", "\"t\""))
                        .contains("vllm must be a non-empty array of parser names"));
        assertTrue(
                loadError(GRAMMAR, ok.replace("[\"t\"]", "[\"t\", \"t\"]"))
                        .contains("vllm lists \"t\" twice"));
        assertTrue(
                loadError(
                                GRAMMAR,
                                ok.replace("{\"vllm\": [\"t\"], \"ollama\": [\"T-X\"]}", "[\"t\"]"))
                        .contains("\"registries\" must be an object"));
    }

    @Test
    void registryFindsFormatsByNameAndAliasCaseInsensitivelyIncludingServiceLoaderOnes() {
        assertEquals("toy", Formats.get("TOY-Alias").name());
        assertTrue(Formats.all().stream().anyMatch(f -> f.name().equals("toy")));
        String m =
                assertThrows(IllegalArgumentException.class, () -> Formats.get("nope"))
                        .getMessage();
        assertTrue(m.contains("unknown format 'nope'") && m.contains("toy"), m);
    }

    @Test
    void strictJsonRejectsWhatGsonsDefaultReaderAccepts() throws Json.NotJson {
        for (String bad :
                new String[] {
                    "{'a': 1}",
                    "{a: 1}",
                    "{\"a\": 1,}",
                    "[1,]",
                    "{\"a\": NaN}",
                    "// c\n{}",
                    "{} {}",
                    "{\"a\" = 1}",
                    "{\"a\": 1;}",
                    ""
                }) {
            assertThrows(Json.NotJson.class, () -> Json.parseStrict(bad), bad);
        }
        assertEquals(
                1,
                Json.parseStrict("{\"a\": [1, 2.5e-3, true, null, \"\\u00e9\"]}")
                        .getAsJsonObject()
                        .size());
    }
}
