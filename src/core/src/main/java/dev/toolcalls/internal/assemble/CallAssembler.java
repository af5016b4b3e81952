package dev.toolcalls.internal.assemble;

import com.google.gson.JsonElement;

import dev.toolcalls.IdGenerator;
import dev.toolcalls.ParseOptions;
import dev.toolcalls.ToolCallParseException;
import dev.toolcalls.internal.format.FormatRules;
import dev.toolcalls.internal.format.IdNamePattern;
import dev.toolcalls.internal.format.IdTemplate;
import dev.toolcalls.internal.json.Json;
import dev.toolcalls.internal.json.StringRanges;

import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.function.IntFunction;
import java.util.function.IntUnaryOperator;
import java.util.regex.Matcher;

/**
 * Turns call tokens into tool-call events.
 *
 * <p>A call's first delta carries its index, id, type and complete name, once; argument fragments
 * follow as they arrive and concatenate to exactly the final {@code arguments}. Fragments that
 * arrive before the name (or, in formats whose calls carry an id, before the id could still come)
 * wait for the header. Indices count from 0 in the order calls are emitted.
 *
 * <p>Holding ({@link #holdUntilEnd()}, for a whole output parsed at once) sends nothing of a call
 * before its end: a call abandoned midway then takes no index and no id, and its raw text is kept
 * from its first character.
 */
public final class CallAssembler {
    /** Argument pieces shorter than this are gathered; longer ones are kept as they are. */
    public static final int LONG_PIECE = 256;

    /** The length at which the short pieces gathered become one piece. */
    private static final int TAIL_MAX = 4096;

    /**
     * The capacity up to which {@link #argsTail} is kept from call to call; one that grew beyond it
     * is made anew, since a builder that once took a character above U+00FF keeps two bytes per
     * character for good, and every fragment cut from it pays for that. It is made anew with this
     * capacity, so that the arguments of the calls after it do not grow it again piece by piece (a
     * stream's first builder is of the default size: most streams hold no call).
     */
    private static final int SMALL_TAIL = 64;

    private final String format;
    private final IdTemplate idStyle;

    /** The matcher of the pattern model-written ids must match, kept from call to call. */
    private final Matcher idKeep;

    private final IdNamePattern nameFromId;

    /**
     * The finder of {@code nameFromId}, made on first use and kept (no work space made per call).
     */
    private IdNamePattern.Finder nameFinder;

    private IdGenerator ids;
    private final boolean idFromText;
    private final EventCollector out;
    private final IntFunction<String> excerpts;
    private final IntUnaryOperator offsets;
    private ParseOptions options;

    /** The request's function names, or null when it has none (then no name is unknown). */
    private Set<String> knownTools;

    private int nextIndex;

    // the open call
    private boolean open;

    /**
     * Where the open call began, in code points, or -1 while not counted: counted when asked, or by
     * {@link #countBegin()} before the output's text below the call may be let go.
     */
    private int beginOffset;

    private int beginIndex;
    private String name;
    private String id;
    private boolean headerSent;
    private String sentId;
    private int index;

    /**
     * The arguments so far: the pieces received, each kept as it is when long (a long string value
     * is not copied until the arguments are joined, once), short ones gathered in {@code argsTail}.
     */
    private final List<String> argPieces = new ArrayList<>();

    private StringBuilder argsTail = new StringBuilder();

    private int argsLength;

    /** The arguments are one short piece so far, kept as it came rather than gathered. */
    private boolean firstKept;

    /**
     * Long pieces known to be valid string text (escaped by the runtime, or runs holding no quote
     * and no backslash): the strict check does not read them again. At most one per {@link
     * #LONG_PIECE} characters of the arguments.
     */
    private final StringRanges validText = new StringRanges();

    /** The strict check of the arguments, kept for every call. */
    private final Json.Checker checker = new Json.Checker();

    /** The fragment appended last: sent as it is when it is all that is left to send (no copy). */
    private String lastPiece = "";

