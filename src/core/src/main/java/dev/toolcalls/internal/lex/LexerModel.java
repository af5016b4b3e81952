package dev.toolcalls.internal.lex;

import org.antlr.v4.runtime.CharStream;
import org.antlr.v4.runtime.Lexer;
import org.antlr.v4.runtime.Token;
import org.antlr.v4.runtime.Vocabulary;
import org.antlr.v4.runtime.atn.ATN;
import org.antlr.v4.runtime.atn.ATNState;
import org.antlr.v4.runtime.atn.ActionTransition;
import org.antlr.v4.runtime.atn.LexerATNSimulator;
import org.antlr.v4.runtime.atn.LexerAction;
import org.antlr.v4.runtime.atn.LexerModeAction;
import org.antlr.v4.runtime.atn.LexerPopModeAction;
import org.antlr.v4.runtime.atn.LexerPushModeAction;
import org.antlr.v4.runtime.atn.LexerTypeAction;
import org.antlr.v4.runtime.atn.NotSetTransition;
import org.antlr.v4.runtime.atn.PredicateTransition;
import org.antlr.v4.runtime.atn.PredictionContextCache;
import org.antlr.v4.runtime.atn.RuleStopState;
import org.antlr.v4.runtime.atn.RuleTransition;
import org.antlr.v4.runtime.atn.Transition;
import org.antlr.v4.runtime.atn.WildcardTransition;
import org.antlr.v4.runtime.dfa.DFA;
import org.antlr.v4.runtime.dfa.DFAState;
import org.antlr.v4.runtime.misc.Interval;
import org.antlr.v4.runtime.misc.IntervalSet;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.BitSet;
import java.util.Deque;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Function;

/**
 * A format's lexer together with what its tokens mean: the role of every token type, which token
 * rules may be cut while streaming, and the DFA cache shared by every stream of the format.
 *
 * <p>Built once per format and immutable afterwards (the DFA caches are thread-safe). Loading
 * checks what the runtime relies on, so a grammar mistake shows up as a clear message at load time
 * rather than as a wrong parse: every token type has a known role, rules use only mode and type
 * commands, streamable rules carry no commands and no other rule of their mode can begin where they
 * continue.
 */
public final class LexerModel {
    public final String formatName;
    public final ATN atn;
    public final Function<CharStream, ? extends Lexer> factory;
    public final String[] ruleNames;
    public final String[] modeNames;
    private final Role[] roleByType;

    /** Token rule -> its token type (after a {@code type(...)} command). */
    private final int[] ruleType;

    private final boolean[] ruleStreamable;

    /** Per mode: alt - 1 -> token rule. */
    private final int[][] altRule;

    public final boolean hasIdRole;

    public final DFA[] dfas;
    public final PredictionContextCache contextCache = new PredictionContextCache();

    /**
     * DFA edges for code points above ANTLR's 127 limit, per mode: (state << 32 | cp) -> target.
     */
    public final List<Map<Long, DFAState>> wideEdges;

    /** Runs of each mode that are found by searching instead of simulating the lexer. */
    public final FastRuns runs;

    /** Per mode, what a complete rest of output lacking a few characters is (derived lazily). */
    final PlainModes plain;

    private final List<Problem> problems = new ArrayList<>();

    /**
     * Per rule, the code points its tokens can begin with, computed once (the overlap check and the
     * runs both ask).
     */
    private IntervalSet[] firstChars;

    private final WideEdge[] wideCache = new WideEdge[1 << 13];

    /** Whether a token held at the end of the data may still grow: see {@link #mayGrow}. */
    private final Growth[] growthCache = new Growth[1 << 10];

    /** Tokens walked before, to walk again at once: see {@link #knownToken}. */
    private final KnownToken[] knownTokens = new KnownToken[1 << 10];

