package dev.toolcalls.internal.lex;

import org.antlr.v4.runtime.Lexer;
import org.antlr.v4.runtime.atn.ATN;
import org.antlr.v4.runtime.atn.ATNState;
import org.antlr.v4.runtime.atn.ActionTransition;
import org.antlr.v4.runtime.atn.LexerAction;
import org.antlr.v4.runtime.atn.LexerModeAction;
import org.antlr.v4.runtime.atn.LexerTypeAction;
import org.antlr.v4.runtime.atn.NotSetTransition;
import org.antlr.v4.runtime.atn.PrecedencePredicateTransition;
import org.antlr.v4.runtime.atn.PredicateTransition;
import org.antlr.v4.runtime.atn.RuleStopState;
import org.antlr.v4.runtime.atn.RuleTransition;
import org.antlr.v4.runtime.atn.Transition;
import org.antlr.v4.runtime.atn.WildcardTransition;
import org.antlr.v4.runtime.misc.IntervalSet;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Deque;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * What the grammar proves about the rest of a complete output that lacks a few characters: in a
 * mode whose token rules are either plain text rules (one text role, no commands, between them
 * taking every single character but those few as a token) or rules every token of which holds one
 * of a few characters (markers), the rest of the output, when it holds none of those characters, is
 * text of that role to the end, lexed in that same mode.
 *
 * <p>Proof: no marker rule can match anywhere in it (each needs a character that is absent), every
 * character it does hold is alone a token of some text rule (so the lexer never gets stuck, and
 * maximal munch always finds a text token), and text rules change no mode. So the whole rest is one
 * piece of text and is taken as such without lexing, found by at most four {@link String#indexOf}
 * searches. A search for a character above U+00FF in a string whose characters all lie in Latin-1
 * answers at once: a format whose markers all hold such a character (DeepSeek's full-width bars)
 * gives back the content of a Latin-1 output in constant time.
 *
 * <p>The text rules of a mode may also all carry one and the same {@code mode(X)} command, when X
 * has a proof of its own for the same role whose text rules change no mode: the first token of the
 * rest is then text (the markers of both modes need characters that are absent) and moves the lexer
 * to X, where the rest of it is text by X's proof. The rest is then text lexed in X, needing the
 * characters of both modes. A mode where text not yet followed by a marker may still turn out to be
 * a block's header, taken as text and moving on to a text mode when no marker follows, is such a
 * mode.
 *
 * <p>Derived per mode on first use; a mode where the proof does not go through (a rule with a
 * predicate, a marker without a needed character, more than four needed characters, characters no
 * text rule takes alone) has none.
 */
final class PlainModes {
    private static final int MAX_NEEDED = 4;
    private static final int MAX_DEPTH = 16;

    /** Per mode: the proof, once derived (NONE where there is none). */
    private final Proof[] proofs;

    private final LexerModel model;
    private final ATN atn;

    /**
     * One mode's proof: text of role {@link #type}'s when none of {@link #needed} is present, lexed
     * in {@link #mode} (-1: the mode it starts in).
     */
    static final class Proof {
        final int type;
        final char[] needed;
        final int mode;

        Proof(int type, char[] needed, int mode) {
            this.type = type;
            this.needed = needed;
            this.mode = mode;
        }
    }

    /** A rule's commands are other than {@code type(...)} and one {@code mode(...)}. */
    private static final int OTHER = -2;

    private static final Proof NONE = new Proof(0, new char[0], -1);

    PlainModes(LexerModel model, ATN atn) {
        this.model = model;
        this.atn = atn;
        this.proofs = new Proof[atn.modeToStartState.size()];
    }

    /** The proof for {@code mode}, or null when the grammar gives none. */
    Proof of(int mode) {
        Proof p = proofs[mode];
        // a race derives the same proof twice, or finds none while another thread derives it
        if (p == null) proofs[mode] = p = derive(mode);
        return p == NONE ? null : p;
    }

    private Proof derive(int mode) {
        proofs[mode] = NONE; // while it is derived: a proof that leads back here has none
        try {
            return deriveOrNone(mode);
        } catch (RuntimeException e) {
            return NONE; // something the analysis does not follow: no proof
        }
    }

    private Proof deriveOrNone(int mode) {
        int[] rules = model.rulesOfMode(mode);
        Role textRole = null;
        int textType = 0;
        int textMode = -1; // the text rules' mode(X) command (-1: none)
        IntervalSet singles = new IntervalSet();
        List<Integer> markers = new ArrayList<>();
        for (int r : rules) {
            if (hasPredicate(r)) return NONE;
            Role role = model.roleOfRule(r);
            int command = modeCommand(r);
            boolean text =
                    (role == Role.CONTENT || role == Role.REASONING)
                            && (textRole == null || textRole == role)
                            && command != OTHER
                            && (textRole == null || command == textMode);
            if (text) {
                textRole = role;
                textMode = command;
                if (textType == 0) textType = model.typeOfRule(r);
                singles.addAll(singleChars(r));
            } else {
                markers.add(r);
            }
        }
        if (textRole == null) return NONE;
        List<Character> needed = new ArrayList<>();
        for (int r : markers) {
            Character c = neededChar(r, needed);
            if (c == null) return NONE;
            if (!needed.contains(c)) needed.add(c);
        }
        // in a text without the needed characters, every other character must be a text token
        IntervalSet covered = new IntervalSet(singles);
        for (char c : needed) covered.add(c);
        if (!covered.complement(Lexer.MIN_CHAR_VALUE, Lexer.MAX_CHAR_VALUE).isNil()) return NONE;
        if (textMode >= 0 && textMode != mode) {
            // the first text token moves on to textMode: the rest is text there by its own proof
            Proof next = textMode < proofs.length ? of(textMode) : null;
            if (next == null || next.mode >= 0 || model.roleOfType(next.type) != textRole)
                return NONE;
            for (char c : next.needed) if (!needed.contains(c)) needed.add(c);
        }
        if (needed.size() > MAX_NEEDED) return NONE;
        char[] chars = new char[needed.size()];
        for (int i = 0; i < chars.length; i++) chars[i] = needed.get(i);
        return new Proof(textType, chars, textMode == mode ? -1 : textMode);
    }

    /**
     * A character every token of the rule holds: one already chosen when one is, else the rarest in
     * text that is: one above U+00FF (found at once in a Latin-1 string), else a symbol, else
     * punctuation, else a letter or digit; null when there is none.
     */
    private Character neededChar(int rule, List<Character> chosen) {
        for (char c : chosen) if (needs(rule, c)) return c;
        List<Character> candidates = new ArrayList<>();
        for (ATNState s : statesOf(rule)) {
            for (int i = 0; i < s.getNumberOfTransitions(); i++) {
                Transition t = s.transition(i);
                if (t.isEpsilon() || t instanceof WildcardTransition) continue;
                if (t instanceof NotSetTransition) continue;
                IntervalSet label = t.label();
                if (label == null || label.size() != 1) continue;
                int c = label.getMinElement();
                if (c > 0xFFFF || Character.isSurrogate((char) c)) continue;
                if (!candidates.contains((char) c)) candidates.add((char) c);
            }
        }
        // the rarest first, and among equals the lowest, so the choice does not depend on order
        // (sorted by hand: no lambda to bootstrap on a parse's first use)
        int[] keys = new int[candidates.size()];
        for (int i = 0; i < keys.length; i++) {
            char c = candidates.get(i);
            keys[i] = (4 - rank(c)) << 16 | c;
        }
        Arrays.sort(keys);
        for (int k : keys) if (needs(rule, (char) k)) return (char) k;
        return null;
    }

    /** How rare a character is in text, roughly: higher is rarer. */
    private static int rank(int c) {
        if (c > 0xFF) return 4;
        if (Character.isLetterOrDigit(c) || Character.isWhitespace(c)) return 1;
        if (".,;:!?'\"()-".indexOf(c) >= 0) return 2; // the punctuation of prose
        return 3;
    }

    /** The states of the rule and of the fragments it calls. */
    private List<ATNState> statesOf(int rule) {
        List<ATNState> out = new ArrayList<>();
        Deque<ATNState> todo = new ArrayDeque<>();
        Set<Integer> seen = new HashSet<>();
        todo.push(atn.ruleToStartState[rule]);
        while (!todo.isEmpty()) {
            ATNState s = todo.pop();
            if (!seen.add(s.stateNumber) || s instanceof RuleStopState) continue;
            out.add(s);
            for (int i = 0; i < s.getNumberOfTransitions(); i++) {
                Transition t = s.transition(i);
                if (t instanceof RuleTransition) todo.push(((RuleTransition) t).followState);
                todo.push(t.target);
            }
        }
        return out;
    }

    /** Whether every token of the rule holds {@code c}. */
    private boolean needs(int rule, char c) {
        return !passes(rule, c, new HashMap<>());
    }

    /**
     * Whether the rule (a token rule or a fragment) can match without reading {@code c}: its end
     * reached from its start over transitions that take another character, and through fragments
     * that can themselves (a fragment still being looked at, by recursion, is taken to pass, which
     * only ever loses a proof).
     */
    private boolean passes(int rule, char c, Map<Integer, Boolean> memo) {
        Boolean known = memo.get(rule);
        if (known != null) return known;
        memo.put(rule, true);
        ATNState stop = atn.ruleToStopState[rule];
        Deque<ATNState> todo = new ArrayDeque<>();
        Set<Integer> seen = new HashSet<>();
        todo.push(atn.ruleToStartState[rule]);
        boolean found = false;
        while (!todo.isEmpty() && !found) {
            ATNState s = todo.pop();
            if (!seen.add(s.stateNumber)) continue;
            if (s == stop) {
                found = true;
                break;
            }
            if (s instanceof RuleStopState) continue;
            for (int i = 0; i < s.getNumberOfTransitions(); i++) {
                Transition t = s.transition(i);
                if (t instanceof RuleTransition) {
                    if (passes(((RuleTransition) t).ruleIndex, c, memo))
                        todo.push(((RuleTransition) t).followState);
                } else if (t.isEpsilon()) {
                    todo.push(t.target);
                } else {
                    IntervalSet label = label(t);
                    if (!label.isNil() && !(label.size() == 1 && label.contains(c)))
                        todo.push(t.target);
                }
            }
        }
        memo.put(rule, found);
        return found;
    }

    /** The characters that are, alone, a token of the rule. */
    private IntervalSet singleChars(int rule) {
        IntervalSet out = new IntervalSet();
        singles(atn.ruleToStartState[rule], new ArrayDeque<>(), new HashSet<>(), out);
        return out;
    }

    private void singles(ATNState s, Deque<ATNState> returns, Set<String> seen, IntervalSet out) {
        if (returns.size() > MAX_DEPTH || !seen.add(key(s, returns))) return;
        if (s instanceof RuleStopState) {
            if (returns.isEmpty()) return;
            ATNState follow = returns.pop();
            singles(follow, returns, seen, out);
            returns.push(follow);
            return;
        }
        for (int i = 0; i < s.getNumberOfTransitions(); i++) {
            Transition t = s.transition(i);
            if (t instanceof RuleTransition) {
                returns.push(((RuleTransition) t).followState);
                singles(t.target, returns, seen, out);
                returns.pop();
            } else if (t.isEpsilon()) {
                singles(t.target, returns, seen, out);
            } else if (endsEmpty(t.target, new ArrayDeque<>(returns), new HashSet<>())) {
                out.addAll(label(t));
            }
        }
    }

    /** Whether the rule's end is reached from {@code s} without reading anything. */
    private boolean endsEmpty(ATNState s, Deque<ATNState> returns, Set<String> seen) {
        if (returns.size() > MAX_DEPTH || !seen.add(key(s, returns))) return false;
        if (s instanceof RuleStopState) {
            if (returns.isEmpty()) return true;
            ATNState follow = returns.pop();
            boolean r = endsEmpty(follow, returns, seen);
            returns.push(follow);
            return r;
        }
        for (int i = 0; i < s.getNumberOfTransitions(); i++) {
            Transition t = s.transition(i);
            if (t instanceof RuleTransition) {
                returns.push(((RuleTransition) t).followState);
                boolean r = endsEmpty(t.target, returns, seen);
                returns.pop();
                if (r) return true;
            } else if (t.isEpsilon() && endsEmpty(t.target, returns, seen)) {
                return true;
            }
        }
        return false;
    }

    /** A state with its return stack, as a set key (built by hand: nothing to bootstrap). */
    private static String key(ATNState s, Deque<ATNState> returns) {
        StringBuilder b = new StringBuilder().append(s.stateNumber);
        for (ATNState r : returns) b.append(',').append(r.stateNumber);
        return b.toString();
    }

    /**
     * The mode a rule's {@code mode(...)} command moves to; -1 when its only commands are {@code
     * type(...)}, {@link #OTHER} when it has any other (or more than one mode command).
     */
    private int modeCommand(int rule) {
        int to = -1;
        for (ATNState s : atn.states) {
            if (s == null || s.ruleIndex != rule) continue;
            for (int i = 0; i < s.getNumberOfTransitions(); i++) {
                Transition t = s.transition(i);
                if (!(t instanceof ActionTransition)) continue;
                int a = ((ActionTransition) t).actionIndex;
                if (a < 0 || atn.lexerActions == null) return OTHER;
                LexerAction action = atn.lexerActions[a];
                if (action instanceof LexerTypeAction) continue;
                if (!(action instanceof LexerModeAction) || to >= 0) return OTHER;
                to = ((LexerModeAction) action).getMode();
            }
        }
        return to;
    }

    /** A predicate in the rule or a fragment it may call. */
    private boolean hasPredicate(int rule) {
        for (ATNState s : statesOf(rule))
            for (int i = 0; i < s.getNumberOfTransitions(); i++) {
                Transition t = s.transition(i);
                if (t instanceof PredicateTransition || t instanceof PrecedencePredicateTransition)
                    return true;
            }
        return false;
    }

    private static IntervalSet label(Transition t) {
        if (t instanceof WildcardTransition)
            return IntervalSet.of(Lexer.MIN_CHAR_VALUE, Lexer.MAX_CHAR_VALUE);
        if (t instanceof NotSetTransition)
            return t.label().complement(Lexer.MIN_CHAR_VALUE, Lexer.MAX_CHAR_VALUE);
        return t.label();
    }
}
