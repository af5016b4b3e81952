package dev.toolcalls.internal.constraint;

import org.antlr.v4.runtime.misc.Interval;
import org.antlr.v4.runtime.misc.IntervalSet;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

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
    private final Map<String, String> classes = new HashMap<>();

    /** The rule of each character's spellings (null: it has none). */
    private final Map<Integer, String> ones = new HashMap<>();

    /** The spelling of each class as the rules write it, so a class read again is not parsed. */
    private final Map<String, String> classTexts = new HashMap<>();

    /** The same for literals. */
    private final Map<String, String> literalTexts = new HashMap<>();

    /** The rules whose held copies are defined. */
    private final Set<String> copied = new HashSet<>();

    /**
     * @param raw the characters the string holds unescaped
     * @param letters the short escapes it reads (letters after the backslash)
     * @param unicode whether it reads {@code \}{@code uXXXX}
     */
    StringHeldRules(Gbnf out, String prefix, IntervalSet raw, String letters, boolean unicode) {
        this.out = out;
        this.prefix = prefix;
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
        if (copied.contains(name)) return held(name);
        Deque<String> work = new ArrayDeque<>();
        Set<String> done = new HashSet<>();
        work.add(name);
        Map<String, String> rules = out.rules();
        StringBuilder b = new StringBuilder(256);
        while (!work.isEmpty()) {
            String n = work.poll();
            if (copied.contains(n) || !done.add(n)) continue;
            String body = rules.get(n);
            if (body == null) return null;
            b.setLength(0);
            if (!copy(body, work, b)) return null;
            out.define(held(n), b.length() == 0 ? "\"\"" : b.toString());
            copied.add(n);
        }
        return held(name);
    }

    private String held(String name) {
        return prefix + "_" + name;
    }

    /**
     * Writes the body with its terminals spelled as the string holds them to {@code b}, its rule
     * names to {@code work}; false where it is not in the part of GBNF that is read.
     */
    private boolean copy(String body, Deque<String> work, StringBuilder b) {
        int i = 0;
        int n = body.length();
        while (i < n) {
            char ch = body.charAt(i);
            if (ch == ' ') {
                i++;
                continue;
            }
            if (b.length() > 0) b.append(' ');
            if (ch == '"' || ch == '[') {
                // a literal or a class, up to its unescaped close, spelled once per text
                char close = ch == '"' ? '"' : ']';
                int start = i;
                i++;
                while (i < n && body.charAt(i) != close) i += body.charAt(i) == '\\' ? 2 : 1;
                if (i >= n) return false;
                i++;
                String text = body.substring(start, i);
                Map<String, String> known = ch == '"' ? literalTexts : classTexts;
                String spelled = known.get(text);
                if (spelled == null) {
                    spelled = ch == '"' ? literalOf(text) : classOf(text);
                    if (spelled == null) return false;
                    known.put(text, spelled);
                }
                b.append(spelled);
            } else if (Character.isLetterOrDigit(ch) || ch == '_') {
                int j = i;
                while (j < n
                        && (Character.isLetterOrDigit(body.charAt(j)) || body.charAt(j) == '_'))
                    j++;
                String ref = body.substring(i, j);
                if (!copied.contains(ref)) work.add(ref);
                b.append(prefix).append('_').append(ref);
                i = j;
            } else if ("()|*+?".indexOf(ch) >= 0) {
                b.append(ch);
                i++;
            } else return false;
        }
        return true;
    }

    /** The spelling of the literal written {@code text} (quotes included), or null. */
    private String literalOf(String text) {
        StringBuilder lit = new StringBuilder();
        int n = text.length() - 1;
        for (int i = 1; i < n; ) {
            int[] read = unescape(text, i);
            if (read == null || read[1] > n) return null;
            lit.appendCodePoint(read[0]);
            i = read[1];
        }
        return literal(lit.toString());
    }

    /** The spelling of the class written {@code text} ({@code [...]}), or null. */
    private String classOf(String text) {
        IntervalSet set = new IntervalSet();
        int n = text.length() - 1;
        int i = 1;
        boolean negated = i < n && text.charAt(i) == '^';
        if (negated) i++;
        while (i < n) {
            int[] lo = unescape(text, i);
            if (lo == null) return null;
            i = lo[1];
            int hi = lo[0];
            if (i + 1 < n && text.charAt(i) == '-') {
                int[] h = unescape(text, i + 1);
                if (h == null) return null;
                hi = h[0];
                i = h[1];
            }
            set.add(lo[0], hi);
        }
        if (i != n) return null;
        if (negated) set = set.complement(0, Gbnf.MAX_CODE_POINT);
        return chars(Gbnf.clip(set));
    }

    /** The code point written at {@code i} of a literal or class, and the index after it. */
    private static int[] unescape(String s, int i) {
        char c = s.charAt(i);
        if (c != '\\') {
            int cp = s.codePointAt(i);
            return new int[] {cp, i + Character.charCount(cp)};
        }
        if (i + 1 >= s.length()) return null;
        char e = s.charAt(i + 1);
        int digits =
                switch (e) {
                    case 'x' -> 2;
                    case 'u' -> 4;
                    case 'U' -> 8;
                    default -> 0;
                };
        if (digits > 0) {
            if (i + 2 + digits > s.length()) return null;
            try {
                return new int[] {
                    Integer.parseInt(s.substring(i + 2, i + 2 + digits), 16), i + 2 + digits
                };
            } catch (NumberFormatException x) {
                return null;
            }
        }
        int cp =
                switch (e) {
                    case 'n' -> '\n';
                    case 'r' -> '\r';
                    case 't' -> '\t';
                    default -> e;
                };
        return new int[] {cp, i + 2};
    }

    /** A literal's characters, each by the rule of its spellings. */
    private String literal(String s) {
        if (s.isEmpty()) return "\"\"";
        int first = s.codePointAt(0);
        if (Character.charCount(first) == s.length()) return one(first);
        // one rule per literal: tools that share a property name share its spellings
        String known = literals.get(s);
        if (known != null) return known;
        List<String> parts = new ArrayList<>();
        for (int c : s.codePoints().toArray()) {
            String one = one(c);
            if (one == null) return null;
            parts.add(one);
        }
        known = out.define(prefix + "_l" + literals.size(), String.join(" ", parts));
        literals.put(s, known);
        return known;
    }

    /** The rule of the spellings of one character. */
    private String one(int c) {
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
        String hex = String.format("%04x", unit);
        for (char d : hex.toCharArray())
            b.append(' ')
                    .append(
                            Character.isDigit(d)
                                    ? "\"" + d + "\""
                                    : "[" + d + Character.toUpperCase(d) + "]");
        return b.toString();
    }

    /** A class's characters: each listed by its spellings, or, for many, any escape. */
    private String chars(IntervalSet set) {
        if (set.isNil()) return null;
        String key = set.toString();
        if (classes.containsKey(key)) return classes.get(key);
        String c = charsNew(set);
        classes.put(
                key,
                c == null || !c.startsWith("(")
                        ? c
                        : out.define(prefix + "_k" + classes.size(), c));
        return classes.get(key);
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
}
