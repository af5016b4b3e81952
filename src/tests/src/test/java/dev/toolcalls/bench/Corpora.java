package dev.toolcalls.bench;

import com.google.gson.JsonElement;
import com.google.gson.JsonObject;
import com.google.gson.JsonParser;

import dev.toolcalls.ChatMessage;
import dev.toolcalls.Format;
import dev.toolcalls.Formats;
import dev.toolcalls.IdGenerator;
import dev.toolcalls.ParseEvent;
import dev.toolcalls.ParseOptions;
import dev.toolcalls.StreamParser;
import dev.toolcalls.ToolCall;
import dev.toolcalls.Tools;
import dev.toolcalls.suite.SuiteCase;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.SplittableRandom;
import java.util.TreeMap;

/**
 * The outputs the benchmarks and the speed guard measure, built for any format from what it
 * declares and from its own regression cases, never by code that names a format:
 *
 * <ul>
 *   <li>{@link #corpus}: the format's valid cases joined by newlines and repeated to a size
 *       (call-dense);
 *   <li>{@link #shape} {@code prose} / {@code prose_cjk}: plain sentences with no marker, which
 *       must come back as content exactly;
 *   <li>{@link #shape} {@code longcall} / {@code longcall_cjk}: one of the format's cases with one
 *       call, whose string argument is replaced by a filler that makes the output the size;
 *   <li>{@link #shape} {@code calls}: short calls, the format's own one-call cases, with a sentence
 *       of prose between them, to the size;
 *   <li>{@link #opener}: the text a call of the format starts with, for the {@code indexOf} floor.
 * </ul>
 *
 * Every builder checks what it built (parse and a 4-character stream give the expected message) and
 * fails with a message naming the format instead of handing over something that would measure the
 * wrong thing.
 *
 * <pre>{@code
 * Corpora.Output prose = Corpora.shape(Formats.get("hermes"), "prose", 100_000);
 * prose.format().parse(prose.text(), prose.tools(), prose.options());   // == prose.expected()
 * }</pre>
 *
 * Sizes are {@code String.length()} (UTF-16 units: an emoji counts 2). The cases come from {@code
 * tests-data/} under the working directory, or the folder in system property {@code
 * toolcalls.tests}.
 */
public final class Corpora {
    /** The formats of the benchmarks' matrix, hermes first. */
    public static final List<String> MATRIX =
            List.of(
                    "hermes",
                    "mistral",
                    "deepseek_v3",
                    "glm45",
                    "llama3_json",
                    "qwen3_coder",
                    "kimi_k2",
                    "pythonic");

    /** Shape names, in the order tables show them. */
    public static final List<String> SHAPES =
            List.of("prose", "prose_cjk", "longcall", "longcall_cjk", "calls");

    /** Options of every measured parse: default limits, reproducible ids. */
    public static final ParseOptions OPTIONS =
            ParseOptions.defaults().withIds(() -> IdGenerator.seeded(0));

    private static Map<String, List<SuiteCase>> cases;

    private static final String[] WORDS =
            ("the a an and of in on at with from by for as is was are were be been has have had it this that "
                            + "we they you he she river morning garden window letter summer winter market village music paper table orange silver "
                            + "quiet bright slowly gently early later often never always across under over between around small large green "
                            + "yellow little ancient modern simple careful happy tired walked opened carried painted listened wondered remembered "
                            + "travelled answered borrowed noticed kitchen mountain harbour station library bicycle picture evening weather lantern")
                    .split(" ");

    private static final String HAN =
            "的一是在不了有和人这中大为上个国我以要他时来用们生到作地于出就分对成会可主发年动同工也能下过子说产种面而方后多定行学法所民得经"
                    + "十三之进着等部度家电力里如水化高自二理起小物现实加量都两体制机当使点从业本去把性好应开它合还因由其些然前外天政四日那社义事平形相全表间样与关各重新线内数正心反你明看原又么利比或但质气第向道命此变条只没结解问意建月公无系军很情者最立代想已通并提直题党程展五果料象员革位入常文总次品式活设及管特件长求老头基资边流路级少图山统接知较将组见计别她手角期根论运农指几九区强放决西被干做必战先回则任取据处理府研";
    private static final String[] EMOJI = {
        "\uD83D\uDE00", "\uD83C\uDF1F", "\uD83D\uDE80", "\uD83C\uDF75"
    }; // 😀 🌟 🚀 🍵

