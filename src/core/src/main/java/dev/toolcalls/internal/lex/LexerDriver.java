package dev.toolcalls.internal.lex;

import org.antlr.v4.runtime.Lexer;
import org.antlr.v4.runtime.LexerNoViableAltException;
import org.antlr.v4.runtime.Token;

import java.util.ArrayList;
import java.util.EmptyStackException;
import java.util.List;

/**
 * Pulls tokens from a format's lexer over output that arrives in chunks.
 *
 * <p>Each call to {@link #next()} lexes one token from the commit point: a final token moves the
 * commit point past it; a token that may still grow is left uncommitted ({@link Step#NEED_MORE})
 * and lexed again from the same point when more data arrives. Only this uncommitted tail is ever
 * re-lexed, and streamable tokens are cut at the end of the data, so the tail stays short and the
 * total work is linear in the output length whatever the chunking.
 */
public final class LexerDriver {
    /** What {@link #next()} found. */
    public enum Step {
        /** A token: {@link #tokenType()}, {@link #tokenStart()}, {@link #tokenEnd()}. */
        TOKEN,
        /** Nothing more can be decided yet: all data is committed, or the tail may still grow. */
        NEED_MORE,
        /** No rule matches at the commit point; {@link #stuckAt()} tells where matching failed. */
        STUCK,
        /** A token still undecided at the end of the data is longer than the limit. */
        TOO_LONG
    }

    /**
     * The shortest complete rest worth proving text: below it lexing costs less than deriving a
     * mode's proof on its first use (milliseconds in a fresh JVM, which a small first parse never
     * pays).
     */
    static final int PLAIN_MIN = 1024;

    /** Code points kept below the commit point, for error excerpts. */
    private static final int KEEP = 80;

    /** The most characters held at the commit point that {@link #appendText} reads again. */
    private static final int HELD_TEXT_MAX = 8;

    private final TextStream input = new TextStream();
    private final FastRuns runs;

    /** The grammar's proofs that the rest of a complete output is text (null: not used). */
    private final PlainModes plain;

    /** The last token was a run found by search. */
    private boolean lastWasRun;

    /** The run rule the current token was found by, when it was found by search, else null. */
    private FastRuns.Run lastRun;

    /**
     * A run that is not streamable, searched to the end of the data and waiting for more (else
     * null): it starts at {@link #heldRunStart} in {@link #heldRunMode}, and its characters up to
     * {@link #heldRunTo} are known; the search goes on from there.
     */
    private FastRuns.Run heldRun;

    private int heldRunStart;
    private int heldRunMode;
    private int heldRunTo;

    private final Lexer lexer;
    private final HoldBackSimulator simulator;
    private int tokenStart;
    private int tokenEnd;
    private int tokenType;

    private int stuckAt;

    private int maxTokenLength;

    private long runWork;

    /**
     * The mode that plays the default mode's part (the lenient mode of a format, or the default
     * mode).
     */
    private int baseMode = Lexer.DEFAULT_MODE;

    public LexerDriver(LexerModel model, int maxTokenLength) {
        this(model, maxTokenLength, true);
    }

    /**
     * @param useRuns find runs by search and walk over known tokens at once where the grammar
     *     allows (false: simulate everything, to compare)
     */
    public LexerDriver(LexerModel model, int maxTokenLength, boolean useRuns) {
        this(model, maxTokenLength, useRuns, useRuns);
    }

    /**
     * @param useRuns find runs by search where the grammar allows
     * @param known walk over known tokens at once (false: each character, to compare)
     */
    LexerDriver(LexerModel model, int maxTokenLength, boolean useRuns, boolean known) {
        this.maxTokenLength = maxTokenLength;
        this.lexer = model.factory.apply(input);
        this.simulator = new HoldBackSimulator(lexer, model, input, known);
        this.runs = useRuns ? model.runs : null;
        this.plain = useRuns ? model.plain : null;
        lexer.setInterpreter(simulator);
        lexer.removeErrorListeners();
    }

    /** The longest token still undecided, in code points (for the next parser's options). */
    public void limit(int maxTokenLength) {
        this.maxTokenLength = maxTokenLength;
    }

