/**
 * The replay server (recorded model outputs) and the gateway (an engine's raw completions, rendered
 * with the model's chat template and parsed by its format), served over HTTP in the three wire
 * protocols, on Jetty.
 */
module dev.toolcalls.server {
    requires dev.toolcalls;
    requires com.google.gson;
    requires transitive dev.toolcalls.templates;
    requires org.eclipse.jetty.server;
    requires org.eclipse.jetty.http;
    requires org.eclipse.jetty.io;
    requires org.eclipse.jetty.util;

    exports dev.toolcalls.server;
}
