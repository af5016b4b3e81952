package dev.toolcalls.internal.lex;

import java.util.concurrent.atomic.AtomicReferenceArray;

/**
 * What finished parsers of a format gave back (a parser's lexer and the rest of its parts), for the
 * next parser to take instead of making its own: ANTLR's generated lexer, its simulator, the input
 * buffer and the assemblers are most of what a small parse would otherwise allocate. A few slots,
 * taken and given with one atomic exchange each: any thread may take one and give it back, a parser
 * fed from several threads in turn included; a slot found empty (or full, when giving) is passed
 * over, so a busy server makes new parts rather than waiting.
 */
public final class Spares<T> {
    private static final int SLOTS = 8;

    private final AtomicReferenceArray<T> slots = new AtomicReferenceArray<>(SLOTS);

    /** Something given back, or null when none waits (starting from a slot of this thread's). */
    public T take() {
        int start = start();
        for (int i = 0; i < SLOTS; i++) {
            int k = (start + i) & (SLOTS - 1);
            if (slots.getPlain(k) == null) continue;
            T d = slots.getAndSet(k, null);
            if (d != null) return d;
        }
        return null;
    }

    /** Keeps what no parser uses any more, when a slot is free. */
    public void give(T d) {
        int start = start();
        for (int i = 0; i < SLOTS; i++) {
            int k = (start + i) & (SLOTS - 1);
            if (slots.getPlain(k) == null && slots.compareAndSet(k, null, d)) return;
        }
    }

    private static int start() {
        long id = Thread.currentThread().getId();
        return (int) (id ^ (id >>> 3));
    }
}