    /** Empty again, as new, for another parser (of the same format). */
    public void reset(int maxTokenLength) {
        this.maxTokenLength = maxTokenLength;
        input.reset();
        lexer.reset(); // ANTLR's state, the mode stack and the simulator (HoldBackSimulator.reset)
        lastWasRun = false;
        lastRun = null;
        heldRun = null;
        tokenStart = 0;
        tokenEnd = 0;
        tokenType = 0;
        stuckAt = 0;
        runWork = 0;
        baseMode = Lexer.DEFAULT_MODE;
    }

    public void append(String chunk) {
        input.append(chunk);
    }

    /**
     * Appends a chunk and, when the grammar proves that it begins, after the short text held at the
     * commit point if any, with text of one role that the lexer would take as it stands (the chunk
     * a streamable text run from its first character, {@link FastRuns#wholeText}, or the held text
     * and the chunk a sequence of text tokens the tables decide within them, the last one perhaps
     * held back as the simulator would hold it, {@link FastRuns#textTokens}), takes that text as
     * one token of that role, as {@link #next()} and the parser's joining of adjacent text would:
     * the token's text (the chunk itself when it is all of it), and the token is current. The empty
     * string: the chunk grew a token held back at the commit point, which is held back still, as
     * {@link #next()} would hold it ({@link HoldBackSimulator#growHeld}). Null: the chunk is
     * appended and waits for {@link #next()}.
     */
    public String appendText(String chunk) {
        int n = chunk.length();
        if (runs == null || n == 0) {
            input.append(chunk);
            return null;
        }
        int start = input.index();
        int mode = lexer._mode;
        if (input.settled()) {
            FastRuns.Run run = runs.wholeText(mode, chunk);
            if (run != null) {
                input.appendWhole(chunk, n > FastRuns.SHORT);
                take(start, start + n, run, run.type);
                return chunk;
            }
            int taken = taken(runs.textTokens(mode, chunk), n);
            if (taken > 0) {
                input.appendWhole(chunk, false); // textTokens takes no surrogate
                take(start, start + taken, null, tokenType);
                return taken == n ? chunk : chunk.substring(0, taken);
            }
        } else {
            // text held at the end of the data (blanks a marker may still follow) and decided by
            // this chunk
            String text = input.heldWith(chunk, HELD_TEXT_MAX);
            int taken = text == null ? 0 : taken(runs.textTokens(mode, text), text.length());
            if (taken > 0) {
                input.appendWhole(chunk, false);
                if (simulator.holding(start, mode)) simulator.forgetHeld();
                heldRun = null;
                take(start, start + taken, null, tokenType);
                return taken == text.length() ? text : text.substring(0, taken);
            }
            // a longer held token that the chunk's characters leave where it was (text a marker
            // may still follow, in a mode that holds it until one says what it was)
            int from = input.end();
            if (text == null && from == input.size() && simulator.holding(start, mode)) {
                input.append(chunk);
                boolean grew =
                        !tooLong(start, input.end())
                                && simulator.growHeld(start, mode, chunk, from);
                return grew ? "" : null;
            }
        }
        input.append(chunk);
        return null;
    }

    /**
     * Appends a chunk and, when it is all one streamable run of the current mode from its first
     * character and everything before it is decided, takes it as the current token, as {@link
     * #next()} would take it ({@link FastRuns#wholeRun}).
     *
     * @return whether the chunk is the current token (else it waits for {@link #next()})
     */
    public boolean appendRun(String chunk) {
        int n = chunk.length();
        if (runs != null && n > 0 && input.settled()) {
            FastRuns.Run run = runs.wholeRun(lexer._mode, chunk);
            if (run != null) {
                int start = input.index();
                input.appendWhole(chunk, n > FastRuns.SHORT);
                take(start, start + n, run, run.type);
                return true;
            }
        }
        input.append(chunk);
        return false;
    }

    /**
     * Of {@link FastRuns#textTokens}' answer for a text of {@code n} characters: how many are taken
     * (0: none, the text goes to the lexer's loop), the last token's type left in {@link
     * #tokenType}. Text held back after them must be no longer than a token may be.
     */
    private int taken(int found, int n) {
        if (found < 0) return 0;
        int taken = found >>> 16;
        if (n - taken > maxTokenLength) return 0; // the lexer's loop reports it
        tokenType = found & 0xFFFF;
        return taken;
    }

