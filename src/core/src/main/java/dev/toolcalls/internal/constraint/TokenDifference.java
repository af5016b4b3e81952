package dev.toolcalls.internal.constraint;

import org.antlr.v4.runtime.atn.ATN;
import org.antlr.v4.runtime.atn.ATNState;
import org.antlr.v4.runtime.atn.RuleStopState;
import org.antlr.v4.runtime.atn.RuleTransition;
import org.antlr.v4.runtime.atn.Transition;
import org.antlr.v4.runtime.misc.Interval;
import org.antlr.v4.runtime.misc.IntervalSet;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.Collections;
import java.util.Deque;
import java.util.HashMap;
import java.util.HashSet;
import java.util.IdentityHashMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.WeakHashMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicReferenceArray;
import java.util.function.Function;
import java.util.function.IntFunction;
import java.util.function.IntPredicate;
import java.util.function.Supplier;
import java.util.function.UnaryOperator;

/**
 * The tokens a lexer rule can really produce in its mode: its language less the strings an earlier
 * rule of the same mode also matches, since where two rules match the same text the lexer takes the
 * one listed first (a JSON key rule {@code "\"" ~'"'* "\"" ':'} never reads {@code "name":} when a
 * rule for {@code "name":} comes before it). Built as the product of the two rules' automata,
 * determinized over the characters their transitions read, and written as one GBNF rule per state.
 */
final class TokenDifference {
    /** The largest automaton written; a larger one leaves the rule's language whole. */
    static final int MAX_STATES = 400;

    /** Stands for a state's own rule in its body while states are compared (no body holds it). */
    private static final String SELF = "\u0001";

    private static final int MAX_STACK = 16;

    /** The most answers kept per lexer that depend on the tools of a request. */
    private static final int MAX_WORDS = 512;

    /** The answer of {@link #repeatedClass} for a token that is not a class repeated. */
    private static final Object NOT_REPEATED = new Object();

    /** The most classes {@link Tokens#rest} keeps per automaton. */
    private static final int MAX_RESTS = 4096;

    /** Read-only sets of one character below 256 (made with the class, so threads share them). */
    private static final IntervalSet[] ONE = new IntervalSet[256];

    static {
        for (int c = 0; c < ONE.length; c++) {
            ONE[c] = IntervalSet.of(c);
            ONE[c].setReadonly(true);
        }
    }

    /** The most states of the product {@link #avoidNotJson} writes. */
    private static final int MAX_NOT_JSON_STATES = 4096;

    /** What was derived from a lexer: a pure function of the lexer, kept once. */
    private static final Map<ATN, Derived> CACHE = Collections.synchronizedMap(new WeakHashMap<>());

    /**
     * What was derived from one lexer: answers by question (each question a record of its
     * arguments), the reads of {@link #matches}, the splits and the names given by {@link
     * #stableId}.
     */
    private static final class Derived {
        final Map<Object, Object> answers = new ConcurrentHashMap<>();

        /**
         * The answers that depend on a request's tools (the words a token is spelled without),
         * emptied when they reach {@link #MAX_WORDS}: the questions of a lexer are finitely many,
         * the tools its requests bring are not.
         */
        final Map<Object, Object> words = new ConcurrentHashMap<>();

        final Map<Set<Cfg>, Read> reads = new ConcurrentHashMap<>();
        final AtomicReferenceArray<Read> starts;
        final Map<SplitKey, Split> splits = new ConcurrentHashMap<>();
        final Map<AfterKey, Object> pendings = new ConcurrentHashMap<>();
        final Map<String, String> ids = new ConcurrentHashMap<>();
        final Map<String, String> idOf = new ConcurrentHashMap<>();

        Derived(ATN atn) {
            starts = new AtomicReferenceArray<>(atn.ruleToStartState.length);
        }
    }

    /** Where fragment calls return to. */
    private record Ret(ATNState follow, Ret next, int depth) {}

    /** A position in a rule's automaton, with the fragments it is inside. */
    private record Cfg(ATNState state, Ret ret) {}

    /**
     * Words that a token may be spelled as, each with any characters of {@code stripped} around it
     * that the token reads there for every word (the parser strips them).
     */
    record Words(List<String> list, String stripped) {}

    /**
     * A state of a run: at a boundary of its text (or inside a run of its characters), inside text
     * tokens, and which markers are partly read.
     */
    private record Run(boolean home, Set<Cfg> text, Set<Cfg> markers) {}

    /**
     * A set of configurations {@link #matches} reached, whether it accepts, and the reads each
     * character leads to ({@code kept}: whether it is the lexer's kept instance).
     */
    private static final class Read {
        final Set<Cfg> cfgs;
        final boolean accepts;
        final boolean kept;

        /** The hash of the configurations, made once. */
        final int hash;

        final Map<Integer, Read> next = new ConcurrentHashMap<>();

        /**
         * The reads of ASCII characters, by character (made when first asked; a read another thread
         * puts at the same time is the same as this one's, all its fields final).
         */
        private volatile Read[] ascii;

        /** The {@link #pieces} of the labels of its configurations; null before they are made. */
        private volatile List<IntervalSet> pieces;

        Read(Set<Cfg> cfgs, boolean kept) {
            this.cfgs = cfgs;
            this.hash = cfgs.hashCode();
            this.accepts = TokenDifference.accepts(cfgs);
            this.kept = kept;
        }

        /** The read {@code ch} leads to, where known. */
        Read after(int ch) {
            if (ch >= 128) return next.get(ch);
            Read[] a = ascii;
            return a == null ? null : a[ch];
        }

        /** Keeps the read {@code ch} leads to. */
        void keep(int ch, Read to) {
            if (ch >= 128) {
                next.put(ch, to);
                return;
            }
            Read[] a = ascii;
            if (a == null) ascii = a = new Read[128];
            a[ch] = to;
        }
    }

    /** The most reads of a lexer that {@link #matches} keeps. */
    private static final int MAX_READS = 1 << 14;

    /** A state of the product: where the rule is, and where the earlier rules are. */
    private record Pair(Set<Cfg> rule, Set<Cfg> earlier) {}

    /**
     * States numbered in the order they are first met, at most {@link #MAX_STATES} of them (or the
     * bound given).
     */
    private static class Numbered<S> {
        final List<S> states = new ArrayList<>();
        private final Map<S, Integer> ids = new HashMap<>();
        private final int bound;

        Numbered(S start) {
            this(start, MAX_STATES);
        }

        Numbered(S start, int bound) {
            this.bound = bound;
            id(start);
        }

        /** The number of {@code s}, numbered if new; -1 where that would pass the bound. */
        int id(S s) {
            Integer known = ids.get(s);
            if (known != null) return known;
            if (states.size() >= bound) return -1;
            ids.put(s, states.size());
            states.add(s);
            return states.size() - 1;
        }

        /**
         * The next number, for a state the caller knows to be new and numbers only this way (it
         * keeps the numbers of such states itself); -1 where that would pass the bound.
         */
        int fresh(S s) {
            if (states.size() >= bound) return -1;
            states.add(s);
            return states.size() - 1;
        }
    }

    private final ATN atn;

    /** What was derived from this lexer, shared by every instance for it. */
    private final Derived derived;

    /**
     * The answers replayed, each with the rule set it was last defined in; null in an instance that
     * threads share.
     */
    private final Map<Object, Gbnf> replayed;

    /** The words' automata made in this build; null in an instance that threads share. */
    private final Map<WordsShape, WordAutomaton> automata;

    /**
     * The answers of {@link #around} in this build, by rule and characters, then word; null in an
     * instance that threads share.
     */
    private final Map<AroundOf, Map<String, Long>> arounds;

    /** An instance that threads may share. */
    TokenDifference(ATN atn) {
        this(atn, false);
    }

    private TokenDifference(ATN atn, boolean oneThread) {
        this.atn = atn;
        this.derived = CACHE.computeIfAbsent(atn, Derived::new);
        this.replayed = oneThread ? new IdentityHashMap<>() : null;
        this.automata = oneThread ? new HashMap<>() : null;
        this.arounds = oneThread ? new HashMap<>() : null;
    }

    /**
     * An instance for one thread (one build), which defines each answer in a rule set once however
     * often it is asked.
     */
    static TokenDifference forOneThread(ATN atn) {
        return new TokenDifference(atn, true);
    }

    /** Rules defined for an answer (read only once made), and the answer. */
    private record Answer(String start, Gbnf rules) {}

    /**
     * The answer to a question: known, or made by {@code make} and kept under the question as
     * {@code kept} gives it (holding copies of what a caller may change).
     */
    private <K> Object lookup(K key, UnaryOperator<K> kept, Function<K, Object> make) {
        return lookup(derived.answers, key, kept, make);
    }

    private static <K> Object lookup(
            Map<Object, Object> in, K key, UnaryOperator<K> kept, Function<K, Object> make) {
        Object known = in.get(key);
        return known != null ? known : in.computeIfAbsent(kept.apply(key), k -> make.apply(key));
    }

    /** Defines an answer's rules in {@code out}, once per rule set. */
    private String replay(Gbnf out, Object cached) {
        Answer a = (Answer) cached;
        if (replayed == null || replayed.put(a, out) != out) out.defineAll(a.rules);
        return a.start;
    }

    /** A copy of {@code set} no one changes. */
    private static IntervalSet frozen(IntervalSet set) {
        if (set.isReadonly()) return set;
        IntervalSet copy = new IntervalSet(set);
        copy.setReadonly(true);
        return copy;
    }

    private static Answer answer(Function<Gbnf, String> build) {
        Gbnf g = new Gbnf();
        String start = build.apply(g);
        return new Answer(start, g);
    }

    /**
     * The keys {@code k} (as written between the quotes, at most 64 of at most 64 characters) for
     * which the rule reads {@code open"k":}; empty where the rule reads none or more than that.
     */
    List<String> keysAfter(int rule, String open) {
        Set<Cfg> at = closure(Set.of(new Cfg(atn.ruleToStartState[rule], null)));
        String start = open + '"';
        for (int i = 0; i < start.length() && !at.isEmpty(); i++) at = step(at, start.charAt(i));
        List<String> keys = new ArrayList<>();
        return at.isEmpty() || !keysAfter(at, new StringBuilder(), keys) ? List.of() : keys;
    }

    private boolean keysAfter(Set<Cfg> at, StringBuilder key, List<String> keys) {
        IntervalSet next = new IntervalSet();
        for (Cfg c : at)
            for (int i = 0; i < c.state.getNumberOfTransitions(); i++) {
                Transition t = c.state.transition(i);
                if (!t.isEpsilon() && !(t instanceof RuleTransition))
                    next.addAll(TokenLanguages.label(t));
            }
        if (next.size() > 64) return false;
        for (int ch : next.toList()) {
            Set<Cfg> then = step(at, ch);
            if (ch == '"') {
                if (accepts(step(then, ':')) && keys.size() < 64) keys.add(key.toString());
                else if (keys.size() >= 64) return false;
                continue;
            }
            if (key.length() >= 64) return false;
            key.appendCodePoint(ch);
            boolean ok = keysAfter(then, key, keys);
            key.setLength(key.length() - Character.charCount(ch));
            if (!ok) return false;
        }
        return true;
    }

    /** The question of {@link #define}. */
    private record DefineKey(String prefix, int rule, List<Integer> earlier) {
        DefineKey kept() {
            return new DefineKey(prefix, rule, List.copyOf(earlier));
        }
    }

    /**
     * Defines the rules of {@code rule}'s language less {@code earlier}'s and returns the start
     * rule's name; null when no string is in both (nothing to take away) or the automaton is too
     * large; the empty string when nothing is left.
     */
    String define(Gbnf out, String prefix, int rule, List<Integer> earlier) {
        Object a =
                lookup(
                        new DefineKey(prefix, rule, earlier),
                        DefineKey::kept,
                        k -> answer(g -> defineNew(g, prefix, rule, earlier)));
        return replay(out, a);
    }

    /**
     * Defines a run of characters of {@code chars} and tokens of {@code texts} that holds no string
     * of the markers' languages; returns the run's rule, or null when the automaton is too large.
     */
    String avoid(
            Gbnf out, String name, IntervalSet chars, List<Integer> texts, List<Integer> markers) {
        Object a =
                lookup(
                        new RunKey(name, chars, texts, markers),
                        RunKey::kept,
                        k -> answer(g -> avoidNew(g, name, chars, texts, markers)));
        return replay(out, a);
    }

    /** A run's question: its name, characters, text tokens and markers. */
    private record RunKey(
            String name, IntervalSet chars, List<Integer> texts, List<Integer> markers) {
        RunKey kept() {
            return new RunKey(name, frozen(chars), List.copyOf(texts), List.copyOf(markers));
        }
    }

    /** Whether some token of the rule holds a string of one of the markers. */
    boolean covers(int rule, List<Integer> markers) {
        return (Boolean)
                lookup(
                        new CoversKey(rule, markers),
                        k -> new CoversKey(rule, List.copyOf(markers)),
                        k -> coversNew(rule, markers));
    }

