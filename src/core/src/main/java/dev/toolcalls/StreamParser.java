package dev.toolcalls;

import dev.toolcalls.internal.assemble.ArgumentWriter;
import dev.toolcalls.internal.assemble.CallAssembler;
import dev.toolcalls.internal.assemble.ContentChannel;
import dev.toolcalls.internal.assemble.EventCollector;
import dev.toolcalls.internal.format.CompiledFormat;
import dev.toolcalls.internal.format.FormatRules;
import dev.toolcalls.internal.json.Json;
import dev.toolcalls.internal.lex.FastRuns;
import dev.toolcalls.internal.lex.LexerDriver;
import dev.toolcalls.internal.lex.LexerModel;
import dev.toolcalls.internal.lex.Role;
import dev.toolcalls.internal.lex.Spares;
import dev.toolcalls.internal.lex.SpecialTokens;

import java.util.Arrays;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.atomic.AtomicLongFieldUpdater;

/**
 * Parses one response as it streams: feed it the output piece by piece, send the events each call
 * returns, then {@link #finish()}. Text comes through {@link #feed} (detokenized with special
 * tokens kept); a caller that knows the tokens may pass each special token through {@link
 * #feedSpecial} instead, so that the same letters in ordinary text stay text.
 *
 * <pre>{@code
 * StreamParser parser = Formats.get(formatName).newStream(tools);
 * for (String chunk : chunks)
 *     for (ParseEvent e : parser.feed(chunk)) send(e);      // or DeltaMessage.of(...), or a WireStream
 * for (ParseEvent e : parser.finish()) send(e);
 * }</pre>
 *
 * <p>Every chunking of the same text yields the same content, calls, ids (given the same id
 * generator) and arguments as {@link Format#parse}; text that may still turn into a marker is held
 * back until it is certain, never leaked and never lost. One parser per response, used from one
 * thread at a time: concurrent calls fail fast with an {@link IllegalStateException}.
 */
public final class StreamParser {
    /**
     * Roles whose tokens must be whole to mean anything. Sets of roles are bits by ordinal (an
     * {@code EnumSet} finds its enum's constants by reflection when first made).
     */
    private static final long NAMING =
            roles(Role.NAME, Role.NAME_JSON, Role.ID, Role.ID_JSON, Role.ARG_KEY);

    /** Roles whose token is read where it lies in the output's chunk, when it lies in one. */
    private static final long IN_PLACE =
            roles(Role.ARG_VALUE, Role.ARG_KEY, Role.LIT_CHARS, Role.LIT_ATOM, Role.LIT_KEY);

    /**
     * Roles that use nothing of their token's text but the open call's raw copy of it (and, for a
     * literal's brackets, which bracket it is, read where it lies).
     */
    private static final long TEXTLESS =
            roles(
                    Role.SKIP,
                    Role.CALL_BEGIN,
                    Role.CALL_END,
                    Role.ARG_END,
                    Role.ARG_AS_STRING,
                    Role.ARG_AS_JSON,
                    Role.LIT_OPEN,
                    Role.LIT_CLOSE,
                    Role.LIT_COMMA,
                    Role.LIT_COLON,
                    Role.LIT_QUOTE);

    private static final int[] NO_RUNS = {};

    private static final AtomicLongFieldUpdater<StreamParser> OWNER =
            AtomicLongFieldUpdater.newUpdater(StreamParser.class, "owner");

    private final Format format;
    private final LexerModel model;
    private ParseOptions options;
    private Tools tools;
    private final ParserParts parts;
    private final LexerDriver lexer;
    private final EventCollector out;
    private final ContentChannel content;
    private final ContentChannel reasoning;
    private final CallAssembler calls;
    private final ArgumentWriter arguments;
    private final boolean implicitCallEnd;
    private Role inherited = Role.CONTENT;

    /** The open call's tokens have taken the lexer out of the default mode (implicit call ends). */
    private boolean leftDefaultMode;

    private volatile boolean finished;
    private final FormatRules rules;

