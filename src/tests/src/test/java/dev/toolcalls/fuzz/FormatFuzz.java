package dev.toolcalls.fuzz;

import com.google.gson.JsonArray;
import com.google.gson.JsonElement;
import com.google.gson.JsonObject;
import com.google.gson.JsonParser;
import com.google.gson.JsonPrimitive;

import dev.toolcalls.ChatMessage;
import dev.toolcalls.DeltaMessage;
import dev.toolcalls.Format;
import dev.toolcalls.Formats;
import dev.toolcalls.IdGenerator;
import dev.toolcalls.ParseOptions;
import dev.toolcalls.StreamParser;
import dev.toolcalls.ToolCallParseException;
import dev.toolcalls.Tools;
import dev.toolcalls.suite.CaseRunner;

import org.antlr.v4.runtime.CharStream;
import org.antlr.v4.runtime.CharStreams;
import org.antlr.v4.runtime.Lexer;
import org.antlr.v4.runtime.Vocabulary;
import org.antlr.v4.runtime.atn.ATN;
import org.antlr.v4.runtime.atn.ATNState;
import org.antlr.v4.runtime.atn.ActionTransition;
import org.antlr.v4.runtime.atn.AtomTransition;
import org.antlr.v4.runtime.atn.LexerTypeAction;
import org.antlr.v4.runtime.atn.NotSetTransition;
import org.antlr.v4.runtime.atn.RangeTransition;
import org.antlr.v4.runtime.atn.RuleStopState;
import org.antlr.v4.runtime.atn.RuleTransition;
import org.antlr.v4.runtime.atn.SetTransition;
import org.antlr.v4.runtime.atn.Transition;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.ConcurrentHashMap;
import java.util.stream.Stream;

/**
 * What every format's fuzz target checks on one input (the targets, one per format, are generated
 * from {@code tests-data/} by {@code src/build/GenerateFuzzTargets.java}, each seeded with its
 * format's cases):
 *
 * <ul>
 *   <li>nothing but {@link ToolCallParseException} is thrown, in batch or streaming, strict or
 *       lenient;
 *   <li>streams under several chunkings (1-character, random, a 2-way split) keep the delta and
 *       event contract and reassemble to the batch result, or fail as batch does ({@link
 *       CaseRunner#compareStreams});
 *   <li>no content delta of a stream in small chunks holds a marker of the format ({@code
 *       <tool_call>}, {@code [TOOL_CALLS]}, ...), derived from the generated lexer and the format
 *       file, never listed by hand ({@link #markers});
 *   <li>time is linear: streaming in 1-character chunks may cost a bounded multiple of batch, not a
 *       multiple that grows with the input (a token re-read from its start at every chunk).
 * </ul>
 *
 * Half the inputs are parsed with the tools of all the format's cases (so schema typing is fuzzed
 * too), and thinking is the format's default, on or off, as the input's hash says.
 */
final class FormatFuzz {
    /**
     * {@code -Dtoolcalls.fuzz.format=NAME}: only that format's target runs (the others are
     * disabled).
     */
    static final String FORMAT_PROPERTY = "toolcalls.fuzz.format";

    /**
     * Streaming in 1-character chunks may cost this many times batch (per-chunk overhead), plus the
     * floor below.
     */
    static final double STREAM_OVER_BATCH = 60;

    static final long FLOOR_NANOS = 5_000_000;

    private static final CaseRunner RUNNER = new CaseRunner(0, 8);
    private static final Map<String, Set<String>> MARKERS = new ConcurrentHashMap<>();
    private static final Map<String, Tools> TOOLS = new ConcurrentHashMap<>();

    private FormatFuzz() {}

    /** Whether a format's target runs: all of them unless {@link #FORMAT_PROPERTY} names one. */
    static boolean selected(String format) {
        String only = System.getProperty(FORMAT_PROPERTY, "");
        String fuzzing = System.getenv("JAZZER_FUZZ");
        if (only.isBlank() && fuzzing != null && !fuzzing.isBlank())
            throw new IllegalStateException(
                    "Jazzer fuzzes one target at a time: name the format, mvn test -Pfuzz -Dfuzz.format=NAME");
        if (!only.isBlank() && Formats.find(only).filter(f -> f.name().equals(only)).isEmpty())
            throw new IllegalStateException(
                    "-D"
                            + FORMAT_PROPERTY
                            + "="
                            + only
                            + " is not a format name (java -jar target/toolcalls.jar formats)");
        return only.isBlank() || only.equals(format);
    }