    /**
     * @throws IllegalArgumentException naming the format and every problem found
     */
    public LexerModel(
            String formatName,
            Function<CharStream, ? extends Lexer> factory,
            Map<String, String> roles,
            List<String> streamable) {
        this(formatName, factory, roles, streamable, true);
    }

    /**
     * @param strict throw on problems; otherwise the model is built anyway (tokens without a valid
     *     role have none) and {@link #problems()} lists them, for {@code check}
     */
    public LexerModel(
            String formatName,
            Function<CharStream, ? extends Lexer> factory,
            Map<String, String> roles,
            List<String> streamable,
            boolean strict) {
        this.formatName = formatName;
        this.factory = factory;
        // an empty stream of the driver's own kind: ANTLR's CharStreams would load a dozen classes
        Lexer proto = factory.apply(new TextStream());
        this.atn = proto.getATN();
        this.ruleNames = proto.getRuleNames();
        this.modeNames = proto.getModeNames();
        Vocabulary vocabulary = proto.getVocabulary();
        int maxType = atn.maxTokenType;

        Map<String, Integer> typeByName = new HashMap<>();
        for (int t = 1; t <= maxType; t++) {
            String n = vocabulary.getSymbolicName(t);
            if (n != null) typeByName.put(n, t);
        }
        roleByType = new Role[maxType + 1];
        for (Map.Entry<String, String> e : roles.entrySet()) {
            Integer t = typeByName.get(e.getKey());
            Role r = Role.of(e.getValue());
            if (t == null && !Arrays.asList(ruleNames).contains(e.getKey()))
                problems.add(
                        Problem.role(
                                e.getKey(),
                                "role given for unknown token " + e.getKey(),
                                "remove it from \"roles\" or define the token in the grammar"));
            else if (r == null) {
                String near = Role.nearest(e.getValue());
                problems.add(
                        Problem.role(
                                e.getKey(),
                                "token " + e.getKey() + " has unknown role '" + e.getValue() + "'",
                                (near == null ? "" : "did you mean " + near + "? ")
                                        + "roles: "
                                        + Role.vocabulary()));
            } else if (t != null) roleByType[t] = r;
        }

        int rules = ruleNames.length;
        ruleType = new int[rules];
        ruleStreamable = new boolean[rules];
        BitSet tokenRule = new BitSet(rules);
        for (int r = 0; r < rules; r++) ruleType[r] = atn.ruleToTokenType[r];
        altRule = new int[atn.modeToStartState.size()][];
        for (int m = 0; m < altRule.length; m++) {
            ATNState start = atn.modeToStartState.get(m);
            altRule[m] = new int[start.getNumberOfTransitions()];
            for (int i = 0; i < altRule[m].length; i++) {
                int r = start.transition(i).target.ruleIndex;
                altRule[m][i] = r;
                tokenRule.set(r);
            }
        }
        // commands: only mode(), pushMode(), popMode() and type(); type() decides the role
        BitSet hasCommand = new BitSet(rules);
        for (ATNState s : atn.states) {
            if (s == null) continue;
            for (int i = 0; i < s.getNumberOfTransitions(); i++) {
                Transition tr = s.transition(i);
                IntervalSet label = tr.label();
                if (label != null
                        && label.contains(Token.EOF)
                        && !(tr instanceof NotSetTransition)) {
                    problems.add(
                            Problem.token(
                                    ruleNames[s.ruleIndex],
                                    "rule " + ruleNames[s.ruleIndex] + " matches EOF",
                                    "remove EOF: the runtime knows the end of the output itself"));
                } else if (tr instanceof PredicateTransition) {
                    problems.add(
                            Problem.token(
                                    ruleNames[s.ruleIndex],
                                    "rule " + ruleNames[s.ruleIndex] + " has a semantic predicate",
                                    "grammars must be plain lexer rules: use modes instead"));
                } else if (tr instanceof ActionTransition) {
                    ActionTransition at = (ActionTransition) tr;
                    if (at.actionIndex < 0 || atn.lexerActions == null) continue;
                    LexerAction a = atn.lexerActions[at.actionIndex];
                    hasCommand.set(s.ruleIndex);
                    if (a instanceof LexerTypeAction)
                        ruleType[s.ruleIndex] = ((LexerTypeAction) a).getType();
                    else if (!(a instanceof LexerModeAction
                            || a instanceof LexerPushModeAction
                            || a instanceof LexerPopModeAction))
                        problems.add(
                                Problem.token(
                                        ruleNames[s.ruleIndex],
                                        "rule "
                                                + ruleNames[s.ruleIndex]
                                                + " uses '"
                                                + a.getActionType().name().toLowerCase()
                                                + "'; only mode, pushMode, popMode and type commands are allowed",
                                        "give the token a role instead, e.g. skip"));
                }
            }
        }
        // every token type a rule can produce needs a role (a rule retyped with type(X) produces X
        // only)
        BitSet emitted = new BitSet(maxType + 1);
        for (int r = tokenRule.nextSetBit(0); r >= 0; r = tokenRule.nextSetBit(r + 1))
            if (ruleType[r] > 0) emitted.set(ruleType[r]);
        for (int t = emitted.nextSetBit(0); t >= 0; t = emitted.nextSetBit(t + 1)) {
            String n = vocabulary.getSymbolicName(t);
            if (roleByType[t] == null && (n == null || roles.get(n) == null))
                problems.add(
                        Problem.token(
                                n == null ? "#" + t : n,
                                "token type " + (n == null ? "#" + t : n) + " has no role",
                                "give it one in the format file's \"roles\" ("
                                        + Role.vocabulary()
                                        + ")"));
        }

        boolean id = false;
        for (int t = 1; t <= maxType; t++)
            id |= roleByType[t] == Role.ID || roleByType[t] == Role.ID_JSON;
        hasIdRole = id;

        for (String n : streamable) {
            int found = -1;
            for (int r = 0; r < rules; r++)
                if (ruleNames[r].equals(n) && tokenRule.get(r)) found = r;
            if (found < 0) {
                problems.add(
                        Problem.file(
                                "streamable token " + n + " is not a token rule",
                                "list only token rules of the grammar in \"streamable\""));
                continue;
            }
            if (hasCommand.get(found))
                problems.add(
                        Problem.token(
                                n,
                                "streamable token " + n + " has a command",
                                "streamable tokens must be plain [set]+ loops: remove it from \"streamable\" or move the command to another token"));
            ruleStreamable[found] = true;
        }
        checkStreamableOverlaps(problems);

        if (strict && !problems.isEmpty())
            throw new IllegalArgumentException(
                    "format "
                            + formatName
                            + ": "
                            + String.join("; ", problems.stream().map(Problem::text).toList()));

        dfas = new DFA[atn.getNumberOfDecisions()];
        for (int i = 0; i < dfas.length; i++) dfas[i] = new DFA(atn.getDecisionState(i), i);
        List<Map<Long, DFAState>> wide = new ArrayList<>();
        for (int m = 0; m < altRule.length; m++) wide.add(new ConcurrentHashMap<>());
        wideEdges = List.copyOf(wide);
        runs =
                new FastRuns(
                        this,
                        atn,
                        factory instanceof FastRuns.Stored
                                ? ((FastRuns.Stored) factory).storedRuns()
                                : null);
        plain = new PlainModes(this, atn);
    }

