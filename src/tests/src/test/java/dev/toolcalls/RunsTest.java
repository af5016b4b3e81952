package dev.toolcalls;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.toolcalls.internal.format.BundledFormat;
import dev.toolcalls.internal.format.FormatFile;
import dev.toolcalls.internal.format.FormatSource;
import dev.toolcalls.internal.grammar.BundledFormats;
import dev.toolcalls.internal.lex.FastRuns;
import dev.toolcalls.internal.lex.LexerModel;
import dev.toolcalls.suite.SuiteCase;

import org.junit.jupiter.api.DynamicNode;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.function.Consumer;
import java.util.function.Supplier;
import java.util.stream.Stream;

/**
 * Runs found by search and tokens walked over at once where a known token's text agrees (the fast
 * paths derived from each grammar) change nothing: every case of every format gives exactly the
 * same events, chunk by chunk, with them as with the lexer simulated everywhere, and the same error
 * (kind, code point offset, excerpt) when there is one. Where the fast path applies it does take
 * the text: prose in a format's default mode is not simulated.
 */
class RunsTest {
    private static final String PROSE =
            "Plain prose with words, commas and full stops. ".repeat(200)
                    + "中文的句子，还有表情😀。".repeat(50);

    @TestFactory
    Stream<DynamicNode> sameEventsWithAndWithoutRuns() {
        List<DynamicNode> tests = new ArrayList<>();
        for (Map.Entry<String, List<SuiteCase>> e :
                SuiteCase.load(SuiteTest.TESTS_DATA).entrySet()) {
            Format f = Formats.find(e.getKey()).orElse(null);
            if (f == null) continue;
            tests.add(
                    DynamicTest.dynamicTest(
                            e.getKey(),
                            () -> {
                                for (SuiteCase c : e.getValue()) {
                                    if (c.expected().has("_problem")) continue;
                                    Tools tools =
                                            Tools.parse(String.valueOf(c.expected().get("tools")));
                                    List<List<String>> chunkings = new ArrayList<>();
                                    chunkings.add(List.of(c.input()));
                                    chunkings.add(chunks(c.input(), null));
                                    for (int seed = 0; seed < 8; seed++)
                                        chunkings.add(chunks(c.input(), new Random(seed)));
                                    // and variants no case holds: cut short, and with pieces of the
                                    // output moved about
                                    Random r = new Random(c.name().hashCode());
                                    String in = c.input();
                                    for (int v = 0; v < 6 && in.length() > 2; v++) {
                                        int at = r.nextInt(in.length());
                                        int len = 1 + r.nextInt(Math.min(12, in.length() - at));
                                        String variant =
                                                v % 3 == 0
                                                        ? in.substring(0, at)
                                                        : v % 3 == 1
                                                                ? in.substring(0, at)
                                                                        + in.substring(
                                                                                Math.min(
                                                                                        in.length(),
                                                                                        at + len))
                                                                : in.substring(
                                                                                0,
                                                                                r.nextInt(
                                                                                        in
                                                                                                .length()))
                                                                        + in.substring(at, at + len)
                                                                        + in.substring(
                                                                                r.nextInt(
                                                                                        in
                                                                                                .length()));
                                        chunkings.add(List.of(variant));
                                        chunkings.add(chunks(variant, new Random(v)));
                                    }
                                    for (List<String> chunks : chunkings) {
                                        ParseOptions o =
                                                c.options().withIds(() -> IdGenerator.seeded(7));
                                        String fast = trace(f.newStream(tools, o), chunks);
                                        String simulated =
                                                trace(
                                                        ((GrammarFormat) f)
                                                                .newSimulatedStream(tools, o),
                                                        chunks);
                                        assertEquals(
                                                simulated,
                                                fast,
                                                () ->
                                                        c
                                                                + " in "
                                                                + chunks.size()
                                                                + " chunks: "
                                                                + String.join("", chunks));
                                    }
                                }
                            }));
        }
        return tests.stream();
    }

