package dev.toolcalls;

import static org.junit.jupiter.api.Assertions.assertTrue;

import com.google.gson.JsonArray;
import com.google.gson.JsonElement;
import com.google.gson.JsonObject;
import com.google.gson.JsonParser;

import dev.toolcalls.internal.format.FormatDefinition;
import dev.toolcalls.suite.SuiteCase;

import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Stream;

/**
 * Token input proven on real tokenizers that no one here wrote: every regression case of the
 * formats each vocabulary serves is encoded under Node by {@code @lenml/tokenizers} (a port of
 * transformers.js) with the model's own {@code tokenizer.json}, once with its added tokens split
 * out as the model sees them and once as ordinary text only. Checked per case: {@link
 * Vocabulary#decode} gives back the exact text; the ids fed one at a time and in random groups
 * parse as the text fed with the tokenizer's own pieces (added tokens through {@code feedSpecial})
 * and as the plain text parse; the ordinary-text encoding parses as text whose listed markers are
 * all content. Each tokenizer prints its row of the table.
 */
class RealTokenizersTest {
    /** Tokenizer package suffix, and the formats whose cases its vocabulary serves. */
    static final Map<String, List<String>> SERVED = new LinkedHashMap<>();

    static {
        SERVED.put("qwen3", List.of("hermes", "qwen3", "qwen3_coder"));
        SERVED.put("gptoss", List.of("gpt_oss"));
        SERVED.put("deepseek_v3", List.of("deepseek_v3", "deepseek_v31", "deepseek_r1"));
        SERVED.put("llama3_1", List.of("llama3_json"));
        SERVED.put("gemma3", List.of("functiongemma", "gemma4"));
    }

    static final Path TESTS_DATA = Path.of("tests-data");
    static final Path SCRIPT = Path.of("src/tests/src/test/resources/tokens/encode.js");

    /** The vocabulary of an installed tokenizer package; fails loudly when it is absent. */
    static Path tokenizerDir(String name) {
        Path dir = NodePeers.pkg("@lenml/tokenizer-" + name).resolve("models");
        if (!Files.isRegularFile(dir.resolve("tokenizer.json")))
            throw new AssertionError(
                    dir
                            + "/tokenizer.json is missing: run src/tests/node/install.sh (the build runs it unless -Dnode.skip=true)");
        return dir;
    }

    /** What a run gives: the message of its events, and the error it ended with, if any. */
    static String outcome(List<ParseEvent> events, ToolCallParseException error) {
        String m = ChatMessage.fromEvents(events).toString();
        return error == null ? m : m + " then " + error.kind() + "@" + error.offset();
    }

    interface Feeder {
        void feed(StreamParser s, List<ParseEvent> out);
    }

    static String run(Format f, Tools tools, ParseOptions options, Vocabulary v, Feeder feeder) {
        StreamParser s = v == null ? f.newStream(tools, options) : f.newStream(tools, options, v);
        List<ParseEvent> events = new ArrayList<>();
        try {
            feeder.feed(s, events);
            events.addAll(s.finish());
            return outcome(events, null);
        } catch (ToolCallParseException e) {
            events.addAll(e.eventsBeforeError());
            return outcome(events, e);
        }
    }

    static int[] ints(JsonArray a) {
        int[] out = new int[a.size()];
        for (int i = 0; i < out.length; i++) out[i] = a.get(i).getAsInt();
        return out;
    }

    /** The ids fed in groups of 1..8, from {@code Random(seed)}. */
    static Feeder groups(int[] ids, long seed) {
        return (s, out) -> {
            Random r = new Random(seed);
            int i = 0;
            while (i < ids.length) {
                int n = Math.min(ids.length - i, 1 + r.nextInt(8));
                out.addAll(s.feedTokens(ids, i, i + n));
                i += n;
            }
        };
    }

    @TestFactory
    Stream<DynamicTest> realTokenizers() {
        List<DynamicTest> tests = new ArrayList<>();
        for (Map.Entry<String, List<String>> e : SERVED.entrySet())
            tests.add(
                    DynamicTest.dynamicTest(
                            e.getKey() + ": " + String.join(", ", e.getValue()),
                            () -> check(e.getKey(), e.getValue())));
        return tests.stream();
    }