    static void check(String formatName, byte[] bytes) {
        Format format = Formats.get(formatName);
        String text =
                new String(
                        bytes,
                        StandardCharsets.UTF_8); // what is not UTF-8 becomes U+FFFD, as a server's
        // detokenizer would give
        int hash = Arrays.hashCode(bytes);
        Tools tools =
                (hash & 1) == 0
                        ? Tools.none()
                        : TOOLS.computeIfAbsent(formatName, FormatFuzz::caseTools);
        Boolean thinking =
                switch (Math.floorMod(hash >> 1, 3)) {
                    case 0 -> null;
                    case 1 -> Boolean.TRUE;
                    default -> Boolean.FALSE;
                };
        List<List<String>> chunkings =
                List.of(
                        ones(text),
                        random(text, new Random(hash), 8),
                        random(text, new Random(hash + 1L), 3),
                        split(text, Math.floorMod(hash >> 3, text.length() + 1)));
        for (boolean lenient : new boolean[] {false, true}) {
            ParseOptions options =
                    ParseOptions.defaults()
                            .withLenient(lenient)
                            .withThinking(thinking)
                            .withIds(() -> IdGenerator.seeded(0));
            String setting =
                    formatName
                            + (lenient ? " lenient" : " strict")
                            + ", thinking "
                            + thinking
                            + (tools == Tools.none() ? "" : ", with tools");
            List<String> problems;
            try {
                problems =
                        RUNNER.compareStreams(
                                format,
                                text,
                                tools,
                                options,
                                lenient ? chunkings.subList(1, 2) : chunkings);
            } catch (RuntimeException | StackOverflowError e) {
                throw new AssertionError(
                        setting
                                + ": "
                                + e
                                + " (only ToolCallParseException may be thrown) on "
                                + quote(text),
                        e);
            }
            if (!problems.isEmpty())
                throw new AssertionError(
                        setting + ": " + String.join("\n", problems) + "\non " + quote(text));
            if (!lenient) {
                Set<String> markers = MARKERS.computeIfAbsent(formatName, FormatFuzz::markers);
                for (List<String> chunks : List.of(chunkings.get(0), chunkings.get(2)))
                    noMarkerInContent(format, tools, options, chunks, markers, setting, text);
                linear(format, text, tools, options, setting);
            }
        }
    }

    /**
     * No content delta of a stream in small chunks holds a marker: text held back because it may be
     * a marker is never released as content when it is one. (Batch content may legitimately join
     * text around a dropped tag into marker text, "&lt;|START_RES&lt;|END_TEXT|&gt;PONSE|&gt;", or
     * hold what a grammar makes content in another state, as DeepSeek's text between calls;
     * small-chunk deltas carry neither.)
     */
    private static void noMarkerInContent(
            Format format,
            Tools tools,
            ParseOptions options,
            List<String> chunks,
            Set<String> markers,
            String setting,
            String text) {
        if (markers.isEmpty()) return;
        StreamParser s = format.newStream(tools, options);
        List<DeltaMessage> deltas = new ArrayList<>();
        try {
            for (String chunk : chunks) deltas.addAll(DeltaMessage.of(s.feed(chunk)));
            deltas.addAll(DeltaMessage.of(s.finish()));
        } catch (ToolCallParseException e) {
            deltas.addAll(DeltaMessage.of(e.eventsBeforeError()));
        }
        for (DeltaMessage d : deltas) {
            if (!d.isContent()) continue;
            for (String marker : markers)
                if (d.content().contains(marker))
                    throw new AssertionError(
                            setting
                                    + ": the content delta "
                                    + quote(d.content())
                                    + " holds the marker "
                                    + quote(marker)
                                    + " (chunks of up to "
                                    + chunks.stream().mapToInt(String::length).max().orElse(0)
                                    + ") on "
                                    + quote(text));
        }
    }

    private static ChatMessage batch(
            Format format, String text, Tools tools, ParseOptions options) {
        try {
            return format.parse(text, tools, options);
        } catch (ToolCallParseException e) {
            return null;
        }
    }

    /** 1-character chunks against batch, the best of three tries (a GC pause is not a finding). */
    private static void linear(
            Format format, String text, Tools tools, ParseOptions options, String setting) {
        long best = Long.MAX_VALUE;
        long batchBest = Long.MAX_VALUE;
        for (int attempt = 0; attempt < 3; attempt++) {
            long t0 = System.nanoTime();
            batch(format, text, tools, options);
            long t1 = System.nanoTime();
            StreamParser s = format.newStream(tools, options);
            try {
                for (int i = 0; i < text.length(); i++)
                    DeltaMessage.of(s.feed(text.substring(i, i + 1)));
                DeltaMessage.of(s.finish());
            } catch (ToolCallParseException e) {
                // the outcome was compared already; only the time matters here
            }
            long t2 = System.nanoTime();
            batchBest = Math.min(batchBest, t1 - t0);
            best = Math.min(best, t2 - t1);
            if (best <= FLOOR_NANOS + STREAM_OVER_BATCH * batchBest) return;
        }
        throw new AssertionError(
                setting
                        + ": streaming "
                        + text.length()
                        + " characters in 1-character chunks took "
                        + best / 1_000_000
                        + " ms, batch "
                        + batchBest / 1_000_000.0
                        + " ms: not linear in the input, on "
                        + quote(text.length() > 300 ? text.substring(0, 300) + "..." : text));
    }