    private record CoversKey(int rule, List<Integer> markers) {}

    /** Whether {@code s} is in the rule's language. */
    boolean matches(int rule, String s) {
        return walk(start(rule), s).accepts;
    }

    /** The read {@code s} leads to from {@code at} (one of no configurations once none is left). */
    private Read walk(Read at, String s) {
        for (int i = 0; i < s.length() && !at.cfgs.isEmpty(); ) {
            int ch = s.codePointAt(i);
            at = stepRead(at, ch);
            i += Character.charCount(ch);
        }
        return at;
    }

    /**
     * Which of the characters {@code chars} (at most 32, below U+10000) the rule's language holds
     * {@code word} with: per character {@code i}, bit {@code 2i} where it holds the character then
     * the word, bit {@code 2i + 1} where it holds the word then the character. The word is read
     * once for all the characters after it.
     */
    long around(int rule, String word, String chars) {
        Map<String, Long> known =
                arounds == null
                        ? null
                        : arounds.computeIfAbsent(new AroundOf(rule, chars), k -> new HashMap<>());
        Long answered = known == null ? null : known.get(word);
        if (answered != null) return answered;
        Read start = start(rule);
        Read through = walk(start, word);
        long bits = 0;
        // the word is read once from each state a character before it leads to
        Read[] from = new Read[chars.length()];
        boolean[] holds = new boolean[chars.length()];
        for (int i = 0; i < chars.length(); i++) {
            char c = chars.charAt(i);
            if (!start.cfgs.isEmpty()) {
                Read at = stepRead(start, c);
                int j = 0;
                while (j < i && from[j] != at) j++;
                from[i] = at;
                holds[i] = j < i ? holds[j] : walk(at, word).accepts;
                if (holds[i]) bits |= 1L << 2 * i;
            }
            if (!through.cfgs.isEmpty() && stepRead(through, c).accepts) bits |= 1L << 2 * i + 1;
        }
        if (known != null) known.put(word, bits);
        return bits;
    }

    /** A rule and the characters {@link #around} is asked about. */
    private record AroundOf(int rule, String chars) {}

    /** The read of {@code rule}'s start, kept per lexer. */
    private Read start(int rule) {
        Read at = derived.starts.get(rule);
        if (at == null) {
            at = read(closure(Set.of(new Cfg(atn.ruleToStartState[rule], null))));
            derived.starts.compareAndSet(rule, null, at);
        }
        return at;
    }

    /**
     * The one instance of the configurations {@code cfgs} in this lexer's reads: each set of
     * configurations {@link #matches} reaches is kept with the sets each character leads to (the
     * lexer's automaton determinized as far as it is read, a pure function of the lexer), up to
     * {@link #MAX_READS} of them.
     */
    private Read read(Set<Cfg> cfgs) {
        Map<Set<Cfg>, Read> reads = derived.reads;
        Read known = reads.get(cfgs);
        if (known != null) return known;
        if (reads.size() >= MAX_READS) return new Read(cfgs, false);
        Read made = reads.putIfAbsent(cfgs, new Read(cfgs, true));
        return made != null ? made : reads.get(cfgs);
    }

    /**
     * Defines the rules of {@code rule}'s language less {@code earlier}'s and returns the start
     * rule's name; null when no string is in both (nothing to take away) or the automaton is too
     * large; the empty string when nothing is left.
     */
    private String defineNew(Gbnf out, String prefix, int rule, List<Integer> earlier) {
        if (earlier.isEmpty()) return null;
        Set<Cfg> a = closure(Set.of(new Cfg(atn.ruleToStartState[rule], null)));
        Set<Cfg> seeds = new HashSet<>();
        for (int e : earlier) seeds.add(new Cfg(atn.ruleToStartState[e], null));
        Set<Cfg> b = closure(seeds);
        List<Map<Integer, IntervalSet>> edges = new ArrayList<>();
        Pair start = new Pair(a, b);
        Numbered<Pair> seen = new Numbered<>(start);
        List<Pair> states = seen.states;
        boolean overlap = false;
        for (int i = 0; i < states.size(); i++) {
            Pair p = states.get(i);
            boolean acceptRule = accepts(p.rule);
            boolean acceptEarlier = accepts(p.earlier);
            if (acceptRule && acceptEarlier) overlap = true;
            Map<Integer, IntervalSet> out1 = new LinkedHashMap<>();
            edges.add(out1);
            List<IntervalSet> labels = new ArrayList<>();
            for (Cfg c : p.rule) addLabels(c, labels);
            for (Cfg c : p.earlier) addLabels(c, labels);
            for (IntervalSet piece : pieces(labels)) {
                int ch = piece.getMinElement();
                Set<Cfg> na = step(p.rule, ch);
                if (na.isEmpty()) continue;
                Pair next = new Pair(na, step(p.earlier, ch));
                int id = seen.id(next);
                if (id < 0) return null;
                out1.computeIfAbsent(id, k -> new IntervalSet()).addAll(piece);
            }
        }
        if (!overlap) return null;
        // states from which a string of the rule alone can still end
        return writeLive(
                out,
                prefix,
                edges,
                i -> accepts(states.get(i).rule) && !accepts(states.get(i).earlier),
                "");
    }

    /** The automaton of a run: its states, edges, and which states lead back home or to an end. */
    private record RunDfa(
            List<Run> states,
            List<Map<Integer, IntervalSet>> edges,
            boolean[] back,
            boolean[] ends) {
        boolean endsHere(int q) {
            return states.get(q).home || accepts(states.get(q).text);
        }
    }

    /**
     * The run of characters of {@code chars} and tokens of {@code texts} that holds no string of
     * the markers' languages, as an automaton; null when it is too large or a marker or a text
     * token matches the empty string.
     */
    private RunDfa runDfa(IntervalSet chars, List<Integer> texts, List<Integer> markers) {
        IntervalSet set = Gbnf.clip(chars);
        Set<Cfg> seeds = new HashSet<>();
        for (int m : markers) seeds.add(new Cfg(atn.ruleToStartState[m], null));
        Set<Cfg> start = closure(seeds);
        if (accepts(start)) return null; // a marker that matches the empty string
        Set<Cfg> textSeeds = new HashSet<>();
        for (int t : texts) textSeeds.add(new Cfg(atn.ruleToStartState[t], null));
        Set<Cfg> textStart = closure(textSeeds);
        if (accepts(textStart)) return null;
        List<Map<Integer, IntervalSet>> edges = new ArrayList<>();
        Run home = new Run(true, Set.of(), Set.of());
        Numbered<Run> seen = new Numbered<>(home);
        List<Run> states = seen.states;
        for (int i = 0; i < states.size(); i++) {
            Run st = states.get(i);
            boolean boundary = st.home || accepts(st.text);
            Set<Cfg> active = new LinkedHashSet<>(st.markers);
            active.addAll(start);
            Set<Cfg> text = new LinkedHashSet<>(st.text);
            if (boundary) text.addAll(textStart);
            List<IntervalSet> labels = new ArrayList<>();
            labels.add(set);
            for (Cfg c : active) addLabels(c, labels);
            for (Cfg c : text) addLabels(c, labels);
            Map<Integer, IntervalSet> e = new LinkedHashMap<>();
            edges.add(e);
            for (IntervalSet piece : pieces(labels)) {
                int ch = piece.getMinElement();
                boolean runChar = boundary && set.contains(ch);
                Set<Cfg> nextText = step(text, ch);
                if (!runChar && nextText.isEmpty()) continue;
                Set<Cfg> next = step(active, ch);
                if (accepts(next)) continue;
                Run to = new Run(runChar, nextText, next);
                int id = seen.id(to);
                if (id < 0) return null;
                e.computeIfAbsent(id, k -> new IntervalSet()).addAll(piece);
            }
        }
        int n = states.size();
        // which states can come back to the start (a segment of the loop ends there)
        boolean[] back = new boolean[n];
        back[0] = true;
        reachBack(edges, back, false);
        // which states can end the run (at a boundary of its text)
        boolean[] ends = new boolean[n];
        for (int q = 0; q < n; q++) ends[q] = states.get(q).home || accepts(states.get(q).text);
        reachBack(edges, ends, false);
        return new RunDfa(states, edges, back, ends);
    }

    /** The loop of a run: what keeps or leads back to its start, {@code ( a | b )* }, or "". */
    private static String loop(RunDfa d, String name) {
        List<String> loop = new ArrayList<>();
        for (Map.Entry<Integer, IntervalSet> e : d.edges.get(0).entrySet()) {
            String cls = Gbnf.charClass(e.getValue());
            if (e.getKey() == 0) loop.add(0, cls);
            else if (d.back[e.getKey()]) loop.add(cls + " " + name + "_s" + e.getKey());
        }
        return loop.isEmpty() ? "" : "( " + String.join(" | ", loop) + " )* ";
    }

    /**
     * Defines a run of characters of {@code chars} that holds no string of the markers' languages
     * (where one begins, the lexer takes the marker), for markers that are patterns rather than a
     * few strings: one state per set of markers partly read. Returns the run's rule, or null when
     * the automaton is too large.
     */
    private String avoidNew(
            Gbnf out, String name, IntervalSet chars, List<Integer> texts, List<Integer> markers) {
        RunDfa d = runDfa(chars, texts, markers);
        if (d == null) return null;
        List<String> end = new ArrayList<>();
        end.add("\"\"");
        for (Map.Entry<Integer, IntervalSet> e : d.edges.get(0).entrySet())
            if (e.getKey() != 0 && d.ends[e.getKey()])
                end.add(Gbnf.charClass(e.getValue()) + " " + name + "_e" + e.getKey());
        for (int q = 1; q < d.states.size(); q++) {
            List<String> seg = new ArrayList<>();
            List<String> fin = new ArrayList<>();
            if (d.endsHere(q)) fin.add("\"\"");
            for (Map.Entry<Integer, IntervalSet> e : d.edges.get(q).entrySet()) {
                String cls = Gbnf.charClass(e.getValue());
                if (e.getKey() == 0) seg.add(0, cls);
                else {
                    if (d.back[e.getKey()]) seg.add(cls + " " + name + "_s" + e.getKey());
                    if (d.ends[e.getKey()]) fin.add(cls + " " + name + "_e" + e.getKey());
                }
            }
            if (d.back[q]) out.define(name + "_s" + q, String.join(" | ", seg));
            if (d.ends[q]) out.define(name + "_e" + q, String.join(" | ", fin));
        }
        return out.define(name, loop(d, name) + "( " + String.join(" | ", end) + " )");
    }

    /** A state of a run read together with {@link JsonPrefixes}. */
    private record RunJson(JsonPrefixes.State json, int run) {}

    /**
     * Defines the run of {@link #avoid} (its rules named {@code run}, shared with it) less the
     * texts that are, stripped, JSON of a type other than a string nested at most {@code depth}
     * levels ({@link JsonPrefixes}), as the product of the two automata ({@code name}, one rule per
     * state that may still end); where the text can no longer be such a value the run's own rules
     * go on. Returns the rule, or null when the run's automaton or the product is too large.
     */
    String avoidNotJson(
            Gbnf out,
            String name,
            String run,
            IntervalSet chars,
            List<Integer> texts,
            List<Integer> markers,
            int depth) {
        Object a =
                lookup(
                        new NotJsonKey(name, new RunKey(run, chars, texts, markers), depth),
                        k -> new NotJsonKey(name, k.run.kept(), depth),
                        k ->
                                answer(
                                        g -> {
                                            RunDfa d = runDfa(chars, texts, markers);
                                            if (d == null
                                                    || avoidNew(g, run, chars, texts, markers)
                                                            == null) return null;
                                            return notJson(g, name, run, d, depth);
                                        }));
        return replay(out, a);
    }

    private record NotJsonKey(String name, RunKey run, int depth) {}

    /** The rules of {@link #avoidNotJson} for the run {@code run} of the automaton {@code d}. */
    private static String notJson(Gbnf out, String name, String run, RunDfa d, int depth) {
        JsonPrefixes json = new JsonPrefixes(depth);
        // a string begun where no marker is partly read, whose closing quote leaves none partly
        // read, is written once for every place: its rest up to its close, after which the place's
        // next state goes on, or its rest where it does not close
        boolean shared = true;
        for (Map<Integer, IntervalSet> e : d.edges)
            for (Map.Entry<Integer, IntervalSet> t : e.entrySet())
                if (t.getKey() != 0 && t.getValue().contains('"')) shared = false;
        NotJsonProduct main = new NotJsonProduct(d, json, new RunJson(JsonPrefixes.START, 0));
        if (!main.explore(shared)) return null;
        if (main.calls) {
            NotJsonProduct string =
                    new NotJsonProduct(d, json, new RunJson(JsonPrefixes.IN_STRING, 0));
            if (!string.explore(false)) return null;
            string.write(out, name + "c", name, run, false, true);
            string.write(out, name + "o", name, run, true, false);
        }
        return main.write(out, name, name, run, true, false) ? name : null;
    }