    private static final Map<String, String> OPENERS = new TreeMap<>();

    /** The longest call text {@link #calls} takes from a case. */
    private static final int SHORT_CALL = 400;

    private Corpora() {}

    /**
     * A measured output: its text, what it is parsed with, what parsing it gives (checked when it
     * was built), and the opener whose {@code indexOf} is its floor.
     */
    public record Output(
            Format format,
            String kind,
            String text,
            Tools tools,
            ParseOptions options,
            ChatMessage expected,
            String opener) {
        /** Parses it in one piece. */
        public ChatMessage parse() {
            return format.parse(text, tools, options);
        }

        /** Its events in one piece (what {@code batch} benchmarks measure). */
        public List<ParseEvent> parseEvents() {
            return format.parseEvents(text, tools, options);
        }

        /** Streams pre-cut chunks through a new parser; returns the number of events. */
        public int stream(List<String> chunks) {
            StreamParser s = format.newStream(tools, options);
            int events = 0;
            for (int i = 0, n = chunks.size(); i < n; i++) events += s.feed(chunks.get(i)).size();
            return events + s.finish().size();
        }

        /**
         * The opener as the floor searches it in this text (see {@link Corpora#probe(String,
         * String)}).
         */
        public String probe() {
            return Corpora.probe(opener, text);
        }

        public int length() {
            return text.length();
        }

        @Override
        public String toString() {
            return format.name() + " " + kind + " (" + text.length() + " chars)";
        }
    }

    // ---------------------------------------------------------------- cases

    /** The regression cases, by format, read once. */
    public static synchronized Map<String, List<SuiteCase>> cases() {
        if (cases == null)
            cases = SuiteCase.load(Path.of(System.getProperty("toolcalls.tests", "tests-data")));
        return cases;
    }

    /** The cases of one format (its folder is named after the format). */
    public static List<SuiteCase> cases(Format f) {
        List<SuiteCase> c = cases().get(f.name());
        if (c == null || c.isEmpty())
            throw new IllegalStateException(
                    "no cases for format "
                            + f.name()
                            + " in "
                            + Path.of(System.getProperty("toolcalls.tests", "tests-data"))
                                    .toAbsolutePath()
                            + " (run from the repository root, or set -Dtoolcalls.tests=DIR)");
        return c;
    }

    /** Names of the registered formats that have cases (the bundled ones), in name order. */
    public static List<String> formatNames() {
        List<String> names = new ArrayList<>();
        for (Format f : Formats.all())
            if (f.problem().isEmpty() && cases().containsKey(f.name())) names.add(f.name());
        names.sort(null);
        return names;
    }

    private static Tools tools(SuiteCase c) {
        JsonElement t = c.expected().get("tools");
        return t == null || t.isJsonNull() ? Tools.none() : Tools.parse(t.toString());
    }

    private static boolean usable(SuiteCase c) {
        return !c.expected().has("error") && !c.expected().has("_problem") && !c.lenient();
    }

    // ---------------------------------------------------------------- corpus

