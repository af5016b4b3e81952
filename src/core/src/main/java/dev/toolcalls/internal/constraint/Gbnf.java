package dev.toolcalls.internal.constraint;

import org.antlr.v4.runtime.misc.Interval;
import org.antlr.v4.runtime.misc.IntervalSet;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.StringJoiner;
import java.util.concurrent.ConcurrentHashMap;

/**
 * GBNF text: string literals, character classes and a set of named rules, written in the part of
 * GBNF that llama.cpp and xgrammar's EBNF both read (no empty alternative: {@code ""} instead).
 */
public final class Gbnf {
    /** The highest code point a class names (surrogates are left out). */
    public static final int MAX_CODE_POINT = 0x10FFFF;

    private static final int SURROGATE_MIN = 0xD800;

    private static final int SURROGATE_MAX = 0xDFFF;

    /**
     * The classes written, by set: a pure function of the set, asked for again by every build (the
     * keys of a tool's JSON objects, the runs), kept up to a bound.
     */
    private static final Map<IntervalSet, String> CLASSES = new ConcurrentHashMap<>();

    private static final int MAX_CLASSES = 4096;

    private static final char[] HEX = "0123456789ABCDEF".toCharArray();

    private static final int RECENT_BITS = 10;

    /**
     * The classes of at most {@link #RECENT_RANGES} ranges written last, by a hash of the ranges'
     * ends, one per slot: found without hashing the set as {@link #CLASSES} does.
     */
    private static final Written[] RECENT = new Written[1 << RECENT_BITS];

    private static final int RECENT_RANGES = 4;

    /** The rules of {@link #jsonString} by string, kept up to the same bound. */
    private static final Map<String, String> JSON_STRINGS = new ConcurrentHashMap<>();

    /** The rules' names and bodies, in the order they were first defined. */
    private String[] names;

    private String[] bodies;
    private int size;

    /**
     * The rules by name, open addressing: per slot, the name's hash (high half) and the number of
     * its rule plus one (low half; 0: none).
     */
    private long[] slots;

    /** 32 less the bits of a slot. */
    private int shift;

    /** The characters of the rules {@link #define} added, written as {@link #text} writes them. */
    private int defined;

    public Gbnf() {
        this(4);
    }

    /** A rule set that holds about {@code expected} rules without growing. */
    public Gbnf(int expected) {
        int capacity = Math.max(4, expected);
        names = new String[capacity];
        bodies = new String[capacity];
        int bits = 32 - Integer.numberOfLeadingZeros(2 * capacity - 1);
        slots = new long[1 << bits];
        shift = 32 - bits;
    }

    /** Defines a rule once; the name is returned for use in other rules. */
    public String define(String name, String body) {
        int h = name.hashCode();
        int at = find(name, h);
        if (at < 0) {
            add(name, h, body, ~at);
            defined += name.length() + body.length() + 6;
        }
        return name;
    }

    /**
     * About the length of the rules' text: exact for the rules added by {@link #define} alone (a
     * rule given another body by {@link #redefine} is counted with its first).
     */
    public int textSize() {
        return defined;
    }

    public boolean has(String name) {
        return find(name, name.hashCode()) >= 0;
    }

    /** The body of the rule {@code name}, or null where none is defined. */
    public String body(String name) {
        int at = find(name, name.hashCode());
        return at < 0 ? null : bodies[at];
    }

    /** The number of rules. */
    public int size() {
        return size;
    }

    /** The name of the {@code i}th rule defined. */
    public String name(int i) {
        return names[i];
    }

    /** The body of the {@code i}th rule defined. */
    public String body(int i) {
        return bodies[i];
    }

    /**
     * The rules as {@code {name=body, ...}}, in their order (a text that tells rule sets apart).
     */
    @Override
    public String toString() {
        StringBuilder b = new StringBuilder(defined + 2).append('{');
        for (int i = 0; i < size; i++) {
            if (i > 0) b.append(", ");
            b.append(names[i]).append('=').append(bodies[i]);
        }
        return b.append('}').toString();
    }

    /** Defines each rule of {@code from} here, in its order (each once, as {@link #define}). */
    public void defineAll(Gbnf from) {
        for (int i = 0; i < from.size; i++) define(from.names[i], from.bodies[i]);
    }

    /** Gives the defined rule {@code name} the body {@code body} in its place. */
    public void redefine(String name, String body) {
        int at = find(name, name.hashCode());
        if (at < 0) throw new IllegalArgumentException("no rule " + name);
        bodies[at] = body;
    }

    /** The grammar text, {@code root} first. */
    public String text() {
        StringBuilder b = new StringBuilder(defined + 64);
        String root = body("root");
        if (root != null) b.append("root ::= ").append(root).append('\n');
        for (int i = 0; i < size; i++)
            if (!names[i].equals("root"))
                b.append(names[i]).append(" ::= ").append(bodies[i]).append('\n');
        return b.toString();
    }

