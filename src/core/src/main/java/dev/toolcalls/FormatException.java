package dev.toolcalls;

/**
 * A format that cannot be used: its format file or grammar is broken, or two formats claim the same
 * name. The message names the format, the file and what is wrong, and ends with the troubleshooting
 * page's heading for format errors.
 */
public class FormatException extends IllegalArgumentException {
    public FormatException(String message) {
        super(pointed(message));
    }

    public FormatException(String message, Throwable cause) {
        super(pointed(message), cause);
    }

    /**
     * The message with its pointer, once (a message taken over from another format error has it
     * already).
     */
    private static String pointed(String message) {
        if (message != null && message.contains(ToolCallParseException.TROUBLESHOOTING))
            return message;
        return message + ToolCallParseException.see("format_error");
    }
}