    static List<String> ones(String text) {
        List<String> out = new ArrayList<>(text.length());
        for (int i = 0; i < text.length(); i++) out.add(text.substring(i, i + 1));
        return out;
    }

    static List<String> random(String text, Random r, int max) {
        List<String> out = new ArrayList<>();
        for (int i = 0; i < text.length(); ) {
            int end = Math.min(text.length(), i + 1 + r.nextInt(max));
            out.add(text.substring(i, end));
            i = end;
        }
        return out;
    }

    static List<String> split(String text, int at) {
        return List.of(text.substring(0, at), text.substring(at));
    }

    /**
     * The format's markers, derived from the generated lexer's ATN and the format file, never
     * listed by hand: the texts {@code M} (two characters or more) that a rule of the text mode
     * (mode 0) of a role other than content and reasoning matches exactly and every match of it
     * begins with ({@code <tool_call>}), provided no content, reasoning or unknown-role rule of any
     * mode can take {@code M}'s first character except as a one-character token. Then, wherever
     * {@code M} begins in the text mode, the marker rule out-matches every content rule, so content
     * holding {@code M} is a leak. (Grammars that let content take a marker in some contexts, as
     * pythonic's {@code '['} or a {@code <tool_calls>} that turns out to be prose, have those
     * markers left out.)
     */
    static Set<String> markers(String formatName) {
        JsonObject file = json(Path.of("grammars", formatName, formatName + ".json"));
        Map<String, String> roles = new HashMap<>();
        if (file.has("include"))
            for (JsonElement include : file.getAsJsonArray("include")) {
                JsonObject imported =
                        json(Path.of("grammars", "imports", include.getAsString() + ".json"));
                if (imported.has("roles"))
                    for (Map.Entry<String, JsonElement> r :
                            imported.getAsJsonObject("roles").entrySet())
                        roles.put(r.getKey(), r.getValue().getAsString());
            }
        for (Map.Entry<String, JsonElement> r : file.getAsJsonObject("roles").entrySet())
            roles.put(r.getKey(), r.getValue().getAsString());
        Lexer lexer;
        try {
            lexer =
                    (Lexer)
                            Class.forName(
                                            "dev.toolcalls.internal.grammar."
                                                    + file.get("lexer").getAsString())
                                    .getConstructor(CharStream.class)
                                    .newInstance(CharStreams.fromString(""));
        } catch (ReflectiveOperationException e) {
            throw new IllegalStateException("no generated lexer for " + formatName, e);
        }
        ATN atn = lexer.getATN();
        Vocabulary vocabulary = lexer.getVocabulary();
        List<Integer> contentRules = new ArrayList<>();
        for (ATNState modeStart : atn.modeToStartState)
            for (Transition t : modeStart.getTransitions()) {
                String role =
                        roles.get(vocabulary.getSymbolicName(emittedType(atn, t.target.ruleIndex)));
                if (role == null || role.equals("content") || role.equals("reasoning"))
                    contentRules.add(t.target.ruleIndex);
            }
        Set<String> markers = new TreeSet<>();
        for (Transition t : atn.modeToStartState.get(0).getTransitions()) {
            int rule = t.target.ruleIndex;
            String role = roles.get(vocabulary.getSymbolicName(emittedType(atn, rule)));
            if (role == null
                    || role.equals("content")
                    || role.equals("reasoning")
                    || role.equals("inherit")) continue;
            StringBuilder prefix = new StringBuilder();
            ATNState after = mandatoryPrefix(t.target, prefix);
            String m = prefix.toString();
            if (m.codePointCount(0, m.length()) < 2 || !reachesStop(atn, after, rule)) continue;
            int first = m.codePointAt(0);
            if (contentRules.stream().noneMatch(r -> takesInsideAToken(atn, r, first)))
                markers.add(m);
        }
        return markers;
    }

    /** The token type a rule emits: its own, or the one its {@code type(...)} command sets. */
    static int emittedType(ATN atn, int rule) {
        for (ATNState state : atn.states)
            if (state != null && state.ruleIndex == rule)
                for (Transition t : state.getTransitions())
                    if (t instanceof ActionTransition a
                            && a.actionIndex >= 0
                            && atn.lexerActions[a.actionIndex] instanceof LexerTypeAction type)
                        return type.getType();
        return atn.ruleToTokenType[rule];
    }