    /**
     * Cutting a streamable token at a chunk end is only chunking-invariant when lexing resumed at
     * the cut cannot take another token: no rule of the mode with another role may start with a
     * character the streamable rule continues with.
     */
    private void checkStreamableOverlaps(List<Problem> problems) {
        for (int m = 0; m < altRule.length; m++) {
            for (int a : altRule[m]) {
                if (!ruleStreamable[a]) continue;
                IntervalSet first = firstChars(a);
                for (int b : altRule[m]) {
                    if (a == b || (ruleStreamable[b] && roleOfRule(b) == roleOfRule(a))) continue;
                    if (!first.and(firstChars(b)).isNil())
                        problems.add(
                                Problem.token(
                                        ruleNames[a],
                                        "streamable token "
                                                + ruleNames[a]
                                                + " and token "
                                                + ruleNames[b]
                                                + " can start with the same character in mode "
                                                + modeNames[m]
                                                + "; a streamed cut would change how the rest is lexed",
                                        "exclude "
                                                + describe(first.and(firstChars(b)))
                                                + " from "
                                                + ruleNames[a]
                                                + " (it is not safe to cut), or take "
                                                + ruleNames[a]
                                                + " out of \"streamable\""));
                }
            }
        }
    }

    /**
     * Code points a token of this rule can begin with (ANTLR's LL(1) analysis works on token types,
     * not characters).
     */
    private synchronized IntervalSet firstChars(int rule) {
        if (firstChars == null) firstChars = new IntervalSet[ruleNames.length];
        if (firstChars[rule] == null) {
            IntervalSet out = new IntervalSet();
            firstChars(atn.ruleToStartState[rule], new ArrayDeque<>(), new HashSet<>(), out);
            out.setReadonly(true);
            firstChars[rule] = out;
        }
        return firstChars[rule];
    }