    /**
     * The product of a run's automaton and {@link JsonPrefixes}: its states, and per state the
     * characters to each target: another state (its number), the run from one of its states where
     * the text is free ({@code -1 - state}), a string begun where the run is at its start followed,
     * if it closes, by a state ({@link #CALL} plus its number), or the close of the string read
     * from inside one ({@link #CLOSE}).
     */
    private static final class NotJsonProduct extends Numbered<RunJson> {
        static final int CALL = 1 << 24;
        static final int CLOSE = Integer.MIN_VALUE;

        final RunDfa d;
        final JsonPrefixes json;
        final List<Map<Integer, IntervalSet>> edges = new ArrayList<>();
        final Map<Integer, List<IntervalSet>> piecesOf = new HashMap<>();
        boolean calls;

        NotJsonProduct(RunDfa d, JsonPrefixes json, RunJson start) {
            super(start, MAX_NOT_JSON_STATES);
            this.d = d;
            this.json = json;
        }

        /** Reads every state; false where there are too many. */
        boolean explore(boolean shareStrings) {
            List<IntervalSet> jsonLabels = JsonPrefixes.labels();
            for (int i = 0; i < states.size(); i++) {
                RunJson p = states.get(i);
                Map<Integer, IntervalSet> runEdges = d.edges.get(p.run);
                List<IntervalSet> pieces =
                        piecesOf.computeIfAbsent(
                                p.run,
                                r -> {
                                    List<IntervalSet> labels = new ArrayList<>(jsonLabels);
                                    labels.addAll(runEdges.values());
                                    return pieces(labels);
                                });
                Map<Integer, IntervalSet> e = new LinkedHashMap<>();
                edges.add(e);
                for (IntervalSet piece : pieces) {
                    int ch = piece.getMinElement();
                    int r = -1;
                    for (Map.Entry<Integer, IntervalSet> re : runEdges.entrySet())
                        if (re.getValue().contains(ch)) r = re.getKey();
                    if (r < 0) continue;
                    int to;
                    if (p.json.equals(JsonPrefixes.IN_STRING) && ch == '"') {
                        if (r != 0) continue;
                        to = CLOSE;
                    } else {
                        JsonPrefixes.State j = json.step(p.json, ch);
                        if (j == JsonPrefixes.FREE) {
                            if (r != 0 && !d.back[r] && !d.ends[r]) continue;
                            to = -1 - r;
                        } else if (shareStrings
                                && r == 0
                                && ch == '"'
                                && !JsonPrefixes.inString(p.json)) {
                            int after = id(new RunJson(json.step(j, '"'), 0));
                            if (after < 0) return false;
                            to = CALL + after;
                            calls = true;
                        } else {
                            to = id(new RunJson(j, r));
                            if (to < 0) return false;
                        }
                    }
                    e.computeIfAbsent(to, k -> new IntervalSet()).addAll(piece);
                }
            }
            return true;
        }

        /**
         * Writes the states that may end ({@code free}: where the text ends or is free; else where
         * the string closes), {@code name} the start and {@code name_i} the others, the strings
         * called {@code callsc} (up to their close) and {@code callso} (never closing) and the
         * run's rest from its state R {@code calls_fR}; false where the start cannot end.
         */
        boolean write(
                Gbnf out, String name, String calls, String run, boolean free, boolean close) {
            int n = states.size();
            boolean[] ends = new boolean[n];
            boolean[] live = new boolean[n];
            for (int q = 0; q < n; q++) {
                RunJson p = states.get(q);
                ends[q] = free && d.endsHere(p.run) && !JsonPrefixes.accepting(p.json);
                live[q] = ends[q];
                for (int t : edges.get(q).keySet())
                    live[q] |= t == CLOSE ? close : t < 0 ? free : t >= CALL;
            }
            boolean grew = true;
            while (grew) {
                grew = false;
                for (int q = 0; q < n; q++) {
                    if (live[q]) continue;
                    for (int t : edges.get(q).keySet())
                        if (t >= 0 && t < CALL && live[t]) {
                            live[q] = grew = true;
                            break;
                        }
                }
            }
            if (!live[0]) return false;
            for (int q = 0; q < n; q++) {
                if (!live[q]) continue;
                String cls = null;
                List<String> alts = new ArrayList<>();
                for (Map.Entry<Integer, IntervalSet> e : edges.get(q).entrySet()) {
                    int t = e.getKey();
                    String c = Gbnf.charClass(e.getValue());
                    if (t == q) cls = c;
                    else if (t == CLOSE) {
                        if (close) alts.add(c);
                    } else if (t >= CALL) {
                        int a = t - CALL;
                        String open = calls + "o";
                        alts.add(
                                c
                                        + (live[a]
                                                ? " ( "
                                                        + calls
                                                        + "c "
                                                        + state(name, a)
                                                        + " | "
                                                        + open
                                                        + " )"
                                                : " " + open));
                    } else if (t >= 0) {
                        if (live[t]) alts.add(c + " " + state(name, t));
                    } else if (free) alts.add(c + " " + freeRun(out, d, run, calls, -1 - t));
                }
                if (ends[q]) alts.add("\"\"");
                String body =
                        alts.size() == 1 ? alts.get(0) : "( " + String.join(" | ", alts) + " )";
                out.define(state(name, q), cls == null ? body : cls + "* " + body);
            }
            return true;
        }

        private static String state(String name, int q) {
            return q == 0 ? name : name + "_" + q;
        }
    }

    /**
     * The rest of the run {@code run} (of the automaton {@code d}) from its state {@code r}, a rule
     * {@code name_fR}.
     */
    private static String freeRun(Gbnf out, RunDfa d, String run, String name, int r) {
        if (r == 0) return run;
        List<String> alts = new ArrayList<>();
        if (d.back[r]) alts.add(run + "_s" + r + " " + run);
        if (d.ends[r]) alts.add(run + "_e" + r);
        return out.define(name + "_f" + r, String.join(" | ", alts));
    }

    /**
     * Defines a run (as {@link #avoid} does, sharing its rules) followed by a token of {@code rule}
     * (less the strings of {@code earlier}), where the token never completes a marker that the
     * run's end has partly read: the lexer would read that marker, the longest match, from inside
     * the run (text then {@code <|message|>} is one header when the text ends in {@code to=x}).
     * Returns the rule, or null when no end of the run leaves a marker that a token of the rule can
     * complete (then the run and {@code token} stay as they are).
     */
    String avoidThen(
            Gbnf out,
            String name,
            IntervalSet chars,
            List<Integer> texts,
            List<Integer> markers,
            int rule,
            List<Integer> earlier,
            String token) {
        Object a =
                lookup(
                        new ThenKey(new RunKey(name, chars, texts, markers), rule, earlier, token),
                        k -> new ThenKey(k.run.kept(), rule, List.copyOf(earlier), token),
                        k ->
                                answer(
                                        g ->
                                                avoidThenNew(
                                                        g, name, chars, texts, markers, rule,
                                                        earlier, token)));
        return replay(out, a);
    }

    private record ThenKey(RunKey run, int rule, List<Integer> earlier, String token) {}

    private String avoidThenNew(
            Gbnf out,
            String name,
            IntervalSet chars,
            List<Integer> texts,
            List<Integer> markers,
            int rule,
            List<Integer> earlier,
            String token) {
        RunDfa d = runDfa(chars, texts, markers);
        if (d == null) return null;
        String then = name + "_t" + rule;
        Map<Set<Cfg>, String> tokens = new HashMap<>();
        Map<String, String> bySignature = new HashMap<>();
        String[] after = new String[d.states.size()];
        boolean conflict = false;
        for (int q = 0; q < d.states.size(); q++) {
            if (!d.ends[q] || !d.endsHere(q)) continue;
            Set<Cfg> partial = d.states.get(q).markers;
            if (partial.isEmpty()) {
                after[q] = token;
                continue;
            }
            String t = tokens.get(partial);
            if (t == null) {
                // the same tokens are left after many ends: one set of rules each
                Gbnf g = new Gbnf();
                t = tokenLess(g, "\u0001", rule, earlier, partial);
                if (t == null) return null;
                if (t.startsWith("\u0001")) {
                    String signature = g.toString();
                    String known = bySignature.get(signature);
                    if (known == null) {
                        known = then + "_k" + bySignature.size();
                        bySignature.put(signature, known);
                        for (int i = 0; i < g.size(); i++)
                            out.define(
                                    g.name(i).replace("\u0001", known),
                                    g.body(i).replace("\u0001", known));
                    }
                    t = t.replace("\u0001", known);
                }
                tokens.put(partial, t);
            }
            if (t.isEmpty()) t = token;
            else conflict = true;
            after[q] = t.equals("!") ? null : t;
        }
        if (!conflict) return null;
        // the states from which the run can still end before a token that is left
        int n = d.states.size();
        boolean[] live = new boolean[n];
        for (int q = 0; q < n; q++) live[q] = after[q] != null;
        reachBack(d.edges, live, true);
        // one rule per class of ends that behave alike (the same tokens after them, now and later)
        int[] cls = new int[n];
        Map<String, Integer> classes = new HashMap<>();
        for (int q = 1; q < n; q++)
            if (live[q])
                cls[q] = classes.computeIfAbsent(String.valueOf(after[q]), k -> classes.size());
        for (int size = -1; size != classes.size(); ) {
            size = classes.size();
            classes.clear();
            int[] next = new int[n];
            for (int q = 1; q < n; q++) {
                if (!live[q]) continue;
                StringBuilder sig = new StringBuilder(String.valueOf(after[q]));
                for (Map.Entry<Integer, IntervalSet> e : d.edges.get(q).entrySet())
                    if (e.getKey() != 0 && live[e.getKey()])
                        sig.append(' ').append(e.getValue()).append('>').append(cls[e.getKey()]);
                next[q] = classes.computeIfAbsent(sig.toString(), k -> classes.size());
            }
            cls = next;
        }
        List<String> end = new ArrayList<>();
        if (after[0] != null) end.add(after[0]);
        end.addAll(endEdges(d.edges.get(0), live, cls, then));
        Set<Integer> written = new HashSet<>();
        for (int q = 1; q < n; q++) {
            if (!live[q] || !written.add(cls[q])) continue;
            List<String> fin = new ArrayList<>();
            if (after[q] != null) fin.add(after[q]);
            fin.addAll(endEdges(d.edges.get(q), live, cls, then));
            out.define(then + "_e" + cls[q], String.join(" | ", fin));
        }
        if (end.isEmpty()) return null;
        // the loop's segments are the run's own rules
        avoidNew(out, name, chars, texts, markers);
        return out.define(then, loop(d, name) + "( " + String.join(" | ", end) + " )");
    }

    /** Whether {@code literal} leaves one of {@code rivals} partly read (it could go on to one). */
    boolean leavesPartlyRead(List<Integer> rivals, String literal) {
        return rivalsLeft(rivals, literal) != null;
    }

    /** The configurations of {@code rivals} still reading after {@code literal}. */
    private Set<Cfg> rivalsAfter(List<Integer> rivals, String literal) {
        Set<Cfg> left = rivalsStart(rivals);
        for (int i = 0; i < literal.length() && !left.isEmpty(); ) {
            int ch = literal.codePointAt(i);
            left = step(left, ch);
            i += Character.charCount(ch);
        }
        return reading(left);
    }

    private Set<Cfg> rivalsStart(List<Integer> rivals) {
        Set<Cfg> seeds = new HashSet<>();
        for (int r : rivals) seeds.add(new Cfg(atn.ruleToStartState[r], null));
        return closure(seeds);
    }

    /**
     * The characters of {@code chars} that leave one of {@code rivals} partly read, or null where
     * more than {@code max} characters could.
     */
    IntervalSet partlyReading(List<Integer> rivals, IntervalSet chars, int max) {
        Object known =
                lookup(
                        new PartlyKey(rivals, chars, max),
                        k -> new PartlyKey(List.copyOf(rivals), frozen(chars), max),
                        k -> {
                            IntervalSet made = partlyReadingNew(rivals, chars, max);
                            return made == null ? Boolean.FALSE : frozen(made);
                        });
        return known instanceof IntervalSet set ? set : null;
    }

    private record PartlyKey(List<Integer> rivals, IntervalSet chars, int max) {}

    private IntervalSet partlyReadingNew(List<Integer> rivals, IntervalSet chars, int max) {
        Set<Cfg> left = rivalsStart(rivals);
        List<IntervalSet> labels = new ArrayList<>();
        for (Cfg c : left) addLabels(c, labels);
        IntervalSet first = new IntervalSet();
        for (IntervalSet l : labels) first.addAll(l);
        IntervalSet maybe = first.and(chars);
        if (maybe.size() > max) return null;
        IntervalSet out = new IntervalSet();
        for (int ch : maybe.toList()) if (!reading(step(left, ch)).isEmpty()) out.add(ch);
        return out;
    }

    /**
     * Longer tokens partly read where a token ends: the configurations of their rules, carried into
     * what follows the token (which must complete none of them: the lexer would read that longer
     * token, the longest match, instead). Equal by its configurations.
     */
    static final class Rivals {
        private final Set<Cfg> cfgs;
        private final String key;