    /**
     * The format's own valid cases (no error, not lenient, no tools), each followed by a newline,
     * repeated in name order until the text holds at least {@code size} characters. A case that
     * does not parse after the ones kept before it and followed by a newline (one that is only
     * valid at the very end of an output, or after nothing else) is left out.
     */
    public static Output corpus(Format f, int size) {
        List<String> valid = new ArrayList<>();
        for (SuiteCase c : cases(f)) {
            if (!usable(c) || c.expected().has("lenient") || c.expected().has("tools")) continue;
            String text = c.input() + "\n";
            // kept when the cases so far and it, twice over, still parse: some cases leave the
            // output in a state
            // where another cannot follow (a dangling section, a lookalike of a marker)
            String once = String.join("", valid) + text;
            try {
                f.parse(once + once, Tools.none(), OPTIONS);
                valid.add(text);
            } catch (RuntimeException e) {
                // valid only at the end of an output, or not after the others: left out
            }
        }
        if (valid.isEmpty())
            throw new IllegalStateException(
                    "format "
                            + f.name()
                            + ": none of its cases parses followed by a newline and repeated; no corpus");
        StringBuilder b = new StringBuilder();
        for (int i = 0; b.length() < size; i++) b.append(valid.get(i % valid.size()));
        String text = b.toString();
        ChatMessage expected =
                parsedOrFail(
                        f,
                        text,
                        Tools.none(),
                        OPTIONS,
                        ": its corpus (valid cases joined) does not parse",
                        "");
        Output o = new Output(f, "corpus", text, Tools.none(), OPTIONS, expected, opener(f));
        checkStream(o, 4);
        return o;
    }

    // ---------------------------------------------------------------- shapes

    /** One of {@link #SHAPES} at a size, checked. */
    public static Output shape(Format f, String shape, int size) {
        switch (shape) {
            case "prose":
                return prose(f, prose(size, false), shape);
            case "prose_cjk":
                return prose(f, prose(size, true), shape);
            case "longcall":
                return longCall(f, size, false);
            case "longcall_cjk":
                return longCall(f, size, true);
            case "calls":
                return calls(f, size);
            default:
                throw new IllegalArgumentException(
                        "unknown shape " + shape + "; shapes: " + SHAPES);
        }
    }

    /**
     * Plain prose of exactly {@code size} characters, the same for every call: ASCII sentences of
     * letters, spaces, commas and periods in paragraphs separated by newlines, or (cjk) Han
     * characters with full-width commas and full stops and a few emoji (surrogate pairs). It starts
     * and ends with a letter or a full stop, never with white space.
     */
    public static String prose(int size, boolean cjk) {
        SplittableRandom r = new SplittableRandom(17);
        StringBuilder b = new StringBuilder(size + 64);
        int sentences = 0;
        while (b.length() < size) {
            int words = 5 + r.nextInt(10);
            for (int w = 0; w < words; w++) {
                if (cjk) {
                    int n = 1 + r.nextInt(3);
                    for (int k = 0; k < n; k++) b.append(HAN.charAt(r.nextInt(HAN.length())));
                    if (r.nextInt(40) == 0) b.append(EMOJI[r.nextInt(EMOJI.length)]);
                    if (w < words - 1 && r.nextInt(6) == 0) b.append('，');
                } else {
                    String word = WORDS[r.nextInt(WORDS.length)];
                    if (w == 0) word = Character.toUpperCase(word.charAt(0)) + word.substring(1);
                    b.append(word);
                    if (w < words - 1) b.append(r.nextInt(8) == 0 ? ", " : " ");
                }
            }
            b.append(cjk ? '。' : '.');
            sentences++;
            b.append(sentences % 6 == 0 ? "\n" : cjk ? "" : " ");
        }
        return trimTo(b, size, cjk ? '。' : '.');
    }

    /** Cut to {@code size} without ending on white space or half a surrogate pair. */
    private static String trimTo(StringBuilder b, int size, char end) {
        b.setLength(size);
        if (Character.isHighSurrogate(b.charAt(size - 1))
                || Character.isWhitespace(b.charAt(size - 1))) b.setCharAt(size - 1, end);
        return b.toString();
    }

