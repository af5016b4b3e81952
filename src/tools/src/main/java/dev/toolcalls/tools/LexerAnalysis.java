package dev.toolcalls.tools;

import dev.toolcalls.internal.lex.LexerModel;
import dev.toolcalls.internal.lex.Role;

import org.antlr.v4.runtime.CharStream;
import org.antlr.v4.runtime.CharStreams;
import org.antlr.v4.runtime.Lexer;
import org.antlr.v4.runtime.Token;
import org.antlr.v4.runtime.atn.ATN;
import org.antlr.v4.runtime.atn.ATNConfig;
import org.antlr.v4.runtime.atn.ATNConfigSet;
import org.antlr.v4.runtime.atn.ATNState;
import org.antlr.v4.runtime.atn.ActionTransition;
import org.antlr.v4.runtime.atn.LexerATNSimulator;
import org.antlr.v4.runtime.atn.LexerAction;
import org.antlr.v4.runtime.atn.LexerModeAction;
import org.antlr.v4.runtime.atn.LexerPopModeAction;
import org.antlr.v4.runtime.atn.LexerPushModeAction;
import org.antlr.v4.runtime.atn.NotSetTransition;
import org.antlr.v4.runtime.atn.OrderedATNConfigSet;
import org.antlr.v4.runtime.atn.PredictionContextCache;
import org.antlr.v4.runtime.atn.RuleStopState;
import org.antlr.v4.runtime.atn.RuleTransition;
import org.antlr.v4.runtime.atn.Transition;
import org.antlr.v4.runtime.atn.WildcardTransition;
import org.antlr.v4.runtime.dfa.DFA;
import org.antlr.v4.runtime.misc.IntervalSet;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.BitSet;
import java.util.Collections;
import java.util.Deque;
import java.util.HashMap;
import java.util.HashSet;
import java.util.IdentityHashMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.TreeSet;

/**
 * What a format's lexer can actually do, worked out from its ATN: which token rules can ever
 * produce a token (an earlier rule may match everything a later one does), how each rule moves
 * between modes, which modes can be entered and left, whether a call opener leads to a call end,
 * and which markers a content rule would run over. {@code toolcalls check} reports what it finds;
 * the output generator walks the same graph.
 *
 * <p>Every search is bounded (DFA states per mode, stack depth, states visited), so the analysis of
 * any grammar ends quickly; what a bound cut short is not reported.
 */
public final class LexerAnalysis {
    /**
     * A mode command of a rule, in order: {@code mode(X)}, {@code pushMode(X)} or {@code popMode}.
     */
    public record Command(Kind kind, int mode) {
        public enum Kind {
            MODE,
            PUSH,
            POP
        }
    }

    private static final int MAX_DFA_STATES = 4000;
    private static final int MAX_STACK = 12;
    private static final int MAX_VISITED = 20000;

    /**
     * At the bottom of a stack: frames below that are not known (the frame above was pushed by
     * someone).
     */
    public static final int CALLER = -1;

    public final LexerModel model;
    private final ATN atn;
    private final int modes;

    /** Token rules that win some input in their mode. */
    private final BitSet canWin = new BitSet();

    /** Token rules whose mode's DFA was explored completely (their shadowing is known). */
    private final BitSet explored = new BitSet();

    /** For a rule that never wins: the earlier rule that took its input. */
    private final Map<Integer, Integer> shadowedBy = new HashMap<>();

    /** Per token rule: the command sequences of its alternatives. */
    private final Map<Integer, List<List<Command>>> commands = new HashMap<>();

    private boolean[] canPop;
    private boolean[] canReturn;
    private final Map<Integer, IntervalSet> continueChars = new HashMap<>();
    private TokenSampler sampler;

    public LexerAnalysis(LexerModel model) {
        this.model = model;
        this.atn = model.atn;
        this.modes = atn.modeToStartState.size();
        for (int m = 0; m < modes; m++)
            for (int r : model.rulesOfMode(m)) commands.put(r, commandsOf(r));
        exploreModes();
        solveExits();
    }

    // ---- which rules can win -------------------------------------------------------------------

