package dev.toolcalls.internal.lex;

import java.util.concurrent.atomic.AtomicReferenceFieldUpdater;

/**
 * What finished parsers of a format gave back (a parser's lexer and the rest of its parts), for the
 * next parser to take instead of making its own: ANTLR's generated lexer, its simulator, the input
 * buffer and the assemblers are most of what a small parse would otherwise allocate. A few slots,
 * taken and given with one atomic exchange each: any thread may take one and give it back, a parser
 * fed from several threads in turn included; a slot found empty (or full, when giving) is passed
 * over, so a busy server makes new parts rather than waiting.
 *
 * <p>Each slot is a field updated through a field updater ({@code Unsafe} inside the JDK) rather
 * than an element of an atomic array: a fresh JVM's first atomic array sets up the method-handle
 * machinery of its {@code VarHandle}, about 2 ms, and a lock would take two atomic updates where
 * the exchange takes one.
 */
public final class Spares<T> {
    private static final int SLOTS = 8;

    /** One place for a part. */
    private static final class Slot {
        volatile Object part;
    }

    private static final AtomicReferenceFieldUpdater<Slot, Object> PART =
            AtomicReferenceFieldUpdater.newUpdater(Slot.class, Object.class, "part");

    private final Slot[] slots = new Slot[SLOTS];

    public Spares() {
        for (int i = 0; i < SLOTS; i++) slots[i] = new Slot();
    }

    /** Something given back, or null when none waits (starting from a slot of this thread's). */
    @SuppressWarnings("unchecked")
    public T take() {
        int start = start();
        for (int i = 0; i < SLOTS; i++) {
            Slot s = slots[(start + i) & (SLOTS - 1)];
            if (s.part == null) continue;
            Object d = PART.getAndSet(s, null);
            if (d != null) return (T) d;
        }
        return null;
    }

    /** Keeps what no parser uses any more, when a slot is free. */
    public void give(T d) {
        int start = start();
        for (int i = 0; i < SLOTS; i++) {
            Slot s = slots[(start + i) & (SLOTS - 1)];
            if (s.part == null && PART.compareAndSet(s, null, d)) return;
        }
    }

    private static int start() {
        long id = Thread.currentThread().getId();
        return (int) (id ^ (id >>> 3));
    }
}