    private static Output prose(Format f, String text, String shape) {
        ParseOptions options = OPTIONS.withThinking(false);
        ChatMessage m =
                parsedOrFail(
                        f,
                        text,
                        Tools.none(),
                        options,
                        " cannot take plain prose (" + shape + ")",
                        "; skipped");
        // verbatim content, or with "content": "segments" (each segment stripped) the stripped text
        boolean asContent =
                m.toolCalls().isEmpty()
                        && (m.reasoningContent() == null || m.reasoningContent().isEmpty())
                        && (text.equals(m.content()) || text.strip().equals(m.content()));
        if (!asContent)
            throw new IllegalStateException(
                    "format "
                            + f.name()
                            + " cannot take plain prose ("
                            + shape
                            + "): it does not come back as content unchanged (got "
                            + m.toolCalls().size()
                            + " calls, reasoning "
                            + excerpt(m.reasoningContent())
                            + ", content "
                            + excerpt(m.content())
                            + "); skipped");
        Output o = new Output(f, shape, text, Tools.none(), options, m, opener(f));
        checkStream(o, 4);
        return o;
    }

    /**
     * Letters and spaces (or Han characters, spaces and a few emoji) of exactly {@code size}
     * characters, starting and ending with a letter.
     */
    public static String filler(int size, boolean cjk) {
        SplittableRandom r = new SplittableRandom(23);
        StringBuilder b = new StringBuilder(size + 16);
        while (b.length() < size) {
            if (cjk) {
                int n = 2 + r.nextInt(6);
                for (int k = 0; k < n; k++) b.append(HAN.charAt(r.nextInt(HAN.length())));
                if (r.nextInt(50) == 0) b.append(EMOJI[r.nextInt(EMOJI.length)]);
            } else {
                b.append(WORDS[r.nextInt(WORDS.length)]);
            }
            b.append(' ');
        }
        b.setLength(size);
        if (size > 0
                && (Character.isHighSurrogate(b.charAt(size - 1)) || b.charAt(size - 1) == ' '))
            b.setCharAt(size - 1, cjk ? '文' : 'x');
        return b.toString();
    }

    /**
     * One call with a long string argument: the first of the format's valid cases (in name order,
     * preferring the longest value) that holds exactly one call with a string argument whose value
     * appears literally exactly once in the case's text; that occurrence is replaced by a {@link
     * #filler} so the output reaches {@code size} characters. The result must parse to the same
     * call with the filler as that argument, and everything else as before.
     */
    public static Output longCall(Format f, int size, boolean cjk) {
        record Candidate(SuiteCase c, Tools tools, ChatMessage m, String key, String value) {}
        List<Candidate> candidates = new ArrayList<>();
        for (SuiteCase c : cases(f)) {
            if (!usable(c)) continue;
            Tools tools;
            ChatMessage m;
            try {
                tools = tools(c);
                m = f.parse(c.input(), tools, c.options());
            } catch (RuntimeException e) {
                continue;
            }
            if (m.toolCalls().size() != 1) continue;
            JsonObject args = object(m.toolCalls().get(0).arguments());
            if (args == null) continue;
            for (Map.Entry<String, JsonElement> e : args.entrySet()) {
                if (!e.getValue().isJsonPrimitive()
                        || !e.getValue().getAsJsonPrimitive().isString()) continue;
                String v = e.getValue().getAsString();
                if (!v.isEmpty() && count(c.input(), v) == 1)
                    candidates.add(new Candidate(c, tools, m, e.getKey(), v));
            }
        }
        candidates.sort(
                Comparator.comparingInt((Candidate k) -> -k.value().length())
                        .thenComparing(k -> k.c().name()));
        String shape = cjk ? "longcall_cjk" : "longcall";
        List<String> tried = new ArrayList<>();
        for (Candidate k : candidates) {
            String input = k.c().input();
            int at = input.indexOf(k.value());
            String filler = filler(Math.max(16, size - (input.length() - k.value().length())), cjk);
            String text =
                    input.substring(0, at) + filler + input.substring(at + k.value().length());
            ParseOptions options = k.c().options();
            ChatMessage m;
            try {
                m = f.parse(text, k.tools(), options);
            } catch (RuntimeException e) {
                tried.add(k.c().name() + "/" + k.key() + ": " + e.getMessage());
                continue;
            }
            JsonObject want = object(k.m().toolCalls().get(0).arguments());
            want.addProperty(k.key(), filler);
            JsonObject got =
                    m.toolCalls().size() == 1 ? object(m.toolCalls().get(0).arguments()) : null;
            if (got == null
                    || !got.equals(want)
                    || !m.toolCalls().get(0).name().equals(k.m().toolCalls().get(0).name())
                    || !Objects.equals(m.content(), k.m().content())
                    || !Objects.equals(m.reasoningContent(), k.m().reasoningContent())) {
                tried.add(
                        k.c().name()
                                + "/"
                                + k.key()
                                + ": the filled-in case does not parse to the same call with the filler");
                continue;
            }
            Output o = new Output(f, shape, text, k.tools(), options, m, opener(f));
            checkStream(o, 4);
            return o;
        }
        throw new IllegalStateException(
                "format "
                        + f.name()
                        + ": no case for the "
                        + shape
                        + " shape: none of its valid cases has exactly one call with a string "
                        + "argument whose value appears exactly once in its text and can be replaced by a filler"
                        + (tried.isEmpty() ? "" : " (tried " + tried + ")"));
    }