    /**
     * Walks each mode's DFA (subset construction over character classes) as ANTLR's lexer would
     * build it.
     */
    private void exploreModes() {
        Lexer lexer = model.factory.apply(CharStreams.fromString(""));
        DFA[] dfas = new DFA[atn.getNumberOfDecisions()];
        for (int i = 0; i < dfas.length; i++) dfas[i] = new DFA(atn.getDecisionState(i), i);
        Explorer sim = new Explorer(lexer, atn, dfas);
        CharStream none = CharStreams.fromString("");
        for (int m = 0; m < modes; m++) {
            ATNConfigSet start = sim.start(none, atn.modeToStartState.get(m));
            Set<ATNConfigSet> seen = new HashSet<>();
            Deque<ATNConfigSet> queue = new ArrayDeque<>();
            seen.add(start);
            queue.add(start);
            boolean complete = true;
            while (!queue.isEmpty()) {
                if (seen.size() > MAX_DFA_STATES) {
                    complete = false;
                    break;
                }
                ATNConfigSet s = queue.poll();
                int winner = -1;
                for (ATNConfig c : s) {
                    if (!(c.state instanceof RuleStopState)) continue;
                    int rule = model.ruleForAlt(m, c.alt);
                    if (winner < 0) {
                        winner = rule;
                        canWin.set(rule);
                    } else if (rule != winner) shadowedBy.putIfAbsent(rule, winner);
                }
                for (int c : representatives(s)) {
                    ATNConfigSet reach = sim.reach(none, s, c);
                    if (reach.isEmpty()) continue;
                    reach.setReadonly(true);
                    if (seen.add(reach)) queue.add(reach);
                }
            }
            if (complete) for (int r : model.rulesOfMode(m)) explored.set(r);
        }
    }

    /** One code point per class of characters that the configurations' transitions treat alike. */
    private static List<Integer> representatives(ATNConfigSet s) {
        TreeSet<Integer> bounds = new TreeSet<>();
        List<IntervalSet> labels = new ArrayList<>();
        for (ATNConfig c : s) {
            if (c.state instanceof RuleStopState) continue;
            for (int i = 0; i < c.state.getNumberOfTransitions(); i++) {
                IntervalSet l = chars(c.state.transition(i));
                if (l == null) continue;
                labels.add(l);
                for (var iv : l.getIntervals()) {
                    bounds.add(iv.a);
                    bounds.add(iv.b + 1);
                }
            }
        }
        List<Integer> out = new ArrayList<>();
        for (int b : bounds) {
            if (b > Lexer.MAX_CHAR_VALUE) continue;
            for (IntervalSet l : labels)
                if (l.contains(b)) {
                    out.add(b);
                    break;
                }
        }
        return out;
    }

    /** The characters a transition consumes, or null for an epsilon transition. */
    static IntervalSet chars(Transition t) {
        if (t.isEpsilon()) return null;
        if (t instanceof WildcardTransition)
            return IntervalSet.of(Lexer.MIN_CHAR_VALUE, Lexer.MAX_CHAR_VALUE);
        if (t instanceof NotSetTransition)
            return t.label().complement(Lexer.MIN_CHAR_VALUE, Lexer.MAX_CHAR_VALUE);
        return t.label();
    }

    /** ANTLR's own closure and reach, so the exploration makes exactly the lexer's choices. */
    private static final class Explorer extends LexerATNSimulator {
        Explorer(Lexer lexer, ATN atn, DFA[] dfas) {
            super(lexer, atn, dfas, new PredictionContextCache());
        }

        ATNConfigSet start(CharStream input, ATNState p) {
            return computeStartState(input, p);
        }

        ATNConfigSet reach(CharStream input, ATNConfigSet from, int c) {
            ATNConfigSet reach = new OrderedATNConfigSet();
            getReachableConfigSet(input, from, reach, c);
            return reach;
        }
    }

    /**
     * Whether this token rule can produce a token (false: an earlier rule matches all it matches).
     */
    public boolean canWin(int rule) {
        return canWin.get(rule) || !explored.get(rule);
    }

