package dev.toolcalls.internal.lex;

import org.antlr.v4.runtime.CharStream;
import org.antlr.v4.runtime.IntStream;
import org.antlr.v4.runtime.Lexer;
import org.antlr.v4.runtime.atn.ATNConfig;
import org.antlr.v4.runtime.atn.ATNConfigSet;
import org.antlr.v4.runtime.atn.LexerATNSimulator;
import org.antlr.v4.runtime.atn.LexerAction;
import org.antlr.v4.runtime.atn.LexerActionExecutor;
import org.antlr.v4.runtime.atn.LexerPopModeAction;
import org.antlr.v4.runtime.atn.LexerPushModeAction;
import org.antlr.v4.runtime.atn.RuleStopState;
import org.antlr.v4.runtime.dfa.DFAState;

import java.util.EmptyStackException;
import java.util.List;

/**
 * ANTLR's lexer simulator, taught to stop at the end of the data received so far.
 *
 * <p>When matching runs into the end of the data, the configurations still alive in the last DFA
 * state say which token rules could consume more characters. None: the token is final. Only
 * streamable rules of the accepted token's role: the accepted prefix is emitted now (a cut) and
 * lexing resumes there. Otherwise the match answers {@link #HOLD} before anything is accepted, so
 * no mode command runs and the lexer's mode stack still describes the commit point.
 *
 * <p>Also caches DFA edges for code points above 127, which ANTLR itself recomputes every time.
 */
public final class HoldBackSimulator extends LexerATNSimulator {
    public static final int HOLD = Integer.MIN_VALUE;
    private static final int NO_WALK = Integer.MIN_VALUE + 1;

    /** The shortest token whose text {@link #walkKnown} remembers. */
    private static final int KNOWN_MIN = 4;

    /**
     * The fewest characters of data from a token's start for which {@link #walkKnown} looks for a
     * known token: in small chunks most tokens run into the end of the data, and the few characters
     * a walk takes in one chunk cost less than looking (4- and 16-character chunks look for none;
     * 64-character chunks in their first half).
     */
    private static final int KNOWN_AHEAD = 32;

    /** {@link #savedModes} before anything was saved (a match along built edges saves nothing). */
    private static final int[] NO_MODES = {};

    private final LexerModel model;
    private final TextStream stream;

    /** Whether {@link #walkKnown} uses the model's known tokens. */
    private final boolean known;

    private DFAState accepted;
    private int acceptedAt;
    private boolean truncated;

    /** The DFA state the match was in when the data ran out. */
    private DFAState lastState;

    // a held token, to resume where the data ran out instead of lexing it again from its start
    private DFAState resumeState;
    private DFAState resumeAccepted;
    private int resumeStart = -1;
    private int resumeIndex;
    private int resumeMode;
    private int resumeAcceptAt;

    /**
     * The lexer's mode stack before the match, saved where ANTLR's simulator runs the token's mode
     * commands (which may pop more than the stack holds, and fail after changing it): [0,
     * savedDepth) of savedModes, or savedDepth -1 when nothing was saved (a match along built DFA
     * edges checks its commands before running them, and fails with nothing changed).
     */
    private int[] savedModes = NO_MODES;

    private int savedDepth = -1;

    /**
     * @param known whether to walk over the model's known tokens at once and teach it new ones
     *     (false: every character walked, to compare)
     */
    public HoldBackSimulator(Lexer lexer, LexerModel model, TextStream stream, boolean known) {
        super(lexer, model.atn, model.dfas, model.contextCache);
        this.model = model;
        this.stream = stream;
        this.known = known;
    }

    @Override
    public void reset() {
        super.reset();
        accepted = null;
        acceptedAt = 0;
        truncated = false;
        lastState = null;
        resumeState = null;
        resumeAccepted = null;
        resumeStart = -1;
        resumeIndex = 0;
        resumeMode = 0;
        resumeAcceptAt = 0;
    }

