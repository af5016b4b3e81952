package dev.toolcalls.tools;

import dev.toolcalls.internal.json.Json;
import dev.toolcalls.internal.lex.LexerModel;
import dev.toolcalls.internal.lex.Role;

import org.antlr.v4.runtime.BaseErrorListener;
import org.antlr.v4.runtime.CharStreams;
import org.antlr.v4.runtime.Lexer;
import org.antlr.v4.runtime.RecognitionException;
import org.antlr.v4.runtime.Recognizer;
import org.antlr.v4.runtime.Token;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.EnumSet;
import java.util.List;
import java.util.Random;
import java.util.Set;

/**
 * Writes model outputs from a format's grammar alone: random walks through its lexer's modes, token
 * rule by token rule, each token a random text of its rule (see {@link TokenSampler}). A walk mixes
 * content and calls and heads back to the default mode once it is long enough. Some outputs are
 * then cut at a random point, some get look-alike markers (a marker with a character dropped or
 * changed) in their text, and some are tokens of any mode thrown together.
 *
 * <p>When a walk ends complete and the lexer, reading the output back, finds exactly the tokens the
 * walk wrote, the generator knows the calls in it: their names, and their arguments where the
 * format streams them verbatim ({@code args.json}). Otherwise it vouches for nothing.
 */
public final class OutputGenerator {
    /**
     * A generated output, and the calls it holds when the generator can vouch for them (else null).
     */
    public record Sample(String text, List<Call> calls) {}

    /**
     * A call the generator wrote: its name, and its arguments when streamed verbatim (else null).
     */
    public record Call(String name, String arguments) {}

    private static final int INF = Integer.MAX_VALUE / 4;
    private static final Set<Role> NAMES = EnumSet.of(Role.NAME, Role.NAME_JSON);
    private static final Set<Role> TAME =
            EnumSet.of(
                    Role.NAME, Role.NAME_JSON, Role.ID, Role.ID_JSON, Role.ARG_KEY, Role.LIT_KEY);

    private final LexerModel model;
    private final LexerAnalysis analysis;
    private final TokenSampler sampler;
    private final int thinking;
    private final boolean implicitEnd;
    private final int[] popDist;
    private final int[] retDist;

    /** Per mode: how many tokens away a name token is. */
    private final int[] nameDist;

    /** Per mode: the token rules a walk may take. */
    private final List<List<Integer>> usable = new ArrayList<>();

    /**
     * @param thinkingStart the mode the output starts in, pushed on the default mode (a format's
     *     thinking mode when thinking is on by default), or -1
     */
    public OutputGenerator(LexerModel model, int thinkingStart, boolean implicitCallEnd) {
        this.model = model;
        this.analysis = new LexerAnalysis(model);
        this.sampler = new TokenSampler(model.atn);
        this.thinking = thinkingStart;
        this.implicitEnd = implicitCallEnd;
        int modes = analysis.modes();
        for (int m = 0; m < modes; m++) {
            List<Integer> rules = new ArrayList<>();
            for (int r : model.rulesOfMode(m))
                if (analysis.canWin(r)
                        && model.roleOfRule(r) != null
                        && sampler.shortest(r) != null) rules.add(r);
            usable.add(List.copyOf(rules));
        }
        popDist = new int[modes];
        retDist = new int[modes];
        Arrays.fill(popDist, INF);
        Arrays.fill(retDist, INF);
        retDist[Lexer.DEFAULT_MODE] = 0;
        for (boolean changed = true; changed; ) {
            changed = false;
            for (int m = 0; m < modes; m++) {
                for (int r : usable(m)) {
                    for (List<LexerAnalysis.Command> seq : analysis.commands(r)) {
                        int pop = exitCost(seq, m, true);
                        int ret = exitCost(seq, m, false);
                        if (pop < popDist[m]) {
                            popDist[m] = pop;
                            changed = true;
                        }
                        if (m != Lexer.DEFAULT_MODE && ret < retDist[m]) {
                            retDist[m] = ret;
                            changed = true;
                        }
                    }
                }
            }
        }
        nameDist = new int[modes];
        Arrays.fill(nameDist, INF);
        for (int m = 0; m < modes; m++)
            for (int r : usable(m)) if (NAMES.contains(model.roleOfRule(r))) nameDist[m] = 0;
        for (boolean changed = true; changed; ) {
            changed = false;
            for (int m = 0; m < modes; m++) {
                for (int r : usable(m)) {
                    for (List<LexerAnalysis.Command> seq : analysis.commands(r)) {
                        List<Integer> after = LexerAnalysis.run(seq, LexerAnalysis.pushed(m));
                        if (after == null || after.size() == 1) continue;
                        int d = add(1, nameDist[after.get(after.size() - 1)]);
                        if (d < nameDist[m]) {
                            nameDist[m] = d;
                            changed = true;
                        }
                    }
                }
            }
        }
    }