    /**
     * Makes [start, end) the current token, of {@code type}, found without lexing: by {@code run}'s
     * search, or (null) proved text.
     */
    private void take(int start, int end, FastRuns.Run run, int type) {
        input.skipTo(end);
        runWork += end - start;
        lastWasRun = true;
        if (lastRun != run) lastRun = run; // no store, and no write barrier, when it is the same
        tokenStart = start;
        tokenEnd = end;
        input.discardBefore(start, KEEP);
        tokenType = type;
    }

    /**
     * Appends a chunk whose listed UTF-16 positions the lexer must not take for the start of a
     * marker.
     */
    public void append(String chunk, int[] masked) {
        input.append(chunk, masked);
    }

    public void complete() {
        input.complete();
    }

    /** Lexes from the commit point: a token, or why there is none now. */
    public Step next() {
        int start = input.index();
        int end = input.end();
        if (start >= end) return Step.NEED_MORE;
        lastWasRun = false;
        lastRun = null;
        if (plain != null && input.isComplete() && end - start >= PLAIN_MIN) {
            int mode = lexer._mode;
            PlainModes.Proof proof = plain.of(mode);
            if (proof != null
                    && !simulator.holding(start, mode)
                    && !holdingRun(start, mode)
                    && input.lacks(proof.needed, start)) {
                // the grammar proves the rest is text of one role: taken whole, without lexing
                take(start, end, null, proof.type);
                if (proof.mode >= 0) lexer.mode(proof.mode);
                return Step.TOKEN;
            }
        }
        if (runs != null) {
            int mode = lexer._mode;
            int cp = input.LA(1);
            FastRuns.Run run = tableRun(mode, cp, start);
            if (run != null && !simulator.holding(start, mode)) {
                // a one-character rule's token is final as it stands: nothing can extend it
                int stop =
                        run.single
                                ? start + Character.charCount(cp)
                                : input.scanRun(
                                        run == heldRun && holdingRun(start, mode)
                                                ? heldRunTo
                                                : run.head
                                                        ? start + Character.charCount(cp)
                                                        : start,
                                        run);
                heldRun = null;
                if (!run.single && stop >= end && !run.streamable && !input.isComplete()) {
                    // a run that may still grow and cannot be cut: it waits for more data, and
                    // the search goes on where it stopped
                    heldRun = run;
                    heldRunStart = start;
                    heldRunMode = mode;
                    heldRunTo = stop;
                    return tooLong(start, end) ? Step.TOO_LONG : Step.NEED_MORE;
                }
                if (run.command(lexer)) {
                    take(start, stop, run, run.type);
                    return Step.TOKEN;
                }
                // a mode command would pop an empty stack: the simulator says where it is stuck
            }
        }
        lexer._type = Token.INVALID_TYPE;
        lexer._tokenStartCharIndex = start;
        int t;
        int mode = lexer._mode;
        try {
            t = simulator.match(input, lexer._mode);
        } catch (LexerNoViableAltException e) {
            stuckAt = input.index();
            input.seek(start);
            return Step.STUCK;
        } catch (EmptyStackException e) {
            // the grammar pops a mode it never pushed here: the format does not allow this text
            // here
            lexer._mode = mode;
            simulator.restoreModes();
            simulator.forgetHeld();
            stuckAt = start;
            input.seek(start);
            return Step.STUCK;
        }
        if (t == HoldBackSimulator.HOLD || t == Token.EOF) {
            input.seek(start);
            return t == HoldBackSimulator.HOLD && tooLong(start, input.end())
                    ? Step.TOO_LONG
                    : Step.NEED_MORE;
        }
        tokenStart = start;
        tokenEnd = input.index();
        input.discardBefore(tokenStart, KEEP);
        tokenType = lexer._type != Token.INVALID_TYPE ? lexer._type : t;
        return Step.TOKEN;
    }

