package dev.toolcalls.tools;

import org.antlr.v4.runtime.atn.ATN;
import org.antlr.v4.runtime.atn.ATNState;
import org.antlr.v4.runtime.atn.RuleStopState;
import org.antlr.v4.runtime.atn.RuleTransition;
import org.antlr.v4.runtime.atn.Transition;
import org.antlr.v4.runtime.misc.Interval;
import org.antlr.v4.runtime.misc.IntervalSet;

import java.util.ArrayDeque;
import java.util.Arrays;
import java.util.Deque;
import java.util.Random;

/**
 * Writes texts that a token rule matches, by walking the rule's ATN: the shortest one (with
 * readable characters), or random ones that take loops and alternatives at random and then head for
 * the end by the shortest way, so every walk ends.
 */
public final class TokenSampler {
    private static final int INF = Integer.MAX_VALUE / 4;

    /**
     * Characters a sample prefers, where the rule allows them: readable text and the usual
     * troublemakers.
     */
    private static final int[] PALETTE =
            "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789 _-.,:;!?'\"\\/{}[]()<>|=+*&%$#@\n\t\u00e9\u4e2d\ud83d\ude00"
                    .codePoints()
                    .toArray();

    private static final int[] NAME_CHARS =
            "abcdefghijklmnopqrstuvwxyz_0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ"
                    .codePoints()
                    .toArray();

    private final ATN atn;
    private final int[] minLen;
    private final int[] minRule;

    public TokenSampler(ATN atn) {
        this.atn = atn;
        minLen = new int[atn.states.size()];
        minRule = new int[atn.ruleToStartState.length];
        Arrays.fill(minLen, INF);
        Arrays.fill(minRule, INF);
        for (boolean changed = true; changed; ) {
            changed = false;
            for (ATNState s : atn.states) {
                if (s == null) continue;
                int best = s instanceof RuleStopState ? 0 : INF;
                for (int i = 0; i < s.getNumberOfTransitions(); i++)
                    best = Math.min(best, cost(s.transition(i)));
                if (best < minLen[s.stateNumber]) {
                    minLen[s.stateNumber] = best;
                    changed = true;
                }
            }
            for (int r = 0; r < minRule.length; r++) {
                int m = minLen[atn.ruleToStartState[r].stateNumber];
                if (m < minRule[r]) {
                    minRule[r] = m;
                    changed = true;
                }
            }
        }
    }

    private int cost(Transition t) {
        if (t instanceof RuleTransition) {
            int r = minRule[((RuleTransition) t).target.ruleIndex];
            int f = minLen[((RuleTransition) t).followState.stateNumber];
            return r >= INF || f >= INF ? INF : r + f;
        }
        int next = minLen[t.target.stateNumber];
        if (next >= INF) return INF;
        return t.isEpsilon() ? next : next + 1;
    }

    /**
     * The shortest text of the rule, in readable characters where it allows; null if it matches
     * nothing.
     */
    public String shortest(int rule) {
        return walk(rule, null, 0, false);
    }

    /**
     * A random text of the rule, about {@code soft} code points at most before it heads for the
     * end; null if none.
     */
    public String random(int rule, Random random, int soft) {
        return walk(rule, random, soft, false);
    }

    /**
     * A random text of the rule that reads like a name: at each choice the way that allows the most
     * characters (plain characters rather than an escape), and letters, digits and '_'.
     */
    public String tame(int rule, Random random, int soft) {
        return walk(rule, random, soft, true);
    }

    private String walk(int rule, Random random, int soft, boolean tame) {
        if (minRule[rule] >= INF) return null;
        StringBuilder out = new StringBuilder();
        Deque<ATNState> returns = new ArrayDeque<>();
        ATNState s = atn.ruleToStartState[rule];
        int length = 0;
        for (int steps = 0; steps < 20_000; steps++) {
            if (s instanceof RuleStopState) {
                if (returns.isEmpty()) return out.toString();
                s = returns.pop();
                continue;
            }
            Transition pick = null;
            int n = s.getNumberOfTransitions();
            if (random != null && length < soft && (tame || random.nextInt(4) != 0)) {
                // any transition that can still end; tame: the widest
                int start = random.nextInt(n);
                long widest = -1;
                for (int i = 0; i < n; i++) {
                    Transition t = s.transition((start + i) % n);
                    if (cost(t) >= INF) continue;
                    if (!tame) {
                        pick = t;
                        break;
                    }
                    long w = width(t, 0);
                    if (w > widest) {
                        widest = w;
                        pick = t;
                    }
                }
            }
            if (pick == null) {
                int best = INF;
                for (int i = 0; i < n; i++) {
                    int c = cost(s.transition(i));
                    if (c < best) {
                        best = c;
                        pick = s.transition(i);
                    }
                }
            }
            if (pick == null) return null;
            if (pick instanceof RuleTransition) {
                returns.push(((RuleTransition) pick).followState);
                s = pick.target;
            } else {
                IntervalSet chars = LexerAnalysis.chars(pick);
                if (chars != null) {
                    int c = tame ? chooseTame(chars, random) : choose(chars, random);
                    if (c < 0) return null;
                    out.appendCodePoint(c);
                    length++;
                }
                s = pick.target;
            }
        }
        return null;
    }

    /**
     * How many characters the first character transitions reachable from here allow (a few epsilon
     * steps deep).
     */
    private long width(Transition t, int depth) {
        IntervalSet chars = LexerAnalysis.chars(t);
        if (chars != null) return chars.size();
        if (depth > 6) return 0;
        ATNState next = t instanceof RuleTransition ? t.target : t.target;
        if (next instanceof RuleStopState) return 0;
        long w = 0;
        for (int i = 0; i < next.getNumberOfTransitions(); i++)
            w = Math.max(w, width(next.transition(i), depth + 1));
        return w;
    }

    private static int chooseTame(IntervalSet set, Random random) {
        int start = random.nextInt(26);
        for (int i = 0; i < NAME_CHARS.length; i++) {
            int c = NAME_CHARS[(start + i) % NAME_CHARS.length];
            if (set.contains(c)) return c;
        }
        return choose(set, null);
    }

    /**
     * A character of the set: from the palette when it has one there (at random, or the first),
     * else any but a surrogate.
     */
    static int choose(IntervalSet set, Random random) {
        if (random == null || random.nextInt(5) != 0) {
            int start = random == null ? 0 : random.nextInt(PALETTE.length);
            for (int i = 0; i < PALETTE.length; i++) {
                int c = PALETTE[(start + i) % PALETTE.length];
                if (set.contains(c)) return c;
            }
        }
        int size = 0;
        for (Interval iv : set.getIntervals()) size += iv.length();
        if (size <= 0) return -1;
        for (int tries = 0; tries < 16; tries++) {
            // half the time in the first 64K of the set: the rest of Unicode is mostly rare planes
            int k =
                    random == null
                            ? 0
                            : random.nextInt(random.nextBoolean() ? Math.min(size, 0xFFFF) : size);
            for (Interval iv : set.getIntervals()) {
                if (k < iv.length()) {
                    int c = iv.a + k;
                    if (c < 0xD800 || c > 0xDFFF) return c;
                    break;
                }
                k -= iv.length();
            }
            if (random == null) break;
        }
        for (Interval iv : set.getIntervals())
            for (int c = iv.a; c <= iv.b && c <= iv.a + 0x900; c++)
                if (c < 0xD800 || c > 0xDFFF) return c;
        return -1;
    }
}
