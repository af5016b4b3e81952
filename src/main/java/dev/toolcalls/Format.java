package dev.toolcalls;

import java.util.ArrayList;
import java.util.List;
import java.util.function.Supplier;

import dev.toolcalls.internal.format.CompiledFormat;

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
    private final String name;
    private final List<String> aliases;
    private final String description;
    private final Supplier<CompiledFormat> source;
    private volatile CompiledFormat compiled;
    private volatile RuntimeException failure;

    Format(String name, List<String> aliases, String description, Supplier<CompiledFormat> source) {
        this.name = name;
        this.aliases = List.copyOf(aliases);
        this.description = description;
        this.source = source;
    }

    public String name() { return name; }

    public List<String> aliases() { return aliases; }

    public String description() { return description; }

    /** Builds the lexer model on first use; a format that cannot be built fails the same way every time. */
    CompiledFormat compiled() {
        CompiledFormat c = compiled;
        if (c != null) return c;
        synchronized (this) {
            if (compiled != null) return compiled;
            if (failure != null) throw new FormatException(failure.getMessage(), failure);
            try {
                compiled = source.get();
            } catch (RuntimeException e) {
                failure = e;
                throw e instanceof FormatException ? e : new FormatException(e.getMessage(), e);
            }
            return compiled;
        }
    }

    /** Parses a complete output, strictly, with random ids. */
    public ChatMessage parse(String text) { return parse(text, Tools.none(), ParseOptions.defaults()); }

    public ChatMessage parse(String text, Tools tools) { return parse(text, tools, ParseOptions.defaults()); }

    /**
     * Parses a complete output: the streaming pipeline fed the whole text at once, then finished,
     * so batch and streaming cannot disagree.
     *
     * @throws ToolCallParseException when the output breaks the format (strict), or a call of
     *         which something was already emitted is malformed (lenient)
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
        StreamParser s = newStream(tools, options);
        List<ParseEvent> first = s.feedEvents(text);
        List<ParseEvent> rest = s.finishEvents();
        if (rest.isEmpty()) return first;
        List<ParseEvent> all = new ArrayList<>(first);
        all.addAll(rest);
        return all;
    }

    public StreamParser newStream() { return newStream(Tools.none(), ParseOptions.defaults()); }

    public StreamParser newStream(Tools tools) { return newStream(tools, ParseOptions.defaults()); }

    public StreamParser newStream(Tools tools, ParseOptions options) {
        return new StreamParser(this, compiled(), tools == null ? Tools.none() : tools, options == null ? ParseOptions.defaults() : options);
    }

    @Override public String toString() { return name; }
}
