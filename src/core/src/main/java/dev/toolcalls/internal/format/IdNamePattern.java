package dev.toolcalls.internal.format;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.regex.PatternSyntaxException;

/**
 * A format's {@code nameFromId} pattern: the function name inside an id the model wrote is the
 * pattern's first group, where the whole id matches.
 *
 * <p>A pattern written in a small part of the regular expression syntax is matched by an automaton
 * of its own, so that a fresh JVM's first call needs no {@code java.util.regex} (whose character
 * classes link lambdas and spin classes at run time: milliseconds of a cold start). That part:
 * literal characters, the escapes {@code \d \w \s \D \W \S \n \t \r \f} and escaped punctuation,
 * classes {@code [...]} of those (ranges, {@code ^} negation), {@code .}, groups {@code (...)} and
 * {@code (?:...)}, alternation, and the greedy {@code ? * +} applied to what cannot match the empty
 * string. The automaton follows the alternatives in the order a backtracking matcher tries them, so
 * the first group holds what {@code java.util.regex} gives it. Its states (the threads such a
 * matcher would still try, in its order) are made as ids reach them and kept, each with its steps
 * on the ASCII characters: an id costs a look-up per character, and the group's bounds are found by
 * going back over the steps from the thread that matches. Any other pattern (anchors, lookaround,
 * back references, counted, lazy or possessive repetition…) is matched by {@code java.util.regex}.
 */
public final class IdNamePattern {
    /** An instruction: read one character of a class, fork, jump, mark the group, or match. */
    private static final int CLASS = 0;

    private static final int SPLIT = 1;
    private static final int JUMP = 2;
    private static final int SAVE = 3;
    private static final int MATCH = 4;

    /**
     * The longest pattern read by the automaton (reading it and following its forks recurse about
     * as deep as it is long); a longer one is matched by {@code java.util.regex}.
     */
    private static final int MAX_SOURCE = 512;

    /** The longest path over an id a finder keeps for the next id. */
    private static final int KEPT_PATH = 1024;

    /** The most states kept; past them, steps are made again each time they are taken. */
    private static final int MAX_STATES = 256;

    private final String source;

    /** The program, or null where the pattern is matched by {@link #regex}. */
    private final int[] op;

    private final int[] x;
    private final int[] y;

    /** Per {@link #CLASS} instruction: its ranges, lower and upper bound by turns, sorted. */
    private final int[][] ranges;

    private final Pattern regex;

    /** The states made, by their threads (guarded by this pattern's lock). */
    private final Map<List<Integer>, State> states = new HashMap<>();

    /** The step into the first state (made when first asked). */
    private volatile Step start;

    private IdNamePattern(String source, Program p, Pattern regex) {
        this.source = source;
        this.regex = regex;
        if (p == null) {
            op = x = y = null;
            ranges = null;
        } else {
            int n = p.op.size();
            op = new int[n];
            x = new int[n];
            y = new int[n];
            ranges = new int[n][];
            for (int i = 0; i < n; i++) {
                op[i] = p.op.get(i);
                x[i] = p.x.get(i);
                y[i] = p.y.get(i);
                ranges[i] = p.ranges.get(i);
            }
        }
    }

    /**
     * The pattern of {@code source}.
     *
     * @throws PatternSyntaxException where it is not a regular expression
     */
    public static IdNamePattern compile(String source) {
        Program p = source.length() > MAX_SOURCE ? null : new Parser(source).program();
        return new IdNamePattern(source, p, p == null ? Pattern.compile(source) : null);
    }

    /** The pattern as written. */
    public String pattern() {
        return source;
    }

    /** Whether the pattern is matched by its own automaton (not by {@code java.util.regex}). */
    boolean automaton() {
        return op != null;
    }

    /** A finder of names, for one thread: it keeps what it needs from id to id. */
    public Finder finder() {
        return new Finder();
    }

    /** Finds the names in ids, keeping its work space (or its matcher) from one to the next. */
    public final class Finder {
        private Matcher matcher;

        /** The steps taken over the id, and the index in it after each (none for a matcher). */
        private Step[] path;

        private int[] after;

        private Finder() {
            if (op != null) newPath();
        }

