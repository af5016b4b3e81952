package dev.toolcalls;

import dev.toolcalls.internal.assemble.ArgumentWriter;
import dev.toolcalls.internal.assemble.CallAssembler;
import dev.toolcalls.internal.assemble.ContentChannel;
import dev.toolcalls.internal.assemble.EventCollector;
import dev.toolcalls.internal.assemble.SchemaTypes;
import dev.toolcalls.internal.assemble.ToolDefinitions;
import dev.toolcalls.internal.format.CompiledFormat;
import dev.toolcalls.internal.format.FormatRules;
import dev.toolcalls.internal.lex.LexerDriver;

import java.util.function.Consumer;
import java.util.function.Function;
import java.util.function.IntFunction;
import java.util.function.IntUnaryOperator;

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

    /**
     * The parser of whole outputs over these parts ({@link GrammarFormat#parseEvents}), made on the
     * first and reused: no caller ever holds it.
     */
    StreamParser whole;

    /** Made to find runs by search (false: the tests' parser that simulates everything). */
    final boolean runs;

    /** The argument writer's lookups of a tool's definition, in the request's tools. */
    private final ToolDefinitions definitions = new ToolDefinitions();

    ParserParts(Format format, CompiledFormat compiled, ParseOptions options, boolean runs) {
        this.runs = runs;
        this.lexer = new LexerDriver(compiled.model(), options.maxTokenLength(), runs);
        FormatRules rules = compiled.rules();
        Content text = new Content(out, false);
        Content thoughts = new Content(out, true);
        this.content = new ContentChannel(text, text, rules.content());
        this.reasoning = new ContentChannel(thoughts, thoughts, ContentChannel.Policy.VERBATIM);
        Hooks hooks = new Hooks();
        this.calls =
                new CallAssembler(
                        format.name(),
                        rules,
                        null, // the ids, options and tools of a request come with reset
                        compiled.model().hasIdRole,
                        out,
                        hooks,
                        hooks,
                        options,
                        Tools.none().names());
        this.arguments =
                new ArgumentWriter(
                        hooks,
                        definitions,
                        rules.untypedValues(),
                        rules.trimValueNewlines(),
                        new Malformed());
    }

    /*
     * The parts' callbacks are classes rather than lambdas: a format's first parser is made in a
     * cold JVM, where linking each lambda costs a bootstrap (and the first one, several
     * milliseconds of method-handle set-up).
     */

    /** Text for the content or the reasoning channel's events. */
    private static final class Content implements Consumer<String>, ContentChannel.Ranges {
        private final EventCollector out;
        private final boolean reasoning;

        Content(EventCollector out, boolean reasoning) {
            this.out = out;
            this.reasoning = reasoning;
        }

        @Override
        public void accept(String text) {
            if (reasoning) out.reasoning(text);
            else out.content(text);
        }

        @Override
        public void accept(String source, int from, int to) {
            out.text(reasoning, source, from, to);
        }
    }

    /**
     * The call assembler's excerpts and offsets from the lexer, and the argument writer's output
     * into the call assembler.
     */
    private final class Hooks
            implements IntFunction<String>, IntUnaryOperator, ArgumentWriter.Output {
        @Override
        public String apply(int at) {
            return lexer.excerpt(at, EXCERPT_RADIUS);
        }

        @Override
        public int applyAsInt(int at) {
            return lexer.offset(at);
        }

        @Override
        public void json(String piece) {
            calls.arguments(piece, lexer.tokenStart());
        }

        @Override
        public void escaped(String piece) {
            calls.escapedArguments(piece, lexer.tokenStart());
        }

        @Override
        public void escaped(String before, String source, int from, int to, SchemaTypes.Seen seen) {
            calls.escapedArguments(before, source, from, to, seen, lexer.tokenStart());
        }

        @Override
        public void json(
                String before, String source, int from, int to, String after, boolean escaped) {
            calls.arguments(before, source, from, to, after, escaped, lexer.tokenStart());
        }
    }

    /** The argument writer's malformed-arguments error, at the lexer's token. */
    private final class Malformed implements Function<String, RuntimeException> {
        @Override
        public RuntimeException apply(String detail) {
            return calls.error(
                    ToolCallParseException.Kind.MALFORMED_ARGUMENTS, lexer.tokenStart(), detail);
        }
    }

    /** For a new parser (parts just made, or cleared when given back): this request's. */
    ParserParts bind(Tools tools, ParseOptions options) {
        return bind(tools, options, options.newIdGenerator());
    }

    /** The same with the response's id source given (not a new one from the options). */
    ParserParts bind(Tools tools, ParseOptions options, IdGenerator ids) {
        definitions.use(tools.definitions());
        lexer.limit(options.maxTokenLength());
        calls.reset(ids, options, tools.names());
        return this;
    }

    /**
     * Empty, as new, when the parser is done with them: nothing of its output or its request is
     * kept while they wait (large buffers are dropped, not only emptied).
     */
    void clear() {
        definitions.use(Tools.none().definitions());
        lexer.reset(ParseOptions.defaults().maxTokenLength());
        out.reset();
        content.reset();
        reasoning.reset();
        arguments.reset();
        calls.reset(null, ParseOptions.defaults(), null);
    }
}
