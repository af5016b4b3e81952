package dev.toolcalls.internal.lex;

import org.antlr.v4.runtime.CharStream;
import org.antlr.v4.runtime.Lexer;
import org.antlr.v4.runtime.RuntimeMetaData;
import org.antlr.v4.runtime.Vocabulary;
import org.antlr.v4.runtime.VocabularyImpl;
import org.antlr.v4.runtime.atn.ATN;
import org.antlr.v4.runtime.atn.ATNDeserializer;
import org.antlr.v4.runtime.atn.ATNType;
import org.antlr.v4.runtime.atn.LexerATNSimulator;
import org.antlr.v4.runtime.atn.PredictionContextCache;
import org.antlr.v4.runtime.dfa.DFA;

import java.util.ArrayList;
import java.util.List;

/**
 * A lexer grammar as the ANTLR tool describes it in its interpreter data (the {@code .interp} file
 * it writes beside a generated lexer): names, vocabulary and the serialized ATN. Lexers made from
 * it behave exactly like the generated class: one ATN and one DFA cache per grammar, shared by
 * every lexer, with the runtime jar alone.
 *
 * <pre>{@code
 * LexerData data = LexerData.parse(Files.readString(interp), "AcmeLexer", "acme/AcmeLexer.interp");
 * Lexer lexer = data.newLexer(CharStreams.fromString(text));
 * }</pre>
 */
public final class LexerData {
    private final String grammarName;
    private final Vocabulary vocabulary;
    private final String[] ruleNames;
    private final String[] channelNames;
    private final String[] modeNames;
    private final ATN atn;
    private final DFA[] dfas;
    private final PredictionContextCache contextCache = new PredictionContextCache();

    private LexerData(
            String grammarName,
            Vocabulary vocabulary,
            String[] ruleNames,
            String[] channelNames,
            String[] modeNames,
            ATN atn) {
        this.grammarName = grammarName;
        this.vocabulary = vocabulary;
        this.ruleNames = ruleNames;
        this.channelNames = channelNames;
        this.modeNames = modeNames;
        this.atn = atn;
        this.dfas = new DFA[atn.getNumberOfDecisions()];
        for (int i = 0; i < dfas.length; i++) dfas[i] = new DFA(atn.getDecisionState(i), i);
    }

    /**
     * Reads interpreter data: sections {@code token literal names:}, {@code token symbolic names:},
     * {@code rule names:}, {@code channel names:}, {@code mode names:} and {@code atn:}, separated
     * by blank lines.
     *
     * @param source where the text came from, for messages
     * @throws IllegalArgumentException naming the source and what is missing or wrong
     */
    public static LexerData parse(String text, String grammarName, String source) {
        List<String> literal = null;
        List<String> symbolic = null;
        List<String> rules = null;
        List<String> channels = null;
        List<String> modes = null;
        String atnLine = null;
        String[] lines = text.replace("\r\n", "\n").split("\n", -1);
        for (int i = 0; i < lines.length; i++) {
            String header = lines[i].strip();
            if (header.isEmpty()) continue;
            if (header.equals("atn:")) {
                atnLine = i + 1 < lines.length ? lines[i + 1].strip() : "";
                i++;
                continue;
            }
            List<String> section = new ArrayList<>();
            int j = i + 1;
            for (; j < lines.length && !lines[j].isEmpty(); j++) section.add(lines[j]);
            switch (header) {
                case "token literal names:":
                    literal = section;
                    break;
                case "token symbolic names:":
                    symbolic = section;
                    break;
                case "rule names:":
                    rules = section;
                    break;
                case "channel names:":
                    channels = section;
                    break;
                case "mode names:":
                    modes = section;
                    break;
                default:
                    throw new IllegalArgumentException(
                            source
                                    + ": unknown section '"
                                    + header
                                    + "' (is this an ANTLR .interp file?)");
            }
            i = j;
        }
        if (literal == null
                || symbolic == null
                || rules == null
                || modes == null
                || atnLine == null)
            throw new IllegalArgumentException(
                    source
                            + ": not the interpreter data of a lexer grammar (needs token names, rule names, "
                            + "mode names and atn sections; regenerate it with the ANTLR tool)");
        ATN atn;
        try {
            String body = atnLine.replaceAll("^\\[|\\]$", "");
            String[] parts = body.split(",\\s*");
            int[] serialized = new int[parts.length];
            for (int k = 0; k < parts.length; k++)
                serialized[k] = Integer.parseInt(parts[k].strip());
            atn = new ATNDeserializer().deserialize(serialized);
        } catch (RuntimeException e) {
            throw new IllegalArgumentException(
                    source
                            + ": its atn cannot be read ("
                            + e.getMessage()
                            + "); regenerate it with the ANTLR tool of the runtime's version, "
                            + RuntimeMetaData.VERSION);
        }
        if (atn.grammarType != ATNType.LEXER)
            throw new IllegalArgumentException(
                    source + ": a parser grammar; a format needs a lexer grammar");
        return new LexerData(
                grammarName,
                new VocabularyImpl(names(literal), names(symbolic)),
                rules.toArray(String[]::new),
                channels == null
                        ? new String[] {"DEFAULT_TOKEN_CHANNEL", "HIDDEN"}
                        : channels.toArray(String[]::new),
                modes.toArray(String[]::new),
                atn);
    }

    private static String[] names(List<String> section) {
        String[] out = new String[section.size()];
        for (int i = 0; i < out.length; i++)
            out[i] = section.get(i).equals("null") ? null : section.get(i);
        return out;
    }

    /** A new lexer over {@code input}, sharing this grammar's ATN and DFA cache. */
    public Lexer newLexer(CharStream input) {
        return new InterpretedLexer(this, input);
    }

    public String grammarName() {
        return grammarName;
    }

    private static final class InterpretedLexer extends Lexer {
        private final LexerData data;

        InterpretedLexer(LexerData data, CharStream input) {
            super(input);
            this.data = data;
            _interp = new LexerATNSimulator(this, data.atn, data.dfas, data.contextCache);
        }

        @Override
        public String getGrammarFileName() {
            return data.grammarName + ".g4";
        }

        @Override
        public ATN getATN() {
            return data.atn;
        }

        @Override
        public String[] getRuleNames() {
            return data.ruleNames;
        }

        @Override
        public String[] getChannelNames() {
            return data.channelNames;
        }

        @Override
        public String[] getModeNames() {
            return data.modeNames;
        }

        @Override
        public Vocabulary getVocabulary() {
            return data.vocabulary;
        }

        @Override
        @Deprecated
        public String[] getTokenNames() {
            String[] names = new String[data.atn.maxTokenType + 1];
            for (int i = 0; i < names.length; i++) names[i] = data.vocabulary.getDisplayName(i);
            return names;
        }
    }
}
