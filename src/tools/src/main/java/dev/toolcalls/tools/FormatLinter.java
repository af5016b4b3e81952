package dev.toolcalls.tools;

import dev.toolcalls.Vocabulary;
import dev.toolcalls.internal.format.CompiledFormat;
import dev.toolcalls.internal.format.FormatFile;
import dev.toolcalls.internal.format.FormatSource;
import dev.toolcalls.internal.format.GrammarText;
import dev.toolcalls.internal.lex.LexerModel;
import dev.toolcalls.internal.lex.Problem;
import dev.toolcalls.internal.lex.Role;

import org.antlr.v4.runtime.misc.IntervalSet;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.BitSet;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Stream;

/**
 * {@code toolcalls check}: everything wrong with a format, each finding one line that names the
 * file (and {@code line:column} where the grammar has one), the token or mode, what is wrong and
 * how to fix it. Beyond what loading refuses (tokens without a role, unknown roles, streamable
 * tokens that are not safe to cut, format-file options the grammar contradicts), it finds what
 * loading lets through: rules that can never match, modes never entered or never left, a call
 * opener with no way to a call end, markers that a content rule runs over, and too few regression
 * cases.
 */
public final class FormatLinter {
    private static final IntervalSet BLANKS = IntervalSet.of(' ', ' ');

    static {
        BLANKS.add('\t');
        BLANKS.add('\n');
        BLANKS.add('\r');
    }

    /** A format needs at least this many regression cases. */
    public static final int MIN_CASES = 10;

    private FormatLinter() {}

    /**
     * @param cases a suite folder laid out like {@code tests-data/} ({@code cases/<format>/*.txt}),
     *     or null
     */
    public static List<String> lint(FormatSource source, Path cases) {
        List<String> out = new ArrayList<>(source.problems());
        String format = "format " + source.name();
        if (source.file() != null && source.problems().isEmpty()) lintBuilt(source, format, out);
        if (cases != null) lintCases(source, cases, format, out);
        return out;
    }

    /**
     * The format against a model's vocabulary: a marker the format lists as a special token ({@code
     * "specialTokens"}) that the vocabulary has no single token for (the model's ids spell it as
     * several ordinary tokens, which a token-fed parser takes as text), and an added token of the
     * vocabulary that a marker of the grammar spells out but the list leaves out (the same letters
     * written as ordinary tokens would still open a call).
     */
    public static List<String> lintVocabulary(FormatSource source, Vocabulary vocabulary) {
        List<String> out = new ArrayList<>();
        if (source.file() == null) return out;
        String format = "format " + source.name();
        List<String> listed =
                source.file().specialTokens() == null ? List.of() : source.file().specialTokens();
        for (String marker : listed)
            if (vocabulary.addedId(marker) < 0)
                out.add(
                        source.formatFile()
                                + ": "
                                + format
                                + ": special token '"
                                + marker
                                + "' is not one token of "
                                + vocabulary
                                + ": its ids spell it as several ordinary tokens, which the parser takes as text; fix: remove it from"
                                + " \"specialTokens\" if this model writes it as text, or check the vocabulary against the model");
        List<GrammarText.Literal> literals = source.grammar().get().literals();
        Set<String> reported = new HashSet<>();
        for (String token : vocabulary.addedTokens()) {
            if (token.length() < 2 || listed.contains(token) || token.isBlank()) continue;
            for (GrammarText.Literal literal : literals) {
                if (!literal.text().contains(token) || !reported.add(token)) continue;
                int id = vocabulary.addedId(token);
                out.add(
                        literal.at()
                                + ": "
                                + format
                                + ": the marker '"
                                + literal.text()
                                + "' spells out token '"
                                + token
                                + "' (id "
                                + id
                                + (vocabulary.isSpecial(id) ? ", special" : ", added")
                                + ") of "
                                + vocabulary
                                + ", which \"specialTokens\" does not list: the same letters written as ordinary tokens count as the marker;"
                                + " fix: add '"
                                + token
                                + "' to \"specialTokens\" in "
                                + source.formatFile());
            }
        }
        return out;
    }

    /**
     * Where the role of {@code token} is written: in the format file, or else in the role file of
     * the last included grammar that gives it one (the format file's own roles win, then later
     * includes).
     */
    private static String roleEntry(FormatSource source, String token) {
        FormatFile file = source.file();
        String at = file.roleAt().get(token);
        if (at != null) return at;
        List<String> include = file.include();
        for (int i = include.size() - 1; i >= 0; i--) {
            FormatFile shared = source.includes().apply(include.get(i));
            if (shared != null && shared.roleAt().containsKey(token))
                return shared.roleAt().get(token);
        }
        return source.formatFile();
    }