        private void newPath() {
            path = new Step[32];
            after = new int[32];
        }

        /** The first group of the pattern where it matches the whole {@code id}; else null. */
        public String nameIn(String id) {
            if (op == null) {
                Matcher m = matcher == null ? matcher = regex.matcher(id) : matcher.reset(id);
                String found = m.matches() && m.groupCount() >= 1 ? m.group(1) : null;
                m.reset(""); // nothing of the id kept
                return found;
            }
            Step t = start();
            State s = t.next;
            path[0] = t;
            after[0] = 0;
            int k = 1;
            for (int i = 0; i < id.length(); ) {
                if (s.pcs.length == 0) return null;
                int c = id.codePointAt(i);
                i += Character.charCount(c);
                t = c < State.CACHED ? s.steps[c] : null;
                if (t == null) t = step(s, c);
                if (k == path.length) {
                    path = Arrays.copyOf(path, 2 * k);
                    after = Arrays.copyOf(after, 2 * k);
                }
                path[k] = t;
                after[k++] = i;
                s = t.next;
            }
            // the group's bounds: back from the thread that matches, the last step on its way
            // that began the group and the last that ended it
            int j = s.match;
            int begin = -1;
            int end = -1;
            for (int m = k - 1; m >= 0 && j >= 0 && (begin < 0 || end < 0); m--) {
                Step p = path[m];
                if (end < 0 && (p.set[j] & 2) != 0) end = after[m];
                if (begin < 0 && (p.set[j] & 1) != 0) begin = after[m];
                j = p.from[j];
            }
            if (k > KEPT_PATH) newPath(); // a long id's path is not held on to
            return begin < 0 || end < 0 ? null : id.substring(begin, end);
        }
    }

    /**
     * A state of the automaton run over ids: the threads alive, each a {@link #CLASS} or {@link
     * #MATCH} instruction, in the order a backtracking matcher would try them; made once and kept
     * (up to {@link #MAX_STATES}), with the steps from it on each ASCII character as they are met.
     */
    private static final class State {
        static final int CACHED = 128;

        final int[] pcs;

        /** The first thread that matches (-1: none). */
        final int match;

        /** Whether it is kept in {@link #states} (its steps are kept then). */
        final boolean kept;

        /** The steps on each ASCII character, made when first met (written under the lock). */
        final Step[] steps = new Step[CACHED];

        State(int[] pcs, int match, boolean kept) {
            this.pcs = pcs;
            this.match = match;
            this.kept = kept;
        }
    }

    /**
     * A step to a state: for each of its threads, the thread of the state before it came from (-1:
     * none, at the start) and whether the group began (1) or ended (2) on the way.
     */
    private static final class Step {
        final State next;
        final int[] from;
        final byte[] set;

        Step(State next, int[] from, byte[] set) {
            this.next = next;
            this.from = from;
            this.set = set;
        }
    }

    private Step start() {
        Step s = start;
        if (s != null) return s;
        synchronized (this) {
            if (start == null) start = made(null);
            return start;
        }
    }

    /** The step from {@code s} on the character {@code c}, kept where {@code c} is ASCII. */
    private Step step(State s, int c) {
        synchronized (this) {
            Step known = c < State.CACHED ? s.steps[c] : null;
            if (known != null) return known;
            int[] moved = new int[s.pcs.length];
            for (int i = 0; i < moved.length; i++) {
                int pc = s.pcs[i];
                moved[i] = op[pc] == CLASS && contains(ranges[pc], c) ? pc + 1 : -1;
            }
            Step t = made(moved);
            if (c < State.CACHED && s.kept && t.next.kept) s.steps[c] = t;
            return t;
        }
    }

