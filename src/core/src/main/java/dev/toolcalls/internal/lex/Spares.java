package dev.toolcalls.internal.lex;

/**
 * What finished parsers of a format gave back (a parser's lexer and the rest of its parts), for the
 * next parser to take instead of making its own: ANTLR's generated lexer, its simulator, the input
 * buffer and the assemblers are most of what a small parse would otherwise allocate. A few kept,
 * taken and given under their lock (held for one look and one store): any thread may take one and
 * give it back, a parser fed from several threads in turn included; when all places are taken what
 * is given is dropped, so a busy server makes new parts rather than waiting. A lock rather than an
 * atomic array: a fresh JVM's first atomic array sets up the method-handle machinery of its {@code
 * VarHandle}, about 2 ms.
 */
public final class Spares<T> {
    private static final int SLOTS = 8;

    private final Object[] kept = new Object[SLOTS];
    private int count;

    /** Something given back, or null when none waits. */
    @SuppressWarnings("unchecked")
    public T take() {
        synchronized (kept) {
            if (count == 0) return null;
            Object d = kept[--count];
            kept[count] = null;
            return (T) d;
        }
    }

    /** Keeps what no parser uses any more, when a place is free. */
    public void give(T d) {
        synchronized (kept) {
            if (count < SLOTS) kept[count++] = d;
        }
    }
}