    /** Set once the caller tells special tokens from ordinary text. */
    private SpecialTokens specials;

    /** Decodes the ids of {@link #feedTokens}: set for a stream made with a vocabulary. */
    private Vocabulary.Decoder tokens;

    /** The text of consecutive ordinary ids, reused (with a vocabulary). */
    private StringBuilder tokenText;

    /** Ids fed so far, for error messages. */
    private long tokenCount;

    /**
     * The id of the thread in a call now, or 0: read as a volatile (a plain load where loads are
     * ordered), written with release semantics ({@code lazySet}), no atomic update; a number, not
     * the thread, so that no store of a reference into this long-lived object pays the collector's
     * barrier. A field updater rather than an {@code AtomicLong} (an object more per parser) or a
     * {@code VarHandle} (a fresh JVM's first {@code VarHandle} sets up the method-handle machinery,
     * about 2 ms).
     */
    private volatile long owner;

    /** Where the parts go back when the parser has finished without an error, or null. */
    private final Spares<ParserParts> spares;

    /**
     * The parts were given back for another parser to reuse (this one finished without an error);
     * what the tests ask of the lexer's work was kept.
     */
    private boolean released;

    private long workAtEnd;
    private long runWorkAtEnd;

    /**
     * Text outside calls, or raw arguments of the open call, not yet handed on: [pendingStart,
     * pendingEnd) of the output, of pendingRole (null: none).
     */
    private Role pendingRole;

    private int pendingStart;
    private int pendingEnd;

    /**
     * Of the pending arguments, the long runs that hold no quote and no backslash ([starts[k],
     * ends[k]) of the output): the call's strict check reads them for control characters only.
     */
    private int[] quotelessStarts = NO_RUNS;

    private int[] quotelessEnds = NO_RUNS;
    private int quotelessCount;

    /**
     * @param parts what it works with, reset for these tools and options; given back to {@code
     *     spares} once the parser has finished without an error (null: kept by no one)
     */
    StreamParser(
            Format format,
            CompiledFormat compiled,
            Tools tools,
            ParseOptions options,
            ParserParts parts,
            Spares<ParserParts> spares) {
        this.spares = spares;
        this.format = format;
        this.model = compiled.model();
        this.tools = tools;
        this.options = options;
        this.parts = parts;
        this.lexer = parts.lexer;
        this.out = parts.out;
        this.content = parts.content;
        this.reasoning = parts.reasoning;
        this.calls = parts.calls;
        this.arguments = parts.arguments;
        FormatRules rules = compiled.rules();
        this.rules = rules;
        this.implicitCallEnd = rules.implicitCallEnd();
        start();
    }

    /** Where the options start the lexer: the lenient mode, a think block, special tokens. */
    private void start() {
        boolean thinking =
                options.thinking() != null ? options.thinking() : rules.thinkingDefault();
        if (options.lenient() && rules.lenientMode() > 0) lexer.setBaseMode(rules.lenientMode());
        if (thinking && rules.thinkingMode() > 0) lexer.startIn(rules.thinkingMode());
        if (options.specialTokensMarked()) specials = new SpecialTokens(rules.specialTokens());
    }

    /**
     * This parser once more, as new, for another output with these tools and options: its parts,
     * cleared after the last parse, bound to them. Only for a parser that no caller holds (the
     * parser of whole outputs its parts keep), made without spares and without a vocabulary.
     */
    StreamParser again(Tools tools, ParseOptions options) {
        parts.bind(tools, options);
        // this parser is kept from output to output: a reference that stays the same is not
        // stored again (with G1, a store into an object that survived a collection pays the write
        // barrier's fence)
        if (this.tools != tools) this.tools = tools;
        if (this.options != options) this.options = options;
        if (inherited != Role.CONTENT) inherited = Role.CONTENT;
        leftDefaultMode = false;
        finished = false;
        specials = null;
        pendingRole = null;
        quotelessCount = 0;
        start();
        return this;
    }