    /**
     * The step whose threads are those reached without reading from the instructions {@code to}, in
     * order, each once: one instruction per thread of the state before (-1 where that thread read
     * no further); null for the start, reached from the first instruction.
     */
    private Step made(int[] to) {
        int n = op.length;
        int[] pcs = new int[n];
        int[] from = new int[n];
        byte[] set = new byte[n];
        boolean[] seen = new boolean[n];
        int size = 0;
        if (to == null) size = close(0, 0, -1, seen, pcs, from, set, size);
        else
            for (int i = 0; i < to.length; i++)
                if (to[i] >= 0) size = close(to[i], 0, i, seen, pcs, from, set, size);
        int[] threads = Arrays.copyOf(pcs, size);
        List<Integer> key = new ArrayList<>(size);
        for (int pc : threads) key.add(pc);
        State next = states.get(key);
        if (next == null) {
            int match = -1;
            for (int j = 0; j < size && match < 0; j++) if (op[threads[j]] == MATCH) match = j;
            boolean keep = states.size() < MAX_STATES;
            next = new State(threads, match, keep);
            if (keep) states.put(key, next);
        }
        return new Step(next, Arrays.copyOf(from, size), Arrays.copyOf(set, size));
    }

    /**
     * Adds the threads reached from {@code pc} without reading, in order, each instruction once:
     * {@code flags} says whether the group began or ended on the way from thread {@code source}.
     */
    private int close(
            int pc,
            int flags,
            int source,
            boolean[] seen,
            int[] pcs,
            int[] from,
            byte[] set,
            int size) {
        if (seen[pc]) return size;
        seen[pc] = true;
        switch (op[pc]) {
            case SPLIT -> {
                size = close(x[pc], flags, source, seen, pcs, from, set, size);
                return close(y[pc], flags, source, seen, pcs, from, set, size);
            }
            case JUMP -> {
                return close(x[pc], flags, source, seen, pcs, from, set, size);
            }
            case SAVE -> {
                return close(
                        pc + 1, flags | (x[pc] == 0 ? 1 : 2), source, seen, pcs, from, set, size);
            }
            default -> {
                pcs[size] = pc;
                from[size] = source;
                set[size] = (byte) flags;
                return size + 1;
            }
        }
    }

    private static boolean contains(int[] r, int c) {
        for (int i = 0; i < r.length; i += 2) {
            if (c < r[i]) return false;
            if (c <= r[i + 1]) return true;
        }
        return false;
    }

    /** A program being written. */
    private static final class Program {
        final List<Integer> op = new ArrayList<>();
        final List<Integer> x = new ArrayList<>();
        final List<Integer> y = new ArrayList<>();
        final List<int[]> ranges = new ArrayList<>();

        int emit(int o, int a, int b, int[] r) {
            op.add(o);
            x.add(a);
            y.add(b);
            ranges.add(r);
            return op.size() - 1;
        }

        int size() {
            return op.size();
        }

        /** Writes the instructions of {@code n}. */
        void write(Node n) {
            switch (n.kind) {
                case Node.CLASS -> emit(CLASS, 0, 0, n.ranges);
                case Node.SEQUENCE -> {
                    for (Node k : n.kids) write(k);
                }
                case Node.ALTERNATION -> {
                    // a fork to each alternative but the last, tried in their order
                    List<Integer> jumps = new ArrayList<>();
                    for (int i = 0; i < n.kids.size(); i++) {
                        if (i == n.kids.size() - 1) {
                            write(n.kids.get(i));
                            break;
                        }
                        int split = emit(SPLIT, size() + 1, 0, null);
                        write(n.kids.get(i));
                        jumps.add(emit(JUMP, 0, 0, null));
                        y.set(split, size());
                    }
                    for (int j : jumps) x.set(j, size());
                }
                case Node.OPTIONAL -> {
                    int split = emit(SPLIT, size() + 1, 0, null);
                    write(n.kids.get(0));
                    y.set(split, size());
                }
                case Node.STAR -> {
                    int split = emit(SPLIT, size() + 1, 0, null);
                    write(n.kids.get(0));
                    emit(JUMP, split, 0, null);
                    y.set(split, size());
                }
                case Node.PLUS -> {
                    int first = size();
                    write(n.kids.get(0));
                    emit(SPLIT, first, size() + 1, null);
                }
                default -> { // the first group
                    emit(SAVE, 0, 0, null);
                    write(n.kids.get(0));
                    emit(SAVE, 1, 0, null);
                }
            }
        }
    }

