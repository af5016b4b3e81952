package dev.toolcalls.server;

import com.google.gson.JsonElement;
import com.google.gson.JsonObject;

import dev.toolcalls.Format;
import dev.toolcalls.Tools;

/**
 * The one place where an upstream request gets the fields that constrain decoding, per engine kind:
 * for {@code tool_choice: "required"}, a named function or {@code strict} tools, a grammar derived
 * from the format ({@code grammar} for llama.cpp, {@code structured_outputs} for vLLM, {@code ebnf}
 * / {@code structural_tag} for SGLang). {@link #NONE} adds nothing: the engine decodes freely and
 * the parser checks what it writes.
 */
interface Constraints {
    /** Adds nothing. */
    Constraints NONE = (kind, format, tools, toolChoice, request, upstream) -> {};

    /**
     * Adds the constraint fields to the upstream request body.
     *
     * @param kind the engine's kind (which fields it takes)
     * @param format the format the engine's output must follow
     * @param tools the request's tools
     * @param toolChoice the request's {@code tool_choice}, or null
     * @param request the client's request body
     * @param upstream the body sent to the engine, to add to
     */
    void add(
            Upstream.Kind kind,
            Format format,
            Tools tools,
            JsonElement toolChoice,
            JsonObject request,
            JsonObject upstream);
}