        private Rivals(Set<Cfg> cfgs) {
            this.cfgs = cfgs;
            List<String> parts = new ArrayList<>();
            for (Cfg c : cfgs) parts.add(c.toString());
            Collections.sort(parts);
            this.key = parts.toString();
        }

        @Override
        public boolean equals(Object o) {
            return o instanceof Rivals r && key.equals(r.key);
        }

        @Override
        public int hashCode() {
            return key.hashCode();
        }

        @Override
        public String toString() {
            return key;
        }
    }

    /**
     * Spellings of a token ({@code expr}) that leave the same longer tokens partly read ({@code
     * left}; null: none).
     */
    record TokenClass(String expr, Rivals left) {}

    /**
     * A token's spellings, split: {@code narrows} where some spelling completes a rival partly read
     * before it (and is left out).
     */
    record TokenSplit(List<TokenClass> classes, boolean narrows) {}

    private record LeftKey(List<Integer> rivals, String literal) {}

    /** The rivals that {@code literal} leaves partly read; null when it leaves none. */
    Rivals rivalsLeft(List<Integer> rivals, String literal) {
        Object left =
                lookup(
                        new LeftKey(rivals, literal),
                        k -> new LeftKey(List.copyOf(rivals), literal),
                        k -> {
                            Set<Cfg> rest = rivalsAfter(rivals, literal);
                            return rest.isEmpty() ? Boolean.FALSE : new Rivals(rest);
                        });
        return left instanceof Rivals r ? r : null;
    }

    /**
     * Defines a run (as {@link #avoid} does, sharing its rules) that follows a token spelled {@code
     * literal} of a mode whose other rules are {@code rivals}, where the run completes none of the
     * rivals that the token leaves partly read: the lexer would read that rival, the longest match,
     * instead of the token ({@code <} then {@code tool_call>} is {@code <tool_call>}). Returns the
     * rule, or null when the token leaves no rival partly read, or the automaton is too large.
     */
    String avoidAfter(
            Gbnf out,
            String name,
            IntervalSet chars,
            List<Integer> texts,
            List<Integer> markers,
            List<Integer> rivals,
            String literal) {
        Rivals left = rivalsLeft(rivals, literal);
        return left == null ? null : avoidAfter(out, name, chars, texts, markers, left);
    }

    /**
     * Defines a run (as {@link #avoid} does, sharing its rules) that completes none of the rivals
     * {@code left} partly read before it, and may end with some of them still partly read (then
     * what follows must not complete them: {@link #avoidAfterEnding}). Returns the rule, or null
     * when the automaton is too large.
     */
    String avoidAfter(
            Gbnf out,
            String name,
            IntervalSet chars,
            List<Integer> texts,
            List<Integer> markers,
            Rivals left) {
        AfterKey key = new AfterKey(new RunKey(name, chars, texts, markers), left);
        Object a =
                lookup(
                        key,
                        AfterKey::kept,
                        k ->
                                answer(
                                        g ->
                                                avoidAfterNew(
                                                        g,
                                                        name,
                                                        chars,
                                                        texts,
                                                        markers,
                                                        pendingDfa(k))));
        return replay(out, a);
    }

    /** The question of a run after a token: the run's, and the rivals partly read before it. */
    private record AfterKey(RunKey run, Rivals left) {
        AfterKey kept() {
            return new AfterKey(run.kept(), left);
        }

        /** The question as text, which names its rules. */
        String text() {
            return "r "
                    + run.name
                    + " "
                    + run.chars
                    + " "
                    + run.texts
                    + " "
                    + run.markers
                    + " "
                    + left.key;
        }
    }

    /**
     * The rivals that the run of {@link #avoidAfter} may end with still partly read, one entry per
     * set of them, in the order first met; empty where it ends only after they are all done.
     */
    List<Rivals> avoidAfterEnds(
            String name,
            IntervalSet chars,
            List<Integer> texts,
            List<Integer> markers,
            Rivals left) {
        PendingDfa p = pendingDfa(new AfterKey(new RunKey(name, chars, texts, markers), left));
        return p == null ? List.of() : p.ends;
    }

    /**
     * Defines the run of {@link #avoidAfter} ending with some rivals of {@code ends} still partly
     * read ({@code within}), or else ending with none of them (once no rival is left, or with
     * others left); returns its rule, or null when it cannot end so.
     */
    String avoidAfterEnding(
            Gbnf out,
            String name,
            IntervalSet chars,
            List<Integer> texts,
            List<Integer> markers,
            Rivals left,
            Set<Rivals> ends,
            boolean within) {
        PendingDfa p = pendingDfa(new AfterKey(new RunKey(name, chars, texts, markers), left));
        if (p == null) return null;
        String prefix = p.prefix;
        List<Rivals> all = p.ends;
        TreeSet<Integer> ids = new TreeSet<>();
        for (Rivals r : ends) ids.add(all.indexOf(r));
        // named by the ends, a few by their numbers, more by a digest of them
        StringBuilder rule = new StringBuilder(prefix).append(within ? "_k" : "_x");
        if (ids.size() > 3) rule.append(stableId(prefix + " " + ids)).append('_');
        else for (int i : ids) rule.append(i).append('_');
        String made = rule.substring(0, rule.length() - 1);
        Object a =
                lookup(
                        new EndingKey(made),
                        k -> k,
                        k ->
                                answer(
                                        g -> {
                                            String r = writeEnding(g, p, made, ends, within);
                                            if (r != null && !within)
                                                avoidNew(g, name, chars, texts, markers);
                                            return r;
                                        }));
        return replay(out, a);
    }

    private record EndingKey(String rule) {}

    /** A state of a run after a token: the run's state, and the rivals still partly read. */
    private record Pending(Run run, Set<Cfg> rivals) {
        boolean boundary() {
            return run.home || accepts(run.text);
        }
    }

    /**
     * The run's states while rivals are partly read, and their edges: to another such state ({@code
     * prefix_i}) or, once no rival is left, into the run's own rules.
     */
    private record PendingDfa(
            String prefix,
            List<Pending> states,
            List<Map<String, IntervalSet>> edges,
            List<Rivals> rivals,
            List<Rivals> ends) {}

    private PendingDfa pendingDfa(AfterKey key) {
        Object p = derived.pendings.get(key);
        if (p == null)
            p =
                    derived.pendings.computeIfAbsent(
                            key.kept(),
                            k -> {
                                RunKey r = k.run;
                                String prefix = r.name + "_a" + stableId(k.text());
                                PendingDfa made =
                                        pendingDfaNew(
                                                r.name,
                                                r.chars,
                                                r.texts,
                                                r.markers,
                                                k.left.cfgs,
                                                prefix);
                                return made == null ? Boolean.FALSE : made;
                            });
        return p instanceof PendingDfa d ? d : null;
    }

    private PendingDfa pendingDfaNew(
            String name,
            IntervalSet chars,
            List<Integer> texts,
            List<Integer> markers,
            Set<Cfg> left,
            String prefix) {
        RunDfa d = runDfa(chars, texts, markers);
        if (d == null) return null;
        Map<Run, Integer> normal = new HashMap<>();
        for (int q = 0; q < d.states.size(); q++) normal.put(d.states.get(q), q);
        Set<Cfg> start = closure(markerSeeds(markers));
        Set<Cfg> textStart = closure(textSeeds(texts));
        IntervalSet set = Gbnf.clip(chars);
        List<Map<String, IntervalSet>> edges = new ArrayList<>();
        Pending first = new Pending(d.states.get(0), left);
        Numbered<Pending> seen = new Numbered<>(first);
        List<Pending> states = seen.states;
        for (int i = 0; i < states.size(); i++) {
            Pending p = states.get(i);
            Run st = p.run;
            boolean boundary = st.home || accepts(st.text);
            Set<Cfg> active = new LinkedHashSet<>(st.markers);
            active.addAll(start);
            Set<Cfg> text = new LinkedHashSet<>(st.text);
            if (boundary) text.addAll(textStart);
            List<IntervalSet> labels = new ArrayList<>();
            labels.add(set);
            for (Cfg c : active) addLabels(c, labels);
            for (Cfg c : text) addLabels(c, labels);
            for (Cfg c : p.rivals) addLabels(c, labels);
            Map<String, IntervalSet> e = new LinkedHashMap<>();
            edges.add(e);
            for (IntervalSet piece : pieces(labels)) {
                int ch = piece.getMinElement();
                boolean runChar = boundary && set.contains(ch);
                Set<Cfg> nextText = step(text, ch);
                if (!runChar && nextText.isEmpty()) continue;
                Set<Cfg> next = step(active, ch);
                if (accepts(next)) continue;
                Set<Cfg> rivalsNext = step(p.rivals, ch);
                if (accepts(rivalsNext)) continue;
                Run to = new Run(runChar, nextText, next);
                String target;
                if (rivalsNext.isEmpty()) {
                    Integer q = normal.get(to);
                    if (q == null) return null;
                    target = q == 0 ? name : (d.back[q] ? name + "_s" + q + " " + name : null);
                    if (q != 0 && d.ends[q])
                        target =
                                target == null
                                        ? name + "_e" + q
                                        : "( " + target + " | " + name + "_e" + q + " )";
                    if (target == null) continue;
                } else {
                    Pending np = new Pending(to, rivalsNext);
                    int id = seen.id(np);
                    if (id < 0) return null;
                    target = prefix + "_" + id;
                }
                e.computeIfAbsent(target, k -> new IntervalSet()).addAll(piece);
            }
        }
        List<Rivals> rivals = new ArrayList<>();
        List<Rivals> ends = new ArrayList<>();
        for (Pending st : states) {
            Rivals r = new Rivals(st.rivals);
            rivals.add(r);
            if (st.boundary() && !ends.contains(r)) ends.add(r);
        }
        return new PendingDfa(prefix, List.copyOf(states), edges, rivals, List.copyOf(ends));
    }

    private String avoidAfterNew(
            Gbnf out,
            String name,
            IntervalSet chars,
            List<Integer> texts,
            List<Integer> markers,
            PendingDfa p) {
        if (p == null) return null;
        String prefix = p.prefix;
        List<Pending> states = p.states;
        List<Map<String, IntervalSet>> edges = p.edges;
        // the pending states that can end, or lead into the run's own states
        int n = states.size();
        boolean[] live = new boolean[n];
        for (int i = 0; i < n; i++) {
            live[i] = states.get(i).boundary();
            for (String t : edges.get(i).keySet()) live[i] |= !t.startsWith(prefix + "_");
        }
        reachBack(p, live);
        if (!live[0]) return null;
        // the run's own rules, which the pending states lead into
        avoidNew(out, name, chars, texts, markers);
        for (int i = 0; i < n; i++) {
            if (!live[i]) continue;
            List<String> alts = new ArrayList<>();
            if (states.get(i).boundary()) alts.add("\"\"");
            for (Map.Entry<String, IntervalSet> e : edges.get(i).entrySet()) {
                String t = e.getKey();
                if (t.startsWith(prefix + "_")
                        && !live[Integer.parseInt(t.substring(prefix.length() + 1))]) continue;
                alts.add(Gbnf.charClass(e.getValue()) + " " + t);
            }
            out.define(prefix + "_" + i, String.join(" | ", alts));
        }
        return prefix + "_0";
    }

    /** Marks, to a fixed point, every pending state with an edge to a marked pending state. */
    private static void reachBack(PendingDfa p, boolean[] live) {
        String prefix = p.prefix;
        int n = live.length;
        boolean grew = true;
        while (grew) {
            grew = false;
            for (int i = 0; i < n; i++) {
                if (live[i]) continue;
                for (String t : p.edges.get(i).keySet())
                    if (t.startsWith(prefix + "_")
                            && live[Integer.parseInt(t.substring(prefix.length() + 1))]) {
                        live[i] = true;
                        grew = true;
                        break;
                    }
            }
        }
    }

    /**
     * Writes the pending run ending with some rivals of {@code ends} partly read ({@code within}),
     * or else ending with none of them (in the run's own rules once no rival is left, or with
     * others left): its rules {@code rule_i}; null when it cannot end so.
     */
    private static String writeEnding(
            Gbnf out, PendingDfa p, String rule, Set<Rivals> ends, boolean within) {
        String prefix = p.prefix;
        int n = p.states.size();
        boolean[] end = new boolean[n];
        boolean[] live = new boolean[n];
        for (int i = 0; i < n; i++) {
            Pending st = p.states.get(i);
            end[i] = st.boundary() && ends.contains(p.rivals.get(i)) == within;
            live[i] = end[i];
            if (!within)
                for (String t : p.edges.get(i).keySet()) live[i] |= !t.startsWith(prefix + "_");
        }
        reachBack(p, live);
        if (!live[0]) return null;
        for (int i = 0; i < n; i++) {
            if (!live[i]) continue;
            List<String> alts = new ArrayList<>();
            if (end[i]) alts.add("\"\"");
            for (Map.Entry<String, IntervalSet> e : p.edges.get(i).entrySet()) {
                String t = e.getKey();
                String cls = Gbnf.charClass(e.getValue());
                if (t.startsWith(prefix + "_")) {
                    int j = Integer.parseInt(t.substring(prefix.length() + 1));
                    if (live[j]) alts.add(cls + " " + rule + "_" + j);
                } else if (!within) alts.add(cls + " " + t);
            }
            out.define(rule + "_" + i, String.join(" | ", alts));
        }
        return rule + "_0";
    }