    /**
     * Walks a rule's ATN from its start while the path does not branch, collecting the characters;
     * returns where it stopped.
     */
    static ATNState mandatoryPrefix(ATNState start, StringBuilder prefix) {
        ATNState s = start;
        for (int steps = 0;
                steps < 10_000 && s.getNumberOfTransitions() == 1 && !(s instanceof RuleStopState);
                steps++) {
            Transition t = s.transition(0);
            if (t instanceof AtomTransition a) prefix.appendCodePoint(a.label);
            else if (t instanceof RangeTransition r && r.from == r.to)
                prefix.appendCodePoint(r.from);
            else if (t instanceof SetTransition set
                    && !(t instanceof NotSetTransition)
                    && set.label().size() == 1) prefix.appendCodePoint(set.label().getMinElement());
            else if (!t.isEpsilon() || t instanceof RuleTransition) break;
            s = t.target;
        }
        return s;
    }

    /**
     * Whether the rule can end here without another character (its stop state is in the epsilon
     * closure).
     */
    static boolean reachesStop(ATN atn, ATNState from, int rule) {
        for (ATNState s : closure(atn, List.of(from)))
            if (s instanceof RuleStopState && s.ruleIndex == rule) return true;
        return false;
    }

    /**
     * Whether a rule can match a string of two characters or more that holds {@code c}
     * (over-approximated: fragments are entered and left without a call stack, so this may say yes
     * where the grammar says no).
     */
    static boolean takesInsideAToken(ATN atn, int rule, int c) {
        Set<ATNState> start = closure(atn, List.of(atn.ruleToStartState[rule]));
        // every state of the rule and of the fragments it calls
        Set<ATNState> all = new HashSet<>(start);
        ArrayDeque<ATNState> work = new ArrayDeque<>(start);
        while (!work.isEmpty()) {
            ATNState s = work.pop();
            for (Transition t : s.getTransitions())
                for (ATNState n : closure(atn, List.of(t.target))) if (all.add(n)) work.push(n);
        }
        for (ATNState s : all)
            for (Transition t : s.getTransitions()) {
                if (t.isEpsilon()
                        || !t.matches(c, Character.MIN_CODE_POINT, Character.MAX_CODE_POINT))
                    continue;
                if (!start.contains(s)) return true; // c after another character
                for (ATNState n : closure(atn, List.of(t.target)))
                    if (!(n instanceof RuleStopState)
                            && n.getTransitions().length > 0
                            && Arrays.stream(n.getTransitions()).anyMatch(x -> !x.isEpsilon()))
                        return true; // c before another
            }
        return false;
    }

    /**
     * The epsilon closure, entering called fragments and leaving them to every place they are
     * called from.
     */
    static Set<ATNState> closure(ATN atn, List<ATNState> from) {
        Set<ATNState> seen = new HashSet<>();
        ArrayDeque<ATNState> work = new ArrayDeque<>(from);
        while (!work.isEmpty()) {
            ATNState s = work.pop();
            if (!seen.add(s)) continue;
            if (s instanceof RuleStopState) {
                for (ATNState state : atn.states)
                    if (state != null)
                        for (Transition t : state.getTransitions())
                            if (t instanceof RuleTransition rt && rt.ruleIndex == s.ruleIndex)
                                work.push(rt.followState);
                continue;
            }
            for (Transition t : s.getTransitions()) if (t.isEpsilon()) work.push(t.target);
        }
        return seen;
    }

    /** The tools of every case of the format, by function name: schema typing gets fuzzed too. */
    static Tools caseTools(String formatName) {
        Map<String, JsonElement> byName = new LinkedHashMap<>();
        Path dir = Path.of("tests-data", formatName);
        if (Files.isDirectory(dir)) {
            try (Stream<Path> files = Files.list(dir)) {
                for (Path p : files.filter(f -> f.toString().endsWith(".json")).sorted().toList()) {
                    JsonObject expected = json(p);
                    if (!expected.has("tools") || !expected.get("tools").isJsonArray()) continue;
                    for (JsonElement t : expected.getAsJsonArray("tools")) {
                        try {
                            String name =
                                    t.getAsJsonObject()
                                            .getAsJsonObject("function")
                                            .get("name")
                                            .getAsString();
                            byName.putIfAbsent(name, t);
                        } catch (RuntimeException malformed) {
                            // a case about bad tools; not a schema to fuzz with
                        }
                    }
                }
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }
        JsonArray all = new JsonArray();
        byName.values().forEach(all::add);
        try {
            return Tools.parse(all.toString());
        } catch (IllegalArgumentException e) {
            return Tools.none();
        }
    }

    private static JsonObject json(Path p) {
        try {
            return JsonParser.parseString(Files.readString(p, StandardCharsets.UTF_8))
                    .getAsJsonObject();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static String quote(String s) {
        return new JsonPrimitive(s).toString();
    }
}