    /**
     * A whole output whose rest the grammar proves text (it lacks a character every marker of the
     * mode needs) gives the same message, or the same error, as the lexer simulated everywhere:
     * every case between two tails of prose longer than the shortest rest the runtime proves,
     * Latin-1 and CJK.
     */
    @TestFactory
    Stream<DynamicNode> wholeOutputsGiveTheSameMessageWhereTheGrammarProvesTheRestText() {
        String latin = " Plain words, then more words; a full stop.\n".repeat(40);
        String cjk = "中文的句子，还有表情😀。".repeat(120);
        List<DynamicNode> tests = new ArrayList<>();
        for (Map.Entry<String, List<SuiteCase>> e :
                SuiteCase.load(SuiteTest.TESTS_DATA).entrySet()) {
            Format f = Formats.find(e.getKey()).orElse(null);
            if (f == null) continue;
            tests.add(
                    DynamicTest.dynamicTest(
                            e.getKey(),
                            () -> {
                                for (SuiteCase c : e.getValue()) {
                                    if (c.expected().has("_problem")) continue;
                                    Tools tools =
                                            Tools.parse(String.valueOf(c.expected().get("tools")));
                                    ParseOptions o =
                                            c.options().withIds(() -> IdGenerator.seeded(7));
                                    for (String tail : List.of(latin, cjk, "")) {
                                        String text = tail + c.input() + tail;
                                        String fast = message(() -> f.parse(text, tools, o));
                                        String simulated =
                                                message(
                                                        () ->
                                                                ChatMessage.fromEvents(
                                                                        ((GrammarFormat) f)
                                                                                .newSimulatedStream(
                                                                                        tools, o)
                                                                                .wholeOutput()
                                                                                .feedWhole(text)));
                                        assertEquals(simulated, fast, () -> c + ": " + text);
                                    }
                                }
                            }));
        }
        return tests.stream();
    }

    private static String message(Supplier<ChatMessage> parse) {
        try {
            return parse.get().toString();
        } catch (ToolCallParseException e) {
            return "error " + e.kind() + " " + e.offset();
        }
    }

    /**
     * Chunks longer than those above (up to 40 UTF-16 units, cut anywhere, halves of surrogate
     * pairs included) over every case with prose before it and between two copies of it: where a
     * chunk is taken whole as one run of text, the events are exactly those of the lexer simulated
     * everywhere, chunk by chunk.
     */
    @Test
    void longChunksOfTextGiveTheLexersEvents() {
        String prose = "Plain prose, with words and full stops. 中文的句子，表情😀。\n";
        for (Map.Entry<String, List<SuiteCase>> e :
                SuiteCase.load(SuiteTest.TESTS_DATA).entrySet()) {
            Format f = Formats.find(e.getKey()).orElse(null);
            if (f == null) continue;
            for (SuiteCase c : e.getValue()) {
                if (c.expected().has("_problem")) continue;
                Tools tools = Tools.parse(String.valueOf(c.expected().get("tools")));
                ParseOptions o = c.options().withIds(() -> IdGenerator.seeded(7));
                String text = prose.repeat(3) + c.input() + prose + c.input();
                Random r = new Random(c.name().hashCode());
                for (int longest : new int[] {40, 20, 12}) {
                    List<String> chunks = new ArrayList<>();
                    for (int i = 0; i < text.length(); ) {
                        int j = Math.min(text.length(), i + 1 + r.nextInt(longest));
                        chunks.add(text.substring(i, j));
                        i = j;
                    }
                    assertEquals(
                            trace(((GrammarFormat) f).newSimulatedStream(tools, o), chunks),
                            trace(f.newStream(tools, o), chunks),
                            () -> c + " in " + chunks.size() + " chunks: " + chunks);
                }
            }
        }
    }