    private void firstChars(ATNState s, Deque<ATNState> returns, Set<Long> seen, IntervalSet out) {
        if (!seen.add(((long) s.stateNumber << 16) | returns.size())) return;
        if (s instanceof RuleStopState) {
            if (returns.isEmpty()) return;
            ATNState follow = returns.pop();
            firstChars(follow, returns, seen, out);
            returns.push(follow);
            return;
        }
        for (int i = 0; i < s.getNumberOfTransitions(); i++) {
            Transition t = s.transition(i);
            if (t instanceof RuleTransition) {
                returns.push(((RuleTransition) t).followState);
                firstChars(t.target, returns, seen, out);
                returns.pop();
            } else if (t.isEpsilon()) {
                firstChars(t.target, returns, seen, out);
            } else if (t instanceof WildcardTransition) {
                out.add(Lexer.MIN_CHAR_VALUE, Lexer.MAX_CHAR_VALUE);
            } else if (t instanceof NotSetTransition) {
                out.addAll(t.label().complement(Lexer.MIN_CHAR_VALUE, Lexer.MAX_CHAR_VALUE));
            } else if (t.label() != null) {
                out.addAll(t.label());
            }
        }
    }

    /**
     * The DFA edge of {@code mode}'s state {@code s} for the code point {@code cp}: ANTLR's own up
     * to 127, {@link #wideEdge} above; null where none is built yet.
     */
    public DFAState edge(int mode, DFAState s, int cp) {
        if (cp <= LexerATNSimulator.MAX_DFA_EDGE) {
            DFAState[] edges = s.edges;
            return edges == null ? null : edges[cp];
        }
        return wideEdge(mode, s.stateNumber, cp);
    }

    /**
     * An edge for a code point above 127 (ANTLR's DFA keeps none): a lossy direct-mapped cache in
     * front of the map.
     */
    public DFAState wideEdge(int mode, int state, int cp) {
        long key = ((long) state << 32) | cp;
        int slot = slot(mode, key);
        WideEdge e = wideCache[slot];
        if (e != null && e.key == key && e.mode == mode) return e.target;
        DFAState target = wideEdges.get(mode).get(key);
        if (target != null) wideCache[slot] = new WideEdge(mode, key, target);
        return target;
    }

    public void addWideEdge(int mode, int state, int cp, DFAState target) {
        long key = ((long) state << 32) | cp;
        wideEdges.get(mode).put(key, target);
        wideCache[slot(mode, key)] = new WideEdge(mode, key, target);
    }