    private static int add(int a, int b) {
        return a >= INF || b >= INF ? INF : Math.min(INF, a + b);
    }

    /** Tokens needed to pop the frames of {@code stack} from {@code from} on. */
    private int popAll(List<Integer> stack, int from) {
        int sum = 0;
        for (int p : stack.subList(from, stack.size())) sum = add(sum, popDist[p]);
        return sum;
    }

    /** Token rules of a mode a walk may take: they can produce a token, have a role and a text. */
    private List<Integer> usable(int mode) {
        return usable.get(mode);
    }

    private record Step(int rule, String text) {}

    /** One output. */
    public Sample next(Random random) {
        int kind = random.nextInt(10);
        if (kind == 9) return new Sample(jumble(random), null);
        List<Integer> stack = new ArrayList<>(List.of(Lexer.DEFAULT_MODE));
        if (thinking > 0) stack.add(thinking);
        List<Step> steps = new ArrayList<>();
        int target = 2 + random.nextInt(24);
        boolean inCall = false;
        boolean named = false;
        for (int n = 0; n < 200; n++) {
            int top = stack.get(stack.size() - 1);
            List<Integer> current = stack;
            boolean closing = n >= target;
            if (closing && stack.size() == 1 && top == Lexer.DEFAULT_MODE) break;
            List<Integer> rules = usable(top);
            int rule = -1;
            List<LexerAnalysis.Command> seq = null;
            if (closing) {
                int best = INF;
                for (int r : rules) {
                    for (List<LexerAnalysis.Command> s : analysis.commands(r)) {
                        int c = exitCost(s, top, stack.size() > 1);
                        if (c < best || c == best && random.nextBoolean()) {
                            best = c;
                            rule = r;
                            seq = s;
                        }
                    }
                }
                if (best >= INF) break;
            } else {
                double total = 0;
                double[] weights = new double[rules.size()];
                int previous = steps.isEmpty() ? -1 : steps.get(steps.size() - 1).rule();
                for (int i = 0; i < weights.length; i++) {
                    int r = rules.get(i);
                    boolean popsBase =
                            analysis.commands(r).stream()
                                    .allMatch(s -> LexerAnalysis.run(s, current) == null);
                    Role role = model.roleOfRule(r);
                    double w = popsBase ? 0 : r == previous ? 0.2 : role == Role.CALL_BEGIN ? 3 : 1;
                    if (inCall && !named && w > 0) {
                        // a call wants its name: head for it
                        if (NAMES.contains(role)) w = 20;
                        else
                            for (List<LexerAnalysis.Command> s : analysis.commands(r)) {
                                List<Integer> after = LexerAnalysis.run(s, current);
                                if (after != null
                                        && nameDist[after.get(after.size() - 1)] < nameDist[top])
                                    w = 8;
                            }
                    } else if (inCall && named && NAMES.contains(role)) {
                        w = 0.05;
                    }
                    weights[i] = w;
                    total += weights[i];
                }
                if (total <= 0) break;
                double x = random.nextDouble() * total;
                for (int i = 0; i < weights.length; i++) {
                    x -= weights[i];
                    if (x <= 0 || i == weights.length - 1) {
                        rule = rules.get(i);
                        break;
                    }
                }
                List<List<LexerAnalysis.Command>> seqs = analysis.commands(rule);
                seq = seqs.get(random.nextInt(seqs.size()));
                if (LexerAnalysis.run(seq, stack) == null) continue;
            }
            Role role = model.roleOfRule(rule);
            String text =
                    closing && !TAME.contains(role)
                            ? sampler.shortest(rule)
                            : TAME.contains(role)
                                    ? sampler.tame(rule, random, 3 + random.nextInt(10))
                                    : sampler.random(rule, random, 12);
            if (text == null) break;
            if (role == Role.CALL_BEGIN) {
                inCall = true;
                named = false;
            } else if (role == Role.CALL_END) inCall = false;
            else if (NAMES.contains(role)) named = true;
            if (kind == 7 || kind == 8) {
                if ((role == Role.CONTENT || role == Role.REASONING) && random.nextInt(3) == 0)
                    text += lookAlike(random);
            }
            steps.add(new Step(rule, text));
            List<Integer> after = LexerAnalysis.run(seq, stack);
            if (after == null) break;
            stack = new ArrayList<>(after);
            if (stack.size() > 24) break;
        }
        StringBuilder b = new StringBuilder();
        for (Step s : steps) b.append(s.text());
        String text = b.toString();
        boolean complete = stack.size() == 1 && stack.get(0) == Lexer.DEFAULT_MODE;
        if (kind == 5 || kind == 6) return new Sample(cut(text, random), null);
        if (kind == 7 || kind == 8) {
            if (random.nextBoolean()) text += lookAlike(random);
            return new Sample(text, null);
        }
        return new Sample(text, complete && faithful(text, steps) ? calls(steps) : null);
    }