    private static void lintBuilt(FormatSource source, String format, List<String> out) {
        FormatFile file = source.file();
        CompiledFormat.Inspection inspection;
        try {
            inspection = CompiledFormat.inspect(file, source.lexer(), source.includes());
        } catch (RuntimeException e) {
            out.add(source.formatFile() + ": " + format + ": cannot be built: " + e.getMessage());
            return;
        }
        GrammarText grammar = source.grammar().get();
        for (Problem p : inspection.problems()) {
            String where =
                    switch (p.subject()) {
                        case TOKEN -> grammar.rule(p.name());
                        case MODE -> grammar.mode(p.name());
                        case ROLE -> roleEntry(source, p.name());
                        default -> source.formatFile();
                    };
            out.add(
                    where
                            + ": "
                            + format
                            + ": "
                            + p.what()
                            + (p.fix() == null ? "" : "; fix: " + p.fix()));
        }
        LexerModel model = inspection.model();
        if (model == null) return;
        LexerAnalysis analysis = new LexerAnalysis(model);
        String[] rules = model.ruleNames;
        String[] modes = model.modeNames;

        for (int m = 0; m < analysis.modes(); m++) {
            for (Map.Entry<Integer, Integer> e : analysis.shadowed(m).entrySet()) {
                int r = e.getKey();
                int by = e.getValue();
                // a grammar may override a rule of a grammar it imports by an earlier rule of its
                // own
                if (by >= 0 && !grammar.ownRule(rules[r]) && grammar.ownRule(rules[by])) continue;
                out.add(
                        grammar.rule(rules[r])
                                + ": "
                                + format
                                + ": token "
                                + rules[r]
                                + " in mode "
                                + modes[m]
                                + " can never match: "
                                + (by < 0
                                        ? "every text it matches is taken by another rule"
                                        : "the earlier rule "
                                                + rules[by]
                                                + " ("
                                                + grammar.rule(rules[by])
                                                + ") matches everything it matches")
                                + "; fix: move "
                                + rules[r]
                                + " above "
                                + (by < 0 ? "the rule that takes its text" : rules[by])
                                + ", or narrow that rule");
            }
        }

        int thinking =
                file.thinkingMode() == null
                        ? -1
                        : Arrays.asList(modes).indexOf(file.thinkingMode());
        BitSet[] reach = analysis.reachable(thinking);
        // a mode that cannot be left because the mode it switches to cannot is not the culprit:
        // report where the trap is
        BitSet trappedPushed = new BitSet();
        BitSet trappedBase = new BitSet();
        for (int m = 1; m < analysis.modes(); m++) {
            if (reach[1].get(m) && !analysis.canPop(m)) trappedPushed.set(m);
            else if (reach[0].get(m) && !analysis.canReturn(m)) trappedBase.set(m);
        }
        BitSet culpritsPushed = culprits(analysis, trappedPushed);
        BitSet culpritsBase = culprits(analysis, trappedBase);
        for (int m = 1; m < analysis.modes(); m++) {
            String where = grammar.mode(modes[m]);
            if (!reach[0].get(m) && !reach[1].get(m)) {
                // a shared grammar's modes that this format does not use are not its mistake
                if (!grammar.ownMode(modes[m])) continue;
                out.add(
                        where
                                + ": "
                                + format
                                + ": mode "
                                + modes[m]
                                + " is never entered: no rule that can match switches or pushes to it"
                                + "; fix: enter it with -> pushMode("
                                + modes[m]
                                + ") (or mode(...)) on the rule that starts it, or remove it");
            } else if (culpritsPushed.get(m)) {
                out.add(
                        where
                                + ": "
                                + format
                                + ": mode "
                                + modes[m]
                                + " can never be left: once pushed, no sequence of its tokens pops it, so "
                                + "everything after it is lexed in "
                                + modes[m]
                                + "; fix: end it with a rule doing -> popMode (e.g. its close tag)");
            } else if (culpritsBase.get(m)) {
                out.add(
                        where
                                + ": "
                                + format
                                + ": mode "
                                + modes[m]
                                + " can never be left: no sequence of its tokens gets back to DEFAULT_MODE"
                                + "; fix: end it with a rule doing -> mode(DEFAULT_MODE), or enter it with pushMode and leave with popMode");
            }
        }

        boolean markerEnds = "marker".equals(file.callEnd());
        for (int m = 0; m < analysis.modes(); m++) {
            if (!reach[0].get(m) && !reach[1].get(m)) continue;
            int[] ofMode = model.rulesOfMode(m);
            if (markerEnds) {
                for (int r : ofMode) {
                    if (!analysis.canWin(r) || model.roleOfRule(r) != Role.CALL_BEGIN) continue;
                    for (List<LexerAnalysis.Command> seq : analysis.commands(r)) {
                        if (analysis.reaches(m, seq, Role.CALL_END)) continue;
                        out.add(
                                grammar.rule(rules[r])
                                        + ": "
                                        + format
                                        + ": call opener "
                                        + rules[r]
                                        + " (mode "
                                        + modes[m]
                                        + ") leads to modes with no token of role call.end, so every call it opens is unterminated"
                                        + "; fix: give the close marker the role call.end, make the modes after "
                                        + rules[r]
                                        + " reach it, or set \"callEnd\": \"implicit\"");
                        break;
                    }
                }
            }
            for (int c : ofMode) {
                Role cr = model.roleOfRule(c);
                if (!analysis.canWin(c) || cr != Role.CONTENT && cr != Role.REASONING) continue;
                for (int r : ofMode) {
                    Role rr = model.roleOfRule(r);
                    if (r == c
                            || !analysis.canWin(r)
                            || rr == null
                            || rr == Role.CONTENT
                            || rr == Role.REASONING) continue;
                    // whitespace between markers is no marker: text may well take it
                    if (BLANKS.and(analysis.firstChars(r)).equals(analysis.firstChars(r))
                            && BLANKS.and(analysis.continueChars(r))
                                    .equals(analysis.continueChars(r))) continue;
                    if (!analysis.swallows(m, c, r)) continue;
                    String both =
                            LexerModel.describe(
                                    analysis.firstChars(r).and(analysis.continueChars(c)));
                    out.add(
                            grammar.rule(rules[r])
                                    + ": "
                                    + format
                                    + ": marker "
                                    + rules[r]
                                    + " (mode "
                                    + modes[m]
                                    + ") is swallowed by "
                                    + cr.wire
                                    + " rule "
                                    + rules[c]
                                    + " ("
                                    + grammar.rule(rules[c])
                                    + ") when text comes right before it: "
                                    + rules[c]
                                    + " goes on with "
                                    + both
                                    + ", which starts "
                                    + rules[r]
                                    + "; fix: exclude "
                                    + both
                                    + " from "
                                    + rules[c]
                                    + " and add a one-character "
                                    + cr.wire
                                    + " rule for it (as TEXT : ~'<'+ ; LT : '<' ;)");
                }
            }
        }
    }