    private static int slot(int mode, long key) {
        long h = (key ^ (key >>> 29) ^ mode * 0x9E3779B97F4A7C15L) * 0xBF58476D1CE4E5B9L;
        return (int) (h >>> 51); // 13 bits
    }

    /** Immutable, so a racing reader sees a whole entry or another one, never a torn one. */
    private record WideEdge(int mode, long key, DFAState target) {}

    /**
     * Whether a match in {@code mode} that ran into the end of the data in DFA state {@code state},
     * with {@code accepted} its last accept state (null: none), may still grow: 1 or 0, remembered
     * per pair of states (a lossy direct-mapped cache), since both are fixed parts of the mode's
     * DFA and the answer depends on nothing else; -1 when not remembered.
     */
    int mayGrow(int mode, DFAState state, DFAState accepted) {
        Growth g = growthCache[growthSlot(mode, state, accepted)];
        return g != null && g.state == state && g.accepted == accepted ? g.grows : -1;
    }

    void rememberGrowth(int mode, DFAState state, DFAState accepted, boolean grows) {
        growthCache[growthSlot(mode, state, accepted)] = new Growth(state, accepted, grows ? 1 : 0);
    }

    private static int growthSlot(int mode, DFAState state, DFAState accepted) {
        long key =
                ((long) state.stateNumber << 32 | (accepted == null ? 0 : accepted.stateNumber + 1))
                        ^ mode * 0x9E3779B97F4A7C15L;
        return (int) ((key * 0xBF58476D1CE4E5B9L) >>> 54); // 10 bits
    }

    /** Immutable, so a racing reader sees a whole entry or another one, never a torn one. */
    private static final class Growth {
        final DFAState state;
        final DFAState accepted;
        final int grows;

        Growth(DFAState state, DFAState accepted, int grows) {
            this.state = state;
            this.accepted = accepted;
            this.grows = grows;
        }
    }

    /**
     * The text of a token that a match in {@code mode} walked before from the mode's start state
     * along DFA edges already built, for a token beginning with {@code c0} and {@code c1} (entry
     * {@code way} of 2); or null. A DFA is deterministic and its edges never change once built, so
     * where the same characters lie at a token's start, a walk over them passes the same states:
     * the walk compares the text where it lies and goes on from the state after the characters that
     * agree. A lossy cache shared by every stream of the format.
     */
    KnownToken knownToken(int mode, int c0, int c1, int way) {
        KnownToken k = knownTokens[knownSlot(mode, c0, c1) | way];
        return k != null && k.mode == mode ? k : null;
    }

    /**
     * Remembers the text of [from, to) of {@code in}, a token walked from {@code mode}'s start
     * state {@code s0}, where no entry of its slot held it: into an empty entry, or in place of one
     * that missed several times since its last hit (otherwise each entry counts the miss, and no
     * text is made). A text the lexer does not see as it is (masked, or holding a surrogate) is not
     * remembered.
     */
    void rememberToken(int mode, DFAState s0, TextStream in, int from, int to) {
        int slot = knownSlot(mode, in.peek(from), in.peek(from + 1));
        for (int way = 0; way < 2; way++) {
            KnownToken k = knownTokens[slot | way];
            if (k == null || k.mode != mode || k.misses >= KnownToken.REPLACE_AFTER) {
                String text = in.plainText(from, to);
                KnownToken made = text == null ? null : KnownToken.walk(this, mode, s0, text);
                if (made != null) knownTokens[slot | way] = made;
                return;
            }
        }
        for (int way = 0; way < 2; way++) knownTokens[slot | way].misses++;
    }

    private static int knownSlot(int mode, int c0, int c1) {
        int h = (mode * 0x9E3779B9) ^ (c0 * 0x85EBCA6B) ^ (c1 * 0xC2B2AE35);
        return (h ^ (h >>> 15)) & ((1 << 10) - 2);
    }