    /**
     * For a whole output parsed at once, where nothing leaves before the end: a lenient parser
     * holds each call's events until the call ends, so that a call found malformed even after its
     * name was read is given back as its raw text.
     */
    StreamParser wholeOutput() {
        if (options.lenient()) calls.holdUntilEnd();
        return this;
    }

    /**
     * The events this piece of output makes certain, in order; often empty. Under {@link
     * ParseOptions#withSpecialTokensMarked}, or once {@link #feedSpecial} was called, a marker the
     * format lists as a special token is text here: it counts only as a special token.
     *
     * @throws ToolCallParseException when the output breaks the format; the parser is finished then
     */
    public List<ParseEvent> feed(String text) {
        long me = enter();
        try {
            if (specials == null && calls.isOpen()) {
                calls.countBegin();
                if (lexer.appendRun(text)) return run(false, text);
            } else if (specials != null || calls.isOpen()) {
                calls.countBegin();
                appendOrdinary(text);
            } else {
                String token = lexer.appendText(text);
                if (token != null) return token.isEmpty() ? out.drain() : textChunk(token);
            }
            return run(false);
        } finally {
            leave(me);
        }
    }

    /**
     * The events of a chunk that the lexer took whole as one token of text outside calls (with the
     * text held before it, if any): what {@link #pump} would make of that token, without its loop.
     */
    private List<ParseEvent> textChunk(String text) {
        Role role = model.roleOfType(lexer.tokenType());
        if (inherited != role) inherited = role; // no store, and no write barrier, when the same
        leftDefaultMode = false;
        ContentChannel channel = role == Role.CONTENT ? content : reasoning;
        String piece = channel.addOne(text);
        if (piece == null) channel.add(text);
        else if (!piece.isEmpty()) return out.drainText(piece, role == Role.REASONING);
        return out.drain();
    }

    /** Text given as text: with special tokens by text, the markers in it masked as ordinary. */
    private void appendOrdinary(String text) {
        if (specials == null) lexer.append(text);
        else lexer.append(specials.ordinary(text), specials.masked());
    }

    /**
     * A whole output at once: its events, as {@link #feed} then {@link #finish()} give them, with
     * the end of the output known from the start (so nothing at the end of the data waits to see
     * what follows, and what the grammar proves about a complete rest applies).
     */
    List<ParseEvent> feedWhole(String text) {
        long me = enter();
        try {
            appendOrdinary(text);
            if (specials != null) {
                calls.countBegin();
                lexer.append(specials.flush());
            }
            lexer.complete();
            return run(true);
        } finally {
            leave(me);
        }
    }

    /**
     * A whole output at once, into its message: what {@link #feedWhole} and then {@link
     * ChatMessage#fromEvents} give, with no events made. An error carries no events: {@link
     * GrammarFormat#parse} parses the output again for them.
     */
    ChatMessage messageOfWhole(String text) {
        out.collectMessage();
        feedWhole(text);
        return out.message();
    }

    /**
     * The events of one special token of the model's vocabulary, exactly as the tokenizer decodes
     * it (for example {@code <tool_call>}), in order. From then on, a marker the format lists as a
     * special token counts only when it arrives here: the same letters in {@link #feed} text are
     * text.
     *
     * @throws ToolCallParseException when the output breaks the format; the parser is finished then
     */
    public List<ParseEvent> feedSpecial(String token) {
        long me = enter();
        try {
            if (specials == null) specials = new SpecialTokens(rules.specialTokens());
            calls.countBegin();
            lexer.append(specials.flush());
            lexer.append(token);
            return run(false);
        } finally {
            leave(me);
        }
    }

    /**
     * Token input: the stream decodes ids with {@code vocabulary}, and special tokens are marked
     * from the first piece on (as {@link ParseOptions#withSpecialTokensMarked}).
     */
    StreamParser withVocabulary(Vocabulary vocabulary) {
        tokens = new Vocabulary.Decoder(vocabulary);
        tokenText = new StringBuilder();
        if (specials == null) specials = new SpecialTokens(rules.specialTokens());
        return this;
    }

