package dev.toolcalls.internal.format;

import dev.toolcalls.internal.assemble.ArgumentWriter;
import dev.toolcalls.internal.assemble.ContentChannel;
import dev.toolcalls.internal.lex.LexerModel;
import dev.toolcalls.internal.lex.Problem;

import org.antlr.v4.runtime.CharStream;
import org.antlr.v4.runtime.Lexer;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Function;
import java.util.regex.PatternSyntaxException;

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
    public static CompiledFormat compile(
            FormatFile file,
            Function<CharStream, ? extends Lexer> lexers,
            Function<String, FormatFile> includes) {
        Inspection i = inspect(file, lexers, includes, true);
        if (!i.problems().isEmpty())
            throw new IllegalArgumentException(
                    "format "
                            + file.name()
                            + ": "
                            + String.join("; ", i.problems().stream().map(Problem::text).toList()));
        return i.format();
    }

    /**
     * What {@link #compile} finds, without stopping at the first problem: the compiled format when
     * there is none, the lexer model when the grammar could be read, and every problem.
     */
    public record Inspection(CompiledFormat format, LexerModel model, List<Problem> problems) {}

    /**
     * Every problem of a format file and its lexer, for {@code check}; never throws for a problem
     * of the format.
     */
    public static Inspection inspect(
            FormatFile file,
            Function<CharStream, ? extends Lexer> lexers,
            Function<String, FormatFile> includes) {
        return inspect(file, lexers, includes, false);
    }

    private static Inspection inspect(
            FormatFile file,
            Function<CharStream, ? extends Lexer> lexers,
            Function<String, FormatFile> includes,
            boolean strict) {
        if (file.name() == null) throw new IllegalArgumentException("format file without \"name\"");
        List<Problem> problems = new ArrayList<>();
        IdTemplate ids = null;
        try {
            ids = IdTemplate.parse(file.ids(), file.idPattern());
        } catch (RuntimeException e) {
            problems.add(Problem.file("ids: " + e.getMessage(), null));
        }
        ContentChannel.Policy content =
                switch (file.content()) {
                    case "segments" -> ContentChannel.Policy.SEGMENTS;
                    case "verbatim" -> ContentChannel.Policy.VERBATIM;
                    default -> {
                        problems.add(
                                Problem.file(
                                        "unknown content policy '" + file.content() + "'",
                                        "verbatim, segments"));
                        yield null;
                    }
                };
        if (!file.callEnd().equals("marker") && !file.callEnd().equals("implicit"))
            problems.add(
                    Problem.file("unknown callEnd '" + file.callEnd() + "'", "marker, implicit"));
        IdNamePattern nameFromId = null;
        try {
            nameFromId =
                    file.nameFromId() == null ? null : IdNamePattern.compile(file.nameFromId());
        } catch (PatternSyntaxException e) {
            problems.add(Problem.file("nameFromId is not a regex: " + e.getDescription(), null));
        }
        ArgumentWriter.Untyped untyped =
                switch (file.untypedValues()) {
                    case "json" -> ArgumentWriter.Untyped.JSON;
                    case "string" -> ArgumentWriter.Untyped.STRING;
                    default -> {
                        problems.add(
                                Problem.file(
                                        "unknown untypedValues '" + file.untypedValues() + "'",
                                        "string, json"));
                        yield null;
                    }
                };
        if (!file.valueNewlines().equals("keep") && !file.valueNewlines().equals("trim"))
            problems.add(
                    Problem.file(
                            "unknown valueNewlines '" + file.valueNewlines() + "'", "keep, trim"));
        Map<String, String> roles = new LinkedHashMap<>();
        Set<String> streamable = new LinkedHashSet<>();
        for (String include : file.include()) {
            FormatFile shared = includes.apply(include);
            if (shared == null) {
                problems.add(
                        Problem.file(
                                "no role file for included grammar " + include,
                                "add "
                                        + include
                                        + ".json to an imports/ folder (grammars/imports/"
                                        + include
                                        + ".json), or remove it from \"include\""));
                continue;
            }
            roles.putAll(shared.roles());
            streamable.addAll(shared.streamable());
        }
        roles.putAll(file.roles());
        streamable.addAll(file.streamable());
        if (strict && !problems.isEmpty()) return new Inspection(null, null, problems);
        LexerModel model =
                new LexerModel(file.name(), lexers, roles, List.copyOf(streamable), strict);
        problems.addAll(model.problems());
        int thinkingMode = -1;
        if (file.thinkingMode() != null) {
            thinkingMode = Arrays.asList(model.modeNames).indexOf(file.thinkingMode());
            if (thinkingMode <= 0)
                problems.add(
                        Problem.file(
                                "thinkingMode '"
                                        + file.thinkingMode()
                                        + "' is not a mode of the lexer",
                                "name the mode that is inside reasoning; modes: "
                                        + String.join(
                                                ", ",
                                                Arrays.asList(model.modeNames)
                                                        .subList(1, model.modeNames.length))));
        } else if (file.thinkingDefault()) {
            problems.add(
                    Problem.file(
                            "thinkingDefault needs a thinkingMode",
                            "name the lexer mode that is inside reasoning in \"thinkingMode\""));
        }
        int lenientMode = -1;
        if (file.lenientMode() != null) {
            lenientMode = Arrays.asList(model.modeNames).indexOf(file.lenientMode());
            if (lenientMode <= 0)
                problems.add(
                        Problem.file(
                                "lenientMode '"
                                        + file.lenientMode()
                                        + "' is not a mode of the lexer",
                                "name the mode to start in when lenient; modes: "
                                        + String.join(
                                                ", ",
                                                Arrays.asList(model.modeNames)
                                                        .subList(1, model.modeNames.length))));
        }
        for (String special : file.specialTokens())
            if (special.isEmpty())
                problems.add(Problem.file("specialTokens has an empty spelling", "remove it"));
        if (!problems.isEmpty()) return new Inspection(null, model, problems);
        FormatRules rules =
                new FormatRules(
                        ids,
                        content,
                        file.callEnd().equals("implicit"),
                        nameFromId,
                        untyped,
                        file.valueNewlines().equals("trim"),
                        thinkingMode,
                        file.thinkingDefault(),
                        file.specialTokens(),
                        lenientMode);
        return new Inspection(new CompiledFormat(file, rules, model), model, List.of());
    }
}