    /**
     * Short calls with prose between, as a model writes them in a long answer: a sentence, a call
     * on a line of its own, the next sentence, the same call again, and so on, ending with prose so
     * that the output is exactly {@code size} characters. The call is an ordinary one of the
     * format's valid cases, not one that tests its edges: a case that holds exactly one call and
     * nothing else (no content, no reasoning), in at most {@value #SHORT_CALL} characters, whose
     * name, keys and string values are {@link #plain} text and which has a string argument whose
     * value appears exactly once in its text; of these, those calling the tool most of them call
     * come first, then those that begin with the format's {@link #opener}, then the longest such
     * value, the shortest text and the first name. The sentences are {@link #prose}'s. Checked: it
     * parses to the call once per sentence before it, and its content holds the sentences (white
     * space aside: a format may strip or join it); a format that reads no prose between calls
     * (calls only at the start of the output, or a list of calls as the whole output) has no such
     * output and fails, naming itself.
     */
    public static Output calls(Format f, int size) {
        ParseOptions options = OPTIONS.withThinking(false);
        record Call(String text, ToolCall call, Tools tools, String name, int value) {}
        List<Call> found = new ArrayList<>();
        for (SuiteCase c : cases(f)) {
            if (!usable(c)) continue;
            String text = c.input().strip();
            if (text.length() > SHORT_CALL) continue;
            Tools tools;
            ChatMessage m;
            try {
                tools = tools(c);
                m = f.parse(text, tools, options);
            } catch (RuntimeException e) {
                continue;
            }
            if (m.toolCalls().size() != 1
                    || m.content() != null && !m.content().isBlank()
                    || m.reasoningContent() != null && !m.reasoningContent().isEmpty()) continue;
            JsonObject args = object(m.toolCalls().get(0).arguments());
            if (args == null) continue;
            int longest = 0;
            boolean plain = plain(m.toolCalls().get(0).name());
            for (Map.Entry<String, JsonElement> e : args.entrySet()) {
                JsonElement v = e.getValue();
                boolean string = v.isJsonPrimitive() && v.getAsJsonPrimitive().isString();
                plain &= plain(e.getKey()) && (!string || plain(v.getAsString()));
                if (string && !v.getAsString().isEmpty() && count(text, v.getAsString()) == 1)
                    longest = Math.max(longest, v.getAsString().length());
            }
            if (longest > 0 && plain)
                found.add(new Call(text, m.toolCalls().get(0), tools, c.name(), longest));
        }
        if (found.isEmpty())
            throw new IllegalStateException(
                    "format "
                            + f.name()
                            + ": no case for the calls shape (none of its valid cases is one call"
                            + " and nothing else, in at most "
                            + SHORT_CALL
                            + " characters, of plain names and values, with a string argument"
                            + " written once)");
        String opener = opener(f);
        Map<String, Integer> names = new TreeMap<>();
        for (Call k : found) names.merge(k.call().name(), 1, Integer::sum);
        found.sort(
                Comparator.comparingInt((Call k) -> -names.get(k.call().name()))
                        .thenComparingInt(k -> k.text().startsWith(opener) ? 0 : 1)
                        .thenComparingInt(k -> -k.value())
                        .thenComparingInt(k -> k.text().length())
                        .thenComparing(k -> k.name()));
        Call call = found.get(0);
        Tools tools = call.tools();
        String[] sentences = prose(4000, false).split("(?<=\\.)\\s+");
        StringBuilder b = new StringBuilder(size + SHORT_CALL);
        StringBuilder words = new StringBuilder();
        List<ToolCall> want = new ArrayList<>();
        for (int i = 0; ; i++) {
            String sentence = sentences[i % (sentences.length - 1)];
            if (b.length() + sentence.length() + call.text().length() + 4 > size) break;
            b.append(sentence).append('\n').append(call.text()).append('\n');
            words.append(sentence);
            want.add(call.call());
        }
        if (want.isEmpty())
            throw new IllegalStateException(
                    "format "
                            + f.name()
                            + ": "
                            + size
                            + " characters hold no sentence and call (calls shape)");
        // the last sentence makes up the size
        String last = prose(Math.max(1, size - b.length()), false);
        b.append(last);
        words.append(last);
        String text = b.toString();
        ChatMessage m =
                parsedOrFail(
                        f, text, tools, options, " reads no prose between calls (calls shape)", "");
        boolean same = m.toolCalls().size() == want.size();
        for (int i = 0; same && i < want.size(); i++)
            same =
                    m.toolCalls().get(i).name().equals(want.get(i).name())
                            && Objects.equals(
                                    object(m.toolCalls().get(i).arguments()),
                                    object(want.get(i).arguments()));
        String content = m.content() == null ? "" : m.content();
        if (!same || !blankless(content).equals(blankless(words)))
            throw new IllegalStateException(
                    "format "
                            + f.name()
                            + " reads no prose between calls (calls shape): "
                            + want.size()
                            + " calls put in, "
                            + m.toolCalls().size()
                            + " parsed"
                            + (same ? "" : " (or not the calls put in)")
                            + ", content "
                            + excerpt(content));
        Output o = new Output(f, "calls", text, tools, options, m, opener);
        checkStream(o, 4);
        return o;
    }