    /**
     * Matches one token from the input's position. A token held back at the previous end of the
     * data (same start, same mode) is resumed from the DFA state and position where the data ran
     * out, with its last accept state kept: each character of a long held token (a name, a key, a
     * number) is examined once, not once per chunk, so streaming stays linear.
     */
    @Override
    public int match(CharStream input, int mode) {
        truncated = false;
        savedDepth = -1;
        int start = input.index();
        if (resumeState != null && start == resumeStart && mode == resumeMode) {
            DFAState from = resumeState;
            resumeState = null;
            int walked =
                    walk(start, mode, from, resumeAccepted, resumeAcceptAt, resumeIndex, false);
            if (walked != NO_WALK) return walked;
            this.mode = mode;
            this.startIndex = start;
            accepted = resumeAccepted;
            acceptedAt = resumeAcceptAt;
            input.seek(resumeIndex);
            saveModes();
            return execATN(input, from); // prevAccept still holds the held token's last accept
        }
        resumeState = null;
        accepted = null;
        DFAState s0 = decisionToDFA[mode].s0;
        if (s0 != null) {
            int walked = walkKnown(start, mode, s0);
            if (walked != NO_WALK) return walked;
        }
        saveModes();
        return super.match(input, mode);
    }

    /**
     * {@link #walk} from the mode's start state, over as much of a token's text the model knows
     * ({@link LexerModel#knownToken}) as agrees with the data at once: compared where it lies, and
     * the walk goes on from the state after it. A token walked here that no known text held whole
     * is remembered.
     */
    private int walkKnown(int start, int mode, DFAState s0) {
        TextStream in = stream;
        if (!known || in.end() - start < KNOWN_AHEAD)
            return walk(start, mode, s0, null, 0, start, false);
        int c0 = in.peek(start);
        int c1 = in.peek(start + 1);
        LexerModel.KnownToken best = null;
        int agree = 1; // a single character agreeing spares nothing
        for (int way = 0; way < 2; way++) {
            LexerModel.KnownToken k = model.knownToken(mode, c0, c1, way);
            if (k == null) continue;
            int m = in.agreeing(start, k.text);
            if (m > agree) {
                best = k;
                agree = m;
                if (m == k.text.length()) break;
            }
        }
        if (best == null) return walk(start, mode, s0, null, 0, start, true);
        return walkOn(best, start, mode, agree);
    }

    /**
     * Walks on from the state after the first {@code m} characters of {@code k}'s text, which lie
     * at {@code start}.
     */
    private int walkOn(LexerModel.KnownToken k, int start, int mode, int m) {
        int at = start + m;
        boolean whole = m == k.text.length();
        boolean dataEnd = at == stream.end();
        if ((whole || dataEnd) && k.misses != 0) k.misses = 0;
        int a = k.accepted(m);
        int walked =
                walk(
                        start,
                        mode,
                        k.state(m),
                        a == 0 ? null : k.state(a),
                        start + a,
                        at,
                        !whole && !dataEnd);
        if (walked == NO_WALK) return NO_WALK;
        stream.addWork(m);
        return walked;
    }