    /**
     * The tokens of {@code rule} (less the strings of {@code earlier}) that complete none of the
     * rivals {@code in} partly read before the token began (null: none), split by the rivals they
     * leave partly read: those of {@code in} read on, and those of {@code own} (the other rules of
     * the token's mode) begun where the token begins. Null when no token completes one of {@code
     * in} and none leaves a rival partly read (the token stays whole), or the automaton is too
     * large; empty when every token completes one.
     */
    Split split(String name, int rule, List<Integer> earlier, Rivals in, List<Integer> own) {
        Map<SplitKey, Split> splits = derived.splits;
        SplitKey key = new SplitKey(rule, earlier, in, own);
        Split a = splits.get(key);
        if (a == null) {
            // named by what it says: splits alike (after rivals that behave alike) share rules
            Gbnf g = new Gbnf();
            boolean[] narrows = new boolean[1];
            List<TokenClass> made = splitNew(g, "\u0002", rule, earlier, in, own, narrows);
            List<String> exprs = new ArrayList<>();
            if (made != null) for (TokenClass c : made) exprs.add(c.expr);
            String prefix = name + "_p" + stableId(name + " " + g + " " + exprs);
            Gbnf rules = new Gbnf(g.size());
            for (int i = 0; i < g.size(); i++)
                rules.define(
                        g.name(i).replace("\u0002", prefix), g.body(i).replace("\u0002", prefix));
            List<TokenClass> named = null;
            if (made != null) {
                named = new ArrayList<>();
                for (TokenClass c : made)
                    named.add(new TokenClass(c.expr.replace("\u0002", prefix), c.left));
            }
            a = new Split(named == null ? null : new TokenSplit(named, narrows[0]), rules);
            Split raced = splits.putIfAbsent(key, a);
            if (raced != null) a = raced;
        }
        return a;
    }

    /**
     * A token's split ({@link #split}; null: the token stays whole), and its rules (read only once
     * made).
     */
    record Split(TokenSplit split, Gbnf rules) {
        /** Defines the split's rules in {@code out}. */
        void define(Gbnf out) {
            out.defineAll(rules);
        }
    }

    private record SplitKey(int rule, List<Integer> earlier, Rivals in, List<Integer> own) {}

    private List<TokenClass> splitNew(
            Gbnf out,
            String prefix,
            int rule,
            List<Integer> earlier,
            Rivals in,
            List<Integer> own,
            boolean[] narrows) {
        Product prod = product(rule, earlier, in == null ? Set.of() : in.cfgs, own);
        if (prod == null) return null;
        List<Quad> states = prod.states;
        List<Map<Integer, IntervalSet>> edges = prod.edges;
        boolean completes = prod.completes;
        // the tokens' ends, by the rivals left there
        List<Set<Cfg>> lefts = new ArrayList<>();
        int[] cls = new int[states.size()];
        for (int i = 0; i < states.size(); i++) {
            Quad p = states.get(i);
            cls[i] = -1;
            if (!accepts(p.rule) || accepts(p.earlier)) continue;
            Set<Cfg> left = new HashSet<>(p.in);
            left.addAll(p.own);
            int c = lefts.indexOf(left);
            if (c < 0) {
                c = lefts.size();
                lefts.add(left);
            }
            cls[i] = c;
        }
        narrows[0] = completes;
        if (!completes && (lefts.isEmpty() || lefts.size() == 1 && lefts.get(0).isEmpty()))
            return null;
        List<TokenClass> classes = new ArrayList<>();
        for (int c = 0; c < lefts.size(); c++) {
            int k = c;
            String expr = writeLive(out, prefix + "_" + c, edges, i -> cls[i] == k, "!");
            if (expr.equals("!")) continue;
            Set<Cfg> left = lefts.get(c);
            classes.add(new TokenClass(expr, left.isEmpty() ? null : new Rivals(left)));
        }
        return classes;
    }

