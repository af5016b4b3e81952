package dev.toolcalls;

/**
 * A format that cannot be used: its format file or grammar is broken, or two formats claim the
 * same name. The message names the format, the file and what is wrong.
 */
public class FormatException extends IllegalArgumentException {
    public FormatException(String message) { super(message); }

    public FormatException(String message, Throwable cause) { super(message, cause); }
}
