package dev.toolcalls;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.function.Supplier;

import dev.toolcalls.internal.format.CompiledFormat;
import dev.toolcalls.internal.format.FormatAccess;
import dev.toolcalls.internal.format.FormatFile;
import dev.toolcalls.internal.format.FormatSource;

/**
 * One model convention: a lexer grammar and its format file. Immutable and safe to share across
 * threads; get one from {@link Formats}. Its lexer is built on first use, once.
 *
 * <pre>{@code
 * Format format = Formats.get(name);                   // a name or an alias
 * ChatMessage m = format.parse(text);                  // {"content": ..., "tool_calls": [...]}
 * StreamParser s = format.newStream(Tools.none());     // one per response
 * }</pre>
 */
public final class Format {
    static {
        FormatAccess.install(Format::parts, Format::compiled);
    }

    private final String name;
    private final List<String> aliases;
    private final String description;
    private final String origin;
    private final Supplier<FormatSource> source;
    private volatile FormatSource read;
    private volatile CompiledFormat compiled;
    private volatile FormatException failure;
    private boolean fromFolder;

    /**
     * @param origin where it came from, for messages: its format file's path, or the provider
     * @param source what it is made of, read on first use
     */
    Format(String name, List<String> aliases, String description, String origin, Supplier<FormatSource> source) {
        this.name = name;
        this.aliases = List.copyOf(aliases);
        this.description = description;
        this.origin = origin;
        this.source = source;
    }

    /** A format read from a folder at run time: built at once, so its problems are known at once. */
    static Format fromFolder(String name, List<String> aliases, String description, String origin, FormatSource source) {
        Format f = new Format(name, aliases, description, origin, () -> source);
        f.fromFolder = true;
        f.problem();
        return f;
    }

    boolean loadedAtRunTime() { return fromFolder; }

    /** A format already built. */
    static Format built(String origin, FormatSource source, CompiledFormat c) {
        FormatFile file = c.file();
        Format f = new Format(file.name(), file.aliases(), file.description(), origin, () -> source);
        f.compiled = c;
        return f;
    }

    /** The same format, disabled: every use throws {@code why}. */
    Format disabled(FormatException why) {
        Format f = new Format(name, aliases, description, origin, source);
        f.fromFolder = fromFolder;
        f.failure = why;
        return f;
    }

    /** The same format, from another origin (a provider's formats are named after it). */
    Format from(String otherOrigin) {
        Format f = new Format(name, aliases, description, otherOrigin, this::parts);
        f.compiled = compiled;
        f.failure = failure;
        return f;
    }

    public String name() { return name; }

    public List<String> aliases() { return aliases; }

    public String description() { return description; }

    /**
     * Where this format came from: the path of its format file ({@code grammars/NAME/NAME.json (bundled)}
     * for a bundled one, the file under a loaded folder otherwise), or the provider that made it.
     */
    public String source() { return origin; }

    /**
     * Why this format cannot be used, if it cannot: its format file or grammar is broken, or its
     * name is taken by another format. Builds the format if it was not built yet.
     */
    public Optional<FormatException> problem() {
        try {
            compiled();
            return Optional.empty();
        } catch (FormatException e) {
            return Optional.of(e);
        }
    }

    private FormatSource parts() {
        FormatSource s = read;
        if (s == null) read = s = source.get();
        return s;
    }

    /** Builds the lexer model on first use; a format that cannot be built fails the same way every time. */
    CompiledFormat compiled() {
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

    /** Parses a complete output, strictly, with random ids. */
    public ChatMessage parse(String text) { return parse(text, Tools.none(), ParseOptions.defaults()); }

    public ChatMessage parse(String text, Tools tools) { return parse(text, tools, ParseOptions.defaults()); }

    /**
     * Parses a complete output: the streaming pipeline fed the whole text at once, then finished,
     * so batch and streaming cannot disagree, except in one way: lenient, a malformed call becomes
     * its raw text (from its first character) in the content even after its name was read, since
     * nothing of it has left the process, where a stream has already sent its start and fails.
     *
     * @throws ToolCallParseException when the output breaks the format (strict)
     */
    public ChatMessage parse(String text, Tools tools, ParseOptions options) {
        return ChatMessage.fromEvents(parseEvents(text, tools, options));
    }

    /**
     * The events of a complete output, in order: the streaming pipeline fed the whole text at
     * once, then finished. The protocol adapters build their batch objects from these.
     *
     * @throws ToolCallParseException as {@link #parse(String, Tools, ParseOptions)}
     */
    public List<ParseEvent> parseEvents(String text, Tools tools, ParseOptions options) {
        StreamParser s = newStream(tools, options).wholeOutput();
        List<ParseEvent> first = s.feedEvents(text);
        List<ParseEvent> rest = s.finishEvents();
        if (rest.isEmpty()) return first;
        List<ParseEvent> all = new ArrayList<>(first);
        all.addAll(rest);
        return all;
    }

    public StreamParser newStream() { return newStream(Tools.none(), ParseOptions.defaults()); }

    public StreamParser newStream(Tools tools) { return newStream(tools, ParseOptions.defaults()); }

    /** A stream parser that simulates the lexer everywhere, without runs found by search (to compare results in tests). */
    StreamParser newSimulatedStream(Tools tools, ParseOptions options) {
        return new StreamParser(this, compiled(), tools == null ? Tools.none() : tools, options == null ? ParseOptions.defaults() : options, false);
    }

    public StreamParser newStream(Tools tools, ParseOptions options) {
        return new StreamParser(this, compiled(), tools == null ? Tools.none() : tools, options == null ? ParseOptions.defaults() : options);
    }

    @Override public String toString() { return name; }
}