    /** A piece of the pattern: a class, a sequence, alternatives, a repetition or the group. */
    private static final class Node {
        static final int CLASS = 0;
        static final int SEQUENCE = 1;
        static final int ALTERNATION = 2;
        static final int OPTIONAL = 3;
        static final int STAR = 4;
        static final int PLUS = 5;
        static final int GROUP = 6;

        final int kind;
        final List<Node> kids;
        final int[] ranges;

        /** Whether it can match the empty string. */
        final boolean empty;

        Node(int kind, List<Node> kids, int[] ranges, boolean empty) {
            this.kind = kind;
            this.kids = kids;
            this.ranges = ranges;
            this.empty = empty;
        }
    }

    /** Outside the part of the syntax the automaton reads. */
    private static final class Unsupported extends Exception {
        Unsupported() {
            super(null, null, false, false);
        }
    }

    /** Reads the pattern into pieces, and those into a program. */
    private static final class Parser {
        private final String src;
        private int at;
        private int groups;

        Parser(String src) {
            this.src = src;
        }

        /** The program; null where the pattern is outside the part read or has no group. */
        Program program() {
            try {
                Node n = alternation();
                if (at != src.length() || groups == 0) return null;
                Program p = new Program();
                p.write(n);
                p.emit(MATCH, 0, 0, null);
                return p;
            } catch (Unsupported e) {
                return null;
            }
        }

        private Node alternation() throws Unsupported {
            List<Node> alts = new ArrayList<>();
            alts.add(sequence());
            while (at < src.length() && src.charAt(at) == '|') {
                at++;
                alts.add(sequence());
            }
            if (alts.size() == 1) return alts.get(0);
            boolean empty = false;
            for (Node a : alts) empty |= a.empty;
            return new Node(Node.ALTERNATION, alts, null, empty);
        }

        private Node sequence() throws Unsupported {
            List<Node> items = new ArrayList<>();
            boolean empty = true;
            while (at < src.length() && src.charAt(at) != '|' && src.charAt(at) != ')') {
                Node q = quantified();
                items.add(q);
                empty &= q.empty;
            }
            return new Node(Node.SEQUENCE, items, null, empty);
        }

        private Node quantified() throws Unsupported {
            Node a = atom();
            if (at >= src.length()) return a;
            char q = src.charAt(at);
            if (q == '{') throw new Unsupported();
            if (q != '?' && q != '*' && q != '+') return a;
            at++;
            if (at < src.length() && (src.charAt(at) == '?' || src.charAt(at) == '+'))
                throw new Unsupported(); // lazy or possessive
            // a repeated piece that can match nothing is left to java.util.regex, whose rules for
            // empty repetitions are its own
            if (a.empty) throw new Unsupported();
            int kind = q == '?' ? Node.OPTIONAL : q == '*' ? Node.STAR : Node.PLUS;
            return new Node(kind, List.of(a), null, kind != Node.PLUS);
        }

        private Node atom() throws Unsupported {
            char c = src.charAt(at++);
            switch (c) {
                case '(' -> {
                    boolean capturing = true;
                    if (src.startsWith("?:", at)) {
                        at += 2;
                        capturing = false;
                    } else if (at < src.length() && src.charAt(at) == '?') throw new Unsupported();
                    boolean first = capturing && ++groups == 1;
                    Node inner = alternation();
                    if (at >= src.length() || src.charAt(at) != ')') throw new Unsupported();
                    at++;
                    return first ? new Node(Node.GROUP, List.of(inner), null, inner.empty) : inner;
                }
                case '\\' -> {
                    if (at >= src.length()) throw new Unsupported();
                    return cls(escape(src.charAt(at++)));
                }
                case '[' -> {
                    return cls(charClass());
                }
                case '.' -> {
                    return cls(
                            complement(
                                    new int[] {
                                        '\n', '\n', '\r', '\r', 0x85, 0x85, 0x2028, 0x2029
                                    }));
                }
                case '^', '$', ')', '*', '+', '?', '{', '|', ']', '}' -> throw new Unsupported();
                default -> {
                    int cp = src.codePointAt(at - 1);
                    at += Character.charCount(cp) - 1;
                    return cls(new int[] {cp, cp});
                }
            }
        }

        private static Node cls(int[] ranges) {
            return new Node(Node.CLASS, List.of(), ranges, false);
        }