    /**
     * The number of the rule {@code name} of hash {@code h}; where there is none, {@code ~} the
     * free slot it would take.
     */
    private int find(String name, int h) {
        int mask = slots.length - 1;
        for (int i = (h * 0x9E3779B9) >>> shift; ; i = (i + 1) & mask) {
            long e = slots[i];
            if (e == 0) return ~i;
            if ((int) (e >>> 32) == h && names[(int) e - 1].equals(name)) return (int) e - 1;
        }
    }

    /** Adds a rule not defined, of hash {@code h}, at the free slot {@code slot}. */
    private void add(String name, int h, String body, int slot) {
        if (size == names.length) {
            names = Arrays.copyOf(names, 2 * size);
            bodies = Arrays.copyOf(bodies, 2 * size);
        }
        if (2 * (size + 1) > slots.length) {
            long[] old = slots;
            slots = new long[2 * old.length];
            shift--;
            for (long e : old) if (e != 0) slots[free((int) (e >>> 32))] = e;
            slot = free(h);
        }
        names[size] = name;
        bodies[size] = body;
        slots[slot] = (long) h << 32 | ++size;
    }

    /** The first free slot for hash {@code h}. */
    private int free(int h) {
        int mask = slots.length - 1;
        int i = (h * 0x9E3779B9) >>> shift;
        while (slots[i] != 0) i = (i + 1) & mask;
        return i;
    }

    /** A string literal; the empty string is {@code ""}. */
    public static String literal(String s) {
        StringBuilder b = new StringBuilder(s.length() + 8).append('"');
        for (int i = 0; i < s.length(); ) {
            int c = s.codePointAt(i);
            i += Character.charCount(c);
            escape(b, c, false);
        }
        return b.append('"').toString();
    }

    /** Appends the string literal of the one character {@code c}. */
    public static void literal(StringBuilder b, int c) {
        b.append('"');
        escape(b, c, false);
        b.append('"');
    }

    /**
     * The JSON strings, quotes included, that decode to {@code s}: each character as itself where
     * JSON allows it raw, by its short escape where it has one, or as a backslash, {@code u} and
     * four hex digits of either case (two such escapes beyond the BMP).
     */
    public static String jsonString(String s) {
        String known = JSON_STRINGS.get(s);
        if (known != null) return known;
        StringBuilder b = new StringBuilder("\"\\\"\"");
        StringBuilder u = new StringBuilder();
        for (int i = 0; i < s.length(); ) {
            int c = s.codePointAt(i);
            i += Character.charCount(c);
            b.append(" ( ");
            if (c >= 0x20 && c != '"' && c != '\\') {
                b.append('"');
                escape(b, c, false);
                b.append("\" | ");
            }
            int at = "\"\\/\b\f\n\r\t".indexOf(c);
            if (at >= 0) {
                b.append("\"\\\\");
                escape(b, "\"\\/bfnrt".charAt(at), false);
                b.append("\" | ");
            }
            // each UTF-16 unit as a backslash, u and four hex digits, a letter of either case
            u.setLength(0);
            for (char unit : Character.toChars(c)) {
                u.append(" \"\\\\u");
                for (int shift = 12; shift >= 0; shift -= 4) {
                    char h = Character.forDigit((unit >> shift) & 0xf, 16);
                    if (h < 'a') u.append(h);
                    else u.append("\" [").append(h).append((char) (h - 32)).append("] \"");
                }
                u.append('"');
            }
            b.append(u.substring(1).replace(" \"\"", "")).append(" )");
        }
        String made = b.append(" \"\\\"\"").toString();
        if (JSON_STRINGS.size() >= MAX_CLASSES) JSON_STRINGS.clear();
        JSON_STRINGS.put(s, made);
        return made;
    }

    /** A character class for a set of code points (a literal for a single one). */
    public static String charClass(IntervalSet set) {
        List<Interval> ranges = set.getIntervals();
        int k = ranges.size();
        if (k > RECENT_RANGES) return charClassKept(set);
        int h = k;
        for (int i = 0; i < k; i++) {
            Interval r = ranges.get(i);
            h = 31 * (31 * h + r.a) + r.b;
        }
        int at = (h * 0x9E3779B9) >>> (32 - RECENT_BITS);
        Written w = RECENT[at];
        if (w != null && w.ends.length == 2 * k) {
            boolean same = true;
            for (int i = 0; i < k && same; i++) {
                Interval r = ranges.get(i);
                same = w.ends[2 * i] == r.a && w.ends[2 * i + 1] == r.b;
            }
            if (same) return w.text;
        }
        String text = charClassKept(set);
        int[] ends = new int[2 * k];
        for (int i = 0; i < k; i++) {
            ends[2 * i] = ranges.get(i).a;
            ends[2 * i + 1] = ranges.get(i).b;
        }
        RECENT[at] = new Written(ends, text);
        return text;
    }

