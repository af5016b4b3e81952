package dev.toolcalls.server;

import static org.junit.jupiter.api.Assertions.assertEquals;

import com.fasterxml.jackson.databind.json.JsonMapper;
import com.openai.core.JsonValue;
import com.openai.core.ObjectMappers;
import com.openai.helpers.ChatCompletionAccumulator;
import com.openai.models.chat.completions.ChatCompletion;
import com.openai.models.chat.completions.ChatCompletionChunk;
import com.openai.models.chat.completions.ChatCompletionMessage;
import com.openai.models.chat.completions.ChatCompletionMessageToolCall;

import dev.toolcalls.Format;
import dev.toolcalls.Formats;
import dev.toolcalls.StreamParser;
import dev.toolcalls.protocol.WireEvent;
import dev.toolcalls.protocol.WireStream;
import dev.toolcalls.suite.SuiteCase;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/** What an OpenAI client makes of our output, read with the official SDK's own classes. */
final class SdkAssertions {
    static final JsonMapper MAPPER = ObjectMappers.jsonMapper();

    private SdkAssertions() {}

    /** The cases of one registered format in one suite directory. */
    record FormatCases(Path dir, Format format, List<SuiteCase> cases) {}

    /** Every registered format's cases, from tests-data/ and the runtime's fixture suite. */
    static List<FormatCases> suites() {
        List<FormatCases> out = new ArrayList<>();
        for (Path dir :
                List.of(Path.of("tests-data"), Path.of("src/tests/src/test/resources/suite"))) {
            if (!Files.isDirectory(dir)) continue;
            for (Map.Entry<String, List<SuiteCase>> e : SuiteCase.load(dir).entrySet())
                Formats.find(e.getKey())
                        .ifPresent(
                                f ->
                                        out.add(
                                                new FormatCases(
                                                        dir.resolve(e.getKey()), f, e.getValue())));
        }
        return out;
    }

    /** A message as a client sees it: content, reasoning, and calls as "id name arguments". */
    record Seen(
            Optional<String> content,
            Optional<String> reasoning,
            List<String> calls,
            String finishReason) {}

    /**
     * The server's calls ("id name arguments") with each generated id put back to our parse's: a
     * call whose id two parses with different id seeds ({@code want}, {@code other}) agree on took
     * its id from the output and must match; one whose id they disagree on got a generated id, and
     * the server's must have the same shape (the template's text, then as many letters and digits).
     */
    static List<String> generatedIdsAsWanted(
            List<String> want, List<String> other, List<String> got) {
        if (got.size() != want.size()) return got;
        List<String> out = new ArrayList<>();
        for (int i = 0; i < got.size(); i++) {
            String w = want.get(i);
            String g = got.get(i);
            if (w.equals(other.get(i))) {
                out.add(g);
                continue;
            }
            String wantId = w.substring(0, w.indexOf(' '));
            String gotId = g.substring(0, Math.max(0, g.indexOf(' ')));
            int random = wantId.length();
            while (random > 0 && Character.isLetterOrDigit(wantId.charAt(random - 1))) random--;
            boolean shaped =
                    gotId.length() == wantId.length()
                            && gotId.startsWith(wantId.substring(0, random))
                            && gotId.substring(random)
                                    .chars()
                                    .allMatch(ch -> ch < 128 && Character.isLetterOrDigit(ch));
            out.add(shaped ? wantId + g.substring(gotId.length()) : g);
        }
        return out;
    }

    static Seen generatedIdsAsWanted(Seen want, Seen other, Seen got) {
        return new Seen(
                got.content(),
                got.reasoning(),
                generatedIdsAsWanted(want.calls(), other.calls(), got.calls()),
                got.finishReason());
    }

    static ChatCompletionChunk chunk(String json) {
        try {
            return MAPPER.readValue(json, ChatCompletionChunk.class).validate();
        } catch (Exception e) {
            throw new AssertionError("the SDK rejects our chunk " + json + ": " + e, e);
        }
    }

    static ChatCompletion completion(String json) {
        try {
            return MAPPER.readValue(json, ChatCompletion.class).validate();
        } catch (Exception e) {
            throw new AssertionError("the SDK rejects our completion " + json + ": " + e, e);
        }
    }

    /**
     * Accumulates chunks with the SDK's ChatCompletionAccumulator (reasoning_content, an extension
     * field, by hand).
     */
    static Seen accumulate(List<ChatCompletionChunk> chunks) {
        ChatCompletionAccumulator acc = ChatCompletionAccumulator.create();
        StringBuilder reasoning = new StringBuilder();
        for (ChatCompletionChunk c : chunks) {
            acc.accumulate(c);
            for (ChatCompletionChunk.Choice choice : c.choices()) {
                JsonValue r = choice.delta()._additionalProperties().get("reasoning_content");
                if (r != null) r.asString().ifPresent(reasoning::append);
            }
        }
        ChatCompletion done = acc.chatCompletion();
        return seen(
                done,
                reasoning.length() == 0 ? Optional.empty() : Optional.of(reasoning.toString()));
    }

    static Seen seen(ChatCompletion completion) {
        JsonValue r =
                completion
                        .choices()
                        .get(0)
                        .message()
                        ._additionalProperties()
                        .get("reasoning_content");
        return seen(completion, r == null ? Optional.empty() : r.asString());
    }

    private static Seen seen(ChatCompletion completion, Optional<String> reasoning) {
        assertEquals(1, completion.choices().size());
        ChatCompletionMessage m = completion.choices().get(0).message();
        List<String> calls = new ArrayList<>();
        for (ChatCompletionMessageToolCall t : m.toolCalls().orElse(List.of())) {
            calls.add(
                    t.asFunction().id()
                            + " "
                            + t.asFunction().function().name()
                            + " "
                            + t.asFunction().function().arguments());
        }
        return new Seen(
                m.content(),
                reasoning,
                calls,
                completion.choices().get(0).finishReason().asString());
    }

    /**
     * A whole streamed response: the opening events, the events of each piece, the parser's last
     * events and the terminal ones.
     *
     * @throws dev.toolcalls.ToolCallParseException when the output breaks its format
     */
    static List<WireEvent> wire(
            WireStream out, StreamParser parser, List<String> pieces, boolean truncated) {
        List<WireEvent> wire = new ArrayList<>(out.start());
        for (String piece : pieces) wire.addAll(out.events(parser.feed(piece)));
        wire.addAll(out.events(parser.finish()));
        wire.addAll(out.complete(truncated));
        return wire;
    }

    /**
     * {@code serve ARGS} as a process of its own, on the test class path; its stderr is discarded.
     */
    static Process serve(String... args) throws IOException {
        List<String> command =
                new ArrayList<>(
                        List.of(
                                Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                                "-cp",
                                System.getProperty("java.class.path"),
                                "dev.toolcalls.cli.Main",
                                "serve"));
        command.addAll(List.of(args));
        return new ProcessBuilder(command).redirectError(ProcessBuilder.Redirect.DISCARD).start();
    }
}