    /**
     * Trapped modes that do not merely switch to another trapped mode; all of them when they only
     * switch among themselves.
     */
    private static BitSet culprits(LexerAnalysis analysis, BitSet trapped) {
        BitSet out = new BitSet();
        for (int m = trapped.nextSetBit(0); m >= 0; m = trapped.nextSetBit(m + 1)) {
            boolean passesOn = false;
            for (int r : analysis.model.rulesOfMode(m)) {
                if (!analysis.canWin(r)) continue;
                for (List<LexerAnalysis.Command> seq : analysis.commands(r)) {
                    List<Integer> after = LexerAnalysis.run(seq, LexerAnalysis.pushed(m));
                    if (after == null) continue;
                    for (int x : after) if (x != m && x >= 0 && trapped.get(x)) passesOn = true;
                }
            }
            if (!passesOn) out.set(m);
        }
        return out.isEmpty() ? (BitSet) trapped.clone() : out;
    }

    private static void lintCases(
            FormatSource source, Path cases, String format, List<String> out) {
        Path dir = cases.resolve(source.name());
        long n = 0;
        if (Files.isDirectory(dir)) {
            try (Stream<Path> s = Files.list(dir)) {
                n = s.filter(p -> p.getFileName().toString().endsWith(".txt")).count();
            } catch (IOException e) {
                n = 0;
            }
        }
        if (n < MIN_CASES)
            out.add(
                    dir
                            + ": "
                            + format
                            + ": "
                            + (n == 0
                                    ? "no regression cases"
                                    : "only " + n + " regression case" + (n == 1 ? "" : "s"))
                            + ", at least "
                            + MIN_CASES
                            + " are needed; fix: add cases (NAME.txt, the raw output, and NAME.json, what it must parse to)"
                            + " for plain content, one call, several calls, marker prefixes in content, and the errors");
    }
}
