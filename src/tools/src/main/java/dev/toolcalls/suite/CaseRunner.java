package dev.toolcalls.suite;

import com.google.gson.JsonArray;
import com.google.gson.JsonElement;
import com.google.gson.JsonNull;
import com.google.gson.JsonObject;
import com.google.gson.JsonParser;
import com.google.gson.JsonPrimitive;

import dev.toolcalls.ChatMessage;
import dev.toolcalls.DeltaMessage;
import dev.toolcalls.Format;
import dev.toolcalls.FormatRegistry;
import dev.toolcalls.Formats;
import dev.toolcalls.ParseEvent;
import dev.toolcalls.ParseOptions;
import dev.toolcalls.StreamParser;
import dev.toolcalls.ToolCall;
import dev.toolcalls.ToolCallDelta;
import dev.toolcalls.ToolCallParseException;
import dev.toolcalls.Tools;
import dev.toolcalls.protocol.ValueJson;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Random;

/**
 * Runs one case the way every case is run: batch, 1-character chunks, every split of the output
 * into two chunks, and many seeded random chunkings, checking the streaming contract on every delta
 * of every stream:
 *
 * <ul>
 *   <li>batch equals the expectation (content verbatim, names, arguments as JSON values, ids when
 *       given, or the error);
 *   <li>each stream reassembles to exactly the batch message (same content, ids, names, argument
 *       strings) or fails the same way;
 *   <li>a delta is content or one tool-call entry, never empty; a call's first delta has id, type
 *       and the non-empty name, later ones only arguments; indices appear in order from 0;
 *   <li>as deltas only append, reassembly equal to the expectation means no part of a tag was ever
 *       sent as content.
 * </ul>
 */
public final class CaseRunner {
    private final int randomChunkings;
    private final int maxChunk;
    private final FormatRegistry formats;

    public CaseRunner(int randomChunkings, int maxChunk) {
        this(randomChunkings, maxChunk, null);
    }

    private CaseRunner(int randomChunkings, int maxChunk, FormatRegistry formats) {
        this.randomChunkings = randomChunkings;
        this.maxChunk = maxChunk;
        this.formats = formats;
    }

    /** The standard run: 50 random chunkings of 1..8 characters. */
    public static CaseRunner standard() {
        return new CaseRunner(50, 8);
    }

    /** The same runner, finding formats in {@code registry} (default: {@link Formats}'). */
    public CaseRunner withFormats(FormatRegistry registry) {
        return new CaseRunner(randomChunkings, maxChunk, registry);
    }

    /** The format a case names. @throws dev.toolcalls.FormatException when it cannot be used */
    public Optional<Format> format(String name) {
        Optional<Format> f = formats == null ? Formats.find(name) : formats.find(name);
        f.flatMap(Format::problem)
                .ifPresent(
                        p -> {
                            throw p;
                        });
        return f;
    }

    /** Problems found; empty when the case passes. */
    public List<String> run(SuiteCase c) {
        List<String> problems = new ArrayList<>();
        if (c.expected().has("_problem")) {
            problems.add(c.expected().get("_problem").getAsString());
            return problems;
        }
        Optional<Format> format = format(c.format());
        if (format.isEmpty()) {
            problems.add("no registered format named '" + c.format() + "'");
            return problems;
        }
        Tools tools;
        try {
            tools = Tools.parse(String.valueOf(c.expected().get("tools")));
        } catch (IllegalArgumentException e) {
            problems.add("bad tools in expectation: " + e.getMessage());
            return problems;
        }
        Format f = format.get();
        Outcome batch = batch(f, c.input(), tools, c.options());
        checkExpected(c, batch, problems);
        if (!problems.isEmpty()) return problems;

        List<int[]> chunkings = new ArrayList<>();
        chunkings.add(null); // 1-character chunks
        for (int seed = 0; seed < randomChunkings; seed++) chunkings.add(new int[] {seed});
        JsonObject streamError =
                c.expected().has("stream_error")
                        ? c.expected().getAsJsonObject("stream_error")
                        : null;
        if (streamError != null && !c.lenient()) {
            problems.add(
                    "stream_error is for lenient cases only (a strict stream fails as batch does)");
            return problems;
        }
        for (int[] seed : chunkings) {
            List<String> chunks =
                    seed == null ? chunks(c.input(), null) : chunks(c.input(), new Random(seed[0]));
            String label = seed == null ? "1-character chunks" : "random chunking seed " + seed[0];
            Outcome streamed = stream(f, c.options(), tools, chunks, problems, label);
            if (streamError != null) checkStreamError(streamError, streamed, label, problems);
            else compare(batch, streamed, label, problems, false);
            if (problems.size() > 10) break;
        }
        // every 2-way split: multi-token deltas that end anywhere (speculative decoding, stream
        // intervals)
        for (int cut = 1; cut < c.input().length() && problems.size() <= 10; cut++) {
            String label = "split at " + cut;
            Outcome streamed =
                    stream(
                            f,
                            c.options(),
                            tools,
                            List.of(c.input().substring(0, cut), c.input().substring(cut)),
                            problems,
                            label);
            if (streamError != null) checkStreamError(streamError, streamed, label, problems);
            else compare(batch, streamed, label, problems, false);
        }
        return problems;
    }