    /**
     * The common case without ANTLR's per-character bookkeeping: follows DFA edges already built,
     * reading the stream directly, until an edge says no rule goes on or the data ends (where it
     * holds back or cuts exactly as {@link #failOrAccept} does). An edge not built yet, or no
     * accept state on the way, answers {@link #NO_WALK} with nothing changed, and ANTLR's simulator
     * matches the token (building the edge).
     *
     * @param s where to walk from: the mode's start state, or a held token's state at {@code from}
     * @param acc the last accept state before {@code from} (a held token's), or null
     * @param remember whether to remember the token's text for {@link #walkKnown} (a walk from the
     *     mode's start state)
     */
    private int walk(
            int start, int mode, DFAState s, DFAState acc, int accAt, int from, boolean remember) {
        TextStream in = stream;
        int g = from;
        while (true) {
            int t = in.peek(g);
            if (t < 0) { // the end of the data received so far
                this.mode = mode;
                if (!in.isComplete()) {
                    accepted = acc;
                    if (mayGrowAt(s, acc)) {
                        // leave prevAccept as ANTLR's own match would have, for a resume through
                        // execATN
                        in.seek(acc != null ? accAt : start);
                        captureSimState(prevAccept, in, acc);
                        in.seek(start);
                        in.addWork(g - from);
                        return hold(s, acc, accAt, start, g, mode);
                    }
                } else {
                    truncated = anyAlive(s.configs);
                }
                // a token the end of the data cut or ended is no text to know: only one whose
                // end an edge decided is remembered
                remember = false;
                break;
            }
            DFAState target = model.edge(mode, s, t);
            if (target == null) return NO_WALK;
            if (target == ERROR) break;
            g += t > 0xFFFF ? 2 : 1;
            s = target;
            if (s.isAcceptState) {
                acc = s;
                accAt = g;
            }
        }
        if (acc == null) return NO_WALK;
        if (remember && accAt - start >= KNOWN_MIN)
            model.rememberToken(
                    mode,
                    decisionToDFA[mode].s0,
                    in,
                    start,
                    Math.min(accAt, start + LexerModel.KnownToken.MAX));
        this.mode = mode;
        this.startIndex = start;
        in.addWork(g - from);
        in.seek(accAt);
        LexerActionExecutor commands = acc.lexerActionExecutor;
        if (commands != null) {
            if (popsTooFar(commands)) throw new EmptyStackException();
            commands.execute(recog, in, start);
        }
        return acc.prediction;
    }

    /** Whether the commands would pop more modes than the lexer's stack holds. */
    private boolean popsTooFar(LexerActionExecutor commands) {
        int depth = recog._modeStack.size();
        LexerAction[] actions = commands.getLexerActions();
        if (actions.length <= depth) return false; // each pops at most one
        for (LexerAction a : actions) {
            if (a instanceof LexerPushModeAction) depth++;
            else if (a instanceof LexerPopModeAction && --depth < 0) return true;
        }
        return false;
    }

    private void saveModes() {
        int depth = recog._modeStack.size();
        if (savedModes.length < depth)
            savedModes = new int[Math.max(Math.max(depth, 8), 2 * savedModes.length)];
        for (int i = 0; i < depth; i++) savedModes[i] = recog._modeStack.get(i);
        savedDepth = depth;
    }

    /**
     * After a match failed on a pop of an empty mode stack: the stack as it was before the match
     * (unchanged where nothing was saved).
     */
    public void restoreModes() {
        if (savedDepth < 0) return;
        recog._modeStack.clear();
        for (int i = 0; i < savedDepth; i++) recog._modeStack.push(savedModes[i]);
    }

    /**
     * Remembers a token held back at the end of the data, to resume it from {@code state} at {@code
     * at}.
     */
    private int hold(DFAState state, DFAState acc, int accAt, int start, int at, int mode) {
        resumeState = state;
        resumeAccepted = acc;
        resumeAcceptAt = accAt;
        resumeStart = start;
        resumeIndex = at;
        resumeMode = mode;
        return HOLD;
    }

    /**
     * Whether a token held back at the end of the data waits at {@code start} in {@code mode}, to
     * be resumed.
     */
    public boolean holding(int start, int mode) {
        return resumeState != null && start == resumeStart && mode == resumeMode;
    }

    /**
     * Grows the token held back at {@code start} in {@code mode} over {@code chunk}, appended at
     * {@code from}, where the data ran out, when every character of the chunk leads the held DFA
     * state back to itself along edges already built: a match would walk there and hold back again,
     * in the same state with the same last accept state (the state itself, where it accepts, moved
     * to the new end), so only the new end is remembered. False, with nothing changed, otherwise.
     */
    public boolean growHeld(int start, int mode, String chunk, int from) {
        DFAState s = resumeState;
        if (s == null || start != resumeStart || mode != resumeMode || from != resumeIndex)
            return false;
        if (s.isAcceptState && resumeAccepted != s) return false;
        for (int i = 0, n = chunk.length(); i < n; i++) {
            char c = chunk.charAt(i);
            if (Character.isSurrogate(c) || model.edge(mode, s, c) != s) return false;
        }
        int end = from + chunk.length();
        if (s.isAcceptState) {
            // as the walk leaves it, for a resume through ANTLR's simulator
            resumeAcceptAt = end;
            stream.seek(end);
            captureSimState(prevAccept, stream, s);
            stream.seek(start);
        }
        resumeIndex = end;
        stream.addWork(chunk.length());
        return true;
    }

