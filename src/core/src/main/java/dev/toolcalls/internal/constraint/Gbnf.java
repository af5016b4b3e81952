package dev.toolcalls.internal.constraint;

import org.antlr.v4.runtime.misc.Interval;
import org.antlr.v4.runtime.misc.IntervalSet;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * GBNF text: string literals, character classes and a set of named rules, written in the part of
 * GBNF that llama.cpp and xgrammar's EBNF both read (no empty alternative: {@code ""} instead).
 */
public final class Gbnf {
    /** The highest code point a class names (surrogates are left out). */
    public static final int MAX_CODE_POINT = 0x10FFFF;

    /**
     * The classes written, by set: a pure function of the set, asked for again by every build (the
     * keys of a tool's JSON objects, the runs), kept up to a bound.
     */
    private static final Map<IntervalSet, String> CLASSES = new ConcurrentHashMap<>();

    private static final int MAX_CLASSES = 4096;

    private final Map<String, String> rules = new LinkedHashMap<>();

    /** Defines a rule once; the name is returned for use in other rules. */
    public String define(String name, String body) {
        rules.putIfAbsent(name, body);
        return name;
    }

    public boolean has(String name) {
        return rules.containsKey(name);
    }

    public Map<String, String> rules() {
        return rules;
    }

    /** The grammar text, {@code root} first. */
    public String text() {
        StringBuilder b = new StringBuilder();
        String root = rules.get("root");
        if (root != null) b.append("root ::= ").append(root).append('\n');
        for (Map.Entry<String, String> e : rules.entrySet())
            if (!e.getKey().equals("root"))
                b.append(e.getKey()).append(" ::= ").append(e.getValue()).append('\n');
        return b.toString();
    }

    /** A string literal; the empty string is {@code ""}. */
    public static String literal(String s) {
        StringBuilder b = new StringBuilder("\"");
        s.codePoints().forEach(c -> escape(b, c, false));
        return b.append('"').toString();
    }

    /** A character class for a set of code points (a literal for a single one). */
    public static String charClass(IntervalSet set) {
        String known = CLASSES.get(set);
        if (known != null) return known;
        String written = charClassNew(set);
        IntervalSet key = new IntervalSet(set);
        key.setReadonly(true);
        if (CLASSES.size() >= MAX_CLASSES) CLASSES.clear();
        CLASSES.put(key, written);
        return written;
    }

    private static String charClassNew(IntervalSet set) {
        IntervalSet s = clip(set);
        if (s.size() == 1) return literal(new String(Character.toChars(s.getMinElement())));
        IntervalSet complement = s.complement(0, MAX_CODE_POINT);
        complement = clip(complement);
        // xgrammar reads a negated class's members above 127 as 127, so a negated class only
        // leaves out ASCII characters
        boolean negate =
                count(complement) < count(s)
                        && (complement.isNil() || complement.getMaxElement() <= 127);
        StringBuilder b = new StringBuilder(negate ? "[^" : "[");
        for (Interval iv : (negate ? complement : s).getIntervals()) {
            escape(b, iv.a, true);
            if (iv.b > iv.a) {
                if (iv.b > iv.a + 1) b.append('-');
                escape(b, iv.b, true);
            }
        }
        return b.append(']').toString();
    }

    private static int count(IntervalSet s) {
        return s.getIntervals().size();
    }

    /** Without the surrogate range, which no text holds as code points. */
    public static IntervalSet clip(IntervalSet set) {
        IntervalSet out = new IntervalSet();
        out.addAll(set);
        out.remove(-1);
        IntervalSet surrogates = IntervalSet.of(0xD800, 0xDFFF);
        return out.subtract(surrogates).and(IntervalSet.of(0, MAX_CODE_POINT));
    }

    private static void escape(StringBuilder b, int c, boolean inClass) {
        switch (c) {
            case '\n' -> b.append("\\n");
            case '\r' -> b.append("\\r");
            case '\t' -> b.append("\\t");
            case '\\' -> b.append("\\\\");
            case '"' -> b.append(inClass ? "\"" : "\\\"");
            default -> {
                if (inClass && (c == ']' || c == '[' || c == '^' || c == '-'))
                    b.append('\\').appendCodePoint(c);
                else if (c < 0x20 || c == 0x7F || (c >= 0x80 && c < 0xA0))
                    b.append(String.format("\\u%04X", c));
                else if (c > 0xFFFF) b.append(String.format("\\U%08X", c));
                else if (c >= 0x80 && !Character.isLetterOrDigit(c))
                    b.append(String.format("\\u%04X", c));
                else b.appendCodePoint(c);
            }
        }
    }
}