    private int argsSent; // chars of args already emitted
    private boolean argsStarted;

    /** Text of the call while nothing is emitted (made on first use). */
    private StringBuilder raw;

    /**
     * A call's raw text can be read: lenient mode gives a malformed call back as it, and so does an
     * unknown tool under {@link ParseOptions.UnknownTool#TEXT}. Otherwise none is kept (a long
     * argument is not copied for nothing).
     */
    private boolean keepRaw;

    private boolean unknownAsText; // a call to an unknown tool, to be given back as text
    private boolean hold; // nothing of a call is sent before its end

    /**
     * Holding: the id the call had when a stream would have sent its header (null: none yet), once
     * that point is passed.
     */
    private boolean idDecided;

    private String decidedId;

    /**
     * The ids generated while the collector gathers a message rather than events, in order: a whole
     * output that fails is parsed again for its error's events, with these ids ({@link #replay}).
     */
    private final List<String> generated = new ArrayList<>();

    /** Ids to use, in order, before any is generated; {@code replayed} of them used. */
    private List<String> replay = List.of();

    private int replayed;

    public CallAssembler(
            String format,
            FormatRules rules,
            IdGenerator ids,
            boolean idFromText,
            EventCollector out,
            IntFunction<String> excerpts,
            IntUnaryOperator offsets,
            ParseOptions options,
            Set<String> knownTools) {
        this.offsets = offsets;
        this.format = format;
        this.options = options;
        this.knownTools = knownTools == null || knownTools.isEmpty() ? null : knownTools;
        this.excerpts = excerpts;
        this.idStyle = rules.ids();
        this.idKeep = idStyle.keepMatcher();
        this.nameFromId = rules.nameFromId();
        this.ids = ids;
        this.idFromText = idFromText;
        this.out = out;
        this.keepRaw = keepsRaw(options, this.knownTools);
    }

    private static boolean keepsRaw(ParseOptions options, Set<String> knownTools) {
        return options.lenient()
                || knownTools != null && options.unknownTool() == ParseOptions.UnknownTool.TEXT;
    }

    /** No call made yet, for another response with its own ids, options and tools. */
    public void reset(IdGenerator ids, ParseOptions options, Set<String> knownTools) {
        // the parts are kept from parse to parse: a reference that stays the same is not stored
        // again (with G1, a reference stored into an object that survived a collection pays the
        // write barrier's fence)
        if (this.ids != ids) this.ids = ids;
        if (this.options != options) this.options = options;
        Set<String> known = knownTools == null || knownTools.isEmpty() ? null : knownTools;
        if (this.knownTools != known) this.knownTools = known;
        this.keepRaw = keepsRaw(options, known);
        nextIndex = 0;
        open = false;
        hold = false;
        sentId = null;
        if (raw != null && raw.capacity() > 4096) raw = null;
        generated.clear();
        if (!replay.isEmpty()) replay = List.of();
        replayed = 0;
        clearCall();
    }

    /** The id source of this response (the one {@link #reset} gave). */
    public IdGenerator ids() {
        return ids;
    }

    /** The ids generated while a message was gathered, in order (a copy). */
    public List<String> generatedIds() {
        return List.copyOf(generated);
    }

    /** The calls that need a generated id take these, in order, before any is generated. */
    public void replay(List<String> ids) {
        replay = ids;
        replayed = 0;
    }

    public boolean isOpen() {
        return open;
    }

    /**
     * From now on, a call's deltas wait for its end, so that until then nothing of it is emitted.
     */
    public void holdUntilEnd() {
        hold = true;
    }

    /** True once any delta of the open call has been sent. */
    public boolean emitted() {
        return headerSent;
    }

    /** Where the open call began, in code points (the offset errors report). */
    public int beginOffset() {
        if (beginOffset < 0) beginOffset = offsets.applyAsInt(beginIndex);
        return beginOffset;
    }

