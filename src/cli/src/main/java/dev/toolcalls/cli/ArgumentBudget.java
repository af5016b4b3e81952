package dev.toolcalls.cli;

import dev.toolcalls.ParseEvent;

import java.util.List;

/**
 * The most characters one call's arguments may reach in {@code parse --stream}. The parser hands
 * over a call's arguments as they arrive, but also keeps them whole for the call's end (its {@code
 * tool_call_end} event carries them, checked as one JSON object), so a single argument of the
 * input's size cannot stream through a small heap. Rather than running out of memory somewhere, the
 * stream stops when a call's arguments pass {@link #of(long) a sixteenth of the heap} in characters
 * (a character may take two bytes, held up to three times at the call's end), with an error that
 * names the limit and the heap ({@code too_large}, exit code 3).
 */
final class ArgumentBudget {
    private final long limit;
    private final long heap;
    private long open;
    private int call = -1;

    private ArgumentBudget(long limit, long heap) {
        this.limit = limit;
        this.heap = heap;
    }

    /** The budget for a JVM whose heap may grow to {@code maxHeapBytes}. */
    static ArgumentBudget of(long maxHeapBytes) {
        return new ArgumentBudget(Math.max(1 << 16, maxHeapBytes / 16), maxHeapBytes);
    }

    /** The budget of this JVM ({@code -Xmx}). */
    static ArgumentBudget ofThisJvm() {
        return of(Runtime.getRuntime().maxMemory());
    }

    long limit() {
        return limit;
    }

    /**
     * The same events, once counted.
     *
     * @throws TooLarge when the arguments of the open call pass the limit
     */
    List<ParseEvent> count(List<ParseEvent> events) {
        for (int i = 0; i < events.size(); i++) {
            ParseEvent e = events.get(i);
            if (e instanceof ParseEvent.ToolCallArguments) {
                ParseEvent.ToolCallArguments a = (ParseEvent.ToolCallArguments) e;
                if (a.index() != call) {
                    call = a.index();
                    open = 0;
                }
                open += a.fragment().length();
                if (open > limit) throw new TooLarge(call, limit, heap);
            } else if (e instanceof ParseEvent.ToolCallEnd) {
                open = 0;
                call = -1;
            }
        }
        return events;
    }

    /** A call's arguments passed the limit. */
    static final class TooLarge extends RuntimeException {
        private static final long serialVersionUID = 1L;

        TooLarge(int call, long limit, long heap) {
            super(
                    "the arguments of call "
                            + call
                            + " passed "
                            + limit
                            + " characters, the most one call may hold with a heap of "
                            + (heap >> 20)
                            + " MiB (a sixteenth of it): a call's arguments are held whole until it ends; give the JVM more heap (java -Xmx...)",
                    null,
                    false,
                    false);
        }
    }
}
