package dev.toolcalls.internal.format;

import java.util.List;

/**
 * A grammar file the ANTLR tool rejected: each message says file:line:column and what. Also knows
 * whether the tool is there at all (kept out of {@link GrammarTool}, whose classes need the tool).
 */
final class GrammarErrors extends Exception {
    final List<String> messages;

    GrammarErrors(List<String> messages) {
        super(String.join("; ", messages));
        this.messages = List.copyOf(messages);
    }

    /** Whether the ANTLR tool can be used here. */
    static final boolean TOOL_AVAILABLE = probe();

    private static boolean probe() {
        try {
            Class<?> tool = Class.forName("org.antlr.v4.Tool", false, GrammarErrors.class.getClassLoader());
            // on the module path the tool must be a module this one reads (requires static: only when resolved)
            return GrammarErrors.class.getModule().canRead(tool.getModule());
        } catch (ClassNotFoundException | LinkageError e) {
            return false;
        }
    }
}