    /**
     * Rules of a mode that can never produce a token, each with the earlier rule that takes their
     * input (or -1).
     */
    public Map<Integer, Integer> shadowed(int mode) {
        Map<Integer, Integer> out = new LinkedHashMap<>();
        for (int r : model.rulesOfMode(mode))
            if (explored.get(r) && !canWin.get(r)) out.put(r, shadowedBy.getOrDefault(r, -1));
        return out;
    }

    // ---- mode commands -------------------------------------------------------------------------

    /**
     * The mode command sequences of a rule's alternatives (one empty list for a rule without
     * commands).
     */
    public List<List<Command>> commands(int rule) {
        return commands.getOrDefault(rule, List.of(List.of()));
    }

    private List<List<Command>> commandsOf(int rule) {
        Map<ATNState, Set<List<Command>>> memo = new IdentityHashMap<>();
        Set<List<Command>> found =
                paths(
                        atn.ruleToStartState[rule],
                        memo,
                        Collections.newSetFromMap(new IdentityHashMap<>()));
        List<List<Command>> out = new ArrayList<>(found);
        if (out.isEmpty()) out.add(List.of());
        return out;
    }

    private Set<List<Command>> paths(
            ATNState s, Map<ATNState, Set<List<Command>>> memo, Set<ATNState> onPath) {
        Set<List<Command>> known = memo.get(s);
        if (known != null) return known;
        if (s instanceof RuleStopState) return Set.of(List.of());
        if (!onPath.add(s)) return Set.of();
        Set<List<Command>> out = new LinkedHashSet<>();
        for (int i = 0; i < s.getNumberOfTransitions(); i++) {
            Transition t = s.transition(i);
            ATNState next =
                    t instanceof RuleTransition ? ((RuleTransition) t).followState : t.target;
            Command cmd = null;
            if (t instanceof ActionTransition
                    && ((ActionTransition) t).actionIndex >= 0
                    && atn.lexerActions != null) {
                LexerAction a = atn.lexerActions[((ActionTransition) t).actionIndex];
                if (a instanceof LexerModeAction)
                    cmd = new Command(Command.Kind.MODE, ((LexerModeAction) a).getMode());
                else if (a instanceof LexerPushModeAction)
                    cmd = new Command(Command.Kind.PUSH, ((LexerPushModeAction) a).getMode());
                else if (a instanceof LexerPopModeAction) cmd = new Command(Command.Kind.POP, -1);
            }
            for (List<Command> rest : paths(next, memo, onPath)) {
                if (out.size() > 16) break;
                if (cmd == null) out.add(rest);
                else {
                    List<Command> l = new ArrayList<>();
                    l.add(cmd);
                    l.addAll(rest);
                    out.add(List.copyOf(l));
                }
            }
        }
        onPath.remove(s);
        memo.put(s, out);
        return out;
    }

    /**
     * Runs a rule's mode commands on a mode stack (outermost first, the current mode last), as
     * ANTLR's lexer does, and returns the new stack; null when a command would pop or switch below
     * what the stack holds: for a real stack ANTLR throws, for one over {@link #CALLER} the
     * commands leave the part that is known (the frame was popped and more).
     */
    public static List<Integer> run(List<Command> commands, List<Integer> stack) {
        List<Integer> out = new ArrayList<>(stack);
        for (Command c : commands) {
            if (out.isEmpty() || out.get(out.size() - 1) == CALLER) return null;
            switch (c.kind()) {
                case MODE:
                    out.set(out.size() - 1, c.mode());
                    break;
                case PUSH:
                    out.add(c.mode());
                    break;
                default:
                    if (out.size() == 1) return null;
                    out.remove(out.size() - 1);
            }
        }
        return out;
    }

    /** A frame in {@code mode} pushed over frames not known. */
    public static List<Integer> pushed(int mode) {
        return List.of(CALLER, mode);
    }

    /** Whether the frames of {@code stack} from {@code from} on can all be popped. */
    private boolean allPop(List<Integer> stack, int from) {
        for (int i = from; i < stack.size(); i++) if (!canPop[stack.get(i)]) return false;
        return true;
    }

