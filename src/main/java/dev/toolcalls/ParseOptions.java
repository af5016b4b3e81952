package dev.toolcalls;

import java.util.Objects;
import java.util.function.Supplier;

/**
 * How to parse one response. Immutable; {@link #defaults()} is strict with random ids.
 *
 * <pre>{@code
 * ParseOptions lenient = ParseOptions.defaults().withLenient(true);
 * ParseOptions reproducible = ParseOptions.defaults().withIds(() -> IdGenerator.seeded(0));
 * }</pre>
 */
public final class ParseOptions {
    private static final ParseOptions DEFAULTS = new ParseOptions(false, IdGenerator::random, null);

    private final boolean lenient;
    private final Supplier<? extends IdGenerator> ids;
    private final Boolean thinking;

    private ParseOptions(boolean lenient, Supplier<? extends IdGenerator> ids, Boolean thinking) {
        this.lenient = lenient;
        this.ids = ids;
        this.thinking = thinking;
    }

    public static ParseOptions defaults() { return DEFAULTS; }

    /**
     * Lenient: a malformed call of which nothing has been emitted yet comes back as content
     * (its raw text) instead of failing. Once any delta of a call is out, failing is the only
     * honest answer, lenient or not.
     */
    public ParseOptions withLenient(boolean lenient) { return new ParseOptions(lenient, ids, thinking); }

    /** Where ids come from: called once per response. */
    public ParseOptions withIds(Supplier<? extends IdGenerator> ids) {
        return new ParseOptions(lenient, Objects.requireNonNull(ids), thinking);
    }

    /**
     * Whether the request had thinking on: in formats whose prompt opens the think block, the
     * output then starts inside reasoning. Null (the default) leaves it to the format.
     */
    public ParseOptions withThinking(Boolean thinking) { return new ParseOptions(lenient, ids, thinking); }

    /** The request's thinking setting, or null when the format decides. */
    public Boolean thinking() { return thinking; }

    public boolean lenient() { return lenient; }

    IdGenerator newIdGenerator() { return ids.get(); }
}
