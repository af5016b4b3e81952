package dev.toolcalls.templates;

/**
 * A chat template that cannot be rendered exactly: a syntax error, a feature the renderer does not
 * render as Hugging Face's Jinja does, or the template's own {@code raise_exception(...)}. The
 * message names the template line.
 */
public final class TemplateException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    private final int line;

    /**
     * @param line the 1-based template line, 0 when unknown
     * @param message what went wrong, without the line
     */
    public TemplateException(int line, String message) {
        super(
                line > 0
                        ? "chat template line " + line + ": " + message
                        : "chat template: " + message);
        this.line = line;
    }

    TemplateException(int line, String message, Throwable cause) {
        this(line, message);
        initCause(cause);
    }

    /** The 1-based template line the error is on; 0 when it is not known. */
    public int line() {
        return line;
    }
}