    /**
     * Whether a name or value is ordinary text: letters, digits, spaces and {@code , . - _ :}, none
     * of the characters a format's markers or a case testing its edges are made of.
     */
    private static boolean plain(String s) {
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            if (!Character.isLetterOrDigit(c) && " ,.-_:".indexOf(c) < 0) return false;
        }
        return true;
    }

    /** The text without its white space. */
    private static String blankless(CharSequence s) {
        StringBuilder b = new StringBuilder(s.length());
        for (int i = 0; i < s.length(); i++)
            if (!Character.isWhitespace(s.charAt(i))) b.append(s.charAt(i));
        return b.toString();
    }

    /**
     * The format's parse of a shape's text; where it fails, an error naming the format, then {@code
     * problem}, the parse's message and {@code after}.
     */
    private static ChatMessage parsedOrFail(
            Format f,
            String text,
            Tools tools,
            ParseOptions options,
            String problem,
            String after) {
        try {
            return f.parse(text, tools, options);
        } catch (RuntimeException e) {
            throw new IllegalStateException(
                    "format " + f.name() + problem + ": " + e.getMessage() + after, e);
        }
    }

    private static JsonObject object(String json) {
        try {
            JsonElement e = JsonParser.parseString(json);
            return e.isJsonObject() ? e.getAsJsonObject() : null;
        } catch (RuntimeException e) {
            return null;
        }
    }

    private static int count(String text, String needle) {
        int n = 0;
        for (int i = text.indexOf(needle); i >= 0; i = text.indexOf(needle, i + 1)) n++;
        return n;
    }

    // ---------------------------------------------------------------- opener and floors

    /**
     * The text a call of the format starts with, derived from its cases: the text between the
     * content before a case's first call and that call's name, up to its first white space
     * ({@code <tool_call>} of {@code <tool_call>\n{"name": "f"...}}, {@code [TOOL_CALLS]},
     * {@code [} of {@code [f(a=1)]}, {@code {"name":} of a Llama 3 JSON call), leaving out what
     * comes before the shortest tail of that text that still parses to the same calls alone (a
     * reasoning end tag, a response marker, an optional wrapper). Cases are parsed
     * with thinking off, and those with reasoning before the first call are not used; cases whose
     * first call comes first in the output decide when there are any, else cases with content
     * before it (the content found in the text by its last characters). Of the openers found, the
     * one most cases agree on wins (ties: the shorter, then the first in order). This rather than
     * the format file's {@code specialTokens}, which only a few formats list.
     */
    public static synchronized String opener(Format f) {
        String known = OPENERS.get(f.name());
        if (known != null) return known;
        List<Map<String, Integer>> tiers = List.of(new TreeMap<>(), new TreeMap<>());
        for (SuiteCase c : cases(f)) {
            if (!usable(c)) continue;
            List<ParseEvent> events;
            try {
                events = f.parseEvents(c.input(), tools(c), c.options().withThinking(false));
            } catch (RuntimeException e) {
                continue;
            }
            StringBuilder lead = new StringBuilder();
            ParseEvent.ToolCallStart first = null;
            boolean reasoning = false;
            for (ParseEvent e : events) {
                if (e instanceof ParseEvent.ToolCallStart s) {
                    first = s;
                    break;
                }
                if (e instanceof ParseEvent.Text t) lead.append(t.text());
                if (e instanceof ParseEvent.Reasoning) reasoning = true;
            }
            if (first == null || reasoning) continue;
            int at = c.input().indexOf(first.name());
            if (at <= 0) continue;
            String before = c.input().substring(0, at);
            int start = 0;
            String leadText = lead.toString().strip();
            if (!leadText.isEmpty()) {
                String tail = leadText.substring(Math.max(0, leadText.length() - 16));
                int p = before.lastIndexOf(tail);
                if (p < 0) continue;
                start = p + tail.length();
            }
            // markers before the call that are not the call's own (a reasoning end, a response
            // marker) are left out:
            // the opener starts where the longest tail of the text still parses to the same calls
            // alone
            String rest = before.substring(start).strip();
            String after = c.input().substring(at);
            List<String> names = calls(f, rest + after, c);
            for (int k = rest.length() - 1; k > 0 && names != null; k--) {
                if (Character.isLowSurrogate(rest.charAt(k))) continue;
                if (names.equals(calls(f, rest.substring(k) + after, c))) {
                    rest = rest.substring(k).strip();
                    break;
                }
            }
            int ws = 0;
            while (ws < rest.length() && !Character.isWhitespace(rest.charAt(ws))) ws++;
            if (ws > 0)
                tiers.get(leadText.isEmpty() ? 0 : 1).merge(rest.substring(0, ws), 1, Integer::sum);
        }
        Map<String, Integer> votes = tiers.get(0).isEmpty() ? tiers.get(1) : tiers.get(0);
        String best =
                votes.entrySet().stream()
                        .max(
                                Comparator.comparingInt(
                                                (Map.Entry<String, Integer> e) -> e.getValue())
                                        .thenComparingInt(e -> -e.getKey().length()))
                        .map(Map.Entry::getKey)
                        .orElseThrow(
                                () ->
                                        new IllegalStateException(
                                                "format "
                                                        + f.name()
                                                        + ": no opener: none of its valid cases has a call with only content before it"));
        OPENERS.put(f.name(), best);
        return best;
    }

    /**
     * The names of the calls a text parses to with thinking off, when it holds nothing else; null
     * otherwise.
     */
    private static List<String> calls(Format f, String text, SuiteCase c) {
        try {
            ChatMessage m = f.parse(text, tools(c), c.options().withThinking(false));
            if (m.content() != null || m.reasoningContent() != null || m.toolCalls().isEmpty())
                return null;
            return m.toolCalls().stream().map(ToolCall::name).toList();
        } catch (RuntimeException e) {
            return null;
        }
    }

    /**
     * The opener as the floor searches it in a text: the whole opener, but in a text of Latin-1
     * characters only, cut before its first character outside Latin-1 (DeepSeek's {@code
     * <｜tool▁calls▁begin｜>} is searched as {@code <} in ASCII prose): {@code String.indexOf}
     * answers -1 without scanning when a Latin-1 string is searched for a character it cannot hold,
     * which would make the floor of ASCII prose zero. (An opener that starts outside Latin-1 cannot
     * occur in such a text at all; its floor there is zero.)
     */
    public static String probe(String opener, String text) {
        for (int i = 0; i < text.length(); i++) if (text.charAt(i) > 0xFF) return opener;
        int i = 0;
        while (i < opener.length() && opener.charAt(i) <= 0xFF) i++;
        return i == 0 ? opener : opener.substring(0, i);
    }

    /**
     * The floor of finding calls: an {@code indexOf} loop that visits every occurrence of {@code
     * needle}; returns how many.
     */
    public static int indexOfAll(String text, String needle) {
        int n = 0;
        for (int i = text.indexOf(needle); i >= 0; i = text.indexOf(needle, i + needle.length()))
            n++;
        return n;
    }

    /**
     * The floor of reading a JSON string: an {@code indexOf} loop that visits every {@code "} and
     * {@code \} in order; returns how many.
     */
    public static int quoteScan(String text) {
        int n = 0;
        int q = text.indexOf('"');
        int b = text.indexOf('\\');
        while (q >= 0 || b >= 0) {
            n++;
            if (b < 0 || (q >= 0 && q < b)) q = text.indexOf('"', q + 1);
            else b = text.indexOf('\\', b + 1);
        }
        return n;
    }

    // ---------------------------------------------------------------- chunks and checks

    /** The text cut every {@code n} code points (a surrogate pair is never split). */
    public static List<String> chunks(String text, int n) {
        if (n < 1) throw new IllegalArgumentException("chunk size " + n);
        List<String> out = new ArrayList<>(text.length() / n + 1);
        int i = 0;
        while (i < text.length()) {
            int end = i;
            for (int k = 0; k < n && end < text.length(); k++)
                end +=
                        Character.isHighSurrogate(text.charAt(end)) && end + 1 < text.length()
                                ? 2
                                : 1;
            out.add(text.substring(i, end));
            i = end;
        }
        return out;
    }

    /**
     * Fails unless streaming the output in {@code n}-code-point chunks gives its expected message.
     */
    public static void checkStream(Output o, int n) {
        StreamParser s = o.format().newStream(o.tools(), o.options());
        List<ParseEvent> events = new ArrayList<>();
        for (String c : chunks(o.text(), n)) events.addAll(s.feed(c));
        events.addAll(s.finish());
        ChatMessage got = ChatMessage.fromEvents(events);
        if (!got.equals(ChatMessage.fromEvents(o.parseEvents())) || !sameMessage(got, o.expected()))
            throw new IllegalStateException(
                    o
                            + ": streaming it in "
                            + n
                            + "-character chunks does not give what parsing it in one piece gives"
                            + " (content "
                            + excerpt(got.content())
                            + " vs "
                            + excerpt(o.expected().content())
                            + ", "
                            + got.toolCalls().size()
                            + " vs "
                            + o.expected().toolCalls().size()
                            + " calls)");
    }

    private static boolean sameMessage(ChatMessage a, ChatMessage b) {
        return Objects.equals(a.content(), b.content())
                && Objects.equals(a.reasoningContent(), b.reasoningContent())
                && a.toolCalls().equals(b.toolCalls());
    }

    private static String excerpt(String s) {
        if (s == null) return "null";
        return '"'
                + (s.length() <= 40 ? s : s.substring(0, 20) + "…" + s.substring(s.length() - 20))
                        .replace("\n", "\\n")
                + "\" ("
                + s.length()
                + " chars)";
    }
}
