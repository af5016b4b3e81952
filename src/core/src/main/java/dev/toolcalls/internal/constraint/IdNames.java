package dev.toolcalls.internal.constraint;

import org.antlr.v4.runtime.misc.IntervalSet;

import java.util.ArrayList;
import java.util.List;

/**
 * The ids that name a given function, in GBNF, from a format's {@code nameFromId} pattern: the
 * pattern with its first group (and each back reference to it) replaced by the function's name.
 * What that pattern matches holds every id whose first group is the name (the group's own
 * conditions, lookarounds included, only narrow it further), so the rule never rejects an id the
 * parser reads as that name. The pattern is read in a small part of the regex syntax (literals,
 * escapes, classes, {@code .}, groups, alternation, {@code ? * +}); outside it, no rule is given.
 */
final class IdNames {
    /** The characters Java counts as whitespace (what the parser strips around a name). */
    private static final IntervalSet WHITESPACE = whitespace();

    private final String src;
    private final String name;
    private final IntervalSet chars;
    private int at;
    private int groups;

    private IdNames(String src, String name, IntervalSet chars) {
        this.src = src;
        this.name = name;
        this.chars = chars;
    }

    /**
     * A GBNF expression for the ids naming {@code name} (whitespace around them included, as the
     * parser strips it), each character within {@code chars}; null when the pattern cannot be read
     * or the name holds a character outside {@code chars}.
     */
    static String expr(String nameFromId, String name, IntervalSet chars) {
        if (name.isEmpty()) return null;
        for (int i = 0; i < name.length(); ) {
            int c = name.codePointAt(i);
            if (!chars.contains(c)) return null;
            i += Character.charCount(c);
        }
        IdNames p = new IdNames(nameFromId, name, chars);
        try {
            String body = p.alternation();
            if (p.at != p.src.length()) return null;
            IntervalSet ws = WHITESPACE.and(chars);
            String space = ws.isNil() ? "" : Gbnf.charClass(ws) + "* ";
            return "( " + space + "( " + body + " ) " + space + ")";
        } catch (IllegalArgumentException e) {
            return null;
        }
    }

    private static IntervalSet whitespace() {
        IntervalSet ws = new IntervalSet();
        for (int c = 0; c <= 0x3000; c++) if (Character.isWhitespace(c)) ws.add(c);
        return ws;
    }

    private String alternation() {
        List<String> alts = new ArrayList<>();
        alts.add(sequence());
        while (at < src.length() && src.charAt(at) == '|') {
            at++;
            alts.add(sequence());
        }
        return alts.size() == 1 ? alts.get(0) : "( " + String.join(" | ", alts) + " )";
    }

    private String sequence() {
        List<String> items = new ArrayList<>();
        while (at < src.length() && src.charAt(at) != '|' && src.charAt(at) != ')') {
            String atom = atom();
            if (at < src.length()) {
                char q = src.charAt(at);
                if (q == '?' || q == '*' || q == '+') {
                    at++;
                    if (at < src.length() && (src.charAt(at) == '?' || src.charAt(at) == '+'))
                        at++; // lazy or possessive: the same strings
                    atom = "( " + atom + " )" + q;
                } else if (q == '{') throw new IllegalArgumentException("counted repetition");
            }
            if (atom != null) items.add(atom);
        }
        return items.isEmpty() ? "\"\"" : String.join(" ", items);
    }

    private String atom() {
        char c = src.charAt(at++);
        switch (c) {
            case '(' -> {
                boolean capturing = true;
                if (src.startsWith("?:", at)) {
                    at += 2;
                    capturing = false;
                } else if (at < src.length() && src.charAt(at) == '?')
                    throw new IllegalArgumentException("lookaround or flags");
                if (capturing && ++groups == 1) {
                    skipGroup();
                    return Gbnf.literal(name);
                }
                String inner = alternation();
                if (at >= src.length() || src.charAt(at) != ')')
                    throw new IllegalArgumentException("unclosed group");
                at++;
                return "( " + inner + " )";
            }
            case '\\' -> {
                char e = src.charAt(at++);
                if (e == '1') return Gbnf.literal(name);
                IntervalSet set = escapeSet(e);
                if (set != null) return cls(set);
                if (Character.isLetterOrDigit(e)) throw new IllegalArgumentException("escape");
                return cls(IntervalSet.of(e));
            }
            case '[' -> {
                return cls(charClass());
            }
            case '.' -> {
                IntervalSet s = IntervalSet.of(0, Gbnf.MAX_CODE_POINT);
                s = s.subtract(IntervalSet.of('\n'));
                s = s.subtract(IntervalSet.of('\r'));
                s = s.subtract(IntervalSet.of(0x85));
                s = s.subtract(IntervalSet.of(0x2028, 0x2029));
                return cls(s);
            }
            case '^', '$' -> throw new IllegalArgumentException("anchor");
            default -> {
                return cls(IntervalSet.of(c));
            }
        }
    }

    /** Past the first group (its text is the name), to its closing parenthesis. */
    private void skipGroup() {
        int depth = 1;
        boolean inClass = false;
        while (at < src.length()) {
            char c = src.charAt(at++);
            if (c == '\\') at++;
            else if (inClass) {
                if (c == ']') inClass = false;
            } else if (c == '[') inClass = true;
            else if (c == '(') depth++;
            else if (c == ')' && --depth == 0) return;
        }
        throw new IllegalArgumentException("unclosed group");
    }

    private IntervalSet charClass() {
        boolean negate = at < src.length() && src.charAt(at) == '^';
        if (negate) at++;
        IntervalSet s = new IntervalSet();
        boolean first = true;
        while (true) {
            if (at >= src.length()) throw new IllegalArgumentException("unclosed class");
            char c = src.charAt(at++);
            if (c == ']' && !first) break;
            first = false;
            if (c == '[' || c == '&') throw new IllegalArgumentException("class operation");
            int lo;
            if (c == '\\') {
                char e = src.charAt(at++);
                IntervalSet set = escapeSet(e);
                if (set != null) {
                    s.addAll(set);
                    continue;
                }
                if (Character.isLetterOrDigit(e)) throw new IllegalArgumentException("escape");
                lo = e;
            } else lo = c;
            if (at + 1 < src.length() && src.charAt(at) == '-' && src.charAt(at + 1) != ']') {
                at++;
                char h = src.charAt(at++);
                if (h == '\\') {
                    h = src.charAt(at++);
                    if (Character.isLetterOrDigit(h)) throw new IllegalArgumentException("escape");
                }
                s.add(lo, h);
            } else s.add(lo);
        }
        return negate ? s.complement(0, Gbnf.MAX_CODE_POINT) : s;
    }

    private static IntervalSet escapeSet(char e) {
        IntervalSet s = new IntervalSet();
        switch (e) {
            case 'd' -> s.add('0', '9');
            case 'w' -> {
                s.add('a', 'z');
                s.add('A', 'Z');
                s.add('0', '9');
                s.add('_');
            }
            case 's' -> {
                s.add('\t', '\r');
                s.add(' ');
            }
            case 'n' -> s.add('\n');
            case 't' -> s.add('\t');
            case 'r' -> s.add('\r');
            case 'D', 'W', 'S' -> {
                return escapeSet(Character.toLowerCase(e)).complement(0, Gbnf.MAX_CODE_POINT);
            }
            default -> {
                return null;
            }
        }
        return s;
    }

    private String cls(IntervalSet set) {
        IntervalSet s = Gbnf.clip(set.and(chars));
        if (s.isNil()) throw new IllegalArgumentException("no character");
        return Gbnf.charClass(s);
    }
}