    /**
     * Counts the open call's offset in code points now, if it is not counted yet: the caller does
     * this before it appends more output, while the text at the call's start is still held. A whole
     * output, appended once, never counts the offset of a call that ends well.
     */
    public void countBegin() {
        if (open && beginOffset < 0) beginOffset = offsets.applyAsInt(beginIndex);
    }

    /**
     * Raw text of the open call so far (kept only while nothing of it has been emitted, and only
     * where the options can give it back as text).
     */
    public String raw() {
        return raw == null ? "" : raw.toString();
    }

    /**
     * Where {@link #text(String)} would keep a token's text (the open call's raw text, until its
     * header is sent), or null when it would keep nothing: a caller appends the token's text there
     * without making a string of it.
     */
    public StringBuilder rawSink() {
        if (!open || headerSent || !keepRaw) return null;
        if (raw == null) raw = new StringBuilder();
        return raw;
    }

    public void text(String tokenText) {
        if (open && !headerSent && keepRaw) {
            if (raw == null) raw = new StringBuilder();
            raw.append(tokenText);
        }
    }

    /**
     * @param offset where the call begins, as a UTF-16 index into the output (as every offset given
     *     here)
     */
    public void begin(int offset) {
        if (open) throw new IllegalStateException("begin while a call is open");
        open = true;
        beginIndex = offset;
        beginOffset = -1;
        clearCall();
    }

    /** What one call holds, cleared for the next. */
    private void clearCall() {
        name = null;
        id = null;
        headerSent = false;
        clearArgs();
        if (!lastPiece.isEmpty()) lastPiece = "";
        argsSent = 0;
        argsStarted = false;
        unknownAsText = false;
        idDecided = false;
        decidedId = null;
        clearRaw();
    }

    /**
     * The arguments so far are one whole JSON object (a call cut before any argument is not
     * complete).
     */
    public boolean argumentsComplete() {
        if (!argsStarted) return false;
        try {
            return check(argsText()) == '{';
        } catch (Json.NotJson e) {
            return false;
        }
    }

    /** The open call names a tool the request lacks and the policy says to give it back as text. */
    public boolean unknownAsText() {
        return open && unknownAsText;
    }

    public void name(String value, int offset) {
        requireOpen(offset);
        if (value == null || value.isEmpty())
            throw error(
                    ToolCallParseException.Kind.MISSING_NAME,
                    offset,
                    "the call's name is empty or not a valid string");
        if (name != null)
            throw error(
                    ToolCallParseException.Kind.MISSING_NAME,
                    offset,
                    "the call has a second name '" + value + "' after '" + name + "'");
        takeName(value, offset);
        if (!idFromText) {
            sendHeader();
            sendArgs(); // arguments that came first were waiting for the name
        }
    }

    /**
     * The open call's name, whichever role of the format gave it (a name token, or the
     * model-written id it is read from): every name passes here, so the name limit holds in every
     * format.
     */
    private void takeName(String value, int offset) {
        if (value.length() > options.maxNameLength()
                && value.codePointCount(0, value.length()) > options.maxNameLength())
            throw error(
                    ToolCallParseException.Kind.LIMIT_EXCEEDED,
                    offset,
                    "the function name is longer than "
                            + options.maxNameLength()
                            + " code points (ParseOptions.withMaxNameLength)");
        name = value;
        checkKnown(offset);
    }

    private void checkKnown(int offset) {
        if (knownTools == null
                || knownTools.contains(name)
                || options.unknownTool() == ParseOptions.UnknownTool.KEEP) return;
        if (options.unknownTool() == ParseOptions.UnknownTool.ERROR)
            throw error(
                    ToolCallParseException.Kind.UNKNOWN_TOOL,
                    offset,
                    "the call names '"
                            + name
                            + "', which is not among the request's tools ("
                            + String.join(", ", knownTools)
                            + ")");
        unknownAsText = true;
    }

    public void id(String value, int offset) {
        requireOpen(offset);
        if (value == null) value = ""; // not a usable id: one is generated
        if (id == null) id = value;
        if (name == null && nameFromId != null) {
            if (nameFinder == null) nameFinder = nameFromId.finder();
            String found = nameFinder.nameIn(value);
            if (found != null && !found.isEmpty()) takeName(found, offset);
        }
        if (name != null) {
            sendHeader();
            sendArgs();
        }
    }

