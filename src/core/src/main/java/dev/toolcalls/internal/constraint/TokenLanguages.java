package dev.toolcalls.internal.constraint;

import org.antlr.v4.runtime.Lexer;
import org.antlr.v4.runtime.atn.ATN;
import org.antlr.v4.runtime.atn.ATNState;
import org.antlr.v4.runtime.atn.NotSetTransition;
import org.antlr.v4.runtime.atn.RuleStopState;
import org.antlr.v4.runtime.atn.RuleTransition;
import org.antlr.v4.runtime.atn.Transition;
import org.antlr.v4.runtime.atn.WildcardTransition;
import org.antlr.v4.runtime.misc.IntervalSet;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Deque;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.WeakHashMap;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The language of each token rule, read from the lexer's ATN: its literal spellings when it has a
 * few, the one set its characters come from when it is a run ({@code [set]+}), and a GBNF rule for
 * it in any case.
 */
final class TokenLanguages {
    private static final int MAX_LITERALS = 64;
    private static final int MAX_LITERAL_LENGTH = 200;
    private static final int MAX_SET_FOR_LITERALS = 4;

    /** The spellings of each rule, by lexer: a pure function of the lexer, found once. */
    private static final Map<ATN, Map<Integer, Object>> LITERALS =
            Collections.synchronizedMap(new WeakHashMap<>());

    private static final Object NONE = new Object();

    private final ATN atn;
    private final String[] ruleNames;
    private final Gbnf out;

    /** The spellings of each rule of this lexer, shared by every instance for it. */
    private final Map<Integer, Object> shared;

    /** The spellings this instance has looked up, by rule ({@link #NONE}: none). */
    private final Object[] known;

    TokenLanguages(ATN atn, String[] ruleNames, Gbnf out) {
        this.atn = atn;
        this.ruleNames = ruleNames;
        this.out = out;
        this.shared = LITERALS.computeIfAbsent(atn, k -> new ConcurrentHashMap<>());
        this.known = new Object[atn.ruleToStartState.length];
    }

    /** The label of a consuming transition as a set of code points. */
    static IntervalSet label(Transition t) {
        if (t instanceof WildcardTransition)
            return IntervalSet.of(Lexer.MIN_CHAR_VALUE, Lexer.MAX_CHAR_VALUE);
        if (t instanceof NotSetTransition)
            return t.label().complement(Lexer.MIN_CHAR_VALUE, Lexer.MAX_CHAR_VALUE);
        return t.label();
    }

    private static boolean consuming(Transition t) {
        return !t.isEpsilon() && !(t instanceof RuleTransition);
    }

    /** Every spelling of a rule with few of them, or null. */
    List<String> literals(int rule) {
        Object found = known[rule];
        if (found == null)
            found =
                    known[rule] =
                            shared.computeIfAbsent(
                                    rule,
                                    r -> {
                                        List<String> l = literalsNew(r);
                                        return l == null ? NONE : List.copyOf(l);
                                    });
        @SuppressWarnings("unchecked")
        List<String> lits = found == NONE ? null : (List<String>) found;
        return lits;
    }

    private List<String> literalsNew(int rule) {
        Set<String> found = new LinkedHashSet<>();
        if (!literals(
                atn.ruleToStartState[rule],
                new StringBuilder(),
                new ArrayDeque<>(),
                new HashSet<>(),
                found,
                0)) return null;
        return new ArrayList<>(found);
    }

    private boolean literals(
            ATNState s,
            StringBuilder prefix,
            Deque<ATNState> returns,
            Set<Long> onPath,
            Set<String> found,
            int depth) {
        if (depth > 4 * MAX_LITERAL_LENGTH || prefix.length() > MAX_LITERAL_LENGTH) return false;
        if (s instanceof RuleStopState) {
            if (returns.isEmpty()) {
                found.add(prefix.toString());
                return found.size() <= MAX_LITERALS;
            }
            ATNState follow = returns.pop();
            boolean ok = literals(follow, prefix, returns, onPath, found, depth + 1);
            returns.push(follow);
            return ok;
        }
        long key = ((long) s.stateNumber << 20) | (prefix.length() << 8) | returns.size();
        if (!onPath.add(key)) return false; // an epsilon cycle or a loop: not a finite set
        try {
            for (int i = 0; i < s.getNumberOfTransitions(); i++) {
                Transition t = s.transition(i);
                if (t instanceof RuleTransition rt) {
                    returns.push(rt.followState);
                    boolean ok = literals(t.target, prefix, returns, onPath, found, depth + 1);
                    returns.pop();
                    if (!ok) return false;
                } else if (t.isEpsilon()) {
                    if (!literals(t.target, prefix, returns, onPath, found, depth + 1))
                        return false;
                } else {
                    IntervalSet l = label(t);
                    if (l.size() > MAX_SET_FOR_LITERALS) return false;
                    for (int c : l.toList()) {
                        int len = prefix.length();
                        prefix.appendCodePoint(c);
                        boolean ok = literals(t.target, prefix, returns, onPath, found, depth + 1);
                        prefix.setLength(len);
                        if (!ok) return false;
                    }
                }
            }
            return true;
        } finally {
            onPath.remove(key);
        }
    }

