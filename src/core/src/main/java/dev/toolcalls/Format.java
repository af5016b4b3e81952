package dev.toolcalls;

import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * One model convention: a lexer grammar and its format file. Immutable and safe to share across
 * threads; get one from {@link Formats} (bundled, loaded from a folder, or from a {@link
 * FormatProvider}). Its lexer is built on first use, once.
 *
 * <pre>{@code
 * Format format = Formats.get(name);                   // a name or an alias
 * ChatMessage m = format.parse(text, tools);           // batch: {"content": ..., "tool_calls": [...]}
 * StreamParser s = format.newStream(tools);            // one per response
 * }</pre>
 *
 * <p>Batch parsing is the streaming pipeline fed the whole text at once, then finished, so batch
 * and streaming cannot disagree.
 */
public interface Format {
    /** The format's name, as its format file gives it. */
    String name();

    /** Other names it answers to (case-insensitive), e.g. the parser names peer servers use. */
    List<String> aliases();

    /** What the format is for, in a line. */
    String description();

    /**
     * Where this format came from: the path of its format file ({@code grammars/NAME/NAME.json
     * (bundled)} for a bundled one, the file under a loaded folder otherwise), or the provider that
     * made it.
     */
    String origin();

    /**
     * Why this format cannot be used, if it cannot: its format file or grammar is broken, or its
     * name is taken by another format. Builds the format if it was not built yet.
     */
    Optional<FormatException> problem();

    /**
     * The events of a complete output, in order. The protocols build their batch responses from
     * these ({@link dev.toolcalls.protocol.Protocol#response}). The streaming pipeline fed the
     * whole text at once, then finished, so batch and streaming cannot disagree, except in one way:
     * lenient, a malformed call becomes its raw text (from its first character) in the content even
     * after its name was read, since nothing of it has left the process, where a stream has already
     * sent its start and fails.
     *
     * @throws ToolCallParseException when the output breaks the format (strict)
     * @throws FormatException when the format cannot be built
     */
    List<ParseEvent> parseEvents(String text, Tools tools, ParseOptions options);

    /**
     * A parser for one streamed response (see {@link StreamParser}).
     *
     * @throws FormatException when the format cannot be built
     */
    StreamParser newStream(Tools tools, ParseOptions options);

    /**
     * A parser for one streamed response given as token ids of {@code vocabulary}, the model's own
     * ({@link StreamParser#feedTokens}): added tokens are told from ordinary text by their ids, so
     * special tokens are marked from the first id on ({@link
     * ParseOptions#withSpecialTokensMarked}). The text methods {@code feed} and {@code feedSpecial}
     * still work on it.
     *
     * @throws FormatException when the format cannot be built
     */
    default StreamParser newStream(Tools tools, ParseOptions options, Vocabulary vocabulary) {
        return newStream(tools, options).withVocabulary(Objects.requireNonNull(vocabulary));
    }

    /**
     * Parses a complete output into a message.
     *
     * @throws ToolCallParseException as {@link #parseEvents}
     */
    default ChatMessage parse(String text, Tools tools, ParseOptions options) {
        return ChatMessage.fromEvents(parseEvents(text, tools, options));
    }

    /** Parses a complete output, strictly, with random ids. */
    default ChatMessage parse(String text, Tools tools) {
        return parse(text, tools, ParseOptions.defaults());
    }

    /** Parses a complete output without tools, strictly, with random ids. */
    default ChatMessage parse(String text) {
        return parse(text, Tools.none(), ParseOptions.defaults());
    }

    /**
     * The decoding constraint of this format for these tools and options, as text for the target
     * the options name: a GBNF grammar for the whole output, llama.cpp's chat parameters, an
     * xgrammar structural tag or a Lark grammar. Derived from the format's lexer and the tools'
     * JSON schemas (see the docs' constrained decoding page).
     *
     * @throws ConstraintException when a tool's schema uses a keyword the target cannot express,
     *     the tool choice names no tool, or the target cannot express this format
     * @throws FormatException when the format cannot be built
     */
    default String constraint(Tools tools, ConstraintOptions options) {
        return Constraints.build(this, tools, options);
    }

    /** A stream parser with the default options. */
    default StreamParser newStream(Tools tools) {
        return newStream(tools, ParseOptions.defaults());
    }

    /** A stream parser without tools, with the default options. */
    default StreamParser newStream() {
        return newStream(Tools.none(), ParseOptions.defaults());
    }
}