    /**
     * The format's name, how much was simulated and how it was fed, when feeding {@link #PROSE} to
     * {@code s} simulates more than a tenth of it; null otherwise, and for a format that reads its
     * default mode as something else than prose.
     */
    private static String slow(Format f, StreamParser s, Consumer<StreamParser> feed, String how) {
        try {
            feed.accept(s);
        } catch (ToolCallParseException e) {
            return null;
        }
        long simulated = s.lexerWork() - s.runWork();
        if (simulated * 10 <= PROSE.length()) return null;
        return f.name() + " (" + simulated + " of " + PROSE.length() + " simulated, " + how + ")";
    }

    /**
     * Every bundled format reads back the runs the build stored for it (its first load derives
     * none), and they are the runs its grammar gives when derived.
     */
    @Test
    void bundledFormatsReadTheRunsTheBuildStored() {
        List<String> derived = new ArrayList<>();
        for (BundledFormat b : BundledFormats.all()) {
            FastRuns runs = ((GrammarFormat) Formats.get(b.name())).compiled().model().runs;
            if (!runs.fromStore()) derived.add(b.name());
            assertEquals(runs.storedForm(), runs.currentForm(), b.name());
        }
        assertEquals(List.of(), derived, "formats without stored runs");
    }

    /**
     * Stored runs are ignored by a model of the same lexer with other streamable tokens (a format
     * that reuses a bundled lexer with a format file of its own): it derives its own.
     */
    @Test
    void storedRunsOfOtherStreamableTokensAreNotRead() {
        int checked = 0;
        for (BundledFormat b : BundledFormats.all()) {
            FormatSource source = ((GrammarFormat) Formats.get(b.name())).source();
            Map<String, String> roles = new LinkedHashMap<>();
            List<String> streamable = new ArrayList<>();
            for (String include : source.file().include()) {
                FormatFile shared = source.includes().apply(include);
                roles.putAll(shared.roles());
                streamable.addAll(shared.streamable());
            }
            roles.putAll(source.file().roles());
            streamable.addAll(source.file().streamable());
            if (streamable.isEmpty()) continue;
            LexerModel same = new LexerModel(b.name(), source.lexer(), roles, streamable);
            assertTrue(same.runs.fromStore(), b.name());
            LexerModel fewer =
                    new LexerModel(
                            b.name(),
                            source.lexer(),
                            roles,
                            streamable.subList(1, streamable.size()));
            assertTrue(!fewer.runs.fromStore(), b.name());
            assertEquals(fewer.runs.storedForm(), fewer.runs.currentForm(), b.name());
            checked++;
        }
        assertTrue(checked > 10, "formats with streamable tokens: " + checked);
    }

    /**
     * Prose in a format's default mode is found by search, not simulated, in all but a few formats:
     * those where blanks may still begin a marker (each blank is then simulated, the words between
     * are runs) and those that hold text back until a marker says what it was.
     */
    @Test
    void proseIsTakenByRuns() {
        List<String> slow = new ArrayList<>();
        for (Format f : Formats.all()) {
            if (f.name().equals("toy")) continue;
            for (List<String> chunks : List.of(List.of(PROSE), chunks(PROSE, new Random(1)))) {
                Consumer<StreamParser> feed =
                        s -> {
                            for (String c : chunks) s.feed(c);
                            s.finish();
                        };
                String w = slow(f, f.newStream(), feed, chunks.size() + " chunks");
                if (w != null) slow.add(w);
            }
        }
        assertTrue(slow.size() <= 2 * 8, "prose is simulated character by character in: " + slow);
    }

    /**
     * A whole prose output, parsed at once, is taken without simulating the lexer in every format:
     * the grammar proves the rest text, also where the default mode holds text back until a marker
     * says what it was and moves on to a text mode when none follows.
     */
    @Test
    void wholeProseIsProvedText() {
        List<String> slow = new ArrayList<>();
        for (Format f : Formats.all()) {
            if (f.name().equals("toy")) continue;
            String w = slow(f, f.newStream().wholeOutput(), s -> s.feedWhole(PROSE), "whole");
            if (w != null) slow.add(w);
        }
        assertTrue(slow.isEmpty(), "whole prose is simulated in: " + slow);
    }