    /**
     * Tokens needed, after this one, to pop a pushed frame in {@code top} or to get a bottom frame
     * back to the default mode.
     */
    private int exitCost(List<LexerAnalysis.Command> seq, int top, boolean pushedFrame) {
        if (pushedFrame) {
            List<Integer> p = LexerAnalysis.run(seq, LexerAnalysis.pushed(top));
            if (p == null || p.size() == 1) return 1;
            return p.get(1) == top ? INF : add(1 + popAll(p, 2), popDist[p.get(1)]);
        }
        List<Integer> b = LexerAnalysis.run(seq, List.of(top));
        return b == null || b.get(0) == top ? INF : add(1 + popAll(b, 1), retDist[b.get(0)]);
    }

    /** A marker of the default mode with one character dropped, changed, or cut off at its end. */
    private String lookAlike(Random random) {
        List<Integer> markers = new ArrayList<>();
        for (int r : usable(Lexer.DEFAULT_MODE)) {
            Role role = model.roleOfRule(r);
            if (role != Role.CONTENT && role != Role.REASONING) markers.add(r);
        }
        if (markers.isEmpty()) return "<";
        String m = sampler.shortest(markers.get(random.nextInt(markers.size())));
        int[] cps = m.codePoints().toArray();
        if (cps.length < 2) return m + m;
        int at = random.nextInt(cps.length);
        StringBuilder b = new StringBuilder();
        switch (random.nextInt(3)) {
            case 0:
                for (int i = 0; i < cps.length; i++) if (i != at) b.appendCodePoint(cps[i]);
                break;
            case 1:
                for (int i = 0; i < cps.length; i++)
                    b.appendCodePoint(i == at ? (cps[i] == 'x' ? 'y' : 'x') : cps[i]);
                break;
            default:
                for (int i = 0; i < Math.max(1, at); i++) b.appendCodePoint(cps[i]);
        }
        return b.toString();
    }