    /**
     * A lenient case whose stream fails where batch recovers ({@code "stream_error"}): the stream
     * has sent the start of the call when it fails, with the error expected.
     */
    private static void checkStreamError(
            JsonObject want, Outcome streamed, String label, List<String> problems) {
        if (streamed.error() == null) {
            problems.add(
                    label
                            + ": expected the stream to fail with "
                            + want
                            + " but it parsed "
                            + ValueJson.message(streamed.message()));
            return;
        }
        if (!streamed.callOpen())
            problems.add(
                    label
                            + ": the stream failed before it sent anything of the call, so it should have recovered: "
                            + streamed.error().getMessage());
        if (want.has("type")
                && !want.get("type").getAsString().equals(streamed.error().kind().type()))
            problems.add(
                    label
                            + ": expected stream error type "
                            + want.get("type").getAsString()
                            + " but got "
                            + streamed.error().kind().type()
                            + ": "
                            + streamed.error().getMessage());
        if (want.has("offset") && want.get("offset").getAsInt() != streamed.error().offset())
            problems.add(
                    label
                            + ": expected stream error offset "
                            + want.get("offset").getAsInt()
                            + " but got "
                            + streamed.error().offset()
                            + ": "
                            + streamed.error().getMessage());
    }

    /**
     * Runs an output with no expectation (a generated one): batch, 1-character chunks and the
     * random chunkings must agree and keep the streaming contract, and nothing but a {@link
     * ToolCallParseException} may be thrown. Returns the problems and the batch result.
     */
    public List<String> runUnexpected(
            Format f, String input, ParseOptions options, List<ChatMessage> batchOut) {
        List<String> problems = new ArrayList<>();
        Outcome batch;
        try {
            batch = new Outcome(f.parse(input, Tools.none(), options), null);
        } catch (ToolCallParseException e) {
            batch = new Outcome(null, e);
        }
        if (batchOut != null) batchOut.add(batch.message());
        List<int[]> chunkings = new ArrayList<>();
        chunkings.add(null);
        for (int seed = 0; seed < randomChunkings; seed++) chunkings.add(new int[] {seed});
        for (int[] seed : chunkings) {
            List<String> chunks =
                    seed == null ? chunks(input, null) : chunks(input, new Random(seed[0]));
            String label = seed == null ? "1-character chunks" : "random chunking seed " + seed[0];
            Outcome streamed = stream(f, options, Tools.none(), chunks, problems, label);
            compare(batch, streamed, label, problems, options.lenient());
            if (problems.size() > 10) break;
        }
        return problems;
    }

    /**
     * The streaming contract for an output without an expectation (a fuzzer's input): every given
     * chunking must keep the delta and event contract and reassemble to the batch result, or fail
     * as batch does (same kind, same offset). Problems found; empty when it holds.
     *
     * @param options the same ids for batch and stream (a seeded generator), or the ids differ
     */
    public List<String> compareStreams(
            Format f,
            String input,
            Tools tools,
            ParseOptions options,
            List<List<String>> chunkings) {
        List<String> problems = new ArrayList<>();
        Outcome batch = batch(f, input, tools, options);
        for (int i = 0; i < chunkings.size() && problems.size() <= 10; i++) {
            String label = "chunking " + i + " (" + chunkings.get(i).size() + " chunks)";
            compare(
                    batch,
                    stream(f, options, tools, chunkings.get(i), problems, label),
                    label,
                    problems,
                    options.lenient());
        }
        return problems;
    }

