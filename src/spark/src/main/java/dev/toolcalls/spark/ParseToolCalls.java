package dev.toolcalls.spark;

import dev.toolcalls.ChatMessage;
import dev.toolcalls.Format;
import dev.toolcalls.FormatException;
import dev.toolcalls.Formats;
import dev.toolcalls.IdGenerator;
import dev.toolcalls.ParseOptions;
import dev.toolcalls.ToolCall;
import dev.toolcalls.ToolCallParseException;
import dev.toolcalls.Tools;

import org.apache.spark.sql.catalyst.InternalRow;
import org.apache.spark.sql.catalyst.expressions.GenericInternalRow;
import org.apache.spark.sql.catalyst.util.GenericArrayData;
import org.apache.spark.sql.connector.catalog.functions.ScalarFunction;
import org.apache.spark.sql.types.DataType;
import org.apache.spark.sql.types.DataTypes;
import org.apache.spark.sql.types.Metadata;
import org.apache.spark.sql.types.StructField;
import org.apache.spark.sql.types.StructType;
import org.apache.spark.unsafe.types.UTF8String;

import java.io.Serializable;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * {@code parse_tool_calls(format, text [, tools_json [, options [, id_key]]])} as a Spark function
 * on Spark's internal rows: it reads {@link UTF8String}s and builds the result struct as an {@link
 * InternalRow} directly, with no JSON in between and no conversion to external rows.
 *
 * <p>Formats come from {@link Formats}, which builds each one once per JVM (one executor: one build
 * of each format used, shared by its tasks); the tools JSON and the options string are parsed once
 * per distinct value in a task, not once per row. A row that does not parse gives an {@code error}
 * struct, never a failed task: a broken output, an unknown format, bad tools JSON, bad options,
 * text that is not valid UTF-8, even a bug in the library ({@code internal_error}). A null text
 * gives null.
 */
public final class ParseToolCalls implements ScalarFunction<InternalRow>, Serializable {
    /** The function's name in SQL. */
    public static final String NAME = "parse_tool_calls";

    /** {@code struct<type: string, message: string, offset: int>}. */
    public static final StructType ERROR_TYPE =
            new StructType(
                    new StructField[] {
                        field("type", DataTypes.StringType, false),
                        field("message", DataTypes.StringType, false),
                        field("offset", DataTypes.IntegerType, true)
                    });

    /** {@code struct<id: string, name: string, arguments: string>}. */
    public static final StructType CALL_TYPE =
            new StructType(
                    new StructField[] {
                        field("id", DataTypes.StringType, false),
                        field("name", DataTypes.StringType, false),
                        field("arguments", DataTypes.StringType, false)
                    });

    /**
     * {@code struct<content: string, reasoning: string, tool_calls: array<CALL_TYPE>, error:
     * ERROR_TYPE>}: on success {@code error} is null and {@code tool_calls} an array (empty when
     * there are none); on failure only {@code error} is set.
     */
    public static final StructType RESULT_TYPE =
            new StructType(
                    new StructField[] {
                        field("content", DataTypes.StringType, true),
                        field("reasoning", DataTypes.StringType, true),
                        field("tool_calls", DataTypes.createArrayType(CALL_TYPE, false), true),
                        field("error", ERROR_TYPE, true)
                    });

    private static final long serialVersionUID = 1L;

    /** Distinct formats, tools or options remembered per JVM before a cache starts afresh. */
    private static final int CACHE_ENTRIES = 256;

    /** Tools JSON longer than this is parsed again per row rather than kept. */
    private static final int CACHE_MAX_KEY_BYTES = 1 << 20;

    private static final InternalRow FAILED_NULL_FORMAT =
            error("unknown_format", "the format is null", null);

    /**
     * Per executor JVM, shared by its tasks: a format by the name a row gives, or the error row for
     * a name that gives none; the same for tools JSON and options strings.
     */
    private static final Map<UTF8String, Object> FORMATS = new ConcurrentHashMap<>();

    private static final Map<UTF8String, Object> TOOLS = new ConcurrentHashMap<>();
    private static final Map<UTF8String, Object> OPTIONS = new ConcurrentHashMap<>();

    private final int arity;
    private final boolean integralKey;

    /**
     * @param arity 2 to 5 arguments: format, text, tools JSON, options, id key
     * @param integralKey whether the id key is a whole number (used as the seed as it is) rather
     *     than text (hashed to a seed)
     */
    public ParseToolCalls(int arity, boolean integralKey) {
        if (arity < 2 || arity > 5)
            throw new IllegalArgumentException(
                    NAME
                            + " takes 2 to 5 arguments (format, text [, tools_json [, options [,"
                            + " id_key]]]), not "
                            + arity);
        this.arity = arity;
        this.integralKey = integralKey;
    }

    private static StructField field(String name, DataType type, boolean nullable) {
        return new StructField(name, type, nullable, Metadata.empty());
    }

    @Override
    public String name() {
        return NAME;
    }

