package dev.toolcalls.internal.format;

import java.io.File;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Function;

import org.antlr.v4.Tool;
import org.antlr.v4.tool.ANTLRMessage;
import org.antlr.v4.tool.ANTLRToolListener;
import org.antlr.v4.tool.Grammar;
import org.antlr.v4.tool.LexerGrammar;

/**
 * The ANTLR tool, when it is on the class path: turns a lexer grammar file into the interpreter data
 * the runtime reads ({@link dev.toolcalls.internal.lex.LexerData}). The only class that touches the
 * tool, so the library runs without it: nothing may load this class unless {@link GrammarErrors#TOOL_AVAILABLE}
 * (verifying it loads the tool's classes).
 */
final class GrammarTool {
    private GrammarTool() { }

    /**
     * The interpreter data of a lexer grammar. Warnings count as errors, as in the build.
     *
     * @param importFile  an imported grammar's file by file name ({@code JsonCall.g4}), or null
     * @param displayName how a file is named in messages (its path as the user knows it)
     */
    static synchronized String interp(Path grammar, Function<String, Path> importFile, Function<String, String> displayName) throws GrammarErrors {
        List<String> messages = new ArrayList<>();
        Tool tool = new Tool() {
            @Override public File getImportedGrammarFile(Grammar g, String fileName) {
                Path p = importFile.apply(fileName);
                return p == null ? null : p.toFile();
            }
        };
        tool.addListener(new ANTLRToolListener() {
            @Override public void info(String msg) { }

            @Override public void error(ANTLRMessage msg) { messages.add(render(tool, msg, displayName)); }

            @Override public void warning(ANTLRMessage msg) { messages.add(render(tool, msg, displayName)); }
        });
        Grammar g;
        try {
            g = tool.loadGrammar(grammar.toString());
        } catch (RuntimeException e) {
            if (messages.isEmpty()) messages.add(displayName.apply(grammar.toString()) + ": the ANTLR tool failed: " + e);
            throw new GrammarErrors(messages);
        }
        if (!messages.isEmpty()) throw new GrammarErrors(messages);
        if (!(g instanceof LexerGrammar))
            throw new GrammarErrors(List.of(displayName.apply(grammar.toString()) + ": a format needs a lexer grammar ('lexer grammar "
                    + g.name + ";')"));
        if (g.atn == null) throw new GrammarErrors(List.of(displayName.apply(grammar.toString()) + ": the ANTLR tool built no ATN"));
        return Tool.generateInterpreterData(g);
    }

    private static String render(Tool tool, ANTLRMessage msg, Function<String, String> displayName) {
        String text;
        try {
            text = msg.getMessageTemplate(false).render();
        } catch (RuntimeException e) {
            text = msg.getErrorType() + " " + java.util.Arrays.toString(msg.getArgs());
        }
        String where = msg.fileName == null ? "" : displayName.apply(msg.fileName);
        if (msg.line > 0) where += ":" + msg.line + ":" + (msg.charPosition + 1);
        String kind = msg.getErrorType().severity.getText();
        return (where.isEmpty() ? "" : where + ": ") + kind + "(" + msg.getErrorType().code + "): " + text;
    }
}