    /**
     * @param callOpen a stream failed after it had sent the start of a call it did not end
     */
    private record Outcome(ChatMessage message, ToolCallParseException error, boolean callOpen) {
        Outcome(ChatMessage message, ToolCallParseException error) {
            this(message, error, false);
        }
    }

    private Outcome batch(Format f, String input, Tools tools, ParseOptions options) {
        try {
            return new Outcome(f.parse(input, tools, options), null);
        } catch (ToolCallParseException e) {
            return new Outcome(null, e);
        }
    }

    private Outcome stream(
            Format f,
            SuiteCase c,
            Tools tools,
            List<String> chunks,
            List<String> problems,
            String label) {
        return stream(f, c.options(), tools, chunks, problems, label);
    }

    private Outcome stream(
            Format f,
            ParseOptions options,
            Tools tools,
            List<String> chunks,
            List<String> problems,
            String label) {
        StreamParser s = f.newStream(tools, options);
        List<DeltaMessage> all = new ArrayList<>();
        DeltaChecker checker = new DeltaChecker(label, problems);
        EventChecker events = new EventChecker(label, problems);
        try {
            for (String chunk : chunks) checker.accept(events.accept(s.feed(chunk)), all);
            checker.accept(events.accept(s.finish()), all);
        } catch (ToolCallParseException e) {
            checker.accept(events.accept(e.eventsBeforeError()), all);
            return new Outcome(null, e, events.callOpen());
        }
        events.finished();
        ChatMessage fromDeltas = ChatMessage.fromDeltas(all);
        if (!fromDeltas.equals(events.message()))
            problems.add(
                    label
                            + ": deltas reassemble to "
                            + ValueJson.message(fromDeltas)
                            + " but events to "
                            + ValueJson.message(events.message()));
        return new Outcome(fromDeltas, null);
    }

    /**
     * Checks the event contract: starts in index order from 0, each call's arguments between its
     * start and its end, the end carrying the start's id and name and exactly the concatenated
     * fragments, nothing of a call after its end, every started call ended by the end of the
     * output.
     */
    private static final class EventChecker {
        final String label;
        final List<String> problems;
        final List<ParseEvent> all = new ArrayList<>();
        final Map<Integer, ParseEvent.ToolCallStart> starts = new HashMap<>();
        final Map<Integer, StringBuilder> args = new HashMap<>();
        final Map<Integer, Boolean> ended = new HashMap<>();

        EventChecker(String label, List<String> problems) {
            this.label = label;
            this.problems = problems;
        }

        List<DeltaMessage> accept(List<ParseEvent> events) {
            for (ParseEvent e : events) {
                all.add(e);
                if (e instanceof ParseEvent.ToolCallStart st) {
                    if (st.index() != starts.size())
                        problems.add(
                                label
                                        + ": call "
                                        + st.index()
                                        + " starts after "
                                        + starts.size()
                                        + " calls");
                    starts.put(st.index(), st);
                    args.put(st.index(), new StringBuilder());
                } else if (e instanceof ParseEvent.ToolCallArguments a) {
                    if (!starts.containsKey(a.index()) || ended.containsKey(a.index()))
                        problems.add(
                                label
                                        + ": arguments of call "
                                        + a.index()
                                        + " outside its start and end");
                    else if (a.fragment().isEmpty())
                        problems.add(label + ": empty argument fragment");
                    else args.get(a.index()).append(a.fragment());
                } else if (e instanceof ParseEvent.ToolCallEnd end) {
                    ParseEvent.ToolCallStart st = starts.get(end.index());
                    if (st == null || ended.containsKey(end.index())) {
                        problems.add(
                                label
                                        + ": end of call "
                                        + end.index()
                                        + " without a start, or twice");
                        continue;
                    }
                    ended.put(end.index(), true);
                    if (!st.id().equals(end.id()) || !st.name().equals(end.name()))
                        problems.add(
                                label
                                        + ": end of call "
                                        + end.index()
                                        + " names "
                                        + end.id()
                                        + "/"
                                        + end.name()
                                        + " but its start "
                                        + st.id()
                                        + "/"
                                        + st.name());
                    if (!args.get(end.index()).toString().equals(end.arguments()))
                        problems.add(
                                label
                                        + ": end of call "
                                        + end.index()
                                        + " has arguments "
                                        + end.arguments()
                                        + " but its fragments make "
                                        + args.get(end.index()));
                } else if (e instanceof ParseEvent.Text t && t.text().isEmpty()
                        || e instanceof ParseEvent.Reasoning r && r.text().isEmpty()) {
                    problems.add(label + ": empty text or reasoning event");
                }
            }
            return DeltaMessage.of(events);
        }

