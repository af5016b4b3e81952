package dev.toolcalls.internal.constraint;

import org.antlr.v4.runtime.misc.IntervalSet;

import java.util.ArrayList;
import java.util.List;

/**
 * A deterministic automaton of the texts that are, with Java's whitespace stripped from their ends,
 * strict JSON of a type other than a string, nested at most {@code depth} levels: what the parser
 * reads as such a value where the text says the value is JSON ({@code string="false"}), so that a
 * parameter taking a string is written anything but these. The automaton reads a text while it may
 * still become such a value; where it cannot ({@link #FREE}), any text may follow. A top-level
 * string is free at once (the parser reads it as a string, or as the text written where more
 * follows), and so is a container opened deeper than {@code depth}: such a value is taken as not
 * JSON, more than the parser reads as a string, never less. A {@code \}{@code u} escape is read
 * with ASCII hex digits only (the parser also reads other digits there): free otherwise, the same
 * way.
 */
final class JsonPrefixes {
    /** The state where the text can no longer be such a value: any text may follow. */
    static final State FREE = new State(Pos.FREE, "", 0);

    /** The start: before the value, among blanks that {@code strip()} takes. */
    static final State START = new State(Pos.TOP, "", 0);

    /**
     * Inside a string of a container, wherever it is ({@code *}): read up to its closing quote,
     * which the reader of this state takes for itself.
     */
    static final State IN_STRING = new State(Pos.STRING, "*", 0);

    private static final String LITERALS = "true false null";

    /** Where a state is in the value. */
    enum Pos {
        FREE,
        /** before the value (blanks) */
        TOP,
        /** after the whole value (blanks) */
        END,
        /** a value expected inside a container */
        VALUE,
        /** after {@code [}: a value or {@code ]} */
        ARRAY_FIRST,
        /** after {@code {}: a key or {@code }} */
        OBJECT_FIRST,
        /** after {@code ,} in an object: a key */
        KEY,
        /** after a key: {@code :} */
        AFTER_KEY,
        /** after a value inside a container: {@code ,} or its close */
        AFTER,
        /** in a string (a key's where {@code sub} is 1, else a value's) */
        STRING,
        /** after a backslash in a string ({@code sub} as in {@link #STRING}) */
        ESCAPE,
        /** in {@code \}{@code u} escape, {@code sub} / 2 hex digits read, key where odd */
        HEX,
        MINUS,
        ZERO,
        INT,
        DOT,
        FRACTION,
        EXPONENT,
        EXPONENT_SIGN,
        EXPONENT_DIGITS,
        /** in {@code true}, {@code false} or {@code null}: {@code sub} is the place in LITERALS */
        LITERAL
    }

    /**
     * A state: where it is, the containers open ({@code o} an object, {@code a} an array, outermost
     * first) and a number whose meaning depends on the place.
     */
    record State(Pos pos, String stack, int sub) {}

    private final int depth;

    JsonPrefixes(int depth) {
        this.depth = depth;
    }

    /** The classes of characters the automaton tells apart (beside the rest). */
    static List<IntervalSet> labels() {
        List<IntervalSet> out = new ArrayList<>();
        for (int c = 0; c < 0x80; c++) out.add(IntervalSet.of(c));
        return out;
    }

    /** Whether the text read is such a value (the parser reads a value of another type). */
    static boolean accepting(State s) {
        if (s.pos == Pos.END) return true;
        if (!s.stack.isEmpty()) return false;
        return switch (s.pos) {
            case ZERO, INT, FRACTION, EXPONENT_DIGITS -> true;
            default -> false;
        };
    }

    /** Whether the state is inside a string (its escapes included). */
    static boolean inString(State s) {
        return s.pos == Pos.STRING || s.pos == Pos.ESCAPE || s.pos == Pos.HEX;
    }