    /**
     * Extends the current token over the tokens that follow it, as long as each is one that the
     * grammar's tables find without the simulator ({@link FastRuns}: a run or a one-character
     * rule), has the role {@code inherit} (so it belongs to what the current token belongs to), is
     * shorter than {@code longest} UTF-16 units, is decided as it stands (a run that reaches the
     * end of data that is not complete is left for {@link #next()}), and the lexer is outside the
     * base mode before it. The tokens taken are lexed exactly as {@link #next()} would lex them,
     * one by one, without handing each back: a caller that uses only the range of such tokens (raw
     * JSON arguments, a value being skipped) takes the whole range at once.
     *
     * @return whether the token grew (its end is then {@link #tokenEnd()}, and {@link #tokenRun()}
     *     null)
     */
    public boolean extendInherited(int longest) {
        if (runs == null) return false;
        int end = input.end();
        int g = input.index();
        int from = g;
        boolean complete = input.isComplete();
        while (g < end) {
            int mode = lexer._mode;
            if (mode == baseMode && lexer._modeStack.isEmpty()) break;
            if (plain != null && complete && end - g >= PLAIN_MIN && plain.of(mode) != null)
                break; // next() would try the grammar's proof first
            int cp = input.LA(1);
            FastRuns.Run run = tableRun(mode, cp, g);
            if (run == null || !run.inherit || simulator.holding(g, mode) || holdingRun(g, mode))
                break;
            int stop =
                    run.single
                            ? g + Character.charCount(cp)
                            : input.scanRun(run.head ? g + Character.charCount(cp) : g, run);
            if (stop - g >= longest || !run.single && stop >= end && !complete) break;
            if (!run.command(lexer)) break;
            input.skipTo(stop);
            g = stop;
        }
        if (g == from) return false;
        runWork += g - from;
        lastWasRun = true;
        lastRun = null;
        tokenEnd = g;
        return true;
    }

    /**
     * The table's run or one-character token for the code point {@code cp} at {@code at} in {@code
     * mode}, or null. A one-character token that begins other rules too stands alone only where the
     * character after it goes on with none of them (the simulator decides otherwise, and at the end
     * of the data).
     */
    private FastRuns.Run tableRun(int mode, int cp, int at) {
        FastRuns.Run run = runs.at(mode, cp);
        if (run != null && run.looksAhead()) {
            int after = input.peek(at + Character.charCount(cp));
            if (after < 0 || run.rivalGoesOn(after)) return null;
        }
        return run;
    }

    /** Whether a run waits at {@code start} in {@code mode} for more data. */
    private boolean holdingRun(int start, int mode) {
        return heldRun != null && start == heldRunStart && mode == heldRunMode;
    }

    /** The run rule the current token was found by search as, or null (lexed, or proved text). */
    public FastRuns.Run tokenRun() {
        return lastRun;
    }

    /** The type of the last token {@link #next()} found. */
    public int tokenType() {
        return tokenType;
    }

    /** More than the limit of code points in [from, to) (UTF-16 length bounds it from above). */
    private boolean tooLong(int from, int to) {
        return to - from > maxTokenLength
                && input.codePoints(to) - input.codePoints(from) > maxTokenLength;
    }

    /** Where the last token starts (a UTF-16 index into the whole output; see {@link #offset}). */
    public int tokenStart() {
        return tokenStart;
    }

    /** The code point offset of a UTF-16 index at or after the first character still held. */
    public int offset(int index) {
        return input.codePoints(index);
    }

    /** Code points the lexer has examined so far, re-lexing included. */
    public long work() {
        return input.consumed();
    }

    /**
     * Of {@link #work()}, the characters taken as runs found by search (UTF-16 units) rather than
     * simulated.
     */
    public long runWork() {
        return runWork;
    }

    /**
     * The last token ended at the real end of the output and could have grown: the output was cut
     * inside it.
     */
    public boolean tokenTruncated() {
        if (!lastWasRun) return simulator.truncated();
        return (lastRun == null || !lastRun.single)
                && tokenEnd >= input.end()
                && input.isComplete();
    }

    public int tokenEnd() {
        return tokenEnd;
    }

    public String tokenText() {
        return input.text(tokenStart, tokenEnd);
    }

    /**
     * The value of the JSON string literal the token is, cut from the input, when it holds no
     * escape, control character or surrogate; otherwise null (see {@link
     * TextStream#plainJsonString}).
     */
    public String tokenPlainJsonString() {
        return input.plainJsonString(tokenStart, tokenEnd);
    }