    /**
     * A name for the rules of {@code key}: a function of the key alone (64 bits of its SHA-256), so
     * that a grammar's text never depends on what was built before it; a second key with the same
     * name in one lexer's cache is an error, not a silent merge of two rules.
     */
    private String stableId(String key) {
        String known = derived.idOf.get(key);
        if (known != null) return known;
        byte[] digest;
        try {
            digest =
                    MessageDigest.getInstance("SHA-256")
                            .digest(key.getBytes(StandardCharsets.UTF_8));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
        long bits = 0;
        for (int i = 0; i < 8; i++) bits = bits << 8 | (digest[i] & 0xff);
        String id = Long.toUnsignedString(bits, 36);
        String held = derived.ids.putIfAbsent(id, key);
        if (held != null && !held.equals(key))
            throw new IllegalStateException("two runs named " + id + ": " + held + " and " + key);
        derived.idOf.putIfAbsent(key, id);
        return id;
    }

    /** The configurations that still read (not those at a rule's end). */
    private static Set<Cfg> reading(Set<Cfg> set) {
        Set<Cfg> out = new LinkedHashSet<>();
        for (Cfg c : set) if (!(c.state instanceof RuleStopState && c.ret == null)) out.add(c);
        return out;
    }

    private Set<Cfg> markerSeeds(List<Integer> rules) {
        Set<Cfg> seeds = new HashSet<>();
        for (int m : rules) seeds.add(new Cfg(atn.ruleToStartState[m], null));
        return seeds;
    }

    private Set<Cfg> textSeeds(List<Integer> rules) {
        return markerSeeds(rules);
    }

    /** The edges to live ends, one per class of their targets. */
    private static List<String> endEdges(
            Map<Integer, IntervalSet> edges, boolean[] live, int[] cls, String then) {
        Map<Integer, IntervalSet> byClass = new LinkedHashMap<>();
        for (Map.Entry<Integer, IntervalSet> e : edges.entrySet())
            if (e.getKey() != 0 && live[e.getKey()])
                byClass.computeIfAbsent(cls[e.getKey()], k -> new IntervalSet())
                        .addAll(e.getValue());
        List<String> out = new ArrayList<>();
        for (Map.Entry<Integer, IntervalSet> e : byClass.entrySet())
            out.add(Gbnf.charClass(e.getValue()) + " " + then + "_e" + e.getKey());
        return out;
    }

    /**
     * Where a token of a rule, the earlier rules of its mode, rivals partly read before the token
     * ({@code in}) and rivals begun with it ({@code own}) are.
     */
    private record Quad(Set<Cfg> rule, Set<Cfg> earlier, Set<Cfg> in, Set<Cfg> own) {}

    /**
     * The tokens of a rule read alongside the rivals: the states, their edges, and whether some
     * token completes one of {@code in} (those edges are left out).
     */
    private record Product(
            List<Quad> states, List<Map<Integer, IntervalSet>> edges, boolean completes) {}

    /** The product of {@link Product}; null when it is too large. */
    private Product product(int rule, List<Integer> earlier, Set<Cfg> in, List<Integer> own) {
        Set<Cfg> seeds = new HashSet<>();
        for (int e : earlier) seeds.add(new Cfg(atn.ruleToStartState[e], null));
        Quad start =
                new Quad(
                        closure(Set.of(new Cfg(atn.ruleToStartState[rule], null))),
                        closure(seeds),
                        in,
                        own.isEmpty() ? Set.of() : reading(rivalsStart(own)));
        List<Map<Integer, IntervalSet>> edges = new ArrayList<>();
        Numbered<Quad> seen = new Numbered<>(start);
        List<Quad> states = seen.states;
        boolean completes = false;
        for (int i = 0; i < states.size(); i++) {
            Quad p = states.get(i);
            Map<Integer, IntervalSet> e = new LinkedHashMap<>();
            edges.add(e);
            List<IntervalSet> labels = new ArrayList<>();
            for (Cfg c : p.rule) addLabels(c, labels);
            for (IntervalSet piece : pieces(labels)) {
                int ch = piece.getMinElement();
                Set<Cfg> nr = step(p.rule, ch);
                if (nr.isEmpty()) continue;
                Set<Cfg> ni = step(p.in, ch);
                if (accepts(ni)) {
                    completes = true;
                    continue;
                }
                Set<Cfg> no = p.own.isEmpty() ? p.own : reading(step(p.own, ch));
                Quad next = new Quad(nr, step(p.earlier, ch), ni, no);
                int id = seen.id(next);
                if (id < 0) return null;
                e.computeIfAbsent(id, k -> new IntervalSet()).addAll(piece);
            }
        }
        return new Product(states, edges, completes);
    }

    /**
     * The tokens of {@code rule}, less the strings of {@code earlier}, that complete none of the
     * {@code partial} markers: their rules, prefixed {@code prefix}; the empty string when no token
     * of the rule completes one (the token stays whole), {@code "!"} when every token does; null
     * when the automaton is too large.
     */
    private String tokenLess(
            Gbnf out, String prefix, int rule, List<Integer> earlier, Set<Cfg> partial) {
        Product prod = product(rule, earlier, partial, List.of());
        if (prod == null) return null;
        List<Quad> states = prod.states;
        List<Map<Integer, IntervalSet>> edges = prod.edges;
        boolean completes = prod.completes;
        if (!completes) return "";
        return writeLive(
                out,
                prefix,
                edges,
                i -> accepts(states.get(i).rule) && !accepts(states.get(i).earlier),
                "!");
    }

    /**
     * Marks, to a fixed point, every state with an edge to a marked state; with {@code avoidStart},
     * the start (state 0) is neither marked nor passed through.
     */
    private static void reachBack(
            List<Map<Integer, IntervalSet>> edges, boolean[] mark, boolean avoidStart) {
        boolean grew = true;
        while (grew) {
            grew = false;
            for (int q = avoidStart ? 1 : 0; q < mark.length; q++) {
                if (mark[q]) continue;
                for (int t : edges.get(q).keySet())
                    if ((!avoidStart || t != 0) && mark[t]) {
                        mark[q] = true;
                        grew = true;
                        break;
                    }
            }
        }
    }

    /**
     * Writes an automaton's rules, {@code prefix_i} per state, keeping only the states from which
     * an accepting one can be reached: {@code prefix_0}, or {@code dead} when the start cannot.
     */
    private static String writeLive(
            Gbnf out,
            String prefix,
            List<Map<Integer, IntervalSet>> edges,
            IntPredicate accepting,
            String dead) {
        int n = edges.size();
        boolean[] live = new boolean[n];
        for (int i = 0; i < n; i++) live[i] = accepting.test(i);
        reachBack(edges, live, false);
        if (!live[0]) return dead;
        for (int i = 0; i < n; i++) {
            if (!live[i]) continue;
            Map<Integer, IntervalSet> toLive = toLive(edges.get(i), live);
            out.define(prefix + "_" + i, body(toLive, t -> prefix + "_" + t, accepting.test(i)));
        }
        return prefix + "_0";
    }

    /**
     * Defines the tokens of {@code rule}, less the strings of {@code earlier} and less the {@code
     * words} as spelled with what is around them, and returns the start rule's name; null when no
     * word is a token of the rule (nothing to take away) or the automaton is too large. The rules
     * {@code prefix_i} read while a word may still be spelled; once none can, they go on in the
     * rules {@code shared_i} of the rule's tokens less {@code earlier}'s ({@link #tokens}), which
     * are the same for every set of words.
     */
    String lessWords(
            Gbnf out, String prefix, String shared, int rule, List<Integer> earlier, Words words) {
        return wordsAnswer(
                out,
                new WordsKey(prefix, shared, rule, earlier, words),
                () -> new WordsKey(prefix, shared, rule, List.copyOf(earlier), kept(words)),
                g -> {
                    Tokens free = tokens(shared, rule, earlier);
                    return free == Tokens.TOO_LARGE
                            ? null
                            : lessWordsNew(g, prefix, rule, free, words);
                });
    }

    /**
     * As {@link #lessWords}, for the strings of one or more characters of {@code chars} in place of
     * a rule's tokens: the words are spelled with around them what {@code rule} reads there (see
     * {@link #around}). The rules {@code shared_i} read the strings once no word can be spelled.
     */
    String lessWordsOf(
            Gbnf out, String prefix, String shared, IntervalSet chars, int rule, Words words) {
        return wordsAnswer(
                out,
                new ClassWordsKey(prefix, shared, chars, rule, words),
                () -> new ClassWordsKey(prefix, shared, frozen(chars), rule, kept(words)),
                g -> lessWordsNew(g, prefix, rule, repeated(shared, chars), words));
    }

    /**
     * The rules a question about a request's words makes, defined in {@code out}: known, or made by
     * {@code make} and kept (bounded) under the question as {@code kept} gives it.
     */
    private String wordsAnswer(
            Gbnf out, Object key, Supplier<Object> kept, Function<Gbnf, String> make) {
        if (derived.words.size() >= MAX_WORDS) derived.words.clear();
        return replay(out, lookup(derived.words, key, k -> kept.get(), k -> answer(make)));
    }

    /** A copy of {@code words} no one changes. */
    private static Words kept(Words words) {
        return new Words(List.copyOf(words.list()), words.stripped());
    }

    private record ClassWordsKey(
            String prefix, String shared, IntervalSet chars, int rule, Words words) {}

    /**
     * The class whose strings of one or more characters are the tokens of {@code rule} less the
     * strings of {@code earlier}; null where they are not such strings (or the automaton is too
     * large).
     */
    IntervalSet repeatedClass(int rule, List<Integer> earlier) {
        RepeatedKey key = new RepeatedKey(rule, earlier);
        Object known = derived.answers.get(key);
        if (known != null) return known == NOT_REPEATED ? null : (IntervalSet) known;
        IntervalSet made = repeatedClassNew(tokens("", rule, earlier));
        derived.answers.put(
                new RepeatedKey(rule, List.copyOf(earlier)), made == null ? NOT_REPEATED : made);
        return made;
    }

    private record RepeatedKey(int rule, List<Integer> earlier) {}

    /**
     * The class of an automaton of the strings of one or more of its characters: its start does not
     * accept, every other live state does, and every live state goes on by the same class to a live
     * state other than the start; null for any other automaton.
     */
    private static IntervalSet repeatedClassNew(Tokens t) {
        if (t == Tokens.TOO_LARGE || t.accepting[0] || t.toLive[0] == null) return null;
        IntervalSet chars = null;
        for (int i = 0; i < t.accepting.length; i++) {
            if (t.toLive[i] == null) continue;
            if (i > 0 && !t.accepting[i]) return null;
            IntervalSet all = new IntervalSet();
            for (int k = 0; k < t.toLive[i].length; k++) {
                if (t.liveTargets[i][k] == 0) return null;
                all.addAll(t.toLive[i][k]);
            }
            if (chars == null) chars = all;
            else if (!chars.equals(all)) return null;
        }
        if (chars == null || chars.isNil()) return null;
        chars.setReadonly(true);
        return chars;
    }

    /**
     * The automaton of the strings of one or more characters of {@code chars}, its rules named
     * {@code name_i}; kept with the lexer.
     */
    private Tokens repeated(String name, IntervalSet chars) {
        return (Tokens)
                lookup(
                        new RepeatedTokensKey(name, chars),
                        k -> new RepeatedTokensKey(name, frozen(chars)),
                        k -> {
                            IntervalSet c = frozen(chars);
                            Tokens made = new Tokens(name, 2);
                            made.accepting[1] = true;
                            for (int i = 0; i < 2; i++) {
                                made.toLive[i] = new IntervalSet[] {c};
                                made.liveTargets[i] = new int[] {1};
                                made.bodies[i] = body(Map.of(1, c), made::rule, made.accepting[i]);
                            }
                            return made;
                        });
    }

    private record RepeatedTokensKey(String name, IntervalSet chars) {}

    /**
     * Whether {@link #lessWords} writes the same rules, but for their names, for {@code a} less the
     * strings of {@code earlierA} as for {@code b} less those of {@code earlierB}, whatever the
     * words: the automata of both tokens less the earlier strings, and of both tokens alone, are
     * equal, state for state. False where an automaton is too large.
     */
    boolean sameTokens(int a, List<Integer> earlierA, int b, List<Integer> earlierB) {
        if (a == b && earlierA.equals(earlierB)) return true;
        SameKey key = new SameKey(a, earlierA, b, earlierB);
        Object known = derived.answers.get(key);
        if (known != null) return (Boolean) known;
        boolean same =
                equal(tokens("", a, earlierA), tokens("", b, earlierB))
                        && equal(tokens("", a, List.of()), tokens("", b, List.of()));
        derived.answers.put(new SameKey(a, List.copyOf(earlierA), b, List.copyOf(earlierB)), same);
        return same;
    }

    private record SameKey(int a, List<Integer> earlierA, int b, List<Integer> earlierB) {}

    private static boolean equal(Tokens x, Tokens y) {
        return x != Tokens.TOO_LARGE
                && y != Tokens.TOO_LARGE
                && Arrays.equals(x.accepting, y.accepting)
                && Arrays.deepEquals(x.toLive, y.toLive)
                && Arrays.deepEquals(x.liveTargets, y.liveTargets);
    }

    private record WordsKey(
            String prefix, String shared, int rule, List<Integer> earlier, Words words) {}

    /** The question of {@link #tokens}. */
    private record TokensKey(String name, int rule, List<Integer> earlier) {}

    /**
     * The tokens of a rule less the strings of the earlier rules, as a deterministic automaton over
     * numbered states (the lexer's reads of the rule and of the earlier rules, paired; state 0 the
     * start): per state, whether it ends a token, the body of its rule {@code name_i} (null where
     * no end can be reached), and its edges to states where one can, a class per target. A pure
     * function of the lexer, kept with it; {@link #TOO_LARGE} where the automaton is too large.
     */
    private static final class Tokens {
        static final Tokens TOO_LARGE = new Tokens("", 0);

        final String name;
        final boolean[] accepting;
        final String[] bodies;
        final IntervalSet[][] toLive;
        final int[][] liveTargets;

        /** The rules' names by state, made when first asked (threads may make one twice). */
        private final String[] names;

        /** The classes of {@link #rest}, by state, edge and characters taken away; bounded. */
        private final Map<RestKey, String> rests = new ConcurrentHashMap<>();

        Tokens(String name, int states) {
            this.name = name;
            this.accepting = new boolean[states];
            this.bodies = new String[states];
            this.toLive = new IntervalSet[states][];
            this.liveTargets = new int[states][];
            this.names = new String[states];
        }

        /**
         * The class of the {@code edge}-th edge to a live state of {@code state} less {@code taken}
         * (read-only, {@code takenHash} its hash), as written; null where nothing is left.
         */
        String rest(int state, int edge, IntervalSet taken, int takenHash) {
            RestKey key = new RestKey(state, edge, taken, takenHash);
            String known = rests.get(key);
            if (known != null) return known.isEmpty() ? null : known;
            IntervalSet c = toLive[state][edge];
            IntervalSet left = overlaps(c, taken) ? c.subtract(taken) : c;
            String made = left.isNil() ? "" : Gbnf.charClass(left);
            if (rests.size() >= MAX_RESTS) rests.clear();
            rests.put(key, made);
            return made.isEmpty() ? null : made;
        }

        String rule(int state) {
            String r = names[state];
            return r != null ? r : (names[state] = name + "_" + state);
        }

        /** Defines the rules of the states reachable from {@code from}, each once per rule set. */
        void define(Gbnf out, Collection<Integer> from) {
            Deque<Integer> work = new ArrayDeque<>(from);
            while (!work.isEmpty()) {
                int q = work.pop();
                String name = rule(q);
                if (out.has(name)) continue;
                out.define(name, bodies[q]);
                for (int t : liveTargets[q]) work.push(t);
            }
        }
    }

    /** A question of {@link Tokens#rest}, its hash made once from the class's. */
    private static final class RestKey {
        final int state;
        final int edge;
        final IntervalSet taken;
        final int hash;

        RestKey(int state, int edge, IntervalSet taken, int takenHash) {
            this.state = state;
            this.edge = edge;
            this.taken = taken;
            this.hash = (31 * state + edge) * 31 + takenHash;
        }

        @Override
        public int hashCode() {
            return hash;
        }

        @Override
        public boolean equals(Object o) {
            return o instanceof RestKey k
                    && hash == k.hash
                    && state == k.state
                    && edge == k.edge
                    && taken.equals(k.taken);
        }
    }

    /** A pair of the lexer's reads, told apart by their configurations. */
    private static final class ReadPair {
        final Read rule;
        final Read earlier;
        final int hash;

        ReadPair(Read rule, Read earlier) {
            this.rule = rule;
            this.earlier = earlier;
            this.hash = 31 * rule.hash + earlier.hash;
        }

        @Override
        public int hashCode() {
            return hash;
        }

        @Override
        public boolean equals(Object o) {
            return o instanceof ReadPair t
                    && hash == t.hash
                    && (rule == t.rule || rule.cfgs.equals(t.rule.cfgs))
                    && (earlier == t.earlier || earlier.cfgs.equals(t.earlier.cfgs));
        }
    }

    /** The tokens of {@code rule} less those of {@code earlier}, with rules under {@code name}. */
    private Tokens tokens(String name, int rule, List<Integer> earlier) {
        return (Tokens)
                lookup(
                        new TokensKey(name, rule, earlier),
                        k -> new TokensKey(name, rule, List.copyOf(earlier)),
                        k -> tokensNew(name, rule, earlier));
    }

    private Tokens tokensNew(String name, int rule, List<Integer> earlier) {
        Set<Cfg> seeds = new HashSet<>();
        for (int e : earlier) seeds.add(new Cfg(atn.ruleToStartState[e], null));
        Numbered<ReadPair> seen = new Numbered<>(new ReadPair(start(rule), read(closure(seeds))));
        List<ReadPair> states = seen.states;
        List<Map<Integer, IntervalSet>> edges = new ArrayList<>();
        for (int i = 0; i < states.size(); i++) {
            ReadPair p = states.get(i);
            Map<Integer, IntervalSet> e = new LinkedHashMap<>();
            edges.add(e);
            // the classes both the rule's and the earlier rules' transitions fall into
            List<IntervalSet> labels = new ArrayList<>(piecesOf(p.rule));
            labels.addAll(piecesOf(p.earlier));
            for (IntervalSet piece : pieces(labels)) {
                int ch = piece.getMinElement();
                Read nr = stepRead(p.rule, ch);
                if (nr.cfgs.isEmpty()) continue;
                int id = seen.id(new ReadPair(nr, stepRead(p.earlier, ch)));
                if (id < 0) return Tokens.TOO_LARGE;
                e.computeIfAbsent(id, t -> new IntervalSet()).addAll(piece);
            }
        }
        int size = states.size();
        Tokens made = new Tokens(name, size);
        boolean[] live = new boolean[size];
        for (int i = 0; i < size; i++)
            live[i] =
                    made.accepting[i] =
                            states.get(i).rule.accepts && !states.get(i).earlier.accepts;
        reachBack(edges, live, false);
        for (int i = 0; i < size; i++) {
            if (!live[i]) continue;
            Map<Integer, IntervalSet> toLive = toLive(edges.get(i), live);
            made.bodies[i] = body(toLive, made::rule, made.accepting[i]);
            made.toLive[i] = new IntervalSet[toLive.size()];
            made.liveTargets[i] = new int[toLive.size()];
            int k = 0;
            for (Map.Entry<Integer, IntervalSet> e : toLive.entrySet()) {
                e.getValue().setReadonly(true);
                made.toLive[i][k] = e.getValue();
                made.liveTargets[i][k++] = e.getKey();
            }
        }
        return made;
    }

    /** The edges to live targets, in their order. */
    private static Map<Integer, IntervalSet> toLive(
            Map<Integer, IntervalSet> edges, boolean[] live) {
        Map<Integer, IntervalSet> kept = new LinkedHashMap<>();
        for (Map.Entry<Integer, IntervalSet> e : edges.entrySet())
            if (live[e.getKey()]) kept.put(e.getKey(), e.getValue());
        return kept;
    }

    /** A rule's body: an alternative per edge (its class, then its target's rule), then the end. */
    private static String body(
            Map<Integer, IntervalSet> edges, IntFunction<String> rule, boolean accepting) {
        StringBuilder b = new StringBuilder();
        for (Map.Entry<Integer, IntervalSet> e : edges.entrySet()) {
            if (b.length() > 0) b.append(" | ");
            b.append(Gbnf.charClass(e.getValue())).append(' ').append(rule.apply(e.getKey()));
        }
        if (accepting) b.append(b.length() > 0 ? " | \"\"" : "\"\"");
        return b.toString();
    }

    /** The read-only set of {@code c} alone. */
    private static IntervalSet one(int c) {
        if (c < ONE.length) return ONE[c];
        IntervalSet made = IntervalSet.of(c);
        made.setReadonly(true);
        return made;
    }

    /**
     * The automaton of a token spelled as one of the words, with characters of {@code before} ahead
     * of it and of {@code after} behind it: a trie of the words, and its states as sets of reads
     * (each a node of the trie, and whether the characters after a whole word are being read:
     * {@code node << 1 | behind}), numbered as they are first met. Each state's moves are grouped
     * by the state they lead to.
     */
    private static final class WordAutomaton {
        /** Per trie node: the characters going on and the nodes they lead to, and word ends. */
        private int[][] chars = new int[16][];

        private int[][] children = new int[16][];
        private boolean[] end = new boolean[16];
        private int nodes = 1;
        private final IntervalSet before;
        private final IntervalSet after;

        /** The characters of {@code before} and {@code after}. */
        private final int[] spaces;

        /** The sets of reads (sorted, no repeats), numbered as they are first met. */
        private final Numbered<ReadSet> states = new Numbered<>(new ReadSet(new int[] {0}));

        /** Per read, the number of the set of it alone plus one (0: not yet numbered). */
        private int[] singles = {1};

        /** Per state, made when first asked: its classes, their targets, all their characters. */
        final List<IntervalSet[]> classes = new ArrayList<>();

        final List<int[]> to = new ArrayList<>();
        final List<IntervalSet> any = new ArrayList<>();
        final List<Boolean> whole = new ArrayList<>();

        /**
         * Per state, the hash of its {@link #any}, and its classes as written (made when asked).
         */
        final List<Integer> anyHash = new ArrayList<>();

        final List<String[]> texts = new ArrayList<>();

        WordAutomaton(List<String> words, IntervalSet before, IntervalSet after) {
            this.before = before;
            this.after = after;
            this.spaces = before.or(after).toArray();
            chars[0] = new int[0];
            children[0] = new int[0];
            for (String w : words) {
                int node = 0;
                for (int i = 0; i < w.length(); ) {
                    // by code point, as the lexer reads: a character above U+FFFF is one step
                    int c = w.codePointAt(i);
                    node = child(node, c);
                    i += Character.charCount(c);
                }
                end[node] = true;
            }
        }

        private int child(int node, int ch) {
            int[] cs = chars[node];
            for (int i = 0; i < cs.length; i++) if (cs[i] == ch) return children[node][i];
            if (nodes == end.length) {
                chars = Arrays.copyOf(chars, 2 * nodes);
                children = Arrays.copyOf(children, 2 * nodes);
                end = Arrays.copyOf(end, 2 * nodes);
            }
            int made = nodes++;
            chars[made] = new int[0];
            children[made] = new int[0];
            chars[node] = Arrays.copyOf(cs, cs.length + 1);
            chars[node][cs.length] = ch;
            children[node] = Arrays.copyOf(children[node], cs.length + 1);
            children[node][cs.length] = made;
            return made;
        }

        /** The number of the set of the one read {@code r}, numbered if new; -1 past the bound. */
        private int single(int r) {
            if (r >= singles.length) singles = Arrays.copyOf(singles, Math.max(2 * r, 32));
            int known = singles[r] - 1;
            if (known >= 0) return known;
            // a set of one read is numbered here alone: a set of several never equals it
            int id = states.fresh(new ReadSet(new int[] {r}));
            singles[r] = id + 1;
            return id;
        }

        /** Makes the moves of state {@code w}; false where the automaton passes its bound. */
        boolean move(int w) {
            int[] at = states.states.get(w).reads;
            // inside a word, where no word ends: a class per next character, in their order
            if (at.length == 1 && (at[0] & 1) == 0 && at[0] != 0 && !end[at[0] >> 1])
                return inside(at[0] >> 1);
            boolean ends = false;
            // the characters that may go on: the next characters of the words, and the stripped
            int n = spaces.length;
            for (int r : at) if ((r & 1) == 0) n += chars[r >> 1].length;
            int[] chs = Arrays.copyOf(spaces, n);
            n = spaces.length;
            for (int r : at) {
                ends |= end[r >> 1];
                if ((r & 1) == 0) for (int c : chars[r >> 1]) chs[n++] = c;
            }
            Arrays.sort(chs);
            int[] groups = new int[chs.length];
            IntervalSet[] classes = new IntervalSet[chs.length];
            int size = 0;
            IntervalSet all = new IntervalSet();
            int[] next = new int[2 * at.length];
            for (int x = 0; x < chs.length; x++) {
                int ch = chs[x];
                if (x > 0 && chs[x - 1] == ch) continue;
                int m = 0;
                for (int r : at) {
                    int node = r >> 1;
                    if (node == 0 && before.contains(ch)) next[m++] = r;
                    if (end[node] && after.contains(ch)) next[m++] = node << 1 | 1;
                    if ((r & 1) == 0)
                        for (int i = 0; i < chars[node].length; i++)
                            if (chars[node][i] == ch) next[m++] = children[node][i] << 1;
                }
                if (m == 0) continue;
                int id;
                if (m == 1) id = single(next[0]);
                else {
                    int[] set = Arrays.copyOf(next, m);
                    Arrays.sort(set);
                    int u = 0;
                    for (int i = 0; i < m; i++)
                        if (u == 0 || set[u - 1] != set[i]) set[u++] = set[i];
                    if (u < m) set = Arrays.copyOf(set, u);
                    id = u == 1 ? single(set[0]) : states.id(new ReadSet(set));
                }
                if (id < 0) return false;
                int g = 0;
                while (g < size && groups[g] != id) g++;
                if (g == size) {
                    groups[size] = id;
                    classes[size++] = new IntervalSet();
                }
                classes[g].add(ch);
                all.add(ch);
            }
            all.setReadonly(true);
            return moved(Arrays.copyOf(classes, size), Arrays.copyOf(groups, size), all, ends);
        }

        /**
         * Adds the moves of the next state: its classes and the states they lead to, all their
         * characters (read-only), and whether a word ends there.
         */
        private boolean moved(IntervalSet[] classes, int[] groups, IntervalSet all, boolean ends) {
            this.classes.add(classes);
            to.add(groups);
            any.add(all);
            anyHash.add(all.hashCode());
            texts.add(new String[classes.length]);
            whole.add(ends);
            return true;
        }

        /**
         * {@link #move} from a state that reads inside a word at trie node {@code node}, where no
         * word ends: the characters around the words cannot follow, each next character leads to
         * its own node.
         */
        private boolean inside(int node) {
            int[] cs = chars[node];
            int n = cs.length;
            int[] order = new int[n];
            for (int i = 0; i < n; i++) order[i] = i;
            // by character (a node has few children)
            for (int a = 1; a < n; a++) {
                int x = order[a];
                int b = a - 1;
                for (; b >= 0 && cs[order[b]] > cs[x]; b--) order[b + 1] = order[b];
                order[b + 1] = x;
            }
            IntervalSet[] classes = new IntervalSet[n];
            int[] groups = new int[n];
            IntervalSet all = n == 1 ? null : new IntervalSet();
            for (int i = 0; i < n; i++) {
                int id = single(children[node][order[i]] << 1);
                if (id < 0) return false;
                groups[i] = id;
                classes[i] = one(cs[order[i]]);
                if (all != null) all.add(cs[order[i]]);
            }
            if (all != null) all.setReadonly(true);
            else all = classes[0];
            return moved(classes, groups, all, false);
        }

        /** The class {@code j} of state {@code w} as written. */
        String text(int w, int j) {
            String[] t = texts.get(w);
            String known = t[j];
            return known != null ? known : (t[j] = Gbnf.charClass(classes.get(w)[j]));
        }
    }

    /** Numbers by pairs of states (two non-negative ints in a long), open addressing. */
    private static final class PairIds {
        private long[] keys;
        private int[] ids;
        private int size;

        /** A table for about {@code expected} pairs before it grows. */
        PairIds(int expected) {
            int slots = Math.max(64, Integer.highestOneBit(Math.max(expected, 1)) << 2);
            keys = new long[slots];
            ids = new int[slots];
            Arrays.fill(keys, -1L);
        }

        /** The number of {@code key}; -1 where it has none. */
        int get(long key) {
            int mask = keys.length - 1;
            for (int i = slot(key, mask); ; i = (i + 1) & mask) {
                if (keys[i] == key) return ids[i];
                if (keys[i] == -1L) return -1;
            }
        }

        void put(long key, int id) {
            if (2 * (size + 1) > keys.length) grow();
            int mask = keys.length - 1;
            int i = slot(key, mask);
            while (keys[i] != -1L && keys[i] != key) i = (i + 1) & mask;
            if (keys[i] == -1L) size++;
            keys[i] = key;
            ids[i] = id;
        }

        private void grow() {
            long[] oldKeys = keys;
            int[] oldIds = ids;
            keys = new long[2 * oldKeys.length];
            ids = new int[2 * oldKeys.length];
            Arrays.fill(keys, -1L);
            size = 0;
            for (int i = 0; i < oldKeys.length; i++)
                if (oldKeys[i] != -1L) put(oldKeys[i], oldIds[i]);
        }

        private static int slot(long key, int mask) {
            long h = key * 0x9E3779B97F4A7C15L;
            return (int) (h >>> 40) & mask;
        }
    }

    /** A set of reads of the {@link WordAutomaton}, compared by its members. */
    private static final class ReadSet {
        final int[] reads;
        final int hash;

        ReadSet(int[] reads) {
            this.reads = reads;
            this.hash = Arrays.hashCode(reads);
        }

        @Override
        public int hashCode() {
            return hash;
        }

        @Override
        public boolean equals(Object o) {
            return o instanceof ReadSet r && hash == r.hash && Arrays.equals(reads, r.reads);
        }
    }

    /**
     * The edges of the states of {@link #lessWordsNew}, state by state as they are made (those of
     * state {@code q} from {@code start[q]} to {@code start[q + 1]}): to states by number, each
     * target once per state with the union of its classes.
     */
    private static final class Edges {
        int[] targets = new int[64];
        IntervalSet[] classes = new IntervalSet[64];

        /** Each edge's class as written, where known (null: written from its class when asked). */
        String[] texts = new String[64];

        int size;
        int[] start = new int[32];

        /** The states opened. */
        int states;

        /** Begins the edges of the next state. */
        void open() {
            if (states + 2 > start.length) start = Arrays.copyOf(start, 2 * start.length);
            start[states++] = size;
            start[states] = size;
        }

        /** Adds an edge of the open state whose class is written already, to a new target. */
        void add(int target, String text) {
            add(target, null, text);
        }

        /**
         * Adds {@code chars} (with {@code text}, their class as written, where known) to the open
         * state's edge to {@code target}.
         */
        void add(int target, IntervalSet chars, String text) {
            for (int i = start[states - 1]; chars != null && i < size; i++)
                if (targets[i] == target) {
                    classes[i] = classes[i].or(chars);
                    texts[i] = null;
                    return;
                }
            if (size == targets.length) {
                targets = Arrays.copyOf(targets, 2 * size);
                classes = Arrays.copyOf(classes, 2 * size);
                texts = Arrays.copyOf(texts, 2 * size);
            }
            targets[size] = target;
            texts[size] = text;
            classes[size++] = chars;
            start[states] = size;
        }

        /** The class of edge {@code k} as written. */
        String text(int k) {
            String t = texts[k];
            return t != null ? t : (texts[k] = Gbnf.charClass(classes[k]));
        }
    }

    /**
     * The automaton of {@code words} with {@code before} and {@code after}: in an instance for one
     * build, one per such question, whose states are made once for every token spelled as them.
     */
    private WordAutomaton wordAutomaton(List<String> words, IntervalSet before, IntervalSet after) {
        if (automata == null) return new WordAutomaton(words, before, after);
        return automata.computeIfAbsent(
                new WordsShape(List.copyOf(words), before, after),
                k -> new WordAutomaton(k.words, k.before, k.after));
    }

    private record WordsShape(List<String> words, IntervalSet before, IntervalSet after) {}

    /**
     * The rules of the tokens {@code free} less the {@code spelled} words (spelled with what {@code
     * rule} reads around them); see {@link #lessWords}.
     */
    private String lessWordsNew(Gbnf out, String prefix, int rule, Tokens free, Words spelled) {
        List<String> words = spelled.list();
        IntervalSet before = new IntervalSet();
        IntervalSet after = new IntervalSet();
        String stripped = spelled.stripped();
        // the characters every word may be written with before it, and after it
        long all = -1L;
        for (String w : words) all &= around(rule, w, stripped);
        for (int i = 0; i < stripped.length(); i++) {
            if ((all >>> 2 * i & 1) != 0) before.add(stripped.charAt(i));
            if ((all >>> 2 * i + 1 & 1) != 0) after.add(stripped.charAt(i));
        }
        WordAutomaton wa = wordAutomaton(words, before, after);
        // the product: a state of the tokens' automaton and one of the words' automaton, while
        // some word may still be read; once none can, its edges go on in the tokens' rules
        PairIds ids = new PairIds(wa.nodes + 8);
        ids.put(0L, 0);
        int[] tokenOf = new int[16];
        int[] wordOf = new int[16];
        int count = 1;
        Edges edges = new Edges();
        Edges freeEdges = new Edges();
        boolean taken = false;
        for (int i = 0; i < count; i++) {
            int t = tokenOf[i];
            int w = wordOf[i];
            while (wa.classes.size() <= w) if (!wa.move(wa.classes.size())) return null;
            IntervalSet[] wordClasses = wa.classes.get(w);
            int[] wordTo = wa.to.get(w);
            IntervalSet any = wa.any.get(w);
            int anyHash = wa.anyHash.get(w);
            if (free.accepting[t] && wa.whole.get(w)) taken = true;
            edges.open();
            freeEdges.open();
            IntervalSet[] cs = free.toLive[t];
            int[] ts = free.liveTargets[t];
            for (int k = 0; k < cs.length; k++) {
                int t2 = ts[k];
                IntervalSet c = cs[k];
                for (int j = 0; j < wordClasses.length; j++) {
                    IntervalSet q = wordClasses[j];
                    if (q.getMaxElement() < c.getMinElement()
                            || q.getMinElement() > c.getMaxElement()) continue;
                    IntervalSet both =
                            q.getIntervals().size() == 1 && q.getMinElement() == q.getMaxElement()
                                    ? c.contains(q.getMinElement()) ? q : null
                                    : c.and(q);
                    if (both == null || both.isNil()) continue;
                    long key = (long) t2 << 32 | wordTo[j];
                    int id = ids.get(key);
                    if (id < 0) {
                        if (count >= MAX_STATES) return null;
                        if (count == tokenOf.length) {
                            tokenOf = Arrays.copyOf(tokenOf, 2 * count);
                            wordOf = Arrays.copyOf(wordOf, 2 * count);
                        }
                        tokenOf[count] = t2;
                        wordOf[count] = wordTo[j];
                        ids.put(key, id = count++);
                    }
                    edges.add(id, both, both == q ? wa.text(w, j) : null);
                }
                String rest = free.rest(t, k, any, anyHash);
                if (rest != null) freeEdges.add(t2, rest);
            }
        }
        if (!taken) return null;
        boolean[] accepting = new boolean[count];
        boolean[] live = new boolean[count];
        for (int i = 0; i < count; i++) {
            accepting[i] = free.accepting[tokenOf[i]] && !wa.whole.get(wordOf[i]);
            live[i] = accepting[i] || freeEdges.start[i + 1] > freeEdges.start[i];
        }
        for (boolean grew = true; grew; ) {
            grew = false;
            for (int i = 0; i < count; i++) {
                if (live[i]) continue;
                for (int k = edges.start[i]; k < edges.start[i + 1] && !live[i]; k++)
                    live[i] = grew = live[edges.targets[k]];
            }
        }
        if (!live[0]) return "";
        // the states' bodies, later states first, each target named by the state it was merged
        // into and a state's edges to itself by a mark: a state whose body is that of a state
        // already written is merged into it (the same strings follow both); the start, and a state
        // an edge from a later one leads back to, keep their own rules, named before any is
        // written. Bodies are compared by their parts (each class and rule name as written, which
        // spell a body one way only), and a body's text is written only where it is kept
        String[] names = new String[count];
        names[0] = prefix + "_0";
        for (int i = 0; i < count; i++) {
            for (int k = edges.start[i]; live[i] && k < edges.start[i + 1]; k++)
                if (live[edges.targets[k]] && edges.targets[k] < i)
                    names[edges.targets[k]] = prefix + "_" + edges.targets[k];
        }
        String[] bodies = new String[count];
        String[][] partsOf = new String[count][];
        // the states by their parts' hash: the first in a table, the others chained
        int[] table = new int[Integer.highestOneBit(Math.max(count, 2)) << 2];
        int mask = table.length - 1;
        int[] chain = new int[count];
        StringBuilder b = new StringBuilder(256);
        for (int i = count - 1; i >= 0; i--) {
            if (!live[i]) continue;
            String[] parts = parts(edges, freeEdges, free, live, names, i, accepting[i]);
            int h = Arrays.hashCode(parts);
            int slot = (h * 0x9E3779B9) >>> 1 & mask;
            int same = -1;
            for (int s = table[slot] - 1; s >= 0 && same < 0; s = chain[s] - 1)
                if (Arrays.equals(partsOf[s], parts)) same = s;
            if (same >= 0 && names[i] == null) names[i] = names[same];
            else {
                if (names[i] == null) names[i] = prefix + "_" + i;
                bodies[i] = write(b, parts, names[i]);
                // the first state written with these parts is the one later states merge into
                if (same < 0) {
                    partsOf[i] = parts;
                    chain[i] = table[slot];
                    table[slot] = i + 1;
                }
            }
        }
        Set<Integer> reached = new LinkedHashSet<>();
        for (int i = 0; i < count; i++) {
            if (bodies[i] == null) continue;
            for (int k = freeEdges.start[i]; k < freeEdges.start[i + 1]; k++)
                reached.add(freeEdges.targets[k]);
            out.define(names[i], bodies[i]);
        }
        free.define(out, reached);
        return prefix + "_0";
    }

    /**
     * The parts of the body of state {@code at}: per edge to a live state its class and rule
     * ({@link #SELF} for its own), then per edge into the tokens' rules its class and rule, then
     * {@code ""} where it accepts.
     */
    private static String[] parts(
            Edges e,
            Edges fe,
            Tokens free,
            boolean[] live,
            String[] names,
            int at,
            boolean accepting) {
        int n = accepting ? 1 : 0;
        for (int k = e.start[at]; k < e.start[at + 1]; k++) if (live[e.targets[k]]) n += 2;
        n += 2 * (fe.start[at + 1] - fe.start[at]);
        String[] parts = new String[n];
        int p = 0;
        for (int k = e.start[at]; k < e.start[at + 1]; k++) {
            int q = e.targets[k];
            if (!live[q]) continue;
            parts[p++] = e.text(k);
            parts[p++] = q == at ? SELF : names[q];
        }
        for (int k = fe.start[at]; k < fe.start[at + 1]; k++) {
            parts[p++] = fe.text(k);
            parts[p++] = free.rule(fe.targets[k]);
        }
        if (accepting) parts[p] = "";
        return parts;
    }

    /** A body of {@link #parts}: {@code class rule} per edge, then {@code ""} where it accepts. */
    private static String write(StringBuilder b, String[] parts, String self) {
        b.setLength(0);
        int pairs = parts.length / 2;
        for (int k = 0; k < pairs; k++) {
            if (k > 0) b.append(" | ");
            String rule = parts[2 * k + 1];
            b.append(parts[2 * k]).append(' ').append(rule == SELF ? self : rule);
        }
        if ((parts.length & 1) == 1) b.append(pairs > 0 ? " | \"\"" : "\"\"");
        return b.toString();
    }

    private static boolean overlaps(IntervalSet a, IntervalSet b) {
        if (b.isNil()
                || b.getMaxElement() < a.getMinElement()
                || b.getMinElement() > a.getMaxElement()) return false;
        for (Interval x : b.getIntervals())
            for (int c = x.a; c <= x.b; c++) if (a.contains(c)) return true;
        return false;
    }

    /**
     * Whether some token of the rule holds a string of one of the markers (the lexer then reads the
     * marker inside that token as part of it); true as well when the automaton is too large.
     */
    private boolean coversNew(int rule, List<Integer> markers) {
        Set<Cfg> seeds = new HashSet<>();
        for (int m : markers) seeds.add(new Cfg(atn.ruleToStartState[m], null));
        Set<Cfg> start = closure(seeds);
        Pair first = new Pair(closure(Set.of(new Cfg(atn.ruleToStartState[rule], null))), Set.of());
        Set<Pair> seen = new HashSet<>();
        Deque<Pair> work = new ArrayDeque<>();
        work.add(first);
        while (!work.isEmpty()) {
            Pair p = work.pop();
            if (!seen.add(p)) continue;
            if (seen.size() > MAX_STATES) return true;
            Set<Cfg> active = new LinkedHashSet<>(p.earlier);
            active.addAll(start);
            List<IntervalSet> labels = new ArrayList<>();
            for (Cfg c : p.rule) addLabels(c, labels);
            for (IntervalSet piece : pieces(labels)) {
                int ch = piece.getMinElement();
                Set<Cfg> r = step(p.rule, ch);
                if (r.isEmpty()) continue;
                Set<Cfg> m = step(active, ch);
                if (accepts(m)) return true;
                work.add(new Pair(r, m));
            }
        }
        return false;
    }

    private static void addLabels(Cfg c, List<IntervalSet> labels) {
        ATNState s = c.state;
        for (int i = 0; i < s.getNumberOfTransitions(); i++) {
            Transition t = s.transition(i);
            if (!t.isEpsilon() && !(t instanceof RuleTransition))
                labels.add(Gbnf.clip(TokenLanguages.label(t)));
        }
    }

    /** The classes of characters that every label holds entirely or not at all. */
    private static List<IntervalSet> pieces(List<IntervalSet> labels) {
        int n = 0;
        for (IntervalSet l : labels) n += 2 * l.getIntervals().size();
        int[] cuts = new int[n];
        n = 0;
        for (IntervalSet l : labels)
            for (Interval iv : l.getIntervals()) {
                cuts[n++] = iv.a;
                cuts[n++] = iv.b + 1;
            }
        Arrays.sort(cuts, 0, n);
        int m = 0;
        for (int i = 0; i < n; i++) if (m == 0 || cuts[m - 1] != cuts[i]) cuts[m++] = cuts[i];
        // the labels holding each stretch between two cuts, a bit per label (a list past 64)
        int stretches = Math.max(0, m - 1);
        long[] bits = new long[stretches];
        List<List<Integer>> more = labels.size() > 64 ? new ArrayList<>() : null;
        if (more != null) for (int i = 0; i < stretches; i++) more.add(new ArrayList<>());
        for (int j = 0; j < labels.size(); j++) {
            List<Interval> ivs = labels.get(j).getIntervals();
            int k = 0;
            for (int i = 0; i < stretches && k < ivs.size(); i++) {
                int at = cuts[i];
                while (k < ivs.size() && ivs.get(k).b < at) k++;
                if (k < ivs.size() && ivs.get(k).a <= at) {
                    if (more != null) more.get(i).add(j);
                    else bits[i] |= 1L << j;
                }
            }
        }
        Map<Object, IntervalSet> byMembership = new HashMap<>();
        List<IntervalSet> out = new ArrayList<>();
        for (int i = 0; i < stretches; i++) {
            Object member = more != null ? more.get(i) : (Object) bits[i];
            if (more != null ? more.get(i).isEmpty() : bits[i] == 0) continue;
            IntervalSet s = byMembership.get(member);
            if (s == null) {
                s = new IntervalSet();
                byMembership.put(member, s);
                out.add(s);
            }
            s.add(cuts[i], cuts[i + 1] - 1);
        }
        return out;
    }

    private static boolean accepts(Set<Cfg> set) {
        for (Cfg c : set) if (c.state instanceof RuleStopState && c.ret == null) return true;
        return false;
    }

    /**
     * The read {@code ch} leads to from {@code at} ({@link #step} of its configurations, through
     * this lexer's reads, {@link #read}): kept with the lexer where the reads are within their
     * bound. The product automata over words a request brings (the tools' parameter names) walk the
     * same states of the lexer again and again.
     */
    private Read stepRead(Read at, int ch) {
        Read next = at.after(ch);
        if (next == null) {
            next = read(step(at.cfgs, ch));
            // the reads kept per lexer are bounded; past the bound they are made each time
            if (next.kept) at.keep(ch, next);
        }
        return next;
    }

    /**
     * The classes of characters that each label of the transitions of {@code at}'s configurations
     * holds entirely or not at all, kept with the read: the pieces of those labels together with
     * others are the pieces of these classes together with the others.
     */
    private List<IntervalSet> piecesOf(Read at) {
        List<IntervalSet> known = at.pieces;
        if (known != null) return known;
        List<IntervalSet> labels = new ArrayList<>();
        for (Cfg c : at.cfgs) addLabels(c, labels);
        List<IntervalSet> made = pieces(labels);
        for (IntervalSet piece : made) piece.setReadonly(true);
        made = List.copyOf(made);
        if (at.kept) at.pieces = made;
        return made;
    }

    private Set<Cfg> step(Set<Cfg> from, int ch) {
        Set<Cfg> seeds = new HashSet<>();
        for (Cfg c : from) {
            ATNState s = c.state;
            for (int i = 0; i < s.getNumberOfTransitions(); i++) {
                Transition t = s.transition(i);
                if (!t.isEpsilon()
                        && !(t instanceof RuleTransition)
                        && TokenLanguages.label(t).contains(ch))
                    seeds.add(new Cfg(t.target, c.ret));
            }
        }
        return closure(seeds);
    }

    /** The configurations reachable without reading: those that read next, and ends. */
    private Set<Cfg> closure(Set<Cfg> seeds) {
        Set<Cfg> seen = new HashSet<>();
        Set<Cfg> out = new LinkedHashSet<>();
        Deque<Cfg> work = new ArrayDeque<>(seeds);
        while (!work.isEmpty()) {
            Cfg c = work.pop();
            if (!seen.add(c)) continue;
            ATNState s = c.state;
            if (s instanceof RuleStopState) {
                if (c.ret == null) out.add(c);
                else work.push(new Cfg(c.ret.follow, c.ret.next));
                continue;
            }
            for (int i = 0; i < s.getNumberOfTransitions(); i++) {
                Transition t = s.transition(i);
                if (t instanceof RuleTransition rt) {
                    int depth = c.ret == null ? 1 : c.ret.depth + 1;
                    if (depth <= MAX_STACK)
                        work.push(new Cfg(t.target, new Ret(rt.followState, c.ret, depth)));
                } else if (t.isEpsilon()) work.push(new Cfg(t.target, c.ret));
                else out.add(c);
            }
        }
        return out;
    }
}