    /**
     * A one-character token whose character also begins longer rules of its mode is taken from the
     * table when the character after it goes on with none of them: a Python literal's opening quote
     * (which also begins a triple quote) is not simulated, in one piece or in chunks, and the
     * events are those of the lexer simulated everywhere, an empty string ({@code ''}, where the
     * next character does go on with the triple quote) included.
     */
    @Test
    void oneCharacterTokensDecidedByTheNextCharacter() {
        String call = "[f(" + "a='xy', b=\"z\", ".repeat(100) + "e='', g=[\"\"])]";
        Format f = Formats.get("pythonic");
        for (List<String> chunks : List.of(List.of(call), chunks(call, new Random(5)))) {
            StreamParser s = f.newStream();
            for (String c : chunks) s.feed(c);
            s.finish();
            long simulated = s.lexerWork() - s.runWork();
            // each of the 200 opening quotes simulated would be two characters or more (with the
            // character after it); in chunks, a quote at a chunk's end waits for the simulator
            assertTrue(
                    simulated * 10 < call.length(),
                    simulated + " of " + call.length() + " characters simulated, " + chunks.size());
            ParseOptions o = ParseOptions.defaults().withIds(() -> IdGenerator.seeded(7));
            assertEquals(
                    trace(((GrammarFormat) f).newSimulatedStream(Tools.none(), o), chunks),
                    trace(f.newStream(Tools.none(), o), chunks));
        }
    }

    /**
     * Error offsets count code points, whether the text before was found by search or simulated, in
     * one piece or in chunks.
     */
    @Test
    void offsetsCountCodePoints() {
        String text = "😀 é 中 😀😀 then <tool_call>{\"name\": \"f\", \"arguments\": {\"a\": 1}";
        int expected = text.codePointCount(0, text.indexOf("<tool_call>"));
        Format f = Formats.get("hermes");
        for (List<String> chunks :
                List.of(
                        List.of(text),
                        chunks(text, null),
                        chunks(text, new Random(3)),
                        chunks(text, new Random(4)))) {
            for (boolean runs : new boolean[] {true, false}) {
                StreamParser s =
                        runs
                                ? f.newStream()
                                : ((GrammarFormat) f)
                                        .newSimulatedStream(Tools.none(), ParseOptions.defaults());
                ToolCallParseException e = null;
                try {
                    for (String c : chunks) s.feed(c);
                    s.finish();
                } catch (ToolCallParseException x) {
                    e = x;
                }
                assertTrue(e != null, "an unterminated call is an error");
                assertEquals(ToolCallParseException.Kind.UNTERMINATED_CALL, e.kind());
                assertEquals(
                        expected,
                        e.offset(),
                        "offset in code points, " + chunks.size() + " chunks");
                assertTrue(e.excerpt().contains("<tool_call>"), e.excerpt());
            }
        }
    }

    private static String trace(StreamParser s, List<String> chunks) {
        StringBuilder b = new StringBuilder();
        try {
            for (String c : chunks) b.append(s.feed(c)).append('|');
            b.append(s.finish());
        } catch (ToolCallParseException e) {
            b.append("error ")
                    .append(e.kind())
                    .append(' ')
                    .append(e.offset())
                    .append(' ')
                    .append(e.excerpt())
                    .append(' ')
                    .append(e.eventsBeforeError());
        }
        return b.toString();
    }

    /** 1-character chunks (random null) or random chunks of 1..8 code points. */
    static List<String> chunks(String text, Random random) {
        List<String> out = new ArrayList<>();
        int i = 0;
        while (i < text.length()) {
            int n = random == null ? 1 : 1 + random.nextInt(8);
            int j = i;
            for (int k = 0; k < n && j < text.length(); k++)
                j += Character.charCount(text.codePointAt(j));
            out.add(text.substring(i, j));
            i = j;
        }
        return out;
    }
}
