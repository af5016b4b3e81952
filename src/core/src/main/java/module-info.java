/**
 * toolcalls: LLM output text to structured tool calls, in one piece and while streaming, for every
 * major model convention. The API is {@code dev.toolcalls} (formats, parsing, streaming, values)
 * and {@code dev.toolcalls.protocol} (the wire protocols servers speak); everything under {@code
 * dev.toolcalls.internal} is the runtime and is exported only to the project's own tools, server
 * and command line.
 */
module dev.toolcalls {
    requires org.antlr.antlr4.runtime;
    requires com.google.gson;

    exports dev.toolcalls;
    exports dev.toolcalls.protocol;
    exports dev.toolcalls.internal.assemble to
            dev.toolcalls.tools;
    exports dev.toolcalls.internal.format to
            dev.toolcalls.tools,
            dev.toolcalls.cli;
    exports dev.toolcalls.internal.grammar to
            dev.toolcalls.cli;
    exports dev.toolcalls.internal.json to
            dev.toolcalls.tools,
            dev.toolcalls.server,
            dev.toolcalls.cli;
    exports dev.toolcalls.internal.lex to
            dev.toolcalls.tools,
            dev.toolcalls.cli;

    uses dev.toolcalls.FormatProvider;
}