    /** Forgets a held token (the lexer was moved elsewhere). */
    public void forgetHeld() {
        resumeState = null;
    }

    @Override
    protected void captureSimState(SimState settings, CharStream input, DFAState dfaState) {
        accepted = dfaState;
        acceptedAt = input.index();
        super.captureSimState(settings, input, dfaState);
    }

    @Override
    protected int failOrAccept(SimState prevAccept, CharStream input, ATNConfigSet reach, int t) {
        if (t == IntStream.EOF && !stream.isComplete() && mayGrow(reach))
            return hold(lastState, accepted, acceptedAt, startIndex, input.index(), mode);
        if (t == IntStream.EOF && stream.isComplete()) truncated = anyAlive(reach);
        return super.failOrAccept(prevAccept, input, reach, t);
    }

    /**
     * Whether the last match ran into the real end of the output while its token could still have
     * grown.
     */
    public boolean truncated() {
        return truncated;
    }

    private static boolean anyAlive(ATNConfigSet reach) {
        if (reach == null) return false;
        List<ATNConfig> all = reach.configs;
        for (int i = 0, n = all.size(); i < n; i++)
            if (!(all.get(i).state instanceof RuleStopState)) return true;
        return false;
    }

    /**
     * {@link #mayGrow} of a DFA state's configurations, with {@code acc} the accepted state (the
     * mode set): remembered per pair of states by the model.
     */
    private boolean mayGrowAt(DFAState s, DFAState acc) {
        int known = model.mayGrow(mode, s, acc);
        if (known >= 0) return known == 1;
        boolean grows = mayGrow(s.configs);
        model.rememberGrowth(mode, s, acc, grows);
        return grows;
    }

    private boolean mayGrow(ATNConfigSet reach) {
        if (reach == null) return false;
        int acceptedRule = acceptedRule();
        List<ATNConfig> all = reach.configs;
        for (int i = 0, n = all.size(); i < n; i++) {
            ATNConfig c = all.get(i);
            if (c.state instanceof RuleStopState) continue;
            int alive = model.ruleForAlt(mode, c.alt);
            if (acceptedRule < 0 || !model.cuttable(acceptedRule, alive)) return true;
        }
        return false;
    }

    private int acceptedRule() {
        if (accepted == null || accepted.configs == null) return -1;
        List<ATNConfig> all = accepted.configs.configs;
        for (int i = 0, n = all.size(); i < n; i++) {
            ATNConfig c = all.get(i);
            if (c.state instanceof RuleStopState) return model.ruleForAlt(mode, c.alt);
        }
        return -1;
    }

    @Override
    protected DFAState getExistingTargetState(DFAState s, int t) {
        // no rule matches EOF (checked at load), so the end of the data never leads anywhere;
        // saying
        // so here spares the ATN walk ANTLR would otherwise do at the end of every chunk
        if (t == IntStream.EOF) {
            lastState = s;
            return ERROR;
        }
        if (t <= MAX_DFA_EDGE) return super.getExistingTargetState(s, t);
        return model.wideEdge(mode, s.stateNumber, t);
    }

    @Override
    protected void addDFAEdge(DFAState p, int t, DFAState q) {
        if (t <= MAX_DFA_EDGE) {
            super.addDFAEdge(p, t, q);
            return;
        }
        if (p == null || q == null) return;
        model.addWideEdge(mode, p.stateNumber, t, q);
    }
}
