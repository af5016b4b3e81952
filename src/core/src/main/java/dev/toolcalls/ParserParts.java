package dev.toolcalls;

import dev.toolcalls.internal.assemble.ArgumentWriter;
import dev.toolcalls.internal.assemble.CallAssembler;
import dev.toolcalls.internal.assemble.ContentChannel;
import dev.toolcalls.internal.assemble.EventCollector;
import dev.toolcalls.internal.format.CompiledFormat;
import dev.toolcalls.internal.format.FormatRules;
import dev.toolcalls.internal.lex.LexerDriver;

/**
 * What a {@link StreamParser} works with (the lexer, the event collector, the content channels, the
 * call assembler, the argument writer), made once and reused: a parser that finished without an
 * error gives its parts back to its format ({@link GrammarFormat#spares}) and the next parser of
 * the format takes them, reset for its own tools and options, instead of making its own. Only
 * {@link #reset} ties them to a request.
 */
final class ParserParts {
    private static final int EXCERPT_RADIUS = 24;

    final LexerDriver lexer;
    final EventCollector out = new EventCollector();
    final ContentChannel content;
    final ContentChannel reasoning;
    final CallAssembler calls;
    final ArgumentWriter arguments;

    /** Made to find runs by search (false: the tests' parser that simulates everything). */
    final boolean runs;

    /** The request's tools, for the argument writer's schema lookups. */
    private Tools tools = Tools.none();

    ParserParts(Format format, CompiledFormat compiled, ParseOptions options, boolean runs) {
        this.runs = runs;
        this.lexer = new LexerDriver(compiled.model(), options.maxTokenLength(), runs);
        FormatRules rules = compiled.rules();
        this.content = new ContentChannel(out::content, rules.content());
        this.reasoning = new ContentChannel(out::reasoning, ContentChannel.Policy.VERBATIM);
        this.calls =
                new CallAssembler(
                        format.name(),
                        rules,
                        null, // the ids, options and tools of a request come with reset
                        compiled.model().hasIdRole,
                        out,
                        at -> lexer.excerpt(at, EXCERPT_RADIUS),
                        lexer::offset,
                        options,
                        tools.names());
        this.arguments =
                new ArgumentWriter(
                        new ArgumentWriter.Output() {
                            @Override
                            public void json(String piece) {
                                calls.arguments(piece, lexer.tokenStart());
                            }

                            @Override
                            public void escaped(String piece) {
                                calls.escapedArguments(piece, lexer.tokenStart());
                            }
                        },
                        name -> this.tools.definition(name),
                        rules.untypedValues(),
                        rules.trimValueNewlines(),
                        detail ->
                                calls.error(
                                        ToolCallParseException.Kind.MALFORMED_ARGUMENTS,
                                        lexer.tokenStart(),
                                        detail));
    }

    /** For a new parser (parts just made, or cleared when given back): this request's. */
    ParserParts bind(Tools tools, ParseOptions options) {
        this.tools = tools;
        lexer.limit(options.maxTokenLength());
        calls.reset(options.newIdGenerator(), options, tools.names());
        return this;
    }

    /**
     * Empty, as new, when the parser is done with them: nothing of its output or its request is
     * kept while they wait (large buffers are dropped, not only emptied).
     */
    void clear() {
        tools = Tools.none();
        lexer.reset(ParseOptions.defaults().maxTokenLength());
        out.reset();
        content.reset();
        reasoning.reset();
        arguments.reset();
        calls.reset(null, ParseOptions.defaults(), null);
    }
}