    /** The state after {@code c}. */
    State step(State s, int c) {
        String st = s.stack;
        switch (s.pos) {
            case FREE:
                return FREE;
            case TOP:
                return stripped(c) ? s : value(st, c);
            case END:
                return stripped(c) ? s : FREE;
            case VALUE:
                return blank(c) ? s : value(st, c);
            case ARRAY_FIRST:
                if (blank(c)) return s;
                return c == ']' ? done(pop(st)) : value(st, c);
            case OBJECT_FIRST:
                if (blank(c)) return s;
                if (c == '}') return done(pop(st));
                return c == '"' ? new State(Pos.STRING, st, 1) : FREE;
            case KEY:
                if (blank(c)) return s;
                return c == '"' ? new State(Pos.STRING, st, 1) : FREE;
            case AFTER_KEY:
                if (blank(c)) return s;
                return c == ':' ? new State(Pos.VALUE, st, 0) : FREE;
            case AFTER:
                return after(st, c);
            case STRING:
                if (c == '"') return s.sub == 1 ? new State(Pos.AFTER_KEY, st, 0) : done(st);
                if (c == '\\') return new State(Pos.ESCAPE, st, s.sub);
                return c < 0x20 ? FREE : s;
            case ESCAPE:
                if (c == 'u') return new State(Pos.HEX, st, s.sub);
                return c < 0x80 && "\"\\/bfnrt".indexOf(c) >= 0
                        ? new State(Pos.STRING, st, s.sub)
                        : FREE;
            case HEX:
                if (!(c >= '0' && c <= '9' || c >= 'a' && c <= 'f' || c >= 'A' && c <= 'F'))
                    return FREE;
                return s.sub >= 6
                        ? new State(Pos.STRING, st, s.sub & 1)
                        : new State(Pos.HEX, st, s.sub + 2);
            case MINUS:
                if (c == '0') return new State(Pos.ZERO, st, 0);
                return c >= '1' && c <= '9' ? new State(Pos.INT, st, 0) : FREE;
            case ZERO:
            case INT:
                if (s.pos == Pos.INT && c >= '0' && c <= '9') return s;
                if (c == '.') return new State(Pos.DOT, st, 0);
                if (c == 'e' || c == 'E') return new State(Pos.EXPONENT, st, 0);
                return ended(st, c);
            case DOT:
                return c >= '0' && c <= '9' ? new State(Pos.FRACTION, st, 0) : FREE;
            case FRACTION:
                if (c >= '0' && c <= '9') return s;
                if (c == 'e' || c == 'E') return new State(Pos.EXPONENT, st, 0);
                return ended(st, c);
            case EXPONENT:
                if (c == '+' || c == '-') return new State(Pos.EXPONENT_SIGN, st, 0);
                return c >= '0' && c <= '9' ? new State(Pos.EXPONENT_DIGITS, st, 0) : FREE;
            case EXPONENT_SIGN:
                return c >= '0' && c <= '9' ? new State(Pos.EXPONENT_DIGITS, st, 0) : FREE;
            case EXPONENT_DIGITS:
                return c >= '0' && c <= '9' ? s : ended(st, c);
            case LITERAL:
                if (c != LITERALS.charAt(s.sub)) return FREE;
                int next = s.sub + 1;
                return next == LITERALS.length() || LITERALS.charAt(next) == ' '
                        ? done(st)
                        : new State(Pos.LITERAL, st, next);
            default:
                return FREE;
        }
    }

    /** The first character {@code c} of a value inside the containers {@code st}. */
    private State value(String st, int c) {
        switch (c) {
            case '{':
            case '[':
                return st.length() >= depth
                        ? FREE
                        : new State(
                                c == '{' ? Pos.OBJECT_FIRST : Pos.ARRAY_FIRST,
                                st + (c == '{' ? 'o' : 'a'),
                                0);
            case '"':
                return st.isEmpty() ? FREE : new State(Pos.STRING, st, 0);
            case '-':
                return new State(Pos.MINUS, st, 0);
            case '0':
                return new State(Pos.ZERO, st, 0);
            case 't':
            case 'f':
            case 'n':
                return new State(Pos.LITERAL, st, LITERALS.indexOf((char) c) + 1);
            default:
                return c >= '1' && c <= '9' ? new State(Pos.INT, st, 0) : FREE;
        }
    }

    /** After a whole value inside the containers {@code st}. */
    private static State done(String st) {
        return new State(st.isEmpty() ? Pos.END : Pos.AFTER, st, 0);
    }

    /** {@code c} after a number that may end there. */
    private static State ended(String st, int c) {
        return st.isEmpty() ? (stripped(c) ? done(st) : FREE) : after(st, c);
    }

    private static State after(String st, int c) {
        if (blank(c)) return new State(Pos.AFTER, st, 0);
        boolean object = st.charAt(st.length() - 1) == 'o';
        if (c == ',') return new State(object ? Pos.KEY : Pos.VALUE, st, 0);
        if (c == (object ? '}' : ']')) return done(pop(st));
        return FREE;
    }

    private static String pop(String st) {
        return st.substring(0, st.length() - 1);
    }

    /** JSON's whitespace between tokens. */
    private static boolean blank(int c) {
        return c == ' ' || c == '\t' || c == '\n' || c == '\r';
    }

    /**
     * What {@code strip()} takes from the ends, but above 127: a value with such whitespace at an
     * end is taken as text (a class that leaves out characters above 127 is read by no engine the
     * same as by xgrammar 0.1, which takes all of them or none).
     */
    private static boolean stripped(int c) {
        return c < 0x80 && JsonSchemaRules.STRIPPED.contains(c);
    }
}
