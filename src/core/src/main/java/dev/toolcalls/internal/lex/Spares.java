package dev.toolcalls.internal.lex;

import java.util.concurrent.atomic.AtomicReferenceArray;

/**
 * A format's lexers that finished parsers gave back, for the next parser to take instead of making
 * its own (ANTLR's generated lexer, its simulator and the input buffer are most of what a small
 * parse would otherwise allocate). A few slots, taken and given with one atomic exchange each: any
 * thread may take one and give it back, a parser fed from several threads in turn included; a slot
 * found empty (or full, when giving) is passed over, so a busy server makes new lexers rather than
 * waiting.
 */
final class Spares {
    private static final int SLOTS = 8;

    private final AtomicReferenceArray<LexerDriver> slots = new AtomicReferenceArray<>(SLOTS);

    /** A lexer given back, or null when none waits (starting from a slot of this thread's). */
    LexerDriver take() {
        int start = start();
        for (int i = 0; i < SLOTS; i++) {
            int k = (start + i) & (SLOTS - 1);
            if (slots.getPlain(k) == null) continue;
            LexerDriver d = slots.getAndSet(k, null);
            if (d != null) return d;
        }
        return null;
    }

    /** Keeps a lexer no parser uses any more, when a slot is free. */
    void give(LexerDriver d) {
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