    /**
     * The events of the next token ids the model sampled, one or many. Each added token of the
     * vocabulary (its atomic pieces, such as {@code <tool_call>} or {@code <|im_end|>}) reaches the
     * lexer as one piece, exactly as {@link #feedSpecial} takes it; the ordinary ids between them
     * are decoded and fed as {@link #feed} text, so a marker spelled out in ordinary tokens is
     * text. The result is the same as feeding the decoded text with its added tokens through {@code
     * feedSpecial}, however the ids are grouped. Needs a stream made with {@link
     * Format#newStream(Tools, ParseOptions, Vocabulary)}.
     *
     * @throws IllegalArgumentException for an id outside the vocabulary, or ids whose bytes are not
     *     UTF-8 (a character cut by an added token, a stray byte); the parser is finished then, and
     *     nothing of this call's ids was parsed
     * @throws ToolCallParseException when the output breaks the format; the parser is finished then
     * @throws IllegalStateException when the stream has no vocabulary
     */
    public List<ParseEvent> feedTokens(int... ids) {
        return feedTokens(ids, 0, ids.length);
    }

    /**
     * The events of {@code ids[from..to)}; see {@link #feedTokens(int...)}.
     *
     * @throws IndexOutOfBoundsException when the range is not within {@code ids}
     */
    public List<ParseEvent> feedTokens(int[] ids, int from, int to) {
        long me = enter();
        try {
            if (tokens == null)
                throw new IllegalStateException(
                        "this stream has no vocabulary: make it with Format.newStream(tools, options, vocabulary)");
            Objects.checkFromToIndex(from, to, ids.length);
            calls.countBegin();
            try {
                appendTokens(ids, from, to);
            } catch (IllegalArgumentException e) {
                finished = true;
                throw e;
            }
            tokenCount += to - from;
            return run(false);
        } finally {
            leave(me);
        }
    }

    /**
     * Decodes {@code ids[from..to)} onto the lexer's input: ordinary text masked, added tokens
     * whole.
     */
    private void appendTokens(int[] ids, int from, int to) {
        int i = from;
        while (i < to) {
            String text = tokens.alone(ids, i, to);
            int next;
            if (text != null) {
                next = i + 1;
            } else {
                tokenText.setLength(0);
                next = tokens.ordinary(ids, i, to, tokenText, tokenCount + i - from);
                text = tokenText.length() > 0 ? tokenText.toString() : null;
            }
            if (text != null) appendOrdinary(text);
            if (next < to) {
                String piece = tokens.added(ids[next], tokenCount + next - from);
                lexer.append(specials.flush());
                lexer.append(piece);
                next++;
            }
            i = next;
        }
    }

    /**
     * Ends the output: the events of the text still held, and of the calls it closes. The parser is
     * done afterwards.
     *
     * @throws ToolCallParseException when a call is still open or the held text breaks the format
     */
    public List<ParseEvent> finish() {
        long me = enter();
        try {
            if (tokens != null) {
                try {
                    tokens.end(tokenCount);
                } catch (IllegalArgumentException e) {
                    finished = true;
                    throw e;
                }
            }
            if (specials != null) lexer.append(specials.flush());
            lexer.complete();
            return run(true);
        } finally {
            leave(me);
        }
    }

    /**
     * One response, one thread at a time: misuse fails fast instead of corrupting the output. The
     * caller's thread marks the parser on entry and finds its own mark again on exit ({@link
     * #leave}): a call that begins while another thread's call runs finds that call's mark and
     * fails; two calls that begin at the same instant both pass here, but each writes its own mark
     * over the other's, so the one whose mark was overwritten fails on exit. No atomic update: a
     * compare-and-set per call would cost about a tenth of a chunk of prose.
     */
    private long enter() {
        long me = Thread.currentThread().getId();
        if (owner != 0) throw twoThreads();
        OWNER.lazySet(this, me);
        if (finished) {
            OWNER.lazySet(this, 0L);
            throw new IllegalStateException("stream parser already finished");
        }
        return me;
    }

