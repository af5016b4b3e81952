package dev.toolcalls;

import dev.toolcalls.internal.format.CompiledFormat;
import dev.toolcalls.internal.format.FormatDefinition;
import dev.toolcalls.internal.format.FormatFile;
import dev.toolcalls.internal.format.FormatSource;
import dev.toolcalls.internal.lex.Spares;

import java.util.List;
import java.util.Optional;
import java.util.function.Supplier;

/**
 * A {@link Format} defined by a lexer grammar and its format file, as every format is: bundled,
 * loaded from a folder, or defined by a provider. The tools read its definition ({@link
 * FormatDefinition}); its lexer is built on first use, once.
 */
final class GrammarFormat implements Format, FormatDefinition {

    private final String name;
    private final List<String> aliases;
    private final String description;
    private final String origin;
    private final Supplier<FormatSource> source;
    private volatile FormatSource read;
    private volatile CompiledFormat compiled;
    private volatile FormatException failure;
    private boolean fromFolder;

    /** The parts of parsers that finished, for new parsers to reuse. */
    private final Spares<ParserParts> spares = new Spares<>();

    /**
     * @param origin where it came from, for messages: its format file's path, or the provider
     * @param source what it is made of, read on first use
     */
    GrammarFormat(
            String name,
            List<String> aliases,
            String description,
            String origin,
            Supplier<FormatSource> source) {
        this.name = name;
        this.aliases = List.copyOf(aliases);
        this.description = description;
        this.origin = origin;
        this.source = source;
    }

    /**
     * A format read from a folder at run time: built at once, so its problems are known at once.
     */
    static GrammarFormat fromFolder(
            String name,
            List<String> aliases,
            String description,
            String origin,
            FormatSource source) {
        GrammarFormat f = new GrammarFormat(name, aliases, description, origin, () -> source);
        f.fromFolder = true;
        f.problem();
        return f;
    }

    boolean loadedAtRunTime() {
        return fromFolder;
    }

    /** A format already built. */
    static GrammarFormat built(String origin, FormatSource source, CompiledFormat c) {
        FormatFile file = c.file();
        GrammarFormat f =
                new GrammarFormat(
                        file.name(), file.aliases(), file.description(), origin, () -> source);
        f.compiled = c;
        return f;
    }

    /** The same format, disabled: every use throws {@code why}. */
    GrammarFormat disabled(FormatException why) {
        GrammarFormat f = new GrammarFormat(name, aliases, description, origin, source);
        f.fromFolder = fromFolder;
        f.failure = why;
        return f;
    }

    /** The same format, from another origin (a provider's formats are named after it). */
    GrammarFormat from(String otherOrigin) {
        GrammarFormat f = new GrammarFormat(name, aliases, description, otherOrigin, this::parts);
        f.compiled = compiled;
        f.failure = failure;
        return f;
    }

    @Override
    public String name() {
        return name;
    }

    @Override
    public List<String> aliases() {
        return aliases;
    }

    @Override
    public String description() {
        return description;
    }

    @Override
    public String origin() {
        return origin;
    }

    @Override
    public Optional<FormatException> problem() {
        try {
            compiled();
            return Optional.empty();
        } catch (FormatException e) {
            return Optional.of(e);
        }
    }

    @Override
    public FormatSource source() {
        return parts();
    }

    private FormatSource parts() {
        FormatSource s = read;
        if (s == null) read = s = source.get();
        return s;
    }

    /**
     * Builds the lexer model on first use; a format that cannot be built fails the same way every
     * time.
     */
    @Override
    public CompiledFormat compiled() {
        CompiledFormat c = compiled;
        if (c != null) return c;
        synchronized (this) {
            if (compiled != null) return compiled;
            if (failure != null) throw failure;
            try {
                compiled = parts().compile();
            } catch (FormatException e) {
                failure = e;
                throw e;
            } catch (RuntimeException e) {
                failure = new FormatException(e.getMessage(), e);
                throw failure;
            }
            return compiled;
        }
    }

    @Override
    public List<ParseEvent> parseEvents(String text, Tools tools, ParseOptions options) {
        Tools t = tools == null ? Tools.none() : tools;
        ParseOptions o = options == null ? ParseOptions.defaults() : options;
        ParserParts parts = wholeParts(t, o);
        List<ParseEvent> events = parts.whole.wholeOutput().feedWhole(text);
        parts.clear(); // after an error the parts stay with the failed parser, as a stream's do
        spares.give(parts);
        return events;
    }

    /**
     * The message of {@link #parseEvents}, gathered without making the events. On an error the
     * output is parsed again, with events, for the error to carry them: with the same id source and
     * the ids the first parse generated, so the error is exactly that of {@link #parseEvents}.
     */
    @Override
    public ChatMessage parse(String text, Tools tools, ParseOptions options) {
        Tools t = tools == null ? Tools.none() : tools;
        ParseOptions o = options == null ? ParseOptions.defaults() : options;
        ParserParts parts = wholeParts(t, o);
        ChatMessage message;
        try {
            message = parts.whole.wholeOutput().messageOfWhole(text);
        } catch (ToolCallParseException e) {
            ParserParts again =
                    new ParserParts(this, compiled(), o, true).bind(t, o, parts.calls.ids());
            again.calls.replay(parts.calls.generatedIds());
            StreamParser parser = new StreamParser(this, compiled(), t, o, again, null);
            return ChatMessage.fromEvents(parser.wholeOutput().feedWhole(text));
        }
        parts.clear();
        spares.give(parts);
        return message;
    }

    /**
     * Parts from the spares (or new ones) with the parser of whole outputs that they keep, bound to
     * this request: no caller holds that parser, so no parser object is made per output.
     */
    private ParserParts wholeParts(Tools t, ParseOptions o) {
        CompiledFormat c = compiled();
        ParserParts parts = spares.take();
        if (parts == null) parts = new ParserParts(this, c, o, true);
        if (parts.whole == null)
            parts.whole = new StreamParser(this, c, t, o, parts.bind(t, o), null);
        else parts.whole.again(t, o);
        return parts;
    }

    /**
     * A stream parser that simulates the lexer everywhere, without runs found by search (to compare
     * results in tests).
     */
    StreamParser newSimulatedStream(Tools tools, ParseOptions options) {
        Tools t = tools == null ? Tools.none() : tools;
        ParseOptions o = options == null ? ParseOptions.defaults() : options;
        CompiledFormat c = compiled();
        return new StreamParser(this, c, t, o, new ParserParts(this, c, o, false).bind(t, o), null);
    }

    @Override
    public StreamParser newStream(Tools tools, ParseOptions options) {
        Tools t = tools == null ? Tools.none() : tools;
        ParseOptions o = options == null ? ParseOptions.defaults() : options;
        CompiledFormat c = compiled();
        ParserParts parts = spares.take();
        if (parts == null) parts = new ParserParts(this, c, o, true);
        return new StreamParser(this, c, t, o, parts.bind(t, o), spares);
    }

    @Override
    public String toString() {
        return name;
    }
}