    @Override
    public DataType[] inputTypes() {
        DataType[] types = new DataType[arity];
        for (int i = 0; i < arity; i++) types[i] = DataTypes.StringType;
        if (arity == 5 && integralKey) types[4] = DataTypes.LongType;
        return types;
    }

    @Override
    public DataType resultType() {
        return RESULT_TYPE;
    }

    @Override
    public boolean isResultNullable() {
        return true;
    }

    @Override
    public String canonicalName() {
        return "toolcalls." + NAME + "(" + arity + (integralKey ? ",long" : "") + ")";
    }

    @Override
    public InternalRow produceResult(InternalRow input) {
        if (input.isNullAt(1)) return null;
        UTF8String text = input.getUTF8String(1);
        try {
            return parse(input, text);
        } catch (ToolCallParseException e) {
            return error(e.kind().type(), e.getMessage(), e.offset());
        } catch (FormatException e) {
            return error("format_error", e.getMessage(), null);
        } catch (RuntimeException | StackOverflowError e) {
            return error("internal_error", e.getClass().getName() + ": " + e.getMessage(), null);
        }
    }

    private InternalRow parse(InternalRow input, UTF8String text) {
        Object format = input.isNullAt(0) ? FAILED_NULL_FORMAT : format(input.getUTF8String(0));
        if (format instanceof InternalRow failed) return failed;
        Object toolsOrError =
                arity < 3 || input.isNullAt(2) ? Tools.none() : tools(input.getUTF8String(2));
        if (toolsOrError instanceof InternalRow failed) return failed;
        Object parsed =
                arity < 4 || input.isNullAt(3)
                        ? ParseOptions.defaults()
                        : options(input.getUTF8String(3));
        if (parsed instanceof InternalRow failed) return failed;
        if (!text.isValid()) return invalidUtf8(text);
        long seed = seed(input);
        ParseOptions opts = ((ParseOptions) parsed).withIds(() -> IdGenerator.seeded(seed));
        ChatMessage m = ((Format) format).parse(text.toString(), (Tools) toolsOrError, opts);
        return result(m);
    }

    /**
     * The seed of a row's ids: 0 without an id key (what {@code toolcalls parse} uses, so a row
     * gives exactly the command line's ids), the key itself when it is a whole number, or the
     * 64-bit FNV-1a hash of its UTF-8 bytes when it is text. A null key counts as no key.
     */
    private long seed(InternalRow input) {
        if (arity < 5 || input.isNullAt(4)) return 0;
        if (integralKey) return input.getLong(4);
        return fnv1a(input.getUTF8String(4).getBytes());
    }

    /** 64-bit FNV-1a: stable across JVMs and Spark versions, unlike {@code hashCode}. */
    static long fnv1a(byte[] bytes) {
        long h = 0xcbf29ce484222325L;
        for (byte b : bytes) {
            h ^= b & 0xff;
            h *= 0x100000001b3L;
        }
        return h;
    }

    private Object format(UTF8String name) {
        Object cached = FORMATS.get(name);
        if (cached != null) return cached;
        Object value;
        try {
            value =
                    Formats.find(name.toString())
                            .<Object>map(
                                    f -> {
                                        if (f.problem().isPresent()) throw f.problem().get();
                                        return f;
                                    })
                            .orElseGet(
                                    () ->
                                            error(
                                                    "unknown_format",
                                                    "no format named '"
                                                            + name
                                                            + "' (formats.md lists them)",
                                                    null));
        } catch (FormatException e) {
            value = error("format_error", e.getMessage(), null);
        }
        remember(FORMATS, name, value);
        return value;
    }

    private Object tools(UTF8String json) {
        Object cached = TOOLS.get(json);
        if (cached != null) return cached;
        Object value;
        try {
            value = Tools.parse(json.toString());
        } catch (IllegalArgumentException e) {
            value = error("invalid_tools", "tools_json: " + e.getMessage(), null);
        }
        remember(TOOLS, json, value);
        return value;
    }

    private Object options(UTF8String text) {
        Object cached = OPTIONS.get(text);
        if (cached != null) return cached;
        Object value;
        try {
            value = parseOptions(text.toString());
        } catch (IllegalArgumentException e) {
            value = error("invalid_options", e.getMessage(), null);
        }
        remember(OPTIONS, text, value);
        return value;
    }