    private static void check(String tokenizer, List<String> formats) throws IOException {
        long t0 = System.nanoTime();
        Vocabulary v = Vocabulary.load(tokenizerDir(tokenizer));
        long loadMs = (System.nanoTime() - t0) / 1_000_000;
        List<SuiteCase> cases = new ArrayList<>();
        for (String format : formats)
            cases.addAll(SuiteCase.load(TESTS_DATA).getOrDefault(format, List.of()));
        assertTrue(cases.size() > 0, "no cases for " + formats);
        JsonObject request = new JsonObject();
        request.addProperty("tokenizer", tokenizer);
        JsonArray texts = new JsonArray();
        for (SuiteCase c : cases) texts.add(c.input());
        request.add("texts", texts);
        String script;
        try {
            script = Files.readString(SCRIPT, StandardCharsets.UTF_8);
        } catch (IOException ex) {
            throw new UncheckedIOException(ex);
        }
        tokenizerDir(tokenizer);
        JsonObject answer =
                JsonParser.parseString(
                                NodePeers.run(script, request.toString(), List.of(), 300).ok())
                        .getAsJsonObject();
        JsonArray encoded = answer.getAsJsonArray("cases");

        List<String> failures = new ArrayList<>();
        long idCount = 0;
        int decodeEqual = 0;
        int parseEqual = 0;
        int textEqual = 0;
        int plainEqual = 0;
        int spelled = 0;
        int spelledFailing = 0;
        int textEqualOrLacking = 0;
        Set<String> notInVocabulary = new TreeSet<>();
        for (int k = 0; k < cases.size(); k++) {
            SuiteCase c = cases.get(k);
            JsonObject enc = encoded.get(k).getAsJsonObject();
            int[] ids = ints(enc.getAsJsonArray("ids"));
            int[] plain = ints(enc.getAsJsonArray("plain"));
            idCount += ids.length;
            Format f = Formats.get(c.format());
            Tools tools = Tools.parse(String.valueOf(c.expected().get("tools")));
            ParseOptions options = c.options();
            List<String> bad = new ArrayList<>();

            // decoding gives back the exact text (and what the tokenizer itself decodes)
            String decoded = v.decode(ids);
            if (!decoded.equals(c.input()))
                bad.add("decode differs from the text: " + quote(decoded));
            else if (!decoded.equals(enc.get("decoded").getAsString()))
                bad.add("decode differs from the tokenizer's own decode");
            else if (!v.decode(plain).equals(c.input()))
                bad.add("decode of the ordinary-text encoding differs from the text");
            else decodeEqual++;

            // reference: the tokenizer's own pieces, added tokens through feedSpecial
            JsonArray segments = enc.getAsJsonArray("segments");
            String reference =
                    run(
                            f,
                            tools,
                            options.withSpecialTokensMarked(true),
                            null,
                            (s, out) -> {
                                for (JsonElement seg : segments) {
                                    JsonObject o = seg.getAsJsonObject();
                                    if (o.has("special"))
                                        out.addAll(s.feedSpecial(o.get("special").getAsString()));
                                    else out.addAll(s.feed(o.get("text").getAsString()));
                                }
                            });
            List<String> runs = new ArrayList<>();
            runs.add(run(f, tools, options, v, (s, out) -> out.addAll(s.feedTokens(ids))));
            runs.add(
                    run(
                            f,
                            tools,
                            options,
                            v,
                            (s, out) -> {
                                for (int i = 0; i < ids.length; i++)
                                    out.addAll(s.feedTokens(ids, i, i + 1));
                            }));
            for (long seed = 0; seed < 5; seed++)
                runs.add(run(f, tools, options, v, groups(ids, seed)));
            boolean same = true;
            for (int r = 0; r < runs.size(); r++)
                if (!runs.get(r).equals(reference)) {
                    same = false;
                    bad.add(
                            "token feed "
                                    + (r == 0
                                            ? "at once"
                                            : r == 1
                                                    ? "one id at a time"
                                                    : "groups seed " + (r - 2))
                                    + " gives\n      "
                                    + runs.get(r)
                                    + "\n    where the marked text gives\n      "
                                    + reference);
                    break;
                }
            if (same) parseEqual++;
            // the plain text parse agrees where the vocabulary has every listed marker the case
            // writes as one token (else the tokenizer spells that marker out, and it is text)
            List<String> listedMarkers = FormatDefinition.of(f).compiled().rules().specialTokens();
            List<String> lacking = new ArrayList<>();
            for (String marker : listedMarkers)
                if (v.addedId(marker) < 0 && c.input().contains(marker)) lacking.add(marker);
            String text = run(f, tools, options, null, (s, out) -> out.addAll(s.feed(c.input())));
            if (text.equals(reference)) textEqual++;
            else if (!lacking.isEmpty()) {
                notInVocabulary.addAll(lacking);
                textEqualOrLacking++;
            } else
                bad.add(
                        "the text parse gives\n      "
                                + text
                                + "\n    where the marked text gives\n      "
                                + reference);

            // markers spelled out in ordinary tokens are text
            String plainReference =
                    run(
                            f,
                            tools,
                            options.withSpecialTokensMarked(true),
                            null,
                            (s, out) -> out.addAll(s.feed(c.input())));
            String plainTokens = run(f, tools, options, v, groups(plain, 7));
            if (!plainTokens.equals(plainReference))
                bad.add(
                        "ordinary-text ids give\n      "
                                + plainTokens
                                + "\n    where the text marked as ordinary gives\n      "
                                + plainReference);
            else plainEqual++;
            // and every listed marker they spell is text: content, reasoning or inside arguments
            // (a case whose spelled-out text breaks the format has no whole message to count in)
            Plain asText = plainMessage(f, tools, options, v, plain);
            if (asText.failed()) spelledFailing++;
            else {
                int listed = 0;
                int kept = 0;
                for (String marker : listedMarkers) {
                    listed += count(c.input(), marker);
                    kept += Math.min(count(c.input(), marker), count(asText.text(), marker));
                }
                if (kept != listed)
                    bad.add(
                            "of "
                                    + listed
                                    + " markers spelled out in ordinary tokens, "
                                    + kept
                                    + " are text: "
                                    + asText.text());
                spelled += kept;
            }
            if (!bad.isEmpty()) failures.add(c + ":\n    " + String.join("\n    ", bad));
        }
        System.out.printf(
                "| %s | %s | %d | %d | %d/%d | %d/%d | %d/%d (+%d: vocabulary lacks %s) | %d/%d | %d (%d cases fail strictly) | %d ms |%n",
                tokenizer,
                String.join(", ", formats),
                cases.size(),
                idCount,
                decodeEqual,
                cases.size(),
                parseEqual,
                cases.size(),
                textEqual,
                cases.size(),
                textEqualOrLacking,
                notInVocabulary,
                plainEqual,
                cases.size(),
                spelled,
                spelledFailing,
                loadMs);
        assertTrue(
                failures.isEmpty(),
                () -> failures.size() + " cases fail:\n  " + String.join("\n  ", failures));
    }