    /**
     * The end of a call that {@link #enter()} began for the thread {@code me}: its mark is still
     * there, and goes.
     */
    private void leave(long me) {
        if (owner != me) throw twoThreads();
        OWNER.lazySet(this, 0L);
    }

    private static long roles(Role... roles) {
        long set = 0;
        for (Role r : roles) set |= 1L << r.ordinal();
        return set;
    }

    private static boolean in(long roles, Role r) {
        return (roles >>> r.ordinal() & 1) != 0;
    }

    private static IllegalStateException twoThreads() {
        return new IllegalStateException(
                "stream parser used from two threads at once; use one parser per response, from one thread at a time");
    }

    public Format format() {
        return format;
    }

    /** Code points the lexer has examined so far (tests of linear work). */
    long lexerWork() {
        return released ? workAtEnd : lexer.work();
    }

    /** Of the lexer's work, the characters found as runs by search instead of simulated. */
    long runWork() {
        return released ? runWorkAtEnd : lexer.runWork();
    }

    public Tools tools() {
        return tools;
    }

    private List<ParseEvent> run(boolean last) {
        return run(last, null);
    }

    /**
     * @param whole a chunk the lexer took whole as its current token, which waits for {@link
     *     #token}; else null
     */
    private List<ParseEvent> run(boolean last, String whole) {
        try {
            if (whole != null) {
                token(whole);
                flushText(whole);
            }
            pump();
            if (last) {
                finished = true;
                if (calls.isOpen() && implicitCallEnd && lexer.inDefaultMode()) endOpenCall();
                if (calls.isOpen() && !recoverCutCall() && !fallBackToContent()) {
                    throw calls.errorAtBegin(
                            ToolCallParseException.Kind.UNTERMINATED_CALL,
                            "the call that began at offset "
                                    + calls.beginOffset()
                                    + " is still open at the end of the output (in "
                                    + lexer.modePath()
                                    + ")");
                }
            }
            List<ParseEvent> events = out.drain();
            if (last && spares != null) {
                workAtEnd = lexer.work();
                runWorkAtEnd = lexer.runWork();
                released = true;
                parts.clear();
                spares.give(parts);
            }
            return events;
        } catch (ToolCallParseException e) {
            finished = true;
            throw e.withEvents(out.drain());
        }
    }

    private void pump() {
        while (true) {
            LexerDriver.Step step = lexer.next();
            if (step == LexerDriver.Step.NEED_MORE) {
                flushText(null);
                return;
            }
            if (step == LexerDriver.Step.STUCK) {
                flushText(null);
                stuck();
                continue;
            }
            if (step == LexerDriver.Step.TOO_LONG) {
                flushText(null);
                fail(
                        ToolCallParseException.Kind.LIMIT_EXCEEDED,
                        lexer.position(),
                        "a token longer than "
                                + options.maxTokenLength()
                                + " code points has not ended (ParseOptions.withMaxTokenLength)");
            }
            token(null);
        }
    }