    /**
     * {@code "lenient, thinking=on"}: comma-separated {@code key} or {@code key=value} items, keys
     * and values case-insensitive, blanks ignored.
     *
     * <ul>
     *   <li>{@code lenient} or {@code lenient=true|false};
     *   <li>{@code thinking=on|off|true|false|default};
     *   <li>{@code unknown_tool=keep|text|error}.
     * </ul>
     */
    static ParseOptions parseOptions(String text) {
        ParseOptions o = ParseOptions.defaults();
        for (String item : text.split(",", -1)) {
            String trimmed = item.strip();
            if (trimmed.isEmpty()) continue;
            int eq = trimmed.indexOf('=');
            String key =
                    (eq < 0 ? trimmed : trimmed.substring(0, eq)).strip().toLowerCase(Locale.ROOT);
            String value =
                    eq < 0 ? null : trimmed.substring(eq + 1).strip().toLowerCase(Locale.ROOT);
            switch (key) {
                case "lenient" -> o = o.withLenient(value == null || bool(key, value));
                case "thinking" ->
                        o =
                                o.withThinking(
                                        value == null
                                                ? Boolean.TRUE
                                                : value.equals("default")
                                                        ? null
                                                        : bool(key, value));
                case "unknown_tool" -> {
                    if (value == null)
                        throw new IllegalArgumentException(
                                "options: unknown_tool needs a value: keep, text or error");
                    o =
                            switch (value) {
                                case "keep" -> o.withUnknownTool(ParseOptions.UnknownTool.KEEP);
                                case "text" -> o.withUnknownTool(ParseOptions.UnknownTool.TEXT);
                                case "error" -> o.withUnknownTool(ParseOptions.UnknownTool.ERROR);
                                default ->
                                        throw new IllegalArgumentException(
                                                "options: unknown_tool is keep, text or error, not '"
                                                        + value
                                                        + "'");
                            };
                }
                default ->
                        throw new IllegalArgumentException(
                                "options: unknown option '"
                                        + key
                                        + "' (known: lenient, thinking, unknown_tool) in '"
                                        + text
                                        + "'");
            }
        }
        return o;
    }

    private static boolean bool(String key, String value) {
        return switch (value) {
            case "true", "on", "yes", "1" -> true;
            case "false", "off", "no", "0" -> false;
            default ->
                    throw new IllegalArgumentException(
                            "options: " + key + " is on or off, not '" + value + "'");
        };
    }

    private static void remember(Map<UTF8String, Object> cache, UTF8String key, Object value) {
        if (key.numBytes() > CACHE_MAX_KEY_BYTES) return;
        if (cache.size() >= CACHE_ENTRIES) cache.clear();
        // the row's bytes may be a buffer the next row reuses: the key gets its own copy
        cache.put(key.clone(), value);
    }

    /**
     * Text that is not UTF-8 (a binary column cast to string) is an error, as on the command line:
     * never read with replacement characters. The offset counts the code points before the first
     * bad byte.
     */
    private static InternalRow invalidUtf8(UTF8String text) {
        byte[] b = text.getBytes();
        int i = 0;
        int codePoints = 0;
        while (i < b.length) {
            int len = validSequence(b, i);
            if (len == 0) break;
            i += len;
            codePoints++;
        }
        return error(
                "invalid_utf8",
                String.format(
                        Locale.ROOT,
                        "text is not valid UTF-8: byte 0x%02X at byte offset %d",
                        b[i] & 0xff,
                        i),
                codePoints);
    }

    /** The length of the well-formed UTF-8 sequence at {@code i}, or 0. */
    private static int validSequence(byte[] b, int i) {
        int c = b[i] & 0xff;
        if (c < 0x80) return 1;
        int len;
        int min;
        if (c >= 0xc2 && c <= 0xdf) {
            len = 2;
            min = 0x80;
        } else if (c >= 0xe0 && c <= 0xef) {
            len = 3;
            min = 0x800;
        } else if (c >= 0xf0 && c <= 0xf4) {
            len = 4;
            min = 0x10000;
        } else return 0;
        if (i + len > b.length) return 0;
        int cp = c & (0xff >> (len + 1));
        for (int k = 1; k < len; k++) {
            int cc = b[i + k] & 0xff;
            if ((cc & 0xc0) != 0x80) return 0;
            cp = (cp << 6) | (cc & 0x3f);
        }
        if (cp < min || cp > 0x10ffff || (cp >= 0xd800 && cp <= 0xdfff)) return 0;
        return len;
    }

    private static InternalRow result(ChatMessage m) {
        List<ToolCall> calls = m.toolCalls();
        Object[] out = new Object[calls.size()];
        for (int i = 0; i < out.length; i++) {
            ToolCall c = calls.get(i);
            out[i] =
                    new GenericInternalRow(
                            new Object[] {
                                UTF8String.fromString(c.id()),
                                UTF8String.fromString(c.name()),
                                UTF8String.fromString(c.arguments())
                            });
        }
        return new GenericInternalRow(
                new Object[] {
                    utf8(m.content()), utf8(m.reasoningContent()), new GenericArrayData(out), null
                });
    }

    private static UTF8String utf8(String s) {
        return s == null ? null : UTF8String.fromString(s);
    }

    private static InternalRow error(String type, String message, Integer offset) {
        InternalRow error =
                new GenericInternalRow(
                        new Object[] {
                            UTF8String.fromString(type),
                            UTF8String.fromString(message == null ? type : message),
                            offset
                        });
        return new GenericInternalRow(new Object[] {null, null, null, error});
    }
}