    /** The text a parse kept: content, reasoning and arguments; whether it failed. */
    record Plain(String text, boolean failed) {}

    /** The ordinary-text ids parsed in one piece. */
    private static Plain plainMessage(
            Format f, Tools tools, ParseOptions options, Vocabulary v, int[] plain) {
        StreamParser s = f.newStream(tools, options, v);
        List<ParseEvent> events = new ArrayList<>();
        boolean failed = false;
        try {
            events.addAll(s.feedTokens(plain));
            events.addAll(s.finish());
        } catch (ToolCallParseException e) {
            failed = true;
        }
        ChatMessage m = ChatMessage.fromEvents(events);
        StringBuilder text = new StringBuilder();
        if (m.content() != null) text.append(m.content()).append('\n');
        if (m.reasoningContent() != null) text.append(m.reasoningContent()).append('\n');
        for (ToolCall call : m.toolCalls()) text.append(call.arguments()).append('\n');
        return new Plain(text.toString(), failed);
    }

    static int count(String text, String marker) {
        int n = 0;
        for (int at = text.indexOf(marker); at >= 0; at = text.indexOf(marker, at + 1)) n++;
        return n;
    }

    static String quote(String s) {
        return s.length() > 200 ? s.substring(0, 200) + "..." : s;
    }
}
