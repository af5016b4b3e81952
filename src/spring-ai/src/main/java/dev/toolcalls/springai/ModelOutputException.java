package dev.toolcalls.springai;

import dev.toolcalls.ToolCallParseException;

/**
 * The model's output broke its format: the parser's error, with the whole raw output and the prompt
 * that produced it, so that nothing is lost. Thrown by {@link ToolCallsChatModel#call} and
 * signalled by its {@link ToolCallsChatModel#stream} after every piece the output produced before
 * the error was emitted.
 */
public class ModelOutputException extends RuntimeException {
    private final String output;
    private final String prompt;

    public ModelOutputException(ToolCallParseException cause, String output, String prompt) {
        super(cause.getMessage(), cause);
        this.output = output;
        this.prompt = prompt;
    }

    /** What went wrong, as the library names it (e.g. {@code MALFORMED_ARGUMENTS}). */
    public ToolCallParseException.Kind kind() {
        return parseError().kind();
    }

    /** The parser's error: format, kind, offset, excerpt. */
    public ToolCallParseException parseError() {
        return (ToolCallParseException) getCause();
    }

    /** The model's whole raw output, as the source gave it. */
    public String output() {
        return output;
    }

    /** The rendered prompt. */
    public String prompt() {
        return prompt;
    }
}
