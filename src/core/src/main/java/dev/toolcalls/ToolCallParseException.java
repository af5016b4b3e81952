package dev.toolcalls;

import java.util.List;

/**
 * The output does not follow its format. Carries the format, the kind of failure, the offset (in
 * code points from the start of the output) and an excerpt of the text around it, and ends with the
 * page that explains the kind, e.g.
 *
 * <pre>
 * NAME: unterminated call at offset 3: the call that began at offset 3 is still open at the end of the output, near 'hi &lt;tool_call&gt;{"name": "f"' (see https://github.com/toolcalls/toolcalls/blob/main/docs/troubleshooting.md#unterminated_call)
 * </pre>
 *
 * <p>A stream parser that threw is finished; {@link #eventsBeforeError()} holds what the failing
 * {@code feed} or {@code finish} had produced before the error, which a server may still send.
 */
public class ToolCallParseException extends RuntimeException {
    /** Stable machine-readable kinds, used as {@code error.type} on the command line. */
    public enum Kind {
        /** Arguments that are not one strict JSON object. */
        MALFORMED_ARGUMENTS("malformed_arguments"),
        /** A call still open at the end of the output. */
        UNTERMINATED_CALL("unterminated_call"),
        /** A call that ended without a (non-empty) function name, or with two. */
        MISSING_NAME("missing_name"),
        /** Text inside a call that the format does not allow there. */
        UNEXPECTED_TEXT("unexpected_text"),
        /** A limit of {@link ParseOptions} was exceeded (token length, name length, nesting). */
        LIMIT_EXCEEDED("limit_exceeded"),
        /**
         * A call to a function the request's tools do not name, under {@link
         * ParseOptions.UnknownTool#ERROR}.
         */
        UNKNOWN_TOOL("unknown_tool");

        private final String type;

        Kind(String type) {
            this.type = type;
        }

        /** The stable string of this kind, e.g. {@code malformed_arguments}. */
        public String type() {
            return type;
        }
    }

    /**
     * The troubleshooting page: one heading per error kind, whose anchor is the kind's {@code
     * type}.
     */
    static final String TROUBLESHOOTING =
            "https://github.com/toolcalls/toolcalls/blob/main/docs/troubleshooting.md#";

    private final String format;
    private final Kind kind;
    private final int offset;
    private final String excerpt;
    private final String detail;
    private List<ParseEvent> eventsBeforeError = List.of();

    /**
     * @param offset code points from the start of the output
     * @param excerpt the text around the offset, as far as it is still held
     * @param detail what is wrong, without format, offset and excerpt
     */
    public ToolCallParseException(
            String format, Kind kind, int offset, String excerpt, String detail) {
        super(
                format
                        + ": "
                        + kind.type().replace('_', ' ')
                        + " at offset "
                        + offset
                        + ": "
                        + detail
                        + (excerpt == null || excerpt.isEmpty() ? "" : ", near '" + excerpt + "'")
                        + see(kind.type()));
        this.format = format;
        this.kind = kind;
        this.offset = offset;
        this.excerpt = excerpt;
        this.detail = detail;
    }

    /**
     * The pointer every message of this library's errors ends with: the troubleshooting heading
     * that explains it.
     */
    static String see(String anchor) {
        return " (see " + TROUBLESHOOTING + anchor + ")";
    }

    public String format() {
        return format;
    }

    public Kind kind() {
        return kind;
    }

    /** Code points from the start of the output to where the problem is. */
    public int offset() {
        return offset;
    }

    public String excerpt() {
        return excerpt;
    }

    /** The message without format, offset and excerpt. */
    public String detail() {
        return detail;
    }

    /** The events the failing call had produced before the error, which a server may still send. */
    public List<ParseEvent> eventsBeforeError() {
        return eventsBeforeError;
    }

    ToolCallParseException withEvents(List<ParseEvent> events) {
        this.eventsBeforeError = List.copyOf(events);
        return this;
    }
}