        /** The characters of an escape; unsupported where it is not one of those read. */
        private static int[] escape(char e) throws Unsupported {
            return switch (e) {
                case 'd' -> new int[] {'0', '9'};
                case 'w' -> new int[] {'0', '9', 'A', 'Z', '_', '_', 'a', 'z'};
                case 's' -> new int[] {'\t', '\r', ' ', ' '};
                case 'D', 'W', 'S' -> complement(escape(Character.toLowerCase(e)));
                case 'n' -> new int[] {'\n', '\n'};
                case 't' -> new int[] {'\t', '\t'};
                case 'r' -> new int[] {'\r', '\r'};
                case 'f' -> new int[] {'\f', '\f'};
                default -> {
                    if (e < 128 && !Character.isLetterOrDigit(e)) yield new int[] {e, e};
                    throw new Unsupported();
                }
            };
        }

        private int[] charClass() throws Unsupported {
            boolean negate = at < src.length() && src.charAt(at) == '^';
            if (negate) at++;
            List<int[]> parts = new ArrayList<>();
            boolean first = true;
            while (true) {
                if (at >= src.length()) throw new Unsupported();
                char c = src.charAt(at++);
                if (c == ']' && !first) break;
                first = false;
                if (c == '[' || c == '&') throw new Unsupported();
                int lo;
                if (c == '\\') {
                    if (at >= src.length()) throw new Unsupported();
                    char e = src.charAt(at++);
                    int[] set = escape(e);
                    if (set.length > 2 || set[0] != set[1] || Character.isLetter(e)) {
                        // a class escape (\d, \n…) as a range's end is left to java.util.regex
                        if (at + 1 < src.length()
                                && src.charAt(at) == '-'
                                && src.charAt(at + 1) != ']') throw new Unsupported();
                        parts.add(set);
                        continue;
                    }
                    lo = e;
                } else {
                    lo = src.codePointAt(at - 1);
                    at += Character.charCount(lo) - 1;
                }
                if (at + 1 < src.length() && src.charAt(at) == '-' && src.charAt(at + 1) != ']') {
                    at++;
                    int hi = src.codePointAt(at);
                    at += Character.charCount(hi);
                    if (hi == '\\' || hi == '[' || hi == '&' || hi < lo) throw new Unsupported();
                    parts.add(new int[] {lo, hi});
                } else parts.add(new int[] {lo, lo});
            }
            int[] set = union(parts);
            return negate ? complement(set) : set;
        }

        /**
         * The union of ranges, sorted and merged (by insertion: a class has few ranges, and no
         * comparator is linked at start-up).
         */
        private static int[] union(List<int[]> parts) {
            int n = 0;
            for (int[] r : parts) n += r.length;
            int[] all = new int[n];
            int size = 0;
            for (int[] r : parts)
                for (int i = 0; i < r.length; i += 2) {
                    int j = size;
                    while (j > 0 && all[j - 2] > r[i]) {
                        all[j] = all[j - 2];
                        all[j + 1] = all[j - 1];
                        j -= 2;
                    }
                    all[j] = r[i];
                    all[j + 1] = r[i + 1];
                    size += 2;
                }
            int out = 0;
            for (int i = 0; i < size; i += 2) {
                if (out > 0 && all[i] <= all[out - 1] + 1)
                    all[out - 1] = Math.max(all[out - 1], all[i + 1]);
                else {
                    all[out++] = all[i];
                    all[out++] = all[i + 1];
                }
            }
            return Arrays.copyOf(all, out);
        }

        /** The code points not in the sorted, merged ranges {@code r}. */
        private static int[] complement(int[] r) {
            List<Integer> out = new ArrayList<>();
            int next = 0;
            for (int i = 0; i < r.length; i += 2) {
                if (r[i] > next) {
                    out.add(next);
                    out.add(r[i] - 1);
                }
                next = r[i + 1] + 1;
            }
            if (next <= Character.MAX_CODE_POINT) {
                out.add(next);
                out.add(Character.MAX_CODE_POINT);
            }
            int[] c = new int[out.size()];
            for (int i = 0; i < c.length; i++) c[i] = out.get(i);
            return c;
        }
    }
}