    /**
     * A fragment of the arguments that is the inside of a JSON string as the runtime escaped it (no
     * {@code "} unescaped, no control character, whole escapes): the strict check need not read it
     * again.
     */
    public void escapedArguments(String fragment, int offset) {
        if (open && fragment.length() >= LONG_PIECE)
            validText.add(argsLength, argsLength + fragment.length(), true);
        arguments(fragment, offset);
    }

    /**
     * A fragment of the arguments in which [starts[k], ends[k]) for k below {@code count} hold no
     * {@code "} and no {@code \} (runs of a lexer rule that leaves both out): where the strict
     * check reads them as a string's text, it searches them for control characters only.
     */
    public void arguments(String fragment, int offset, int[] starts, int[] ends, int count) {
        if (open)
            for (int k = 0; k < count; k++)
                if (ends[k] - starts[k] >= LONG_PIECE)
                    validText.add(argsLength + starts[k], argsLength + ends[k], false);
        arguments(fragment, offset);
    }

    /**
     * A fragment of the arguments that is {@code before}, [from, to) of {@code source} and {@code
     * after}, joined where the arguments are gathered (no string made of it when it is short).
     *
     * @param escaped the range is the inside of a JSON string as the runtime escaped it (see {@link
     *     #escapedArguments})
     */
    public void arguments(
            String before,
            String source,
            int from,
            int to,
            String after,
            boolean escaped,
            int offset) {
        int n = before.length() + (to - from) + after.length();
        if (n >= LONG_PIECE || !open) {
            String fragment = SchemaTypes.joined(before, source, from, to, after);
            if (escaped && before.isEmpty() && after.isEmpty()) escapedArguments(fragment, offset);
            else arguments(fragment, offset);
            return;
        }
        int at = tail();
        argsTail.append(before).append(source, from, to).append(after);
        tailGrew(at, source, from, to);
    }

    /**
     * A fragment of the arguments that is {@code before} (escaped already) and [from, to) of {@code
     * source} escaped as the inside of a JSON string ({@link SchemaTypes#escape(String, int, int,
     * SchemaTypes.Seen)}): escaped into the arguments gathered where it is short, with no string
     * made of it.
     */
    public void escapedArguments(
            String before, String source, int from, int to, SchemaTypes.Seen seen, int offset) {
        if (before.length() + (to - from) >= LONG_PIECE || !open) {
            String text = SchemaTypes.escape(source, from, to, seen);
            escapedArguments(before.isEmpty() ? text : before + text, offset);
            return;
        }
        int at = tail();
        SchemaTypes.escapeTo(argsTail.append(before), source, from, to, seen);
        tailGrew(at, source, from, to);
    }

    /**
     * Readies {@link #argsTail} for a short fragment appended in place (the arguments begun, a kept
     * first piece moved into it); returns its length before.
     */
    private int tail() {
        argsStarted = true;
        if (firstKept) gatherFirst();
        return argsTail.length();
    }

    /**
     * After a short fragment made of [from, to) of {@code source} (and what came with it) was
     * appended to {@link #argsTail} from {@code at}: sends it on. A fragment that is the whole
     * source, nothing added and nothing escaped, is sent as the source itself.
     */
    private void tailGrew(int at, String source, int from, int to) {
        int n = argsTail.length() - at;
        String piece = from == 0 && to == source.length() && n == to ? source : "";
        argsLength += n;
        if (argsTail.length() >= TAIL_MAX) flushArgsTail();
        if (lastPiece != piece) lastPiece = piece; // no store, no write barrier, if same
        if (name != null) sendHeader();
        if (headerSent) sendArgs();
    }

    public void arguments(String fragment, int offset) {
        requireOpen(offset);
        argsStarted = true;
        appendArgs(fragment);
        lastPiece = fragment;
        if (name != null) sendHeader();
        if (headerSent) sendArgs();
    }