    /**
     * A token's text and the DFA states a walk over it from its mode's start state passes:
     * immutable but for {@link #misses}, a racy count that only decides when the entry is replaced.
     */
    static final class KnownToken {
        /** The most characters of a token remembered. */
        static final int MAX = 64;

        static final int REPLACE_AFTER = 4;
        final int mode;
        final String text;

        /** The state after the first i + 1 characters. */
        private final DFAState[] states;

        /** Of the first i + 1 characters, how many the longest accepted prefix holds (0: none). */
        private final byte[] accepted;

        int misses;

        private KnownToken(int mode, String text, DFAState[] states, byte[] accepted) {
            this.mode = mode;
            this.text = text;
            this.states = states;
            this.accepted = accepted;
        }

        /**
         * The walk over {@code text} (at most {@link #MAX} characters) from {@code s0}, or null
         * where an edge is not built.
         */
        static KnownToken walk(LexerModel model, int mode, DFAState s0, String text) {
            int n = text.length();
            DFAState[] states = new DFAState[n];
            byte[] accepted = new byte[n];
            DFAState s = s0;
            int acc = 0;
            for (int i = 0; i < n; i++) {
                DFAState t = model.edge(mode, s, text.charAt(i));
                if (t == null || t == LexerATNSimulator.ERROR) return null;
                s = t;
                if (s.isAcceptState) acc = i + 1;
                states[i] = s;
                accepted[i] = (byte) acc;
            }
            return new KnownToken(mode, text, states, accepted);
        }

        /** The state after the first {@code m} characters ({@code m} ≥ 1). */
        DFAState state(int m) {
            return states[m - 1];
        }

        /** How many of the first {@code m} characters the longest accepted prefix holds. */
        int accepted(int m) {
            return accepted[m - 1];
        }
    }

    /**
     * The problems found (only when built with {@code strict = false}; a strict build throws on
     * any).
     */
    public List<Problem> problems() {
        return List.copyOf(problems);
    }

    /** A few characters of a set, as a grammar would write them. */
    public static String describe(IntervalSet set) {
        StringBuilder b = new StringBuilder();
        int n = 0;
        for (Interval iv : set.getIntervals()) {
            for (int c = iv.a; c <= iv.b; c++) {
                if (n++ == 3) return b.append(", ...").toString();
                if (b.length() > 0) b.append(", ");
                b.append(
                        c == '\n'
                                ? "'\\n'"
                                : c == '\t'
                                        ? "'\\t'"
                                        : c == '\r'
                                                ? "'\\r'"
                                                : c == '\''
                                                        ? "'\\''"
                                                        : c < 0x20 || c > 0xFFFF
                                                                ? String.format("'\\u{%X}'", c)
                                                                : "'" + (char) c + "'");
            }
        }
        return b.toString();
    }

    /** Code points a token of this rule can begin with. */
    public IntervalSet firstCharsOf(int rule) {
        return firstChars(rule);
    }

    /** Per mode: the mode's token rules in priority order (an earlier rule wins a tie). */
    public int[] rulesOfMode(int mode) {
        return altRule[mode].clone();
    }

    /** The token type a token rule produces (after a {@code type(...)} command). */
    public int typeOfRule(int rule) {
        return ruleType[rule];
    }

    /** Whether a token rule is listed as streamable. */
    public boolean streamable(int rule) {
        return ruleStreamable[rule];
    }

    public int ruleForAlt(int mode, int alt) {
        return altRule[mode][alt - 1];
    }

    public Role roleOfType(int type) {
        return type > 0 && type < roleByType.length ? roleByType[type] : null;
    }

    public Role roleOfRule(int rule) {
        return roleOfType(ruleType[rule]);
    }

    /** May a streamed token of {@code accepted} be cut while {@code alive} could still grow? */
    public boolean cuttable(int accepted, int alive) {
        return ruleStreamable[accepted]
                && ruleStreamable[alive]
                && roleOfRule(accepted) == roleOfRule(alive);
    }
}
