package dev.toolcalls;

/**
 * A decoding constraint cannot be built: a tool's schema uses a keyword the target cannot express,
 * or the options name a tool that is not there. Says which tool and which keyword.
 */
public class ConstraintException extends IllegalArgumentException {
    private static final long serialVersionUID = 1L;

    private final String tool;
    private final String keyword;

    public ConstraintException(String tool, String keyword, String message) {
        super(message);
        this.tool = tool;
        this.keyword = keyword;
    }

    /** The tool whose schema (or name) is the problem, or null. */
    public String tool() {
        return tool;
    }

    /** The schema keyword or option that cannot be expressed, or null. */
    public String keyword() {
        return keyword;
    }
}
