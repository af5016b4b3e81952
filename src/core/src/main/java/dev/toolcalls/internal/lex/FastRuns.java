package dev.toolcalls.internal.lex;

import org.antlr.v4.runtime.Lexer;
import org.antlr.v4.runtime.atn.ATN;
import org.antlr.v4.runtime.atn.ATNState;
import org.antlr.v4.runtime.atn.ActionTransition;
import org.antlr.v4.runtime.atn.LexerAction;
import org.antlr.v4.runtime.atn.LexerModeAction;
import org.antlr.v4.runtime.atn.LexerPopModeAction;
import org.antlr.v4.runtime.atn.LexerPushModeAction;
import org.antlr.v4.runtime.atn.LexerTypeAction;
import org.antlr.v4.runtime.atn.NotSetTransition;
import org.antlr.v4.runtime.atn.RuleStopState;
import org.antlr.v4.runtime.atn.RuleTransition;
import org.antlr.v4.runtime.atn.Transition;
import org.antlr.v4.runtime.atn.WildcardTransition;
import org.antlr.v4.runtime.misc.Interval;
import org.antlr.v4.runtime.misc.IntervalSet;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * Runs a lexer mode can take without simulating the lexer, derived from the grammar's ATN for each
 * mode on its first use.
 *
 * <p>A token rule whose language is exactly {@code [set]+} (a plain loop, possibly through
 * fragments) and whose commands, if any, are mode commands is a <em>run rule</em>. When the
 * character at the commit point can begin that rule and no other rule of the mode, maximal munch
 * makes the token exactly the longest run of the set's characters from there: no other rule can
 * match at all, and the loop takes every character of the set. So the token is found by a search
 * for the first character outside the set (for a set that excludes at most four characters, one
 * vector {@link String#indexOf} per excluded character) and the simulator runs only at the
 * boundaries.
 *
 * <p>At the end of the data a streamable run is cut there, as the simulator would cut it; any other
 * run waits for more data (the driver holds it back, as the simulator would) and its search goes on
 * from where it stopped.
 *
 * <p>The same holds for a rule whose language is exactly {@code [head][set]*} (an identifier: a
 * letter, then letters and digits): where its first character begins no other rule, the token is
 * that character and the longest run of the set's characters after it.
 *
 * <p>A token rule whose language is exactly {@code [set]} (one character: a brace, a quote, a
 * comma) with at most mode commands is a <em>one-character rule</em>, kept beside the runs: where
 * the character at the commit point begins that rule and no other, the token is that character
 * alone, final even at the end of the data (nothing can extend it), so the simulator never runs for
 * it.
 */
public final class FastRuns {
    /** One run rule of a mode. */
    public static final class Run {
        public final int type;
        public final boolean streamable;

        /** The rule's language is one character of the set: the token is the start character. */
        public final boolean single;

        /**
         * The rule's first character is of a set of its own ({@code [head][set]*}): the run of the
         * set begins after it.
         */
        final boolean head;

        /** The run never holds {@code "} or {@code \}: inside a JSON string, it is plain text. */
        public final boolean quoteless;

        /** The rule's role is text (content or reasoning) and it is streamable. */
        final boolean text;

        /**
         * The rule's role is {@code inherit}: its token belongs to whatever the tokens before it
         * opened.
         */
        final boolean inherit;

        /** The rule's mode commands, in order, run after the token (none for a streamable rule). */
        final LexerAction[] commands;

        /** How many of them pop a mode. */
        private final int pops;

        /**
         * Characters outside the run when they are few (at most four BMP non-surrogates), else
         * null.
         */
        final char[] stops;

        final boolean[] ascii = new boolean[128];
        private final IntervalSet first;
        private final IntervalSet set;
        private final IntervalSet start;

        /**
         * For a one-character token that begins other rules too: the characters that may follow it
         * in those rules (the token is this character alone when the next one is none of them);
         * null when no other rule begins with it.
         */
        private final IntervalSet ahead;

        /** {@link #ahead}'s characters below 128. */
        private final boolean[] aheadAscii;

        Run(
                int type,
                boolean streamable,
                boolean text,
                boolean inherit,
                boolean single,
                IntervalSet first,
                IntervalSet set,
                IntervalSet start,
                List<LexerAction> commands,
                IntervalSet ahead) {
            // loops, not streams: a format's first load runs this in a cold JVM
            List<LexerAction> kept = new ArrayList<>(commands.size());
            int popping = 0;
            for (LexerAction a : commands) {
                if (!(a instanceof LexerTypeAction)) kept.add(a);
                if (a instanceof LexerPopModeAction) popping++;
            }
            this.commands = kept.toArray(new LexerAction[0]);
            this.pops = popping;
            this.type = type;
            this.streamable = streamable;
            this.text = text && streamable && !single;
            this.inherit = inherit;
            this.single = single;
            this.head = !single && !first.equals(set);
            this.first = first;
            this.set = set;
            this.start = start;
            this.ahead = ahead;
            this.aheadAscii = ahead == null ? null : new boolean[128];
            if (ahead != null)
                for (Interval iv : ahead.getIntervals())
                    for (int c = Math.max(iv.a, 0); c <= Math.min(iv.b, 127); c++)
                        aheadAscii[c] = true;
            for (Interval iv : set.getIntervals()) // by interval: cheaper than a test per character
            for (int c = Math.max(iv.a, 0); c <= Math.min(iv.b, 127); c++) ascii[c] = true;
            this.quoteless =
                    !set.contains('"')
                            && !set.contains('\\')
                            && !first.contains('"')
                            && !first.contains('\\');
            IntervalSet outside = set.complement(Lexer.MIN_CHAR_VALUE, Lexer.MAX_CHAR_VALUE);
            char[] s = null;
            if (outside != null && outside.size() <= 4) {
                s = new char[outside.size()];
                int k = 0;
                for (int c : outside.toList()) {
                    if (c > 0xFFFF || Character.isSurrogate((char) c)) {
                        s = null;
                        break;
                    }
                    s[k++] = (char) c;
                }
            }
            this.stops = s;
        }

        /**
         * Whether the token is decided only by the character after it: false when no other rule
         * begins with its character.
         */
        boolean looksAhead() {
            return ahead != null;
        }

        /**
         * Whether {@code next}, the code point after this one-character token, may continue another
         * rule that begins with the token's character (the simulator decides then).
         */
        boolean rivalGoesOn(int next) {
            return next < 128 ? aheadAscii[next] : ahead.contains(next);
        }

        /** Whether the run goes on over this code point. */
        boolean takes(int cp) {
            if (cp < 128) return ascii[cp];
            if (stops != null) {
                for (char s : stops) if (s == cp) return false;
                return true;
            }
            return set.contains(cp);
        }

        /**
         * Runs the rule's mode commands on the lexer; false (and nothing done) when one would pop
         * an empty mode stack.
         */
        public boolean command(Lexer lexer) {
            if (pops > lexer._modeStack.size()) return false;
            for (LexerAction a : commands) {
                if (a instanceof LexerModeAction) lexer.mode(((LexerModeAction) a).getMode());
                else if (a instanceof LexerPushModeAction)
                    lexer.pushMode(((LexerPushModeAction) a).getMode());
                else if (a instanceof LexerPopModeAction) lexer.popMode();
            }
            return true;
        }
    }

    /** One mode's runs and, by ASCII start character, the index of the run it begins (or -1). */
    private static final class Mode {
        final Run[] runs;
        final byte[] asciiStart;

        /** The runs that begin at a code point above 127 (most begin only at ASCII characters). */
        final Run[] wide;

        Mode(Run[] runs, byte[] asciiStart) {
            this.runs = runs;
            this.asciiStart = asciiStart;
            List<Run> w = new ArrayList<>();
            for (Run r : runs) if (r.start.getMaxElement() > 127) w.add(r);
            this.wide = w.toArray(new Run[0]);
        }
    }

    /**
     * The longest chunk {@link #wholeText} reads character by character (and so takes only without
     * surrogates); a longer one is searched for the run's stops and may hold surrogate pairs.
     */
    static final int SHORT = 16;

    /** The longest chunk {@link #textTokens} reads; a longer one goes to the lexer's loop. */
    static final int TEXT_TOKENS_MAX = 64;

    /** A mode without run rules. */
    private static final Mode NONE = new Mode(new Run[0], null);

    /** Per mode, derived on first use (a race derives the same mode twice). */
    private final Mode[] modes;

    /** Per mode, derived on first use: the steps of {@link #textTokens}. */
    private final Steps[] steps;

    private final LexerModel model;
    private final ATN atn;

    /**
     * The analysis of every mode written when the build packaged the format ({@link #storedForm}),
     * or null: each mode is then derived from the ATN on first use.
     */
    private final String stored;

    /**
     * @param stored the analysis the build wrote for this lexer and format file, or null; one
     *     written for other rules, types, roles or streamable tokens is ignored
     */
    FastRuns(LexerModel model, ATN atn, String stored) {
        this.model = model;
        this.atn = atn;
        this.modes = new Mode[atn.modeToStartState.size()];
        this.steps = new Steps[modes.length];
        this.stored = stored != null && new Reader(stored, 0).next() == key() ? stored : null;
    }

    /**
     * The analysis a lexer factory carries for its format, written when the build packaged it: a
     * format compiled into the library reads it back instead of deriving it at its first load.
     */
    public interface Stored {
        /** The form {@link FastRuns#storedForm} wrote, or null. */
        String storedRuns();
    }

    /** Whether the modes are read from the stored analysis rather than derived. */
    public boolean fromStore() {
        return stored != null;
    }

    /**
     * The analysis of every mode, derived from the ATN whatever is stored, in the compact form the
     * build stores: a hash of the rules, types, roles and streamable tokens it depends on ({@link
     * #key}), then per mode its runs.
     */
    public String storedForm() {
        Mode[] all = new Mode[modes.length];
        for (int m = 0; m < all.length; m++) all[m] = derive(m);
        return write(all);
    }

    /** The same form of the modes as this instance has them, read back or derived. */
    public String currentForm() {
        Mode[] all = new Mode[modes.length];
        for (int m = 0; m < all.length; m++) all[m] = mode(m);
        return write(all);
    }

    /**
     * What the analysis depends on besides the ATN's shape: each mode's token rules with their
     * types, roles and whether they are streamable, and the ATN's size.
     */
    private int key() {
        int h = atn.states.size();
        for (int m = 0; m < modes.length; m++) {
            h = 31 * h + m;
            for (int r : model.rulesOfMode(m)) {
                Role role = model.roleOfRule(r);
                h = 31 * h + r;
                h = 31 * h + model.typeOfRule(r);
                h = 31 * h + (role == null ? -1 : role.ordinal());
                h = 31 * h + (model.streamable(r) ? 1 : 0);
            }
        }
        return h & 0x3FFFFFFF; // what put writes in two characters
    }

    private String write(Mode[] all) {
        StringBuilder body = new StringBuilder();
        int[] at = new int[all.length];
        for (int m = 0; m < all.length; m++) {
            at[m] = body.length();
            Run[] runs = all[m].runs;
            put(body, runs.length);
            for (Run r : runs) {
                put(body, r.type);
                put(
                        body,
                        (r.streamable ? 1 : 0)
                                | (r.text ? 2 : 0)
                                | (r.inherit ? 4 : 0)
                                | (r.single ? 8 : 0)
                                | (r.ahead != null ? 16 : 0));
                put(body, r.first);
                put(body, r.set);
                put(body, r.start);
                put(body, r.commands.length);
                for (LexerAction a : r.commands) put(body, actionIndex(a));
                if (r.ahead != null) put(body, r.ahead);
            }
        }
        StringBuilder out = new StringBuilder();
        put(out, key());
        put(out, all.length);
        for (int a : at) put(out, a);
        return out.append(body).toString();
    }

    private int actionIndex(LexerAction a) {
        for (int i = 0; i < atn.lexerActions.length; i++) if (atn.lexerActions[i] == a) return i;
        for (int i = 0; i < atn.lexerActions.length; i++)
            if (atn.lexerActions[i].equals(a)) return i;
        throw new IllegalStateException("a command that is not the lexer's: " + a);
    }

    /** A number of at least -1 as one character (below 0x7FFF) or two. */
    private static void put(StringBuilder b, int v) {
        int w = v + 1;
        if (w < 0 || w >= 1 << 30) throw new IllegalArgumentException("out of range: " + v);
        if (w < 0x8000) b.append((char) w);
        else b.append((char) (0x8000 | w >>> 16)).append((char) (w & 0xFFFF));
    }

    private static void put(StringBuilder b, IntervalSet set) {
        List<Interval> ivs = set.getIntervals();
        put(b, ivs.size());
        for (Interval iv : ivs) {
            put(b, iv.a);
            put(b, iv.b);
        }
    }

    /** Reads what {@link #put} wrote. */
    private static final class Reader {
        private final String s;
        private int at;

        Reader(String s, int at) {
            this.s = s;
            this.at = at;
        }

        int next() {
            int w = s.charAt(at++);
            if (w >= 0x8000) w = (w & 0x7FFF) << 16 | s.charAt(at++);
            return w - 1;
        }

        IntervalSet set() {
            IntervalSet out = new IntervalSet();
            for (int n = next(); n > 0; n--) {
                int a = next();
                out.add(a, next());
            }
            return out;
        }
    }

    /** Mode {@code m} as the stored analysis has it. */
    private Mode read(int m) {
        Reader in = new Reader(stored, 0);
        in.next(); // the key
        int count = in.next();
        int start = 0;
        for (int i = 0; i <= m; i++) start = in.next();
        for (int i = m + 1; i < count; i++) in.next();
        in.at += start;
        Run[] runs = new Run[in.next()];
        if (runs.length == 0) return NONE;
        for (int k = 0; k < runs.length; k++) {
            int type = in.next();
            int flags = in.next();
            IntervalSet first = in.set();
            IntervalSet set = in.set();
            IntervalSet begins = in.set();
            List<LexerAction> commands = new ArrayList<>();
            for (int n = in.next(); n > 0; n--) commands.add(atn.lexerActions[in.next()]);
            runs[k] =
                    new Run(
                            type,
                            (flags & 1) != 0,
                            (flags & 2) != 0,
                            (flags & 4) != 0,
                            (flags & 8) != 0,
                            first,
                            set,
                            begins,
                            commands,
                            (flags & 16) != 0 ? in.set() : null);
        }
        return mode(runs);
    }

    private Mode derive(int m) {
        int[] rules = model.rulesOfMode(m);
        List<Run> found = new ArrayList<>();
        List<IntervalSet> firsts = new ArrayList<>();
        for (int r : rules) firsts.add(model.firstCharsOf(r));
        for (int i = 0; i < rules.length; i++) {
            int r = rules[i];
            if (found.size() == 127) continue;
            List<List<LexerAction>> commands = new ArrayList<>();
            boolean[] single = new boolean[1];
            IntervalSet first = new IntervalSet();
            IntervalSet set = loopSet(atn, r, commands, single, first);
            if (set == null
                    || commands.size() != 1
                    || !commands.get(0).isEmpty() && model.streamable(r)) continue;
            IntervalSet start = new IntervalSet(first);
            for (int j = 0; j < rules.length; j++)
                if (j != i) start = start.subtract(firsts.get(j));
            if (start.isNil()) continue;
            Role role = model.roleOfRule(r);
            found.add(
                    new Run(
                            model.typeOfRule(r),
                            model.streamable(r),
                            role == Role.CONTENT || role == Role.REASONING,
                            role == Role.INHERIT,
                            single[0],
                            first,
                            set,
                            start,
                            commands.get(0),
                            null));
        }
        oneCharacterTokens(rules, firsts, found);
        if (found.isEmpty()) return NONE;
        return mode(found.toArray(new Run[0]));
    }

    /**
     * Adds, for each ASCII character at which a rule's token can only be that character alone (the
     * rule takes nothing after it) and no run begins, a one-character token: final as it stands
     * where no other rule of the mode begins with the character; otherwise decided by the character
     * after it, which must be none of those the other rules can go on with (and no other rule may
     * be that character alone, which would make the rule order decide).
     */
    private void oneCharacterTokens(int[] rules, List<IntervalSet> firsts, List<Run> found) {
        IntervalSet taken = new IntervalSet();
        for (Run r : found) taken.addAll(r.start);
        for (int i = 0; i < rules.length; i++) {
            int r = rules[i];
            if (model.streamable(r)) continue;
            List<List<LexerAction>> commands = new ArrayList<>();
            IntervalSet one = alone(atn, r, commands);
            if (one == null || one.isNil() || commands.size() != 1) continue;
            for (Interval iv : one.getIntervals()) {
                for (int c = Math.max(iv.a, 0); c <= Math.min(iv.b, 127); c++) {
                    if (taken.contains(c) || found.size() == 127) continue;
                    IntervalSet ahead = new IntervalSet();
                    boolean rivals = false;
                    boolean clash = false;
                    for (int j = 0; j < rules.length && !clash; j++) {
                        if (j == i || !firsts.get(j).contains(c)) continue;
                        rivals = true;
                        clash = !after(atn, rules[j], c, ahead);
                    }
                    if (clash) continue;
                    IntervalSet at = IntervalSet.of(c);
                    found.add(
                            new Run(
                                    model.typeOfRule(r),
                                    false,
                                    false,
                                    model.roleOfRule(r) == Role.INHERIT,
                                    true,
                                    at,
                                    at,
                                    at,
                                    commands.get(0),
                                    rivals ? ahead : null));
                    taken.add(c);
                }
            }
        }
    }

    /**
     * The characters at which the rule's token is that character alone: after it the rule ends and
     * cannot go on. Null when the rule has something the analysis does not follow; {@code commands}
     * gets the command lists on the ways to the end after those characters.
     */
    static IntervalSet alone(ATN atn, int rule, List<List<LexerAction>> commands) {
        Set<Config> c0 = startConfigs(atn, rule, new ArrayList<>());
        if (c0 == null) return null;
        IntervalSet ends = new IntervalSet();
        IntervalSet goesOn = new IntervalSet();
        List<List<LexerAction>> endCommands = new ArrayList<>();
        for (Config c : c0) {
            ATNState s = atn.states.get(c.state);
            for (int k = 0; k < s.getNumberOfTransitions(); k++) {
                Transition t = s.transition(k);
                if (t.isEpsilon()) continue;
                Set<Config> to = new HashSet<>();
                boolean[] acc = new boolean[1];
                List<List<LexerAction>> cmds = new ArrayList<>();
                if (!closure(atn, t.target, c.stack, to, acc, new HashSet<>(), List.of(), cmds))
                    return null;
                if (acc[0] && to.isEmpty()) {
                    ends.addAll(label(t));
                    for (List<LexerAction> l : cmds)
                        if (!endCommands.contains(l)) endCommands.add(l);
                } else goesOn.addAll(label(t));
            }
        }
        commands.addAll(endCommands);
        return ends.subtract(goesOn);
    }

    /**
     * Adds to {@code ahead} the characters that may follow {@code c} in the rule's tokens; false
     * when the rule's token may be {@code c} alone, or the analysis does not follow the rule.
     */
    static boolean after(ATN atn, int rule, int c, IntervalSet ahead) {
        Set<Config> c0 = startConfigs(atn, rule, new ArrayList<>());
        if (c0 == null) return false;
        boolean[] end = new boolean[1];
        Set<Config> to = over(atn, c0, IntervalSet.of(c), end);
        if (to == null || end[0]) return false;
        ahead.addAll(chars(atn, to));
        return true;
    }

    private static Mode mode(Run[] runs) {
        byte[] table = new byte[128];
        Arrays.fill(table, (byte) -1);
        for (int k = 0; k < runs.length; k++)
            for (Interval iv : runs[k].start.getIntervals())
                for (int c = Math.max(iv.a, 0); c <= Math.min(iv.b, 127); c++) table[c] = (byte) k;
        return new Mode(runs, table);
    }

    /** The runs of a mode (derived on first use). */
    private Mode mode(int m) {
        Mode d = modes[m];
        if (d == null) modes[m] = d = stored != null ? read(m) : derive(m);
        return d;
    }

    /** The run that a token beginning with {@code cp} in {@code mode} is, or null. */
    public Run at(int mode, int cp) {
        Mode d = mode(mode);
        byte[] table = d.asciiStart;
        if (table == null || cp < 0) return null;
        if (cp < 128) {
            int k = table[cp];
            return k < 0 ? null : d.runs[k];
        }
        for (Run r : d.wide) if (r.start.contains(cp)) return r;
        return null;
    }

    /**
     * The streamable text run that {@code chunk} is whole when it begins a token in {@code mode}:
     * its first character begins the run and no other rule of the mode, and the run takes every
     * character after it, so maximal munch makes the token the whole chunk, cut at its end as the
     * simulator cuts a streamable token. Null when the chunk is not such a run (a character that
     * may begin or continue something else, or a surrogate: a pair may be cut by the chunk's end).
     */
    Run wholeText(int mode, String chunk) {
        return whole(mode, chunk, true);
    }

    /**
     * As {@link #wholeText}, for a streamable run of any role (a value's characters inside a call),
     * not a one-character rule's and not one whose first character other rules of the mode begin.
     */
    Run wholeRun(int mode, String chunk) {
        return whole(mode, chunk, false);
    }

    private Run whole(int mode, String chunk, boolean text) {
        char c = chunk.charAt(0);
        if (Character.isSurrogate(c)) return null;
        Run run = at(mode, c);
        if (run == null || (text ? !run.text : !run.streamable || run.single || run.looksAhead()))
            return null;
        int n = chunk.length();
        char[] stops = run.stops;
        if (stops != null && n > SHORT) { // a search per character outside the run
            if (Character.isHighSurrogate(chunk.charAt(n - 1))) return null; // waits for its pair
            for (char s : stops) if (chunk.indexOf(s, 1) >= 0) return null;
            return run;
        }
        boolean[] ascii = run.ascii;
        for (int i = 1; i < n; i++) {
            c = chunk.charAt(i);
            if (c < 128 ? !ascii[c] : Character.isSurrogate(c) || !run.takes(c)) return null;
        }
        return run;
    }

    /**
     * How a token of text that begins with a given character ends, for {@link #textTokens}: a
     * one-character token ({@link #set} null) or the longest run of {@link #set} after its first
     * character; then, where other rules begin with that character too, the character after the
     * token must be present and none of {@link #after} (those the other rules may go on with), or
     * at the end of the data the token must be a streamable run (cut there) or one character that
     * no other rule begins.
     *
     * <p>Beside the runs and one-character tokens of {@link #at}, a step may be a <em>guarded
     * run</em>: a text run rule ({@code [set]+}, no commands) whose start characters other rules of
     * the mode begin too (blanks where a marker may begin with blanks, {@code ' '+ 'to='}), kept
     * when none of those rules can match a run of the set alone and after such a run they can go on
     * only with the characters of {@code after} (read from their ATN): a run of the set followed by
     * a character outside both is then the run rule's token, final, every other rule dead there.
     */
    static final class Step {
        final int type;
        final Role role;

        /** The characters of the run after the first (below 128), or null: one character. */
        private final boolean[] set;

        private final IntervalSet wideSet;

        /** The characters the other rules may go on with after the token, or null: none. */
        private final boolean[] after;

        private final IntervalSet wideAfter;

        /**
         * By ASCII character of {@link #after}: the characters the other rules may go on with after
         * that one (below 128), or null where the analysis does not decide it there.
         */
        private final boolean[][] after2;

        private final IntervalSet[] wideAfter2;

        /** At the end of the data the token is cut (a streamable run) or final (one character). */
        private final boolean atEnd;

        /**
         * At the end of the data the token is held back from its start: it may grow and is not
         * streamable, or other rules that begin with its first character are still alive.
         */
        private final boolean holdsAtEnd;

        Step(
                int type,
                Role role,
                IntervalSet set,
                IntervalSet after,
                IntervalSet[] after2,
                boolean atEnd,
                boolean holdsAtEnd) {
            this.type = type;
            this.role = role;
            this.wideSet = set;
            this.set = set == null ? null : table(set);
            this.wideAfter = after;
            this.after = after == null ? null : table(after);
            this.wideAfter2 = after2;
            this.after2 = after2 == null ? null : new boolean[128][];
            if (after2 != null)
                for (int c = 0; c < 128; c++)
                    if (after2[c] != null) this.after2[c] = table(after2[c]);
            this.atEnd = atEnd;
            this.holdsAtEnd = holdsAtEnd;
        }

        private static boolean[] table(IntervalSet s) {
            boolean[] t = new boolean[128];
            for (Interval iv : s.getIntervals())
                for (int c = Math.max(iv.a, 0); c <= Math.min(iv.b, 127); c++) t[c] = true;
            return t;
        }
    }

    /** One mode's steps by ASCII start character (null where none), and those above 127. */
    private static final class Steps {
        final Step[] ascii;
        final Step[] wide;
        final IntervalSet[] wideStarts;

        Steps(Step[] ascii, Step[] wide, IntervalSet[] wideStarts) {
            this.ascii = ascii;
            this.wide = wide;
            this.wideStarts = wideStarts;
        }

        /** The step a token beginning with {@code c} takes; null for none, and for a surrogate. */
        Step at(char c) {
            if (c < 128) return ascii[c];
            if (Character.isSurrogate(c)) return null;
            for (int k = 0; k < wide.length; k++) if (wideStarts[k].contains(c)) return wide[k];
            return null;
        }
    }

    /**
     * How much of {@code chunk}, read from the start of a token in {@code mode}, is a sequence of
     * tokens of one text role (content or reasoning) without commands that the grammar decides
     * within the chunk, so that the lexer would take every one of them as it stands ({@link Step}:
     * runs found by search, one-character tokens, guarded runs), and what it does with the rest:
     * {@code taken << 16 | type}, the type of the last token taken. The last token a streamable run
     * is cut at the chunk's end, as the simulator cuts it; one that may still grow or be the start
     * of another rule's token (a run that is not streamable, a one-character token or a guarded run
     * that other rules begin too) is held back from its start, as the simulator holds it, and
     * {@code taken} stops there. -1 when nothing is taken, or the chunk is not such (a surrogate, a
     * chunk longer than {@link #TEXT_TOKENS_MAX}, a character the steps do not decide).
     */
    int textTokens(int mode, String chunk) {
        int n = chunk.length();
        if (n > TEXT_TOKENS_MAX) return -1;
        Steps steps = steps(mode);
        Role role = null;
        int type = -1;
        int i = 0;
        while (i < n) {
            Step s = steps.at(chunk.charAt(i));
            if (s == null || role != s.role && role != null) return -1;
            int j = i + 1;
            boolean[] set = s.set;
            if (set != null) {
                for (; j < n; j++) {
                    char a = chunk.charAt(j);
                    if (a < 128) {
                        if (!set[a]) break;
                    } else if (Character.isSurrogate(a)) return -1;
                    else if (!s.wideSet.contains(a)) break;
                }
            }
            if (j >= n) {
                if (s.atEnd) return n << 16 | s.type;
                // held back from its start: the text before it is taken
                return s.holdsAtEnd && type >= 0 ? i << 16 | type : -1;
            }
            boolean[] after = s.after;
            if (after != null) {
                char a = chunk.charAt(j);
                if (a >= 128) {
                    if (Character.isSurrogate(a) || s.wideAfter.contains(a)) return -1;
                } else if (after[a]) {
                    // another rule may go on with it: the character after that decides
                    boolean[] then = s.after2 == null ? null : s.after2[a];
                    if (then == null || j + 1 >= n) return -1;
                    char b = chunk.charAt(j + 1);
                    if (b < 128 ? then[b] : Character.isSurrogate(b) || s.wideAfter2[a].contains(b))
                        return -1;
                }
            }
            role = s.role;
            type = s.type;
            i = j;
        }
        return n << 16 | type;
    }

    private Steps steps(int mode) {
        Steps s = steps[mode];
        if (s == null) steps[mode] = s = deriveSteps(mode);
        return s;
    }

    /** The mode's steps: its runs and one-character tokens of text, and its guarded runs. */
    private Steps deriveSteps(int m) {
        Step[] ascii = new Step[128];
        List<Step> wide = new ArrayList<>();
        List<IntervalSet> wideStarts = new ArrayList<>();
        for (Run r : mode(m).runs) {
            Role role = model.roleOfType(r.type);
            if (role != Role.CONTENT && role != Role.REASONING || r.commands.length != 0) continue;
            // at the end of the data: a one-character token is final unless other rules that
            // begin with it may go on; a run is cut when streamable, else it may grow and waits
            boolean rivals = r.ahead != null && !r.ahead.isNil();
            boolean atEnd = r.single ? !rivals : r.streamable;
            IntervalSet[] after2 = rivals && r.start.size() == 1 ? rivalsSecond(m, r) : null;
            Step s =
                    new Step(r.type, role, r.single ? null : r.set, r.ahead, after2, atEnd, !atEnd);
            for (Interval iv : r.start.getIntervals())
                for (int c = Math.max(iv.a, 0); c <= Math.min(iv.b, 127); c++) ascii[c] = s;
            if (r.start.getMaxElement() > 127) {
                wide.add(s);
                wideStarts.add(r.start);
            }
        }
        guardedRuns(m, ascii);
        return new Steps(ascii, wide.toArray(new Step[0]), wideStarts.toArray(new IntervalSet[0]));
    }

    /**
     * For a one-character token that other rules begin too: by character those rules may go on with
     * after it, the characters they may go on with next ({@link #secondChars}); null where the
     * analysis does not follow them.
     */
    private IntervalSet[] rivalsSecond(int m, Run r) {
        try {
            // the other rules' configurations after the token's character (the token's own rule
            // ends there)
            int c = r.start.getMinElement();
            Set<Config> rivals = new HashSet<>();
            for (int rule : model.rulesOfMode(m)) {
                if (!model.firstCharsOf(rule).contains(c)) continue;
                Set<Config> c0 = startConfigs(atn, rule, new ArrayList<>());
                Set<Config> c1 =
                        c0 == null ? null : over(atn, c0, IntervalSet.of(c), new boolean[1]);
                if (c1 == null) return null;
                rivals.addAll(c1);
            }
            return secondChars(rivals, r.ahead);
        } catch (RuntimeException e) {
            return null;
        }
    }

    /** Adds the mode's guarded runs ({@link Step}) at ASCII characters no run or token begins. */
    private void guardedRuns(int m, Step[] ascii) {
        try {
            int[] rules = model.rulesOfMode(m);
            for (int i = 0; i < rules.length; i++) {
                int r = rules[i];
                Role role = model.roleOfRule(r);
                if (role != Role.CONTENT && role != Role.REASONING) continue;
                List<List<LexerAction>> commands = new ArrayList<>();
                boolean[] single = new boolean[1];
                IntervalSet first = new IntervalSet();
                IntervalSet set = loopSet(atn, r, commands, single, first);
                if (set == null || single[0] || !first.equals(set) || commands.size() != 1)
                    continue;
                boolean plain = true;
                for (LexerAction a : commands.get(0)) plain &= a instanceof LexerTypeAction;
                Set<Config> reached = new HashSet<>();
                for (int k = 0; k < rules.length && plain; k++) {
                    if (k == i || model.firstCharsOf(rules[k]).and(set).isNil()) continue;
                    Set<Config> after = rivalsAfter(atn, rules[k], set);
                    if (after == null) plain = false;
                    else reached.addAll(after);
                }
                if (!plain) continue;
                IntervalSet next = chars(atn, reached).subtract(set);
                // at the end of the data it may grow: held when not streamable; when streamable,
                // whether it is cut depends on whether the other rules are still alive there
                boolean streamable = model.streamable(r);
                Step g =
                        new Step(
                                model.typeOfRule(r),
                                role,
                                set,
                                next,
                                secondChars(reached, next),
                                false,
                                !streamable);
                for (Interval iv : set.getIntervals())
                    for (int c = Math.max(iv.a, 0); c <= Math.min(iv.b, 127); c++)
                        if (at(m, c) == null && ascii[c] == null) ascii[c] = g;
            }
        } catch (RuntimeException e) {
            // something the analysis does not follow: no guarded runs
        }
    }

    /**
     * The rule's configurations after reading one or more characters of {@code set} from its start;
     * null when it may end there (match a run of the set alone), or the analysis does not follow
     * the rule.
     */
    static Set<Config> rivalsAfter(ATN atn, int rule, IntervalSet set) {
        Set<Config> c0 = startConfigs(atn, rule, new ArrayList<>());
        if (c0 == null) return null;
        boolean[] end = new boolean[1];
        Set<Config> reached = new HashSet<>();
        Set<Config> work = c0;
        while (!work.isEmpty()) {
            Set<Config> to = over(atn, work, set, end);
            if (to == null || end[0] || reached.size() > 4096) return null;
            work = new HashSet<>();
            for (Config x : to) if (reached.add(x)) work.add(x);
        }
        return reached;
    }

    /**
     * The configurations reached from {@code from} over one character of {@code chars} ({@code
     * end[0]} set when a rule may end there); null when the analysis does not follow them.
     */
    private static Set<Config> over(ATN atn, Set<Config> from, IntervalSet chars, boolean[] end) {
        Set<Config> to = new HashSet<>();
        for (Config c : from) {
            ATNState s = atn.states.get(c.state);
            for (int k = 0; k < s.getNumberOfTransitions(); k++) {
                Transition t = s.transition(k);
                if (t.isEpsilon() || label(t).and(chars).isNil()) continue;
                if (!closure(
                        atn,
                        t.target,
                        c.stack,
                        to,
                        end,
                        new HashSet<>(),
                        List.of(),
                        new ArrayList<>())) return null;
            }
        }
        return to;
    }

    /** The characters the configurations may go on with. */
    private static IntervalSet chars(ATN atn, Set<Config> configs) {
        IntervalSet out = new IntervalSet();
        for (Config c : configs) {
            ATNState s = atn.states.get(c.state);
            for (int k = 0; k < s.getNumberOfTransitions(); k++) {
                Transition t = s.transition(k);
                if (!t.isEpsilon()) out.addAll(label(t));
            }
        }
        return out;
    }

    /**
     * By ASCII character of {@code next}: the characters the configurations may go on with after
     * it, or null where one of them may end with it (or the analysis does not follow them).
     */
    private IntervalSet[] secondChars(Set<Config> configs, IntervalSet next) {
        IntervalSet[] out = new IntervalSet[128];
        for (int c = 0; c < 128; c++) {
            if (!next.contains(c)) continue;
            boolean[] end = new boolean[1];
            Set<Config> to = over(atn, configs, IntervalSet.of(c), end);
            if (to != null && !end[0]) out[c] = chars(atn, to);
        }
        return out;
    }

    // ---- ATN analysis ------------------------------------------------------------------------

    // equals and hashCode written out: a record's generated ones are bootstrapped through method
    // handles on first use, which costs a fresh JVM tens of milliseconds at a format's first load

    private record Config(int state, List<Integer> stack) {
        @Override
        public boolean equals(Object o) {
            return o instanceof Config c && c.state == state && c.stack.equals(stack);
        }

        @Override
        public int hashCode() {
            return 31 * state + stack.hashCode();
        }
    }

    private record Visit(int state, List<Integer> stack, List<LexerAction> path) {
        @Override
        public boolean equals(Object o) {
            return o instanceof Visit v
                    && v.state == state
                    && v.stack.equals(stack)
                    && v.path.equals(path);
        }

        @Override
        public int hashCode() {
            return (31 * state + stack.hashCode()) * 31 + path.hashCode();
        }
    }

    /**
     * The configurations with character transitions at the rule's start; null when the rule may
     * match nothing or has something the analysis does not follow.
     */
    private static Set<Config> startConfigs(ATN atn, int rule, List<List<LexerAction>> commands) {
        Set<Config> c0 = new HashSet<>();
        boolean[] accept = new boolean[1];
        if (!closure(
                        atn,
                        atn.ruleToStartState[rule],
                        List.of(),
                        c0,
                        accept,
                        new HashSet<>(),
                        List.of(),
                        commands)
                || accept[0]) return null;
        return c0;
    }

    /**
     * The set S when the rule's language is exactly S+, or exactly H S* ({@code first} gets H; S
     * itself for S+), or exactly S ({@code single[0]} set: one character), else null; {@code
     * commands} gets the distinct command lists on the ways to the rule's end (one, for a rule the
     * fast path can take).
     */
    static IntervalSet loopSet(
            ATN atn,
            int rule,
            List<List<LexerAction>> commands,
            boolean[] single,
            IntervalSet first) {
        Set<Config> c0 = startConfigs(atn, rule, commands);
        if (c0 == null) return null;
        IntervalSet again = new IntervalSet();
        Set<Config> c1 = step(atn, c0, null, first, commands); // after one character
        if (c1 != null && c1.isEmpty()) { // the rule's end, and nothing more to read
            single[0] = true;
            return first.isNil() ? null : first;
        }
        if (c1 == null || step(atn, c1, c1, again, commands) == null)
            return null; // every further character leads back there
        return !first.isNil() && !again.isNil() ? again : null;
    }

    /**
     * Where every character transition out of {@code from} leads: one set of configurations that
     * reaches the rule's end, the same for all (and equal to {@code expected} when given), else
     * null. The transitions' characters are added to {@code chars}.
     */
    private static Set<Config> step(
            ATN atn,
            Set<Config> from,
            Set<Config> expected,
            IntervalSet chars,
            List<List<LexerAction>> commands) {
        Set<Config> common = expected;
        for (Config c : from) {
            ATNState s = atn.states.get(c.state);
            for (int i = 0; i < s.getNumberOfTransitions(); i++) {
                Transition t = s.transition(i);
                if (t.isEpsilon()) continue;
                chars.addAll(label(t));
                Set<Config> to = new HashSet<>();
                boolean[] acc = new boolean[1];
                if (!closure(atn, t.target, c.stack, to, acc, new HashSet<>(), List.of(), commands)
                        || !acc[0]) return null;
                if (common == null) common = to;
                else if (!common.equals(to)) return null;
            }
        }
        return common;
    }

    /**
     * Adds the configurations with character transitions reachable from {@code s} without
     * consuming; {@code accept[0]} is set when the rule's own end is reachable. False when the rule
     * has something the analysis does not follow (deep fragment nesting, a command other than
     * type).
     */
    private static boolean closure(
            ATN atn,
            ATNState s,
            List<Integer> stack,
            Set<Config> out,
            boolean[] accept,
            Set<Visit> seen,
            List<LexerAction> path,
            List<List<LexerAction>> commands) {
        Config key = new Config(s.stateNumber, stack);
        if (!seen.add(new Visit(s.stateNumber, stack, path))) return true;
        if (s instanceof RuleStopState) {
            if (stack.isEmpty()) {
                accept[0] = true;
                if (!commands.contains(path)) commands.add(path);
                return true;
            }
            List<Integer> rest = stack.subList(0, stack.size() - 1);
            return closure(
                    atn,
                    atn.states.get(stack.get(stack.size() - 1)),
                    List.copyOf(rest),
                    out,
                    accept,
                    seen,
                    path,
                    commands);
        }
        boolean consumes = false;
        for (int i = 0; i < s.getNumberOfTransitions(); i++) {
            Transition t = s.transition(i);
            if (t instanceof RuleTransition) {
                if (stack.size() >= 16) return false;
                List<Integer> deeper = new ArrayList<>(stack);
                deeper.add(((RuleTransition) t).followState.stateNumber);
                if (!closure(atn, t.target, List.copyOf(deeper), out, accept, seen, path, commands))
                    return false;
            } else if (t instanceof ActionTransition) {
                ActionTransition a = (ActionTransition) t;
                List<LexerAction> more = path;
                if (a.actionIndex >= 0 && atn.lexerActions != null) {
                    LexerAction action = atn.lexerActions[a.actionIndex];
                    if (!(action instanceof LexerTypeAction
                            || action instanceof LexerModeAction
                            || action instanceof LexerPushModeAction
                            || action instanceof LexerPopModeAction)) return false;
                    more = new ArrayList<>(path);
                    more.add(action);
                    more = List.copyOf(more);
                }
                if (!closure(atn, t.target, stack, out, accept, seen, more, commands)) return false;
            } else if (t.isEpsilon()) {
                if (!closure(atn, t.target, stack, out, accept, seen, path, commands)) return false;
            } else {
                consumes = true;
            }
        }
        if (consumes) out.add(key);
        return true;
    }

    private static IntervalSet label(Transition t) {
        if (t instanceof WildcardTransition)
            return IntervalSet.of(Lexer.MIN_CHAR_VALUE, Lexer.MAX_CHAR_VALUE);
        if (t instanceof NotSetTransition)
            return t.label().complement(Lexer.MIN_CHAR_VALUE, Lexer.MAX_CHAR_VALUE);
        return t.label();
    }
}
