/**
 * The toolcalls command line: {@code parse}, {@code formats}, {@code check}, {@code generate},
 * {@code new}, {@code test}, {@code serve}.
 */
module dev.toolcalls.cli {
    requires dev.toolcalls;
    requires dev.toolcalls.tools;
    requires dev.toolcalls.server;
    requires com.google.gson;
    requires info.picocli;

    exports dev.toolcalls.cli;

    // picocli binds the command classes' annotated fields reflectively
    opens dev.toolcalls.cli to
            info.picocli;
}
