/**
 * Tools for format authors and suite maintainers: the grammar linter behind {@code check}, the
 * output generator behind {@code generate}, the grammar analysis both use, and the regression-suite
 * runner behind {@code test}. They read the runtime's internals, which the core exports to this
 * module only.
 */
module dev.toolcalls.tools {
    requires dev.toolcalls;
    requires org.antlr.antlr4.runtime;
    requires com.google.gson;

    exports dev.toolcalls.tools;
    exports dev.toolcalls.suite;
}