    private void solveExits() {
        canPop = new boolean[modes];
        canReturn = new boolean[modes];
        canReturn[Lexer.DEFAULT_MODE] = true;
        for (boolean changed = true; changed; ) {
            changed = false;
            for (int m = 0; m < modes; m++) {
                for (int r : model.rulesOfMode(m)) {
                    if (!canWin(r)) continue;
                    for (List<Command> seq : commands(r)) {
                        List<Integer> p = run(seq, pushed(m));
                        // popped (perhaps with more), or replaced by frames that all go away in
                        // turn
                        boolean left =
                                p == null
                                        || p.size() == 1
                                        || p.get(1) != m && allPop(p, 2) && canPop[p.get(1)];
                        if (!canPop[m] && left) {
                            canPop[m] = true;
                            changed = true;
                        }
                        List<Integer> b = run(seq, List.of(m));
                        if (!canReturn[m]
                                && b != null
                                && b.get(0) != m
                                && allPop(b, 1)
                                && canReturn[b.get(0)]) {
                            canReturn[m] = true;
                            changed = true;
                        }
                    }
                }
            }
        }
    }

    /** Whether a pushed frame in this mode can be popped by some sequence of tokens. */
    public boolean canPop(int mode) {
        return canPop[mode];
    }

    /** Whether the bottom frame in this mode can get back to the default mode. */
    public boolean canReturn(int mode) {
        return canReturn[mode];
    }

    /**
     * The modes the lexer can be in, as the bottom frame ({@code [0]}) or as a pushed one ({@code
     * [1]}), starting in the default mode, or inside {@code startPushed} (a thinking mode) when it
     * is not negative.
     */
    public BitSet[] reachable(int startPushed) {
        BitSet base = new BitSet();
        BitSet pushedModes = new BitSet();
        Deque<int[]> queue = new ArrayDeque<>();
        base.set(Lexer.DEFAULT_MODE);
        queue.add(new int[] {Lexer.DEFAULT_MODE, 0});
        if (startPushed > 0) {
            pushedModes.set(startPushed);
            queue.add(new int[] {startPushed, 1});
        }
        while (!queue.isEmpty()) {
            int[] s = queue.poll();
            for (int r : model.rulesOfMode(s[0])) {
                if (!canWin(r)) continue;
                for (List<Command> seq : commands(r)) {
                    List<Integer> after = run(seq, s[1] == 0 ? List.of(s[0]) : pushed(s[0]));
                    if (after == null) continue;
                    int first = s[1] == 0 ? 0 : 1;
                    for (int i = first; i < after.size(); i++) {
                        boolean asBase = s[1] == 0 && i == 0;
                        BitSet set = asBase ? base : pushedModes;
                        int m = after.get(i);
                        if (!set.get(m)) {
                            set.set(m);
                            queue.add(new int[] {m, asBase ? 0 : 1});
                        }
                    }
                }
            }
        }
        return new BitSet[] {base, pushedModes};
    }

    /**
     * Whether, after a rule's commands ran on a frame in {@code mode}, some sequence of tokens
     * reaches a token of role {@code goal}. Leaving the frames the search knows (popping the frame
     * the opener was in) counts as reaching it (unknown is not reported); so does a search cut
     * short.
     */
    public boolean reaches(int mode, List<Command> opener, Role goal) {
        List<Integer> start = run(opener, pushed(mode));
        if (start == null || start.size() == 1) return true;
        Set<List<Integer>> seen = new HashSet<>();
        Deque<List<Integer>> queue = new ArrayDeque<>();
        seen.add(start);
        queue.add(start);
        while (!queue.isEmpty()) {
            if (seen.size() > MAX_VISITED) return true;
            List<Integer> stack = queue.poll();
            int top = stack.get(stack.size() - 1);
            for (int r : model.rulesOfMode(top)) {
                if (!canWin(r)) continue;
                if (model.roleOfRule(r) == goal) return true;
                for (List<Command> seq : commands(r)) {
                    List<Integer> next = run(seq, stack);
                    if (next == null || next.size() == 1 || next.size() > MAX_STACK) return true;
                    if (seen.add(next)) queue.add(next);
                }
            }
        }
        return false;
    }

