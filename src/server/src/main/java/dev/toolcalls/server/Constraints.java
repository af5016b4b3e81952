package dev.toolcalls.server;

import com.google.gson.JsonElement;
import com.google.gson.JsonObject;

import dev.toolcalls.ConstraintException;
import dev.toolcalls.ConstraintOptions;
import dev.toolcalls.Format;
import dev.toolcalls.Tools;

import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Constraints derived from the format ({@link Format#constraint}) and sent where the engine reads
 * them, when the request restricts the calls: {@code tool_choice} {@code required} (Messages:
 * {@code any}), a named function, {@code none} with tools, parallel calls off, or a {@code strict}
 * tool. A request that leaves the model free ({@code auto}, parallel calls on, no strict tool) is
 * sent unconstrained. llama.cpp's server gets the GBNF grammar as {@code grammar}, vLLM as {@code
 * structured_outputs.grammar}, SGLang as {@code ebnf}; an engine of kind {@code openai} gets
 * nothing. A tool schema the grammar cannot express leaves the request unconstrained (the parser
 * still checks every call). Grammars are kept per format, tools and choice, up to {@value #CACHED}.
 */
final class Constraints {
    static final int CACHED = 256;

    private final Map<String, String> cache = new ConcurrentHashMap<>();

    /**
     * Adds the constraint fields to the body sent to the engine.
     *
     * @param kind the engine's kind (which fields it reads)
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
            JsonObject upstream) {
        if (kind == Upstream.Kind.OPENAI) return;
        String choice = choice(toolChoice);
        boolean parallel = parallel(request, toolChoice);
        JsonElement toolList = request.get("tools");
        boolean hasTools =
                toolList != null && toolList.isJsonArray() && !toolList.getAsJsonArray().isEmpty();
        if (!hasTools) return;
        boolean strict = false;
        for (JsonElement t : toolList.getAsJsonArray()) {
            if (!(t instanceof JsonObject tool)) continue;
            JsonElement f = tool.get("function");
            strict |=
                    isTrue(tool.get("strict"))
                            || (f instanceof JsonObject fn && isTrue(fn.get("strict")));
        }
        if (choice.equals("auto") && parallel && !strict) return;
        String key = format.name() + '\u0000' + choice + '\u0000' + parallel + '\u0000' + toolList;
        String grammar = cache.get(key);
        if (grammar == null) {
            try {
                grammar =
                        format.constraint(
                                tools,
                                ConstraintOptions.defaults()
                                        .withToolChoice(choice)
                                        .withParallelToolCalls(parallel)
                                        .withTarget(ConstraintOptions.Target.GBNF));
            } catch (ConstraintException e) {
                return;
            }
            if (cache.size() >= CACHED) cache.clear();
            cache.put(key, grammar);
        }
        switch (kind) {
            case LLAMA_CPP -> upstream.addProperty("grammar", grammar);
            case VLLM -> {
                JsonObject so = new JsonObject();
                so.addProperty("grammar", grammar);
                upstream.add("structured_outputs", so);
            }
            case SGLANG -> upstream.addProperty("ebnf", grammar);
            default -> {}
        }
    }

    /**
     * The tool choice of any of the three protocols as {@code auto}, {@code required}, {@code none}
     * or a function's name.
     */
    static String choice(JsonElement toolChoice) {
        if (toolChoice == null || toolChoice.isJsonNull()) return "auto";
        if (toolChoice.isJsonPrimitive()) {
            String s = toolChoice.getAsString();
            return s.equals("required") || s.equals("none") ? s : "auto";
        }
        if (!toolChoice.isJsonObject()) return "auto";
        JsonObject o = toolChoice.getAsJsonObject();
        String type = string(o, "type");
        if (type == null) return "auto";
        switch (type) {
            case "any":
                return "required";
            case "none":
                return "none";
            case "tool":
                return string(o, "name") == null ? "auto" : string(o, "name");
            case "function":
                if (string(o, "name") != null) return string(o, "name");
                if (o.get("function") instanceof JsonObject f && string(f, "name") != null)
                    return string(f, "name");
                return "auto";
            default:
                return "auto";
        }
    }

    /**
     * Whether several calls may be made: {@code parallel_tool_calls}, or Messages' {@code
     * disable_parallel_tool_use}.
     */
    static boolean parallel(JsonObject request, JsonElement toolChoice) {
        JsonElement p = request.get("parallel_tool_calls");
        if (p != null
                && p.isJsonPrimitive()
                && p.getAsJsonPrimitive().isBoolean()
                && !p.getAsBoolean()) return false;
        return toolChoice == null
                || !toolChoice.isJsonObject()
                || !isTrue(toolChoice.getAsJsonObject().get("disable_parallel_tool_use"));
    }

    private static boolean isTrue(JsonElement e) {
        return e != null
                && e.isJsonPrimitive()
                && e.getAsJsonPrimitive().isBoolean()
                && e.getAsBoolean();
    }

    private static String string(JsonObject o, String key) {
        JsonElement e = o.get(key);
        return e != null && e.isJsonPrimitive() ? e.getAsString() : null;
    }
}
