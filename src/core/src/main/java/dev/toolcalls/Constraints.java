package dev.toolcalls;

import com.google.gson.JsonArray;
import com.google.gson.JsonObject;
import com.google.gson.JsonPrimitive;

import dev.toolcalls.internal.constraint.ClosedObjects;
import dev.toolcalls.internal.constraint.ConstraintGrammar;
import dev.toolcalls.internal.constraint.LegacyStructuralTag;
import dev.toolcalls.internal.format.CompiledFormat;
import dev.toolcalls.internal.format.FormatDefinition;
import dev.toolcalls.internal.json.Json;

import java.util.ArrayList;
import java.util.List;

/** Builds a format's decoding constraint for a target (see {@link Format#constraint}). */
final class Constraints {
    private Constraints() {}

    static String build(Format format, Tools tools, ConstraintOptions options) {
        CompiledFormat compiled = FormatDefinition.of(format).compiled();
        List<JsonObject> functions = new ArrayList<>();
        for (String name : tools.names()) {
            JsonObject f = tools.definition(name).deepCopy();
            if (options.closedObjects()) ClosedObjects.closeParameters(f);
            functions.add(f);
        }
        return switch (options.target()) {
            case GBNF -> ConstraintGrammar.build(compiled, functions, options, false);
            case LLAMA_CPP -> llamaCpp(compiled, functions, options);
            case STRUCTURAL_TAG ->
                    structuralTag(ConstraintGrammar.build(compiled, functions, options, false));
            case LARK ->
                    ConstraintGrammar.lark(
                            ConstraintGrammar.build(compiled, functions, options, false));
            case STRUCTURAL_TAG_LEGACY -> LegacyStructuralTag.build(compiled, functions, options);
        };
    }

    /** The whole-output grammar as the current structural tag's grammar format. */
    private static String structuralTag(String gbnf) {
        JsonObject format = new JsonObject();
        format.addProperty("type", "grammar");
        format.addProperty("grammar", gbnf);
        JsonObject tag = new JsonObject();
        tag.addProperty("type", "structural_tag");
        tag.add("format", format);
        return Json.write(tag);
    }

    private static String llamaCpp(
            CompiledFormat compiled, List<JsonObject> functions, ConstraintOptions options) {
        boolean lazy = options.toolChoice().equalsIgnoreCase("auto");
        JsonObject o = new JsonObject();
        o.addProperty("grammar", ConstraintGrammar.build(compiled, functions, options, lazy));
        o.addProperty("grammar_lazy", lazy);
        JsonArray triggers = new JsonArray();
        if (lazy)
            for (String t : ConstraintGrammar.callTriggers(compiled)) {
                JsonObject trigger = new JsonObject();
                trigger.addProperty("type", "word");
                trigger.addProperty("value", t);
                triggers.add(trigger);
            }
        o.add("grammar_triggers", triggers);
        JsonArray preserved = new JsonArray();
        for (String s : compiled.rules().specialTokens()) preserved.add(new JsonPrimitive(s));
        o.add("preserved_tokens", preserved);
        List<String> think = ConstraintGrammar.thinkingTags(compiled);
        o.addProperty("thinking_start_tag", think.get(0));
        o.addProperty("thinking_end_tag", think.get(1));
        return Json.write(o);
    }
}