    /**
     * What the parser makes of the lexer's current token.
     *
     * @param whole the chunk that is the whole token, when the lexer took it so; else null
     */
    private void token(String whole) {
        Role role = model.roleOfType(lexer.tokenType());
        if (role == Role.INHERIT) role = inherited;
        else if (inherited != role) inherited = role; // no store, no write barrier, if same
        if ((role == Role.CONTENT || role == Role.REASONING) && !calls.isOpen()) {
            // text outside a call: consecutive pieces (runs, and the blanks or stray characters
            // between them)
            // are taken as one range and cut from the output once, not copied piece by piece
            pend(role);
            leftDefaultMode = false;
            return;
        }
        if ((role == Role.ARGS_JSON || role == Role.ARGS_JSON_STRING) && calls.isOpen()) {
            // raw JSON arguments, or the inside of a JSON string holding them: consecutive
            // tokens are one range of the output, handed to the call once (a long string
            // argument is cut from the output once, not token by token; a string's escapes are
            // decoded in one pass over the range)
            int from = pend(role);
            FastRuns.Run run = lexer.tokenRun();
            if (run != null
                    && run.quoteless
                    && role == Role.ARGS_JSON
                    && pendingEnd - from >= CallAssembler.LONG_PIECE) quoteless(from, pendingEnd);
            if (implicitCallEnd) implicitEnd();
            // the short tokens that follow and belong to the same arguments (brackets, quotes,
            // keys, atoms) extend the range at once, without a turn of this loop each
            if (calls.isOpen() && lexer.extendInherited(CallAssembler.LONG_PIECE)) {
                pendingEnd = lexer.tokenEnd();
                if (implicitCallEnd) implicitEnd();
            }
            return;
        }
        flushText(null);
        if (calls.isOpen()
                && (role == Role.CALL_BEGIN
                        || implicitCallEnd && (role == Role.CONTENT || role == Role.REASONING)))
            endOpenCall(); // a new call ends the open one; in formats without end markers, so
        // does text
        // a token whose role takes no text (markers, skipped tokens) makes no string: its text
        // goes, if anywhere, straight into the open call's raw text; a JSON string literal with
        // nothing to decode gives its value, cut from the output, and no text either
        String value =
                role == Role.NAME_JSON || role == Role.ID_JSON
                        ? lexer.tokenPlainJsonString()
                        : null;
        // a raw argument value, a key, or a literal's string characters or atom, that lies
        // whole in one chunk of the output is read there, not cut from it first
        String chunk = !in(IN_PLACE, role) ? null : whole != null ? whole : lexer.tokenChunk();
        int base = whole != null ? lexer.tokenStart() : lexer.tokenChunkBase();
        boolean inPlace = chunk != null;
        String text =
                value != null || inPlace || in(TEXTLESS, role)
                        ? null
                        : whole != null ? whole : lexer.tokenText();
        if (text != null) calls.text(text);
        else rawText();
        if (calls.isOpen() && lexer.tokenTruncated() && in(NAMING, role)) {
            // the output stops inside a name, id or key: the call never got it whole
            if (fallBackToContent()) return;
            throw calls.errorAtBegin(
                    ToolCallParseException.Kind.UNTERMINATED_CALL,
                    "the output ends inside the call that began at offset "
                            + calls.beginOffset()
                            + " (in "
                            + lexer.modePath()
                            + ")");
        }
        try {
            dispatch(role, text, value, chunk, base);
        } catch (ToolCallParseException e) {
            if (!fallBackToContent()) throw e;
            // the rest of a call abandoned midway is text; a call that failed at its end is
            // already behind the lexer
            if (role != Role.CALL_END) lexer.restartAt(lexer.tokenEnd());
            return;
        }
        if (implicitCallEnd && calls.isOpen()) {
            // without an end marker, a call whose tokens took the lexer out of the default mode
            // is over
            // as soon as it is back there: nothing of a call is lexed in the default mode
            if (!lexer.inDefaultMode()) leftDefaultMode = true;
            else if (leftDefaultMode) endOpenCall();
        }
        if (!calls.isOpen()) leftDefaultMode = false;
    }

    /**
     * Extends the pending range of {@code role} over the current token, the range of another role
     * or one that does not end where the token starts sent first; returns where the token starts.
     */
    private int pend(Role role) {
        int from = lexer.tokenStart();
        if (pendingRole != role || pendingEnd != from) {
            flushText(null);
            pendingRole = role;
            pendingStart = from;
        }
        pendingEnd = lexer.tokenEnd();
        return from;
    }

    /**
     * Without end markers, a call whose tokens took the lexer out of the default mode ends when the
     * lexer is back there.
     */
    private void implicitEnd() {
        if (!lexer.inDefaultMode()) leftDefaultMode = true;
        else if (leftDefaultMode) {
            flushText(null);
            endOpenCall();
            leftDefaultMode = false;
        }
    }

