/**
 * Chat templates: a model's Jinja chat template (from its {@code tokenizer_config.json} or a {@code
 * .jinja} file) rendered over OpenAI-shaped messages and tools, byte for byte as Hugging Face's
 * Jinja renders it, on HubSpot jinjava.
 */
@SuppressWarnings({"requires-automatic", "requires-transitive-automatic"})
module dev.toolcalls.templates {
    // jinjava has no module descriptor: it is read as the automatic module named after its jar
    requires jinjava;
    requires com.google.gson;
    // javax.el (inside jinjava) names java.beans types
    requires java.desktop;
    // the raw completion source posts to an engine's /v1/completions
    requires java.net.http;

    exports dev.toolcalls.templates;
    exports dev.toolcalls.templates.raw;

    // jinjava calls the template functions (raise_exception, strftime_now, slices) by reflection
    opens dev.toolcalls.templates to
            jinjava;
}