    public void end(int offset) {
        requireOpen(offset);
        if (name == null)
            throw errorAtBegin(
                    ToolCallParseException.Kind.MISSING_NAME,
                    "the call that began at offset " + beginOffset() + " has no function name");
        if (!argsStarted) {
            appendArgs("{}");
            lastPiece = "{}";
        }
        String problem = null;
        String all = argsText();
        try {
            if (check(all) != '{') problem = "found " + kind(Json.parseStrict(all));
        } catch (Json.TooDeep e) {
            throw errorAtBegin(
                    ToolCallParseException.Kind.LIMIT_EXCEEDED,
                    "arguments of '"
                            + name
                            + "' are nested deeper than "
                            + options.maxNesting()
                            + " levels (ParseOptions.withMaxNesting)");
        } catch (Json.NotJson e) {
            problem = e.getMessage();
        }
        if (problem != null)
            throw errorAtBegin(
                    ToolCallParseException.Kind.MALFORMED_ARGUMENTS,
                    "arguments of '"
                            + name
                            + "' are not a JSON object ("
                            + problem
                            + "): "
                            + shorten(all));
        header();
        if (out.collectsEvents()) {
            pendingArgs();
            if (argsSent < all.length()) {
                out.arguments(index, all.substring(argsSent)); // a trailing lone surrogate, if any
                argsSent = all.length();
            }
        }
        out.end(index, sentId, name, all);
        open = false;
        clearRaw();
    }

    /** Closes the open call without emitting anything more (lenient fallback). */
    public void abandon() {
        out.settle(); // what was sent of it goes out first
        open = false;
        clearRaw();
    }

    private void sendHeader() {
        if (!hold) {
            header();
        } else if (!idDecided && !unknownAsText) {
            // a stream would send the header here, with the id known now: a held call keeps that
            // id, so
            // batch and stream agree even where the model writes its id after the arguments
            idDecided = true;
            decidedId = id;
        }
    }

    /**
     * The arguments so far are due to be sent: the event collector asks for them ({@link
     * #sendPending}) before it collects anything else or drains, so the pieces of one feed go out
     * as one fragment.
     */
    private void sendArgs() {
        if (!hold) out.owe(this);
    }

    /** Sends the arguments not sent yet (the event collector's {@link EventCollector#settle}). */
    void sendPending() {
        if (open && headerSent) pendingArgs();
    }

    private void header() {
        if (headerSent || unknownAsText) return;
        index = nextIndex++;
        String chosen = idDecided ? decidedId : id;
        if (chosen != null && idStyle.keeps(chosen, idKeep)) sentId = chosen;
        else if (replayed < replay.size()) sentId = replay.get(replayed++);
        else {
            sentId = idStyle.generate(ids, name, index);
            if (!out.collectsEvents()) generated.add(sentId);
        }
        out.start(index, sentId, name);
        headerSent = true;
        clearRaw();
    }

    private void pendingArgs() {
        int end = argsLength;
        if (end > argsSent && Character.isHighSurrogate(lastArgsChar())) end--; // wait for the pair
        if (end > argsSent) {
            out.arguments(
                    index,
                    end == argsLength && end - argsSent == lastPiece.length()
                            ? lastPiece
                            : argsRange(argsSent, end));
            argsSent = end;
        }
    }

    /** The strict check of the arguments, not reading again the pieces known to be string text. */
    private char check(String all) throws Json.NotJson {
        return checker.check(all, options.maxNesting(), validText);
    }

    private void clearArgs() {
        validText.clear();
        argPieces.clear();
        if (argsTail.capacity() > SMALL_TAIL) argsTail = new StringBuilder(SMALL_TAIL);
        else argsTail.setLength(0);
        argsLength = 0;
        firstKept = false;
    }