    /** Tokens of any mode, in any order. */
    private String jumble(Random random) {
        StringBuilder b = new StringBuilder();
        int parts = 2 + random.nextInt(8);
        for (int i = 0; i < parts; i++) {
            List<Integer> rules = usable(random.nextInt(analysis.modes()));
            if (rules.isEmpty()) continue;
            String t = sampler.random(rules.get(random.nextInt(rules.size())), random, 8);
            if (t != null) b.append(t);
        }
        return b.toString();
    }

    private static String cut(String text, Random random) {
        int[] cps = text.codePoints().toArray();
        if (cps.length == 0) return text;
        return new String(cps, 0, random.nextInt(cps.length + 1));
    }

    /** Whether the lexer reads the text back as exactly the walk's tokens. */
    private boolean faithful(String text, List<Step> steps) {
        Lexer lexer = model.factory.apply(CharStreams.fromString(text));
        boolean[] failed = {false};
        lexer.removeErrorListeners();
        lexer.addErrorListener(
                new BaseErrorListener() {
                    @Override
                    public void syntaxError(
                            Recognizer<?, ?> r,
                            Object o,
                            int line,
                            int col,
                            String msg,
                            RecognitionException e) {
                        failed[0] = true;
                    }
                });
        if (thinking > 0) lexer.pushMode(thinking);
        int i = 0;
        for (Token t = lexer.nextToken(); t.getType() != Token.EOF; t = lexer.nextToken()) {
            if (i >= steps.size()) return false;
            Step s = steps.get(i++);
            if (t.getType() != model.typeOfRule(s.rule()) || !t.getText().equals(s.text()))
                return false;
        }
        return !failed[0] && i == steps.size();
    }

    /**
     * The calls the walk wrote, or null when it cannot tell (a call without one name, a name it
     * cannot read, an unended call).
     */
    private List<Call> calls(List<Step> steps) {
        List<Call> out = new ArrayList<>();
        String name = null;
        StringBuilder args = null;
        boolean open = false;
        boolean verbatim = true;
        int names = 0;
        Role inherited = Role.CONTENT;
        for (Step s : steps) {
            Role role = model.roleOfRule(s.rule());
            if (role == Role.INHERIT) role = inherited;
            else inherited = role;
            boolean ends =
                    open
                            && (role == Role.CALL_BEGIN
                                    || implicitEnd
                                            && (role == Role.CONTENT || role == Role.REASONING));
            if (ends) {
                if (names != 1) return null;
                out.add(
                        new Call(
                                name,
                                verbatim ? (args.length() == 0 ? "{}" : args.toString()) : null));
                open = false;
            }
            switch (role) {
                case CALL_BEGIN:
                    open = true;
                    name = null;
                    names = 0;
                    args = new StringBuilder();
                    verbatim = true;
                    break;
                case CALL_END:
                    if (!open || names != 1) return null;
                    out.add(
                            new Call(
                                    name,
                                    verbatim
                                            ? (args.length() == 0 ? "{}" : args.toString())
                                            : null));
                    open = false;
                    break;
                case NAME:
                    if (open) {
                        name = s.text().strip();
                        names++;
                    }
                    break;
                case NAME_JSON:
                    if (!open) break;
                    name = Json.decodeString(s.text());
                    if (name == null) return null;
                    names++;
                    break;
                case ARGS_JSON:
                    if (open) args.append(s.text());
                    break;
                case CONTENT:
                case REASONING:
                case SKIP:
                case ID:
                case ID_JSON:
                    break;
                default:
                    verbatim = false;
            }
        }
        if (open) {
            if (!implicitEnd || names != 1) return null;
            out.add(
                    new Call(
                            name, verbatim ? (args.length() == 0 ? "{}" : args.toString()) : null));
        }
        for (Call c : out) if (c.name() == null || c.name().isEmpty()) return null;
        return out;
    }
}
