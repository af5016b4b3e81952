package dev.toolcalls;

import java.util.Objects;
import java.util.function.Supplier;

/**
 * How to parse one response. Immutable; {@link #defaults()} is strict, with random ids and the
 * default limits.
 *
 * <pre>{@code
 * ParseOptions lenient = ParseOptions.defaults().withLenient(true);
 * ParseOptions reproducible = ParseOptions.defaults().withIds(() -> IdGenerator.seeded(0));
 * ParseOptions tight = ParseOptions.defaults().withMaxNameLength(256).withMaxTokenLength(1 << 16);
 * }</pre>
 *
 * <p>Limits bound what one output may cost; exceeding one is a {@link ToolCallParseException} of
 * kind {@link ToolCallParseException.Kind#LIMIT_EXCEEDED}, with the offset where it happened:
 *
 * <ul>
 *   <li>{@link #maxTokenLength()} (default 16 Mi code points): the longest token still undecided at
 *       the end of the data received (a name, key, number or marker that has not ended); text that
 *       streams (content, string characters) is never held, so it is not limited;
 *   <li>{@link #maxNameLength()} (default 1 Mi code points): the longest function name;
 *   <li>{@link #maxNesting()} (default 512): the deepest nesting of arrays and objects in
 *       arguments.
 * </ul>
 */
public final class ParseOptions {
    /**
     * What to do with a call to a function that is not among the request's tools (decided only when
     * it has tools).
     */
    public enum UnknownTool {
        /** Pass it through as a call (the default). */
        KEEP,
        /** Return its raw text as content, as for a malformed call in lenient mode. */
        TEXT,
        /** Fail with {@link ToolCallParseException.Kind#UNKNOWN_TOOL}. */
        ERROR
    }

    private static final ParseOptions DEFAULTS =
            new ParseOptions(
                    false, new RandomIds(), null, 16 << 20, 1 << 20, 512, UnknownTool.KEEP, false);

    /**
     * The default ids' source (a class rather than a method reference: the first lambda of a
     * process costs a fresh JVM several milliseconds of method-handle set-up).
     */
    private static final class RandomIds implements Supplier<IdGenerator> {
        @Override
        public IdGenerator get() {
            return IdGenerator.random();
        }
    }

    private final boolean lenient;
    private final Supplier<? extends IdGenerator> ids;
    private final Boolean thinking;
    private final int maxTokenLength;
    private final int maxNameLength;
    private final int maxNesting;
    private final UnknownTool unknownTool;
    private final boolean specialTokensMarked;

    private ParseOptions(
            boolean lenient,
            Supplier<? extends IdGenerator> ids,
            Boolean thinking,
            int maxTokenLength,
            int maxNameLength,
            int maxNesting,
            UnknownTool unknownTool,
            boolean specialTokensMarked) {
        this.lenient = lenient;
        this.ids = ids;
        this.thinking = thinking;
        this.maxTokenLength = maxTokenLength;
        this.maxNameLength = maxNameLength;
        this.maxNesting = maxNesting;
        this.unknownTool = unknownTool;
        this.specialTokensMarked = specialTokensMarked;
    }

    public static ParseOptions defaults() {
        return DEFAULTS;
    }

    /**
     * Lenient: a malformed call comes back as content (its raw text, from its first character)
     * instead of failing, when nothing of it has been emitted yet. A batch parse ({@link
     * Format#parse}, {@link Format#parseEvents}) emits nothing before the end, so it always
     * recovers; a stream that has already sent a delta of the call fails, since failing is then the
     * only honest answer.
     */
    public ParseOptions withLenient(boolean lenient) {
        return new ParseOptions(
                lenient,
                ids,
                thinking,
                maxTokenLength,
                maxNameLength,
                maxNesting,
                unknownTool,
                specialTokensMarked);
    }

    /** Where ids come from: called once per response. */
    public ParseOptions withIds(Supplier<? extends IdGenerator> ids) {
        return new ParseOptions(
                lenient,
                Objects.requireNonNull(ids),
                thinking,
                maxTokenLength,
                maxNameLength,
                maxNesting,
                unknownTool,
                specialTokensMarked);
    }

    /**
     * Whether the request had thinking on: in formats whose prompt opens the think block, the
     * output then starts inside reasoning. Null (the default) leaves it to the format.
     */
    public ParseOptions withThinking(Boolean thinking) {
        return new ParseOptions(
                lenient,
                ids,
                thinking,
                maxTokenLength,
                maxNameLength,
                maxNesting,
                unknownTool,
                specialTokensMarked);
    }

    /** The longest token that may stay undecided, in code points (at least 16). */
    public ParseOptions withMaxTokenLength(int codePoints) {
        return new ParseOptions(
                lenient,
                ids,
                thinking,
                atLeast(codePoints, 16, "maxTokenLength"),
                maxNameLength,
                maxNesting,
                unknownTool,
                specialTokensMarked);
    }

    /** The longest function name, in code points (at least 1). */
    public ParseOptions withMaxNameLength(int codePoints) {
        return new ParseOptions(
                lenient,
                ids,
                thinking,
                maxTokenLength,
                atLeast(codePoints, 1, "maxNameLength"),
                maxNesting,
                unknownTool,
                specialTokensMarked);
    }

    /** The deepest nesting of arrays and objects in arguments (at least 1). */
    public ParseOptions withMaxNesting(int levels) {
        return new ParseOptions(
                lenient,
                ids,
                thinking,
                maxTokenLength,
                maxNameLength,
                atLeast(levels, 1, "maxNesting"),
                unknownTool,
                specialTokensMarked);
    }

    /**
     * What to do with calls to functions the request's tools do not name; see {@link UnknownTool}.
     */
    public ParseOptions withUnknownTool(UnknownTool policy) {
        return new ParseOptions(
                lenient,
                ids,
                thinking,
                maxTokenLength,
                maxNameLength,
                maxNesting,
                Objects.requireNonNull(policy),
                specialTokensMarked);
    }

    private static int atLeast(int value, int min, String what) {
        if (value < min)
            throw new IllegalArgumentException(
                    what + " must be at least " + min + ", not " + value);
        return value;
    }

    /** The request's thinking setting, or null when the format decides. */
    public Boolean thinking() {
        return thinking;
    }

    public boolean lenient() {
        return lenient;
    }

    public int maxTokenLength() {
        return maxTokenLength;
    }

    public int maxNameLength() {
        return maxNameLength;
    }

    public int maxNesting() {
        return maxNesting;
    }

    public UnknownTool unknownTool() {
        return unknownTool;
    }

    /**
     * The caller passes every special token of the output through {@link StreamParser#feedSpecial}
     * (it holds token ids and knows which are special): from the first piece on, a marker the
     * format lists as a special token counts only when it arrives that way, and the same letters in
     * ordinary text are text. Off by default: text is taken as detokenized with special tokens
     * kept, and a parser switches this on at its first {@code feedSpecial}.
     */
    public ParseOptions withSpecialTokensMarked(boolean marked) {
        return new ParseOptions(
                lenient,
                ids,
                thinking,
                maxTokenLength,
                maxNameLength,
                maxNesting,
                unknownTool,
                marked);
    }

    public boolean specialTokensMarked() {
        return specialTokensMarked;
    }

    IdGenerator newIdGenerator() {
        return ids.get();
    }
}