        boolean callOpen() {
            return ended.size() < starts.size();
        }

        void finished() {
            if (ended.size() != starts.size())
                problems.add(
                        label
                                + ": "
                                + starts.size()
                                + " calls started but "
                                + ended.size()
                                + " ended");
        }

        ChatMessage message() {
            return ChatMessage.fromEvents(all);
        }
    }

    /** Checks deltas one by one as a strict OpenAI client would read them. */
    private static final class DeltaChecker {
        final String label;
        final List<String> problems;
        final Map<Integer, Boolean> seen = new HashMap<>();

        DeltaChecker(String label, List<String> problems) {
            this.label = label;
            this.problems = problems;
        }

        void accept(List<DeltaMessage> deltas, List<DeltaMessage> all) {
            for (DeltaMessage d : deltas) {
                check(d);
                all.add(d);
            }
        }

        private void check(DeltaMessage d) {
            int kinds =
                    (d.isContent() ? 1 : 0) + (d.isReasoning() ? 1 : 0) + (d.isToolCall() ? 1 : 0);
            if (kinds != 1)
                problems.add(
                        label
                                + ": a delta must be exactly one of content, reasoning or a tool call: "
                                + ValueJson.delta(d));
            if (d.isContent() && d.content().isEmpty())
                problems.add(label + ": empty content delta");
            if (d.isReasoning() && d.reasoningContent().isEmpty())
                problems.add(label + ": empty reasoning delta");
            ToolCallDelta t = d.toolCall();
            if (t == null) return;
            if (!seen.containsKey(t.index())) {
                if (t.index() != seen.size())
                    problems.add(
                            label
                                    + ": call index "
                                    + t.index()
                                    + " appears after "
                                    + seen.size()
                                    + " calls");
                if (t.id() == null || t.id().isEmpty())
                    problems.add(
                            label
                                    + ": first delta of call "
                                    + t.index()
                                    + " has no id: "
                                    + ValueJson.delta(d));
                if (!"function".equals(t.type()))
                    problems.add(
                            label + ": first delta of call " + t.index() + " has no type function");
                if (t.name() == null || t.name().isEmpty())
                    problems.add(
                            label
                                    + ": first delta of call "
                                    + t.index()
                                    + " has no complete name: "
                                    + ValueJson.delta(d));
                if (t.arguments() == null)
                    problems.add(
                            label
                                    + ": first delta of call "
                                    + t.index()
                                    + " has no arguments field");
                seen.put(t.index(), true);
            } else {
                if (t.id() != null || t.name() != null)
                    problems.add(
                            label
                                    + ": a later delta of call "
                                    + t.index()
                                    + " repeats id or name: "
                                    + ValueJson.delta(d));
                if (t.arguments() == null || t.arguments().isEmpty())
                    problems.add(
                            label
                                    + ": a later delta of call "
                                    + t.index()
                                    + " has no arguments fragment");
            }
        }
    }

