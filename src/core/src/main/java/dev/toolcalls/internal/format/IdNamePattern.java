package dev.toolcalls.internal.format;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
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
 * the first group holds what {@code java.util.regex} gives it. Any other pattern (anchors,
 * lookaround, back references, counted, lazy or possessive repetition…) is matched by {@code
 * java.util.regex}. Matching takes time linear in the id's length.
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

    private final String source;

    /** The program, or null where the pattern is matched by {@link #regex}. */
    private final int[] op;

    private final int[] x;
    private final int[] y;

    /** Per {@link #CLASS} instruction: its ranges, lower and upper bound by turns, sorted. */
    private final int[][] ranges;

    private final Pattern regex;

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
        private int[] pcs;
        private int[] starts;
        private int[] ends;
        private int[] nextPcs;
        private int[] nextStarts;
        private int[] nextEnds;
        private int[] seen;
        private int generation;

        private Finder() {
            if (op != null) {
                int n = op.length;
                pcs = new int[n];
                starts = new int[n];
                ends = new int[n];
                nextPcs = new int[n];
                nextStarts = new int[n];
                nextEnds = new int[n];
                seen = new int[n];
            }
        }

        /** The first group of the pattern where it matches the whole {@code id}; else null. */
        public String nameIn(String id) {
            if (op == null) {
                Matcher m = matcher == null ? matcher = regex.matcher(id) : matcher.reset(id);
                String found = m.matches() && m.groupCount() >= 1 ? m.group(1) : null;
                m.reset(""); // nothing of the id kept
                return found;
            }
            int count = add(pcs, starts, ends, 0, 0, -1, -1, 0, nextGeneration());
            int i = 0;
            while (i < id.length() && count > 0) {
                int c = id.codePointAt(i);
                int after = i + Character.charCount(c);
                int gen = nextGeneration();
                int next = 0;
                for (int t = 0; t < count; t++) {
                    int pc = pcs[t];
                    if (op[pc] == CLASS && contains(ranges[pc], c))
                        next =
                                add(
                                        nextPcs,
                                        nextStarts,
                                        nextEnds,
                                        next,
                                        pc + 1,
                                        starts[t],
                                        ends[t],
                                        after,
                                        gen);
                }
                swap();
                count = next;
                i = after;
            }
            if (i < id.length()) return null;
            for (int t = 0; t < count; t++)
                if (op[pcs[t]] == MATCH)
                    return starts[t] < 0 || ends[t] < 0 ? null : id.substring(starts[t], ends[t]);
            return null;
        }

        private int nextGeneration() {
            if (++generation == Integer.MAX_VALUE) {
                Arrays.fill(seen, 0);
                generation = 1;
            }
            return generation;
        }

        /**
         * Adds the thread at {@code pc} (group bounds {@code start}, {@code end}) to the list, with
         * the threads its forks, jumps and marks lead to, in the order of their priority, each
         * instruction once per step; the new size of the list.
         */
        private int add(
                int[] list,
                int[] s,
                int[] e,
                int size,
                int pc,
                int start,
                int end,
                int at,
                int gen) {
            if (seen[pc] == gen) return size;
            seen[pc] = gen;
            switch (op[pc]) {
                case SPLIT -> {
                    size = add(list, s, e, size, x[pc], start, end, at, gen);
                    return add(list, s, e, size, y[pc], start, end, at, gen);
                }
                case JUMP -> {
                    return add(list, s, e, size, x[pc], start, end, at, gen);
                }
                case SAVE -> {
                    return x[pc] == 0
                            ? add(list, s, e, size, pc + 1, at, end, at, gen)
                            : add(list, s, e, size, pc + 1, start, at, at, gen);
                }
                default -> {
                    list[size] = pc;
                    s[size] = start;
                    e[size] = end;
                    return size + 1;
                }
            }
        }

        private void swap() {
            int[] t = pcs;
            pcs = nextPcs;
            nextPcs = t;
            t = starts;
            starts = nextStarts;
            nextStarts = t;
            t = ends;
            ends = nextEnds;
            nextEnds = t;
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
