package dev.toolcalls;

import org.antlr.runtime.RecognitionException;
import org.antlr.v4.Tool;
import org.antlr.v4.tool.LexerGrammar;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.Collection;
import java.util.List;
import java.util.Map;

/**
 * Test fixture: formats compiled in memory by the ANTLR tool, so the runtime's tests need no
 * bundled format. Also registered through {@code META-INF/services}, which tests the ServiceLoader
 * path of the registry.
 */
public final class ToyFormats implements FormatProvider {
    @Override
    public Collection<Format> formats() {
        return List.of(
                compile(
                        resource("dev/toolcalls/toy/ToyLexer.g4"),
                        resource("dev/toolcalls/toy/toy.json")));
    }

    /** A format from grammar text and format-file text. */
    static Format compile(String grammar, String formatJson) {
        return compile(grammar, formatJson, Map.of());
    }

    /** ... whose format file may include the role files given here by name. */
    static Format compile(String grammar, String formatJson, Map<String, String> includes) {
        return Formats.define(formatJson, interp(grammar), includes::get);
    }

    /** The interpreter data (the {@code .interp} text) of a lexer grammar, compiled in memory. */
    static String interp(String grammar) {
        LexerGrammar g;
        try {
            g = new LexerGrammar(grammar);
        } catch (RecognitionException e) {
            throw new IllegalArgumentException(e);
        }
        if (g.tool.getNumErrors() > 0) throw new IllegalArgumentException("grammar has errors");
        return Tool.generateInterpreterData(g);
    }

    static String resource(String path) {
        try (InputStream in = ToyFormats.class.getClassLoader().getResourceAsStream(path)) {
            if (in == null) throw new IllegalStateException("missing test resource " + path);
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