    // ---- markers that content runs over ---------------------------------------------------------

    /** Code points a token of this rule can begin with. */
    public IntervalSet firstChars(int rule) {
        return model.firstCharsOf(rule);
    }

    /** Code points a token of this rule can take after its first one. */
    public IntervalSet continueChars(int rule) {
        return continueChars.computeIfAbsent(rule, this::computeContinueChars);
    }

    private IntervalSet computeContinueChars(int rule) {
        IntervalSet out = new IntervalSet();
        Set<Long> seen = new HashSet<>();
        Deque<Object[]> work = new ArrayDeque<>();
        work.push(new Object[] {atn.ruleToStartState[rule], new ArrayDeque<ATNState>(), false});
        while (!work.isEmpty()) {
            Object[] w = work.pop();
            ATNState s = (ATNState) w[0];
            @SuppressWarnings("unchecked")
            Deque<ATNState> returns = (Deque<ATNState>) w[1];
            boolean consumed = (Boolean) w[2];
            long key =
                    ((long) s.stateNumber << 20)
                            | ((long) returns.size() << 1)
                            | (consumed ? 1 : 0);
            if (!seen.add(key) || seen.size() > MAX_VISITED) continue;
            if (s instanceof RuleStopState) {
                if (returns.isEmpty()) continue;
                Deque<ATNState> rest = new ArrayDeque<>(returns);
                ATNState follow = rest.pop();
                work.push(new Object[] {follow, rest, consumed});
                continue;
            }
            for (int i = 0; i < s.getNumberOfTransitions(); i++) {
                Transition t = s.transition(i);
                if (t instanceof RuleTransition) {
                    Deque<ATNState> more = new ArrayDeque<>(returns);
                    more.push(((RuleTransition) t).followState);
                    work.push(new Object[] {t.target, more, consumed});
                } else if (t.isEpsilon()) {
                    work.push(new Object[] {t.target, returns, consumed});
                } else {
                    if (consumed) out.addAll(chars(t));
                    work.push(new Object[] {t.target, returns, true});
                }
            }
        }
        return out;
    }

    /**
     * Whether a content rule runs over a marker of the same mode: text of the content rule, then
     * the marker's text (its shortest, and a few random ones), lexed as a whole, gives no token of
     * the marker, although the marker's text alone gives one. Only for content rules that stay in
     * their mode (the marker is then lexed where it would be).
     */
    public boolean swallows(int mode, int content, int marker) {
        if (commands(content).stream().anyMatch(c -> !c.isEmpty())) return false;
        if (firstChars(marker).and(continueChars(content)).isNil()) return false;
        TokenSampler sampler = sampler();
        String text = sampler.shortest(content);
        if (text == null) return false;
        Random random = new Random(marker);
        for (int i = 0; i < 4; i++) {
            String m = i == 0 ? sampler.shortest(marker) : sampler.random(marker, random, 6);
            if (m == null) continue;
            List<Token> alone = lex(mode, m);
            if (alone.size() != 1 || alone.get(0).getType() != model.typeOfRule(marker)) continue;
            if (lex(mode, text + m).stream()
                    .noneMatch(t -> t.getType() == model.typeOfRule(marker))) return true;
        }
        return false;
    }

    /** Texts of the lexer's rules. */
    public TokenSampler sampler() {
        if (sampler == null) sampler = new TokenSampler(atn);
        return sampler;
    }

    /**
     * The tokens of a text lexed from a mode (pushed on the default mode), as the batch lexer reads
     * them.
     */
    public List<Token> lex(int mode, String text) {
        Lexer lexer = model.factory.apply(CharStreams.fromString(text));
        lexer.removeErrorListeners();
        if (mode != Lexer.DEFAULT_MODE) lexer.pushMode(mode);
        List<Token> out = new ArrayList<>();
        for (Token t = lexer.nextToken();
                t.getType() != Token.EOF && out.size() < 10_000;
                t = lexer.nextToken()) out.add(t);
        return out;
    }

    public int modes() {
        return modes;
    }
}