    /**
     * @param whole a chunk the lexer took whole as its current token, the text of the pending range
     *     when that is the token; else null
     */
    private void flushText(String whole) {
        if (pendingRole == null) return;
        Role role = pendingRole;
        pendingRole = null;
        if (role == Role.CONTENT || role == Role.REASONING) {
            ContentChannel channel = role == Role.CONTENT ? content : reasoning;
            // white space that is held or dropped is not made into a string
            String chunk;
            if (!channel.sendsBlank() && lexer.isBlank(pendingStart, pendingEnd)) {
                StringBuilder holder = channel.blankHolder();
                if (holder != null) lexer.appendText(holder, pendingStart, pendingEnd);
            } else if (channel.sendsRange()
                    && (chunk = lexer.chunkHolding(pendingStart, pendingEnd)) != null) {
                // sent as it lies in the chunk: a message gathered whole cuts it only once
                int base = lexer.tokenChunkBase();
                channel.addRange(chunk, pendingStart - base, pendingEnd - base);
            } else channel.add(lexer.text(pendingStart, pendingEnd));
        } else {
            String text =
                    whole != null
                                    && pendingStart == lexer.tokenStart()
                                    && pendingEnd == lexer.tokenEnd()
                            ? whole
                            : lexer.text(pendingStart, pendingEnd);
            calls.text(text);
            for (int k = 0; k < quotelessCount; k++) {
                quotelessStarts[k] -= pendingStart;
                quotelessEnds[k] -= pendingStart;
            }
            if (role == Role.ARGS_JSON_STRING)
                calls.arguments(Json.decodeStringPiece(text), pendingStart);
            else
                calls.arguments(text, pendingStart, quotelessStarts, quotelessEnds, quotelessCount);
        }
        quotelessCount = 0;
        if (quotelessStarts.length > 64) {
            quotelessStarts = NO_RUNS;
            quotelessEnds = NO_RUNS;
        }
    }

    private void quoteless(int from, int to) {
        if (quotelessCount == quotelessStarts.length) {
            quotelessStarts = Arrays.copyOf(quotelessStarts, Math.max(4, 2 * quotelessCount));
            quotelessEnds = Arrays.copyOf(quotelessEnds, Math.max(4, 2 * quotelessCount));
        }
        quotelessStarts[quotelessCount] = from;
        quotelessEnds[quotelessCount++] = to;
    }

    /**
     * @param value for a JSON string literal, its value when it was taken without its text (then
     *     text is null); a raw argument value without its text is read in the lexer's input
     * @param chunk the input chunk that holds the whole token, where a token without its text is
     *     read in place, at its offsets less {@code base} (the chunk's first character's index)
     */
    private void dispatch(Role role, String text, String value, String chunk, int base) {
        int at = lexer.tokenStart();
        switch (role) {
            case CONTENT:
                content.add(text);
                break;
            case REASONING:
                reasoning.add(text);
                break;
            case SKIP:
                break;
            case CALL_BEGIN:
                content.boundary();
                calls.begin(at);
                arguments.begin();
                rawText();
                break; // the open call, if any, was ended
            case CALL_END:
                endCall(at);
                break;
            case NAME:
                calls.name(text.strip(), at);
                break;
            case NAME_JSON:
                calls.name(value != null ? value : Json.decodeString(text), at);
                break;
            case ID:
                calls.id(text.strip(), at);
                break;
            case ID_JSON:
                calls.id(value != null ? value : Json.decodeString(text), at);
                break;
            case ARGS_JSON:
                calls.arguments(text, at);
                break;
            case ARGS_JSON_STRING:
                calls.arguments(Json.decodeStringPiece(text), at);
                break;
            case ARG_KEY:
                calls.requireOpen(at);
                if (text != null) arguments.key(text, calls.name());
                else {
                    arguments.key(
                            chunk,
                            lexer.tokenStart() - base,
                            lexer.tokenEnd() - base,
                            calls.name());
                }
                break;
            case ARG_VALUE:
                if (text != null) arguments.value(text);
                else { // read where it lies in the output's chunk
                    arguments.value(chunk, lexer.tokenStart() - base, lexer.tokenEnd() - base);
                }
                break;
            case ARG_END:
                arguments.endValue();
                break;
            case ARG_AS_STRING:
                arguments.force(true);
                break;
            case ARG_AS_JSON:
                arguments.force(false);
                break;
            case LIT_OPEN:
                arguments.literal(role, lexer.tokenIsOnly('{') ? "{" : "[");
                break;
            case LIT_CLOSE:
                arguments.literal(role, lexer.tokenIsOnly('}') ? "}" : "]");
                break;
            case LIT_CHARS:
            case LIT_ATOM:
            case LIT_KEY:
                if (text != null) arguments.literal(role, text);
                else { // read where it lies in the output's chunk
                    arguments.literal(
                            role, chunk, lexer.tokenStart() - base, lexer.tokenEnd() - base);
                }
                break;
            case LIT_COMMA:
            case LIT_COLON:
            case LIT_QUOTE:
            case LIT_ESCAPE:
                arguments.literal(role, text);
                break;
            default:
                throw new IllegalStateException("role " + role);
        }
    }

