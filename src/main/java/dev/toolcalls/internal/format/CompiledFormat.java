package dev.toolcalls.internal.format;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import java.util.regex.Pattern;
import java.util.regex.PatternSyntaxException;

import org.antlr.v4.runtime.CharStream;
import org.antlr.v4.runtime.Lexer;

import dev.toolcalls.internal.assemble.ArgumentWriter;
import dev.toolcalls.internal.assemble.ContentChannel;
import dev.toolcalls.internal.lex.LexerModel;

/**
 * A format ready to parse: its format file checked against its lexer, the rules that shape events
 * into messages, and the lexer model shared by every stream of the format.
 */
public record CompiledFormat(FormatFile file, FormatRules rules, LexerModel model) {

    /**
     * Checks a format file against its lexer and builds what parsing needs. Roles and streamable
     * tokens of the shared grammars the file includes come first; the format's own roles win.
     *
     * @param includes the role file of an included shared grammar, by name
     * @throws IllegalArgumentException naming the format and everything wrong with it
     */
    public static CompiledFormat compile(FormatFile file, Function<CharStream, ? extends Lexer> lexers, Function<String, FormatFile> includes) {
        if (file.name() == null) throw new IllegalArgumentException("format file without \"name\"");
        String where = "format " + file.name() + ": ";
        IdTemplate ids;
        try {
            ids = IdTemplate.parse(file.ids(), file.idPattern());
        } catch (RuntimeException e) {
            throw new IllegalArgumentException(where + "ids: " + e.getMessage());
        }
        ContentChannel.Policy content = switch (file.content()) {
            case "segments" -> ContentChannel.Policy.SEGMENTS;
            case "verbatim" -> ContentChannel.Policy.VERBATIM;
            default -> throw new IllegalArgumentException(where + "unknown content policy '" + file.content() + "' (verbatim, segments)");
        };
        if (!file.callEnd().equals("marker") && !file.callEnd().equals("implicit"))
            throw new IllegalArgumentException(where + "unknown callEnd '" + file.callEnd() + "' (marker, implicit)");
        Pattern nameFromId;
        try {
            nameFromId = file.nameFromId() == null ? null : Pattern.compile(file.nameFromId());
        } catch (PatternSyntaxException e) {
            throw new IllegalArgumentException(where + "nameFromId is not a regex: " + e.getDescription());
        }
        ArgumentWriter.Untyped untyped = switch (file.untypedValues()) {
            case "json" -> ArgumentWriter.Untyped.JSON;
            case "string" -> ArgumentWriter.Untyped.STRING;
            default -> throw new IllegalArgumentException(where + "unknown untypedValues '" + file.untypedValues() + "' (string, json)");
        };
        if (!file.valueNewlines().equals("keep") && !file.valueNewlines().equals("trim"))
            throw new IllegalArgumentException(where + "unknown valueNewlines '" + file.valueNewlines() + "' (keep, trim)");
        Map<String, String> roles = new LinkedHashMap<>();
        List<String> streamable = new ArrayList<>();
        for (String include : file.include()) {
            FormatFile shared = includes.apply(include);
            if (shared == null) throw new IllegalArgumentException(where + "no role file for included grammar " + include
                    + " (grammars/imports/" + include + ".json)");
            roles.putAll(shared.roles());
            streamable.addAll(shared.streamable());
        }
        roles.putAll(file.roles());
        for (String s : file.streamable()) if (!streamable.contains(s)) streamable.add(s);
        LexerModel model = new LexerModel(file.name(), lexers, roles, streamable);
        int thinkingMode = -1;
        if (file.thinkingMode() != null) {
            thinkingMode = Arrays.asList(model.modeNames).indexOf(file.thinkingMode());
            if (thinkingMode <= 0)
                throw new IllegalArgumentException(where + "thinkingMode '" + file.thinkingMode() + "' is not a mode of the lexer (modes: "
                        + String.join(", ", model.modeNames) + ")");
        } else if (file.thinkingDefault()) {
            throw new IllegalArgumentException(where + "thinkingDefault needs a thinkingMode");
        }
        int lenientMode = -1;
        if (file.lenientMode() != null) {
            lenientMode = Arrays.asList(model.modeNames).indexOf(file.lenientMode());
            if (lenientMode <= 0)
                throw new IllegalArgumentException(where + "lenientMode '" + file.lenientMode() + "' is not a mode of the lexer (modes: "
                        + String.join(", ", model.modeNames) + ")");
        }
        FormatRules rules = new FormatRules(ids, content, file.callEnd().equals("implicit"), nameFromId, untyped,
                file.valueNewlines().equals("trim"), thinkingMode, file.thinkingDefault(), file.specialTokens(), lenientMode);
        for (String special : file.specialTokens())
            if (special.isEmpty()) throw new IllegalArgumentException(where + "specialTokens has an empty spelling");
        return new CompiledFormat(file, rules, model);
    }
}