    /** {@link #charClass} by way of {@link #CLASSES}. */
    private static String charClassKept(IntervalSet set) {
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
        // xgrammar 0.1 compares a negated class's members as bytes, so a negated class only leaves
        // out ASCII characters; it then reads every character above 127 right
        if (complement.isNil() || complement.getMaxElement() <= 127) {
            StringBuilder b = new StringBuilder("[^");
            for (Interval iv : complement.getIntervals()) range(b, iv.a, iv.b);
            return b.append(']').toString();
        }
        return positive(s);
    }

    /**
     * A class of the members of {@code s}, at least one of them above 127, that xgrammar 0.1 does
     * not misread as other ASCII characters. It compares an ASCII character with each range of a
     * class by the low byte of the range's ends (a range of characters above 127 it never matches
     * at all): {@code \uE000-\uFF5B} matches {@code <} there, as {@code 00-5B}. So each range of
     * characters above 127 starts at a low byte of 128 or more, or ends at a lower low byte than it
     * starts ({@code \u0080-\uFF5B}, {@code \uFF5D-\U0010FF00}), taking in surrogates (no text
     * holds them) where that helps and overlapping the set's own ranges; the characters no such
     * range can hold (those at the start of a range of the set, from a low byte under 128 to 127)
     * are string literals beside the class, at most 128 per range of the set. Engines that read
     * classes by code point read the same set.
     */
    private static String positive(IntervalSet s) {
        StringBuilder b = new StringBuilder("[");
        List<Integer> alone = new ArrayList<>();
        IntervalSet high = new IntervalSet();
        for (Interval iv : s.getIntervals()) {
            if (iv.a <= 0x7F) range(b, iv.a, Math.min(iv.b, 0x7F));
            if (iv.b > 0x7F) high.add(Math.max(iv.a, 0x80), iv.b);
        }
        IntervalSet loose = new IntervalSet(high);
        loose.add(SURROGATE_MIN, SURROGATE_MAX);
        for (Interval room : loose.getIntervals()) {
            IntervalSet need = high.and(IntervalSet.of(room.a, room.b));
            if (need.isNil()) continue;
            int first = need.getMinElement();
            int last = need.getMaxElement();
            if ((first & 0xFF) >= 0x80) {
                range(b, first, last);
                continue;
            }
            int page = first & ~0xFF;
            int below =
                    page - 1 >= SURROGATE_MIN && page - 1 <= SURROGATE_MAX
                            ? SURROGATE_MIN - 1
                            : page - 1;
            if (below >= room.a) {
                range(b, below, last);
                continue;
            }
            if (last >= page + 0x80) range(b, page + 0x80, last);
            int low = Math.min(last, page + 0x7F);
            int end = page + 0x100 + (first & 0xFF) - 1;
            if (end >= SURROGATE_MIN && end <= SURROGATE_MAX)
                end += SURROGATE_MAX + 1 - SURROGATE_MIN;
            if ((first & 0xFF) > 0 && end <= room.b) range(b, first, end);
            else for (int c = first; c <= low; c++) if (high.contains(c)) alone.add(c);
        }
        String cls = b.length() > 1 ? b.append(']').toString() : null;
        if (alone.isEmpty()) return cls;
        StringJoiner alts = new StringJoiner(" | ", "( ", " )");
        if (cls != null) alts.add(cls);
        for (int c : alone) alts.add(literal(new String(Character.toChars(c))));
        return alts.toString();
    }

    private static void range(StringBuilder b, int from, int to) {
        escape(b, from, true);
        if (to > from) {
            if (to > from + 1) b.append('-');
            escape(b, to, true);
        }
    }

    /** Without the surrogate range, which no text holds as code points. */
    public static IntervalSet clip(IntervalSet set) {
        IntervalSet out = new IntervalSet();
        out.addAll(set);
        out.remove(-1);
        IntervalSet surrogates = IntervalSet.of(SURROGATE_MIN, SURROGATE_MAX);
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
                    hex(b.append("\\u"), c, 4);
                else if (c > 0xFFFF) hex(b.append("\\U"), c, 8);
                else if (c >= 0x80 && (inClass || !Character.isLetterOrDigit(c)))
                    hex(b.append("\\u"), c, 4);
                else b.appendCodePoint(c);
            }
        }
    }

    /** Appends {@code c} in {@code digits} upper-case hexadecimal digits. */
    private static void hex(StringBuilder b, int c, int digits) {
        for (int shift = 4 * (digits - 1); shift >= 0; shift -= 4)
            b.append(HEX[(c >>> shift) & 0xF]);
    }

    /** A class written ({@link #RECENT}): its ranges' ends, and its text. */
    private record Written(int[] ends, String text) {}
}