    private void checkExpected(SuiteCase c, Outcome batch, List<String> problems) {
        JsonObject x = c.expected();
        if (x.has("error")) {
            JsonObject err = x.getAsJsonObject("error");
            if (batch.error() == null) {
                problems.add(
                        "batch: expected error "
                                + err
                                + " but parsed "
                                + ValueJson.message(batch.message()));
                return;
            }
            String type = err.has("type") ? err.get("type").getAsString() : null;
            if (type != null && !type.equals(batch.error().kind().type()))
                problems.add(
                        "batch: expected error type "
                                + type
                                + " but got "
                                + batch.error().kind().type()
                                + ": "
                                + batch.error().getMessage());
            if (err.has("offset") && err.get("offset").getAsInt() != batch.error().offset())
                problems.add(
                        "batch: expected error offset "
                                + err.get("offset").getAsInt()
                                + " but got "
                                + batch.error().offset()
                                + ": "
                                + batch.error().getMessage());
            return;
        }
        if (batch.error() != null) {
            problems.add("batch: unexpected error: " + batch.error().getMessage());
            return;
        }
        ChatMessage m = batch.message();
        JsonElement wantContent = x.has("content") ? x.get("content") : JsonNull.INSTANCE;
        String want = wantContent.isJsonNull() ? null : wantContent.getAsString();
        if (!Objects.equals(want, m.content()))
            problems.add("batch: content " + quote(m.content()) + " but expected " + quote(want));
        JsonElement wantReasoning =
                x.has("reasoning_content") ? x.get("reasoning_content") : JsonNull.INSTANCE;
        String wantR = wantReasoning.isJsonNull() ? null : wantReasoning.getAsString();
        if (!Objects.equals(wantR, m.reasoningContent()))
            problems.add(
                    "batch: reasoning_content "
                            + quote(m.reasoningContent())
                            + " but expected "
                            + quote(wantR));
        JsonArray wantCalls =
                x.has("tool_calls") ? x.getAsJsonArray("tool_calls") : new JsonArray();
        if (wantCalls.size() != m.toolCalls().size()) {
            problems.add(
                    "batch: "
                            + m.toolCalls().size()
                            + " tool calls but expected "
                            + wantCalls.size()
                            + ": "
                            + ValueJson.message(m));
            return;
        }
        for (int i = 0; i < wantCalls.size(); i++) {
            JsonObject w = wantCalls.get(i).getAsJsonObject();
            ToolCall got = m.toolCalls().get(i);
            if (w.has("name") && !w.get("name").getAsString().equals(got.name()))
                problems.add(
                        "batch: call "
                                + i
                                + " name "
                                + quote(got.name())
                                + " but expected "
                                + w.get("name"));
            if (w.has("id") && !w.get("id").getAsString().equals(got.id()))
                problems.add(
                        "batch: call "
                                + i
                                + " id "
                                + quote(got.id())
                                + " but expected "
                                + w.get("id"));
            JsonElement args;
            try {
                args = JsonParser.parseString(got.arguments());
            } catch (RuntimeException e) {
                problems.add("batch: call " + i + " arguments are not JSON: " + got.arguments());
                continue;
            }
            JsonElement wantArgs = w.has("arguments") ? w.get("arguments") : new JsonObject();
            if (!wantArgs.equals(args))
                problems.add(
                        "batch: call "
                                + i
                                + " arguments "
                                + got.arguments()
                                + " but expected "
                                + wantArgs);
        }
    }

    /**
     * @param lenient the options were lenient: a stream that fails after it sent the start of a
     *     call is not compared, since a batch gives that call back as its raw text
     */
    private void compare(
            Outcome batch, Outcome streamed, String label, List<String> problems, boolean lenient) {
        if (batch.error() != null || streamed.error() != null) {
            if (lenient && streamed.error() != null && streamed.callOpen()) return;
            if (batch.error() == null)
                problems.add(
                        label
                                + ": stream failed but batch did not: "
                                + streamed.error().getMessage());
            else if (streamed.error() == null)
                problems.add(
                        label
                                + ": batch failed but stream did not: "
                                + ValueJson.message(streamed.message()));
            else if (batch.error().kind() != streamed.error().kind()
                    || batch.error().offset() != streamed.error().offset())
                problems.add(
                        label
                                + ": stream failed with '"
                                + streamed.error().getMessage()
                                + "' but batch with '"
                                + batch.error().getMessage()
                                + "'");
            return;
        }
        if (!batch.message().equals(streamed.message()))
            problems.add(
                    label
                            + ": stream reassembles to "
                            + ValueJson.message(streamed.message())
                            + " but batch is "
                            + ValueJson.message(batch.message()));
    }

    /**
     * Cuts text into chunks of 1..maxChunk UTF-16 units (so surrogate pairs get split too); null
     * random = 1 each.
     */
    List<String> chunks(String text, Random random) {
        List<String> out = new ArrayList<>();
        for (int i = 0; i < text.length(); ) {
            int n = random == null ? 1 : 1 + random.nextInt(maxChunk);
            int end = Math.min(text.length(), i + n);
            out.add(text.substring(i, end));
            i = end;
        }
        return out;
    }

    private static String quote(String s) {
        return s == null ? "null" : new JsonPrimitive(s).toString();
    }
}