    /** The current token's text into the open call's raw text, where it keeps one. */
    private void rawText() {
        StringBuilder raw = calls.rawSink();
        if (raw != null) lexer.appendTokenText(raw);
    }

    private void endCall(int at) {
        if (calls
                .unknownAsText()) { // a call to a tool the request lacks, given back as the text it
            // was
            String raw = calls.raw();
            calls.abandon();
            content.add(raw);
            return;
        }
        if (arguments.used()) arguments.finish();
        calls.end(at);
    }

    private void endOpenCall() {
        try {
            endCall(lexer.tokenStart());
        } catch (ToolCallParseException e) {
            if (!fallBackToContent()) throw e;
        }
    }

    /** No rule matches at the commit point. */
    private void stuck() {
        int at = lexer.position();
        boolean ranOut = lexer.stuckAt() >= lexer.end();
        if (calls.isOpen()) {
            if (ranOut && recoverCutCall()) {
                lexer.restartAt(lexer.end());
                return;
            } // the rest was its cut end marker
            String in = " (in " + lexer.modePath() + ")";
            if (fallBackToContent()) {
                lexer.restartAt(at);
                return;
            }
            if (ranOut)
                throw calls.errorAtBegin(
                        ToolCallParseException.Kind.UNTERMINATED_CALL,
                        "the call that began at offset "
                                + calls.beginOffset()
                                + " is still open at the end of the output"
                                + in);
            fail(
                    ToolCallParseException.Kind.UNEXPECTED_TEXT,
                    lexer.stuckAt(),
                    "the format does not allow this text inside a call" + in);
        }
        // inside a structure of the format (a calls section, a channel header...) text it does not
        // allow is an error, unless lenient; in the default mode, or cut short by the end of the
        // output, nothing is dropped: what no rule takes is content
        if (!ranOut && !lexer.inDefaultMode() && !options.lenient())
            fail(
                    ToolCallParseException.Kind.UNEXPECTED_TEXT,
                    lexer.stuckAt(),
                    "the format does not allow this text here (in " + lexer.modePath() + ")");
        content.add(lexer.skipOne());
    }

    /**
     * Lenient mode: a call cut off before its end marker by the end of the output is a call all the
     * same when it is complete: it has its name and its arguments parse as a whole JSON object (in
     * key/value formats: no value is left open).
     */
    private boolean recoverCutCall() {
        if (!options.lenient() || !calls.isOpen() || calls.name() == null) return false;
        if (arguments.used() ? !arguments.atValueBoundary() : !calls.argumentsComplete())
            return false;
        try {
            endCall(lexer.end());
            return true;
        } catch (ToolCallParseException e) {
            return false;
        }
    }

    /** Lenient mode: the raw text of a call of which nothing was sent becomes content. */
    private boolean fallBackToContent() {
        if (!options.lenient() || !calls.isOpen() || calls.emitted()) return false;
        String raw = calls.raw();
        calls.abandon();
        content.add(raw);
        return true;
    }

    private void fail(ToolCallParseException.Kind kind, int offset, String detail) {
        throw calls.error(kind, offset, detail);
    }
}