    private void appendArgs(String piece) {
        if (argsLength == 0 && !piece.isEmpty()) {
            // the first piece is kept as it is: arguments that arrive whole are not copied
            argsLength = piece.length();
            argPieces.add(piece);
            firstKept = piece.length() < LONG_PIECE;
            return;
        }
        if (firstKept) gatherFirst();
        argsLength += piece.length();
        if (piece.length() < LONG_PIECE) {
            argsTail.append(piece);
            if (argsTail.length() >= TAIL_MAX) flushArgsTail();
        } else {
            flushArgsTail();
            argPieces.add(piece);
        }
    }

    /** A second piece: the short first one, kept as it came, is gathered with it after all. */
    private void gatherFirst() {
        firstKept = false;
        if (argsTail.length() == 0 && argPieces.size() == 1) argsTail.append(argPieces.remove(0));
    }

    private void flushArgsTail() {
        if (argsTail.length() == 0) return;
        argPieces.add(argsTail.toString());
        argsTail.setLength(0);
    }

    private char lastArgsChar() {
        if (argsTail.length() > 0) return argsTail.charAt(argsTail.length() - 1);
        for (int i = argPieces.size() - 1; i >= 0; i--) {
            String p = argPieces.get(i);
            if (!p.isEmpty()) return p.charAt(p.length() - 1);
        }
        return 0;
    }

    /** All the arguments so far, as one string (the one piece itself when there is one). */
    private String argsText() {
        flushArgsTail();
        if (argPieces.isEmpty()) return "";
        if (argPieces.size() == 1) return argPieces.get(0);
        String all = String.join("", argPieces);
        argPieces.clear();
        argPieces.add(all);
        return all;
    }

    /**
     * The arguments in [from, to), read from the pieces that hold them (the last few); a range that
     * lies within one piece is that piece (or a part of it), not a copy built up, and one within
     * the short pieces still being gathered is cut from them without ending their gathering.
     */
    private String argsRange(int from, int to) {
        int tailFrom = argsLength - argsTail.length();
        if (from >= tailFrom) return argsTail.substring(from - tailFrom, to - tailFrom);
        flushArgsTail();
        int at = argsLength;
        int i = argPieces.size();
        while (i > 0 && at > from) at -= argPieces.get(--i).length();
        String first = argPieces.get(i);
        if (to <= at + first.length()) return first.substring(from - at, to - at);
        StringBuilder b = new StringBuilder(to - from);
        for (; i < argPieces.size() && at < to; i++) {
            String p = argPieces.get(i);
            int a = Math.max(from, at);
            int z = Math.min(to, at + p.length());
            if (a < z) b.append(p, a - at, z - at);
            at += p.length();
        }
        return b.toString();
    }

    private void clearRaw() {
        if (raw != null) raw.setLength(0);
    }

    /** The open call's name, once known. */
    public String name() {
        return open ? name : null;
    }

    public void requireOpen(int offset) {
        if (!open)
            throw error(
                    ToolCallParseException.Kind.UNEXPECTED_TEXT,
                    offset,
                    "call text outside a call (grammar error)");
    }

    /** An error at a UTF-16 index of the output (reported as a code point offset). */
    public ToolCallParseException error(
            ToolCallParseException.Kind kind, int offset, String detail) {
        return new ToolCallParseException(
                format, kind, offsets.applyAsInt(offset), excerpts.apply(offset), detail);
    }

    /** An error at the beginning of the open call. */
    public ToolCallParseException errorAtBegin(ToolCallParseException.Kind kind, String detail) {
        return new ToolCallParseException(
                format, kind, beginOffset(), excerpts.apply(beginIndex), detail);
    }

    private static String kind(JsonElement e) {
        return e.isJsonArray()
                ? "an array"
                : e.isJsonNull()
                        ? "null"
                        : e.isJsonPrimitive()
                                ? "a " + (e.getAsJsonPrimitive().isString() ? "string" : "scalar")
                                : "a value";
    }

    private static String shorten(String s) {
        return s.length() <= 80 ? s : s.substring(0, 60) + "…" + s.substring(s.length() - 15);
    }
}