    /** Whether {@link #tokenText()} is {@code c} alone, blanks around it aside (no string made). */
    public boolean tokenIsOnly(char c) {
        return input.isOnly(tokenStart, tokenEnd, c);
    }

    /**
     * The input chunk that holds the whole token, to read its text in place at [{@link
     * #tokenStart()} - {@link #tokenChunkBase()}, {@link #tokenEnd()} - tokenChunkBase()); null
     * when the token spans chunks.
     */
    public String tokenChunk() {
        return input.chunkHolding(tokenStart, tokenEnd);
    }

    /** The global index of the first character of {@link #tokenChunk()}. */
    public int tokenChunkBase() {
        return input.chunkBase();
    }

    /** Appends {@link #tokenText()} to {@code sink} without making a string of it. */
    public void appendTokenText(StringBuilder sink) {
        input.appendText(sink, tokenStart, tokenEnd);
    }

    /** Where matching gave up after {@link Step#STUCK}; {@link #end()} when it ran out of data. */
    public int stuckAt() {
        return stuckAt;
    }

    /** Commit point: where the next token starts. */
    public int position() {
        return input.index();
    }

    public int end() {
        return input.end();
    }

    public String text(int from, int to) {
        return input.text(from, to);
    }

    /** Whether the text of [from, to) is only white space ({@link TextStream#isBlank}). */
    public boolean isBlank(int from, int to) {
        return input.isBlank(from, to);
    }

    /**
     * The input chunk that holds the whole of [from, to), to read it in place at [from - {@link
     * #tokenChunkBase()}, to - tokenChunkBase()); null where it spans chunks.
     */
    public String chunkHolding(int from, int to) {
        return input.chunkHolding(from, to);
    }

    /** Appends the text of [from, to) to {@code sink} without making a string of it. */
    public void appendText(StringBuilder sink, int from, int to) {
        input.appendText(sink, from, to);
    }

    /**
     * Lexes from the start, and after every return to the top, in {@code mode} instead of the
     * default mode.
     */
    public void setBaseMode(int mode) {
        baseMode = mode;
        lexer._mode = mode;
    }

    /**
     * Starts lexing as if {@code mode} had been pushed on the default mode (e.g. inside a think
     * block).
     */
    public void startIn(int mode) {
        lexer.pushMode(mode);
    }

    /** Leaves the current mode stack and goes on lexing at {@code position} in the default mode. */
    public void restartAt(int position) {
        simulator.forgetHeld();
        heldRun = null;
        lexer._modeStack.clear();
        lexer._mode = baseMode;
        input.seek(position);
    }

    /** Skips one code point at the commit point, returning it as text. */
    public String skipOne() {
        int at = input.index();
        input.consume();
        return input.text(at, input.index());
    }

    /**
     * The lexer's mode stack at the commit point, outermost first and the default mode left out,
     * e.g. {@code HC_CALL > JC_KEY}; {@code DEFAULT_MODE} when that is all there is.
     */
    public String modePath() {
        String[] names = lexer.getModeNames();
        List<String> path = new ArrayList<>();
        for (int m : lexer._modeStack.toArray()) path.add(names[m]);
        path.add(names[lexer._mode]);
        if (path.size() > 1 && lexer._modeStack.get(0) == Lexer.DEFAULT_MODE) path.remove(0);
        return String.join(" > ", path);
    }

    public boolean inDefaultMode() {
        return lexer._mode == baseMode && lexer._modeStack.isEmpty();
    }

    /**
     * About {@code radius} characters either side of UTF-16 index {@code index}, still held; never
     * half a surrogate pair.
     */
    public String excerpt(int index, int radius) {
        int from = Math.max(input.firstHeld(), index - radius);
        int to = Math.min(input.end(), index + radius);
        String s = input.text(from, to);
        int a = 0;
        int b = s.length();
        if (b > 0 && Character.isLowSurrogate(s.charAt(0))) a++;
        if (b > a && Character.isHighSurrogate(s.charAt(b - 1))) b--;
        return s.substring(a, b);
    }
}
