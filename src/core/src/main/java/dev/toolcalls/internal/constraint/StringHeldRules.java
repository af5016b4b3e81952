package dev.toolcalls.internal.constraint;

import org.antlr.v4.runtime.misc.Interval;
import org.antlr.v4.runtime.misc.IntervalSet;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * GBNF for JSON text held in a JSON string ({@code "arguments": "{\"city\": \"Paris\"}"}): a copy
 * of a value's rules in which every character is any of its spellings in the string: itself, where
 * the string holds it unescaped, a short escape ({@code \"}, {@code \n}…) and {@code \}{@code
 * uXXXX}, where the string reads them. A class of many characters takes any {@code \}{@code uXXXX}
 * escape (one or a surrogate pair): more than the held text allows there, never less.
 */
final class StringHeldRules {
    /** A class with more members than this takes any unicode escape. */
    private static final int LISTED = 32;

    /**
     * The short escapes of JSON strings: the letter after the backslash, and what it stands for.
     */
    private static final String LETTERS = "\"\\/bfnrt";

    private static final String DECODED = "\"\\/\b\f\n\r\t";

    private final Gbnf out;
    private final IntervalSet raw;
    private final String letters;
    private final boolean unicode;
    private final String prefix;
    private final Map<String, String> literals = new HashMap<>();
    private final Map<IntervalSet, String> classes = new HashMap<>();

    /** The rule of the spellings of each character below 128 (null: it has none), once asked. */
    private final String[] asciiOnes = new String[128];

    private final boolean[] asciiAsked = new boolean[128];

    /** The same for the other characters. */
    private final Map<Integer, String> ones = new HashMap<>();

    /** The rule names read in bodies: each with its held name, and whether it is copied. */
    private final Texts refs = new Texts();

    /** The literals and classes read in bodies, each with its spelling. */
    private final Texts texts = new Texts();

    /**
     * The rules to copy by number, in the order they are first referred to: those from {@link
     * #head} to {@link #tail} are still to copy.
     */
    private int[] work = new int[64];

    private int head;
    private int tail;

    private final StringBuilder body = new StringBuilder(256);

    /** The characters of the body {@link #copy} reads. */
    private char[] chars = new char[256];

    /** The prefix of a held rule's name: {@code prefix_}. */
    private final String named;

    private final StringBuilder decoded = new StringBuilder();

    /** A rule name not yet copied, queued to be, or copied. */
    private static final byte SEEN = 0;

    private static final byte QUEUED = 1;
    private static final byte COPIED = 2;

    /**
     * The classes read, by their text ({@code [...]}): a pure function of the text, the same in
     * every build, kept up to a bound.
     */
    private static final Map<String, IntervalSet> CLASS_SETS = new ConcurrentHashMap<>();

    private static final int MAX_CLASS_SETS = 4096;

    /**
     * @param raw the characters the string holds unescaped
     * @param letters the short escapes it reads (letters after the backslash)
     * @param unicode whether it reads {@code \}{@code uXXXX}
     */
    StringHeldRules(Gbnf out, String prefix, IntervalSet raw, String letters, boolean unicode) {
        this.out = out;
        this.prefix = prefix;
        this.named = prefix + "_";
        this.raw = raw;
        this.letters = letters;
        this.unicode = unicode;
    }

    /**
     * The held copy of the rule {@code name} of {@code out} (and of the rules it refers to),
     * defined in {@code out}; null when a rule is not in the part of GBNF that is read (literals,
     * classes, rule names, grouping, alternation and {@code * + ?}).
     */
    String rule(String name) {
        int at = refs.find(name, 0, name.length(), name.hashCode());
        if (at < 0) at = refs.add(name, name.hashCode(), named + name);
        if (refs.state[at] == COPIED) return refs.value[at];
        head = 0;
        tail = 0;
        queue(at);
        boolean failed = false;
        while (head < tail) {
            int n = work[head++];
            String text = out.body(refs.key[n]);
            if (text == null || !copy(text)) {
                failed = true;
                break;
            }
            out.define(refs.value[n], body.length() == 0 ? "\"\"" : body.toString());
            refs.state[n] = COPIED;
        }
        if (failed) {
            // the rules not copied are read again by a later call
            for (int n = 0; n < refs.size; n++) if (refs.state[n] == QUEUED) refs.state[n] = SEEN;
            return null;
        }
        return refs.value[at];
    }

    private void queue(int n) {
        refs.state[n] = QUEUED;
        if (tail == work.length) work = Arrays.copyOf(work, 2 * tail);
        work[tail++] = n;
    }

    /**
     * Writes the body with its terminals spelled as the string holds them to {@link #body}, queues
     * the rules it names that are not copied; false where it is not in the part of GBNF that is
     * read.
     */
    private boolean copy(String text) {
        StringBuilder b = body;
        b.setLength(0);
        int n = text.length();
        if (chars.length < n) chars = new char[Math.max(n, 2 * chars.length)];
        char[] t = chars;
        text.getChars(0, n, t, 0);
        int i = 0;
        while (i < n) {
            char ch = t[i];
            if (ch == ' ') {
                i++;
                continue;
            }
            if (b.length() > 0) b.append(' ');
            if (ch == '"' || ch == '[') {
                // a literal or a class, up to its unescaped close, spelled once per text
                char close = ch == '"' ? '"' : ']';
                int start = i;
                int h = ch;
                i++;
                while (i < n) {
                    char c = t[i];
                    if (c == close) break;
                    h = 31 * h + c;
                    if (c == '\\' && i + 1 < n) {
                        h = 31 * h + t[i + 1];
                        i += 2;
                    } else i++;
                }
                if (i >= n) return false;
                h = 31 * h + close;
                i++;
                int at = texts.find(text, start, i - start, h);
                if (at < 0) {
                    String written = text.substring(start, i);
                    String spelled = ch == '"' ? literalOf(written) : classOf(written);
                    if (spelled == null) return false;
                    at = texts.add(written, h, spelled);
                }
                b.append(texts.value[at]);
            } else if (word(ch)) {
                int j = i;
                int h = 0;
                while (j < n) {
                    char c = t[j];
                    if (!word(c)) break;
                    h = 31 * h + c;
                    j++;
                }
                int at = refs.find(text, i, j - i, h);
                if (at < 0) {
                    String ref = text.substring(i, j);
                    at = refs.add(ref, h, named + ref);
                }
                if (refs.state[at] == SEEN) queue(at);
                b.append(refs.value[at]);
                i = j;
            } else if (ch == '(' || ch == ')' || ch == '|' || ch == '*' || ch == '+' || ch == '?') {
                b.append(ch);
                i++;
            } else return false;
        }
        return true;
    }

    /** Whether {@code c} is a character of a rule name. */
    private static boolean word(char c) {
        if (c < 128)
            return c >= 'a' ? c <= 'z' : c >= 'A' ? c <= 'Z' || c == '_' : c >= '0' && c <= '9';
        return Character.isLetterOrDigit(c);
    }

    /** The spelling of the literal written {@code text} (quotes included), or null. */
    private String literalOf(String text) {
        StringBuilder lit = decoded;
        lit.setLength(0);
        int n = text.length() - 1;
        for (int i = 1; i < n; ) {
            long read = unescape(text, i);
            if (read < 0 || (int) read > n) return null;
            lit.appendCodePoint((int) (read >>> 32));
            i = (int) read;
        }
        return literal(lit.toString());
    }

    /** The spelling of the class written {@code text} ({@code [...]}), or null. */
    private String classOf(String text) {
        IntervalSet set = CLASS_SETS.get(text);
        if (set == null) {
            set = classSet(text);
            if (set == null) return null;
            set.setReadonly(true);
            if (CLASS_SETS.size() >= MAX_CLASS_SETS) CLASS_SETS.clear();
            CLASS_SETS.put(text, set);
        }
        return chars(set);
    }

    /** The characters of the class written {@code text} ({@code [...]}), or null. */
    private static IntervalSet classSet(String text) {
        IntervalSet set = new IntervalSet();
        int n = text.length() - 1;
        int i = 1;
        boolean negated = i < n && text.charAt(i) == '^';
        if (negated) i++;
        while (i < n) {
            long lo = unescape(text, i);
            if (lo < 0) return null;
            i = (int) lo;
            int hi = (int) (lo >>> 32);
            if (i + 1 < n && text.charAt(i) == '-') {
                long h = unescape(text, i + 1);
                if (h < 0) return null;
                hi = (int) (h >>> 32);
                i = (int) h;
            }
            set.add((int) (lo >>> 32), hi);
        }
        if (i != n) return null;
        if (negated) set = set.complement(0, Gbnf.MAX_CODE_POINT);
        return Gbnf.clip(set);
    }

    /**
     * The code point written at {@code i} of a literal or class (the high half) and the index after
     * it (the low half); negative where it is not read.
     */
    private static long unescape(String s, int i) {
        char c = s.charAt(i);
        if (c != '\\') {
            int cp = s.codePointAt(i);
            return read(cp, i + Character.charCount(cp));
        }
        if (i + 1 >= s.length()) return -1;
        char e = s.charAt(i + 1);
        int digits =
                switch (e) {
                    case 'x' -> 2;
                    case 'u' -> 4;
                    case 'U' -> 8;
                    default -> 0;
                };
        if (digits > 0) {
            if (i + 2 + digits > s.length()) return -1;
            int cp = 0;
            for (int k = i + 2; k < i + 2 + digits; k++) {
                int d = Character.digit(s.charAt(k), 16);
                if (d < 0) return -1;
                cp = cp << 4 | d;
            }
            return cp < 0 ? -1 : read(cp, i + 2 + digits);
        }
        int cp =
                switch (e) {
                    case 'n' -> '\n';
                    case 'r' -> '\r';
                    case 't' -> '\t';
                    default -> e;
                };
        return read(cp, i + 2);
    }

    private static long read(int cp, int next) {
        return (long) cp << 32 | next;
    }

    /** A literal's characters, each by the rule of its spellings. */
    private String literal(String s) {
        if (s.isEmpty()) return "\"\"";
        int first = s.codePointAt(0);
        if (Character.charCount(first) == s.length()) return one(first);
        // one rule per literal: tools that share a property name share its spellings
        String known = literals.get(s);
        if (known != null) return known;
        StringBuilder parts = new StringBuilder(8 * s.length());
        for (int i = 0; i < s.length(); ) {
            int c = s.codePointAt(i);
            i += Character.charCount(c);
            String one = one(c);
            if (one == null) return null;
            if (parts.length() > 0) parts.append(' ');
            parts.append(one);
        }
        known = out.define(prefix + "_l" + literals.size(), parts.toString());
        literals.put(s, known);
        return known;
    }

    /** The rule of the spellings of one character. */
    private String one(int c) {
        if (c < asciiOnes.length) {
            if (!asciiAsked[c]) {
                asciiOnes[c] = oneNew(c);
                asciiAsked[c] = true;
            }
            return asciiOnes[c];
        }
        String known = ones.get(c);
        if (known != null || ones.containsKey(c)) return known;
        String made = oneNew(c);
        ones.put(c, made);
        return made;
    }

    private String oneNew(int c) {
        String name = prefix + "_c" + Integer.toHexString(c);
        List<String> alts = new ArrayList<>();
        if (raw.contains(c)) alts.add(Gbnf.literal(new String(Character.toChars(c))));
        int k = DECODED.indexOf(c);
        if (c < 0x80 && k >= 0 && letters.indexOf(LETTERS.charAt(k)) >= 0)
            alts.add(Gbnf.literal("\\" + LETTERS.charAt(k)));
        if (unicode) {
            if (c <= 0xFFFF) alts.add(escape(c));
            else
                alts.add(
                        escape(Character.highSurrogate(c))
                                + " "
                                + escape(Character.lowSurrogate(c)));
        }
        if (alts.isEmpty()) return null;
        return out.define(name, String.join(" | ", alts));
    }

    /** {@code \}{@code uXXXX} for a UTF-16 unit, the hex digits in either case. */
    private static String escape(int unit) {
        StringBuilder b = new StringBuilder("\"\\\\u\"");
        for (int shift = 12; shift >= 0; shift -= 4) {
            char d = Character.forDigit((unit >> shift) & 0xF, 16);
            b.append(' ');
            if (d <= '9') b.append('"').append(d).append('"');
            else b.append('[').append(d).append(Character.toUpperCase(d)).append(']');
        }
        return b.toString();
    }

    /** A class's characters: each listed by its spellings, or, for many, any escape. */
    private String chars(IntervalSet set) {
        if (set.isNil()) return null;
        String known = classes.get(set);
        if (known != null || classes.containsKey(set)) return known;
        String c = charsNew(set);
        if (c != null && c.startsWith("(")) c = out.define(prefix + "_k" + classes.size(), c);
        classes.put(set, c);
        return c;
    }

    private String charsNew(IntervalSet set) {
        if (set.size() <= LISTED) {
            List<String> alts = new ArrayList<>();
            for (Interval iv : set.getIntervals())
                for (int c = iv.a; c <= iv.b; c++) {
                    String one = one(c);
                    if (one != null) alts.add(one);
                }
            if (alts.isEmpty()) return null;
            return alts.size() == 1 ? alts.get(0) : "( " + String.join(" | ", alts) + " )";
        }
        List<String> alts = new ArrayList<>();
        IntervalSet plain = set.and(raw);
        if (!plain.isNil()) alts.add(Gbnf.charClass(plain));
        StringBuilder shorts = new StringBuilder();
        for (int k = 0; k < LETTERS.length(); k++)
            if (set.contains(DECODED.charAt(k)) && letters.indexOf(LETTERS.charAt(k)) >= 0)
                shorts.append(LETTERS.charAt(k));
        if (shorts.length() > 0) {
            IntervalSet after = new IntervalSet();
            for (char l : shorts.toString().toCharArray()) after.add(l);
            alts.add("\"\\\\\" " + Gbnf.charClass(after));
        }
        if (unicode)
            alts.add(
                    out.define(
                                    prefix + "_u",
                                    "\"\\\\u\" [0-9a-fA-F] [0-9a-fA-F] [0-9a-fA-F] [0-9a-fA-F]")
                            + " "
                            + prefix
                            + "_u?");
        if (alts.isEmpty()) return null;
        return "( " + String.join(" | ", alts) + " )";
    }

    /**
     * Texts read in rule bodies, each with a value and a state, numbered in the order they are
     * added and found by a part of a body without copying it out (open addressing, by the text's
     * {@link String#hashCode}).
     */
    private static final class Texts {
        String[] key = new String[64];
        String[] value = new String[64];
        byte[] state = new byte[64];
        int[] hash = new int[64];
        int size;

        /** The number of each text plus one, by slot (0: none). */
        private int[] slots = new int[128];

        /** 32 less the bits of a slot. */
        private int shift = 32 - 7;

        /** The number of the text {@code s[from, from + length)} of hash {@code h}, or -1. */
        int find(String s, int from, int length, int h) {
            int mask = slots.length - 1;
            for (int i = first(h); ; i = (i + 1) & mask) {
                int n = slots[i] - 1;
                if (n < 0) return -1;
                String k = key[n];
                if (hash[n] == h && k.length() == length && k.regionMatches(0, s, from, length))
                    return n;
            }
        }

        /** Adds a text not held (state {@code 0}) of hash {@code h}; its number. */
        int add(String k, int h, String v) {
            if (size == key.length) {
                key = Arrays.copyOf(key, 2 * size);
                value = Arrays.copyOf(value, 2 * size);
                state = Arrays.copyOf(state, 2 * size);
                hash = Arrays.copyOf(hash, 2 * size);
            }
            if (2 * (size + 1) > slots.length) {
                slots = new int[2 * slots.length];
                shift--;
                for (int n = 0; n < size; n++) slot(n);
            }
            key[size] = k;
            value[size] = v;
            hash[size] = h;
            slot(size);
            return size++;
        }

        private void slot(int n) {
            int mask = slots.length - 1;
            int i = first(hash[n]);
            while (slots[i] != 0) i = (i + 1) & mask;
            slots[i] = n + 1;
        }

        /** The first slot of a hash: its Fibonacci hash (names alike have hashes alike). */
        private int first(int h) {
            return (h * 0x9E3779B9) >>> shift;
        }
    }
}