    /**
     * The set every character of the rule's tokens comes from, when all its transitions read the
     * same set (a run such as {@code ~'<'+}, or one character); otherwise null.
     */
    IntervalSet runSet(int rule) {
        IntervalSet[] only = {null};
        boolean[] same = {true};
        walk(atn.ruleToStartState[rule], new HashSet<>(), only, same);
        return same[0] ? only[0] : null;
    }

    private void walk(ATNState s, Set<Integer> seen, IntervalSet[] only, boolean[] same) {
        if (!seen.add(s.stateNumber)) return;
        for (int i = 0; i < s.getNumberOfTransitions(); i++) {
            Transition t = s.transition(i);
            if (t instanceof RuleTransition rt) {
                walk(t.target, seen, only, same);
                walk(rt.followState, seen, only, same);
            } else if (consuming(t)) {
                IntervalSet l = label(t);
                if (only[0] == null) only[0] = l;
                else if (!only[0].equals(l)) same[0] = false;
                walk(t.target, seen, only, same);
            } else walk(t.target, seen, only, same);
        }
    }

    /** The set a rule's tokens come from where each is one character of it, or null. */
    IntervalSet oneChar(int rule) {
        IntervalSet set = new IntervalSet();
        List<ATNState> next = new ArrayList<>();
        if (!firstChar(atn.ruleToStartState[rule], new HashSet<>(), set, next)) return null;
        for (ATNState s : next) if (!onlyEnd(s, new HashSet<>())) return null;
        return set.isNil() ? null : set;
    }

    private static boolean firstChar(
            ATNState s, Set<Integer> seen, IntervalSet set, List<ATNState> next) {
        if (!seen.add(s.stateNumber)) return true;
        if (s instanceof RuleStopState) return false;
        for (int i = 0; i < s.getNumberOfTransitions(); i++) {
            Transition t = s.transition(i);
            if (t instanceof RuleTransition) return false;
            if (t.isEpsilon()) {
                if (!firstChar(t.target, seen, set, next)) return false;
            } else {
                set.addAll(label(t));
                next.add(t.target);
            }
        }
        return true;
    }

    private static boolean onlyEnd(ATNState s, Set<Integer> seen) {
        if (!seen.add(s.stateNumber) || s instanceof RuleStopState) return true;
        for (int i = 0; i < s.getNumberOfTransitions(); i++) {
            Transition t = s.transition(i);
            if (!t.isEpsilon() || t instanceof RuleTransition || !onlyEnd(t.target, seen))
                return false;
        }
        return true;
    }

    /** A GBNF expression for the rule's tokens. */
    String expr(int rule) {
        List<String> lits = literals(rule);
        if (lits != null && !lits.isEmpty() && lits.size() <= 8) {
            if (lits.size() == 1) return Gbnf.literal(lits.get(0));
            List<String> parts = new ArrayList<>();
            for (String l : lits) parts.add(Gbnf.literal(l));
            return "(" + String.join(" | ", parts) + ")";
        }
        IntervalSet run = runSet(rule);
        if (run != null) return Gbnf.charClass(run) + "+";
        return stateRule(rule, atn.ruleToStartState[rule]);
    }

    /** A rule for "from this state of the rule to its end". */
    private String stateRule(int rule, ATNState s) {
        String name = "t_" + sanitize(ruleNames[rule]) + "_" + s.stateNumber;
        if (out.has(name)) return name;
        out.define(name, "\"\""); // placeholder, so that loops refer to it
        List<String> alts = new ArrayList<>();
        boolean accept = closure(rule, s, new HashSet<>(), alts);
        Set<String> unique = new LinkedHashSet<>(alts);
        if (accept) unique.add("\"\"");
        out.redefine(name, String.join(" | ", unique));
        return name;
    }

    private boolean closure(int rule, ATNState s, Set<Integer> seen, List<String> alts) {
        if (!seen.add(s.stateNumber)) return false;
        if (s instanceof RuleStopState) return true;
        boolean accept = false;
        for (int i = 0; i < s.getNumberOfTransitions(); i++) {
            Transition t = s.transition(i);
            if (t instanceof RuleTransition rt) {
                String frag = stateRule(t.target.ruleIndex, t.target);
                String next = stateRule(rule, rt.followState);
                alts.add(frag + " " + next);
            } else if (t.isEpsilon()) {
                accept |= closure(rule, t.target, seen, alts);
            } else {
                String next = stateRule(rule, t.target);
                alts.add(Gbnf.charClass(label(t)) + " " + next);
            }
        }
        return accept;
    }

    static String sanitize(String s) {
        StringBuilder b = null;
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            boolean ok =
                    (c >= 'A' && c <= 'Z')
                            || (c >= 'a' && c <= 'z')
                            || (c >= '0' && c <= '9')
                            || c == '_';
            if (!ok && b == null) b = new StringBuilder(s.substring(0, i));
            if (b != null) b.append(ok ? c : '_');
        }
        return b == null ? s : b.toString();
    }
}
