/**
 * toolcalls: LLM output text to structured tool calls, in one piece and while streaming, for every
 * major model convention. The API is {@code dev.toolcalls} (formats, parsing, streaming, values)
 * and {@code dev.toolcalls.protocol} (wire JSON of the protocols servers speak); everything under
 * {@code dev.toolcalls.internal} is the runtime and is not exported. The command line, the replay
 * server and the suite runner live in this module too but need picocli and Jetty,
 * which a library user does not.
 */
module dev.toolcalls {
    requires transitive org.antlr.antlr4.runtime;
    requires com.google.gson;
    requires static info.picocli;
    requires static org.eclipse.jetty.server;
    requires static org.eclipse.jetty.http;
    requires static org.eclipse.jetty.io;
    requires static org.eclipse.jetty.util;

    exports dev.toolcalls;
    exports dev.toolcalls.protocol;

    // picocli binds the command classes' annotated fields reflectively
    opens dev.toolcalls.cli to info.picocli;

    uses dev.toolcalls.FormatProvider;
}
