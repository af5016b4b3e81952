package dev.toolcalls.internal.constraint;

import com.google.gson.JsonArray;
import com.google.gson.JsonElement;
import com.google.gson.JsonObject;
import com.google.gson.JsonPrimitive;

import dev.toolcalls.ConstraintException;
import dev.toolcalls.ConstraintOptions;
import dev.toolcalls.internal.format.CompiledFormat;
import dev.toolcalls.internal.json.Json;
import dev.toolcalls.internal.lex.LexerModel;
import dev.toolcalls.internal.lex.Role;

import org.antlr.v4.runtime.CharStreams;
import org.antlr.v4.runtime.Lexer;
import org.antlr.v4.runtime.Token;
import org.antlr.v4.runtime.atn.ATN;
import org.antlr.v4.runtime.atn.ATNState;
import org.antlr.v4.runtime.atn.LexerAction;
import org.antlr.v4.runtime.atn.LexerModeAction;
import org.antlr.v4.runtime.atn.LexerPopModeAction;
import org.antlr.v4.runtime.atn.LexerPushModeAction;
import org.antlr.v4.runtime.atn.RuleStopState;
import org.antlr.v4.runtime.atn.RuleTransition;
import org.antlr.v4.runtime.atn.Transition;
import org.antlr.v4.runtime.misc.IntervalSet;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;

/**
 * The legacy structural tag ({@code {"type": "structural_tag", "structures": [{"begin", "schema",
 * "end"}], "triggers"}}) of a format whose call is a fixed begin string holding the tool's name,
 * the JSON arguments, and a fixed end string. Derived from the lexer: from a call-opening marker of
 * the default mode, the fewest tokens (each spelled by its shortest string, JSON's {@code ": "} and
 * {@code ", "} where the token takes them) that reach a name token, then a JSON-arguments token
 * (the begin ends before it), then, after the arguments, the tokens that end the call and return to
 * the default mode (the end). The spelling of a whole call is parsed back by the lexer before it is
 * used. Formats that cannot be written so are refused with the reason.
 */
public final class LegacyStructuralTag {
    private static final int MAX_TOKENS = 16;
    private static final int MAX_SPELLING = 64;

    private record Effect(int pops, int mode, List<Integer> pushes) {}

    /** A search state: the mode stack, what was written, the name's place. */
    private record State(List<Integer> stack, String text, int nameAt, int nameEnd, int depth) {}

    /** A call's shape: begin up to the name, the name's spelling, begin after it, and end. */
    record Shape(String trigger, String before, boolean jsonName, String after, String end) {}

    private final CompiledFormat format;
    private final LexerModel model;
    private final ATN atn;
    private final TokenLanguages languages;
    private int lastNameRule = -1;

    private LegacyStructuralTag(CompiledFormat format) {
        this.format = format;
        this.model = format.model();
        this.atn = model.atn;
        this.languages = new TokenLanguages(atn, model.ruleNames, new Gbnf());
    }

    /**
     * The legacy structural tag for these functions (each a {@code {"name", "parameters"}} object).
     *
     * @throws ConstraintException when the format's calls, the tools or the options cannot be said
     *     in this form
     */
    public static String build(
            CompiledFormat format, List<JsonObject> functions, ConstraintOptions options) {
        String name = format.file().name();
        if (!options.toolChoiceIsKeyword()
                || !options.toolChoice().toLowerCase(Locale.ROOT).equals("auto"))
            throw refuse(
                    name,
                    "tool_choice",
                    "tool_choice "
                            + options.toolChoice()
                            + " cannot be said: the legacy structural tag leaves text free until a"
                            + " trigger, so it can neither require a call nor forbid one (use gbnf"
                            + " or structural-tag)");
        if (!options.parallelToolCalls())
            throw refuse(
                    name,
                    "parallel_tool_calls",
                    "parallel_tool_calls false cannot be said: the legacy structural tag allows a"
                            + " call at every trigger (use gbnf or structural-tag)");
        if (functions.isEmpty())
            throw refuse(
                    name,
                    "tools",
                    "the legacy structural tag holds one structure per tool, and no tools were"
                            + " given");
        Shape shape = new LegacyStructuralTag(format).shape();
        JsonArray structures = new JsonArray();
        for (JsonObject f : functions) {
            String tool = f.get("name").getAsString();
            JsonElement params = f.has("parameters") ? f.get("parameters") : new JsonObject();
            new JsonSchemaRules(new Gbnf(), tool, params, "check").value(params);
            JsonObject s = new JsonObject();
            s.addProperty(
                    "begin",
                    shape.before
                            + (shape.jsonName ? Json.write(new JsonPrimitive(tool)) : tool)
                            + shape.after);
            s.add("schema", params.deepCopy());
            s.addProperty("end", shape.end);
            structures.add(s);
        }
        JsonArray triggers = new JsonArray();
        triggers.add(shape.trigger);
        JsonObject tag = new JsonObject();
        tag.addProperty("type", "structural_tag");
        tag.add("structures", structures);
        tag.add("triggers", triggers);
        return Json.write(tag);
    }

    private static ConstraintException refuse(String format, String keyword, String why) {
        return new ConstraintException(
                null, keyword, "format " + format + ": structural-tag-legacy: " + why);
    }

    private ConstraintException refuse(String why) {
        return refuse(format.file().name(), "target", why + " (use gbnf or structural-tag)");
    }

    // ---- the call's shape
    // ------------------------------------------------------------------------

    Shape shape() {
        List<String> reasons = new ArrayList<>();
        for (int r : model.rulesOfMode(0)) {
            if (model.roleOfRule(r) != Role.CALL_BEGIN) continue;
            List<String> lits = languages.literals(r);
            if (lits == null || lits.size() != 1) {
                reasons.add(model.ruleNames[r] + " is not one fixed string");
                continue;
            }
            String trigger = lits.get(0);
            List<Integer> start = apply(List.of(0), effect(r));
            if (start == null) continue;
            State named = search(new State(start, trigger, -1, -1, 0), true);
            if (named == null) {
                reasons.add("after " + trigger + " no fixed path reaches the name");
                continue;
            }
            Object[] args = argsPath(named);
            if (args == null) {
                reasons.add(
                        "after the name, no fixed path reaches arguments written as one JSON"
                                + " value");
                continue;
            }
            State before = (State) args[0];
            List<Integer> after = (List<Integer>) args[1];
            String end = endPath(after);
            if (end == null) {
                reasons.add(
                        "after the arguments, no fixed path ends the call back outside it (a list"
                                + " or a section around several calls)");
                continue;
            }
            Shape shape =
                    new Shape(
                            trigger,
                            before.text.substring(0, before.nameAt),
                            model.roleOfRule(nameRule(before)) == Role.NAME_JSON,
                            before.text.substring(before.nameEnd),
                            end);
            String why = parsesBack(shape);
            if (why == null) return shape;
            reasons.add(why);
        }
        if (reasons.isEmpty()) reasons.add("no call-opening marker in the default mode");
        throw refuse(String.join("; ", reasons));
    }

    private int nameRule(State s) {
        return lastNameRule;
    }

    /** Breadth-first: the fewest fixed tokens from {@code from} to a name token (then after it). */
    private State search(State from, boolean toName) {
        Deque<State> queue = new ArrayDeque<>();
        Set<List<Integer>> seen = new HashSet<>();
        queue.add(from);
        seen.add(from.stack);
        while (!queue.isEmpty()) {
            State s = queue.poll();
            if (s.depth > MAX_TOKENS || s.stack.isEmpty()) continue;
            int mode = s.stack.get(s.stack.size() - 1);
            for (int r : model.rulesOfMode(mode)) {
                Role role = model.roleOfRule(r);
                List<Integer> next = apply(s.stack, effect(r));
                if (next == null || next.isEmpty()) continue;
                if (role == Role.NAME || role == Role.NAME_JSON) {
                    String placeholder = role == Role.NAME_JSON ? "\"f\"" : "f";
                    lastNameRule = r;
                    return new State(
                            next,
                            s.text + placeholder,
                            s.text.length(),
                            s.text.length() + placeholder.length(),
                            s.depth + 1);
                }
                if (!passable(role)) continue;
                String spelled = spell(r, mode);
                if (spelled == null || spelled.isBlank()) continue;
                if (!seen.add(next)) continue;
                queue.add(
                        new State(next, s.text + gap(s.text, mode) + spelled, -1, -1, s.depth + 1));
            }
        }
        return null;
    }

    /** From after the name: the fewest fixed tokens to a JSON-arguments token; the stack after. */
    private Object[] argsPath(State named) {
        Deque<State> queue = new ArrayDeque<>();
        Set<List<Integer>> seen = new HashSet<>();
        queue.add(named);
        seen.add(named.stack);
        while (!queue.isEmpty()) {
            State s = queue.poll();
            if (s.depth > MAX_TOKENS || s.stack.isEmpty()) continue;
            int mode = s.stack.get(s.stack.size() - 1);
            for (int r : model.rulesOfMode(mode)) {
                Role role = model.roleOfRule(r);
                Effect e = effect(r);
                if (role == Role.ARGS_JSON) {
                    List<Integer> base = pop(s.stack, e.pops);
                    if (base == null) continue;
                    if (e.mode >= 0) base.set(base.size() - 1, e.mode);
                    List<Integer> after =
                            e.pushes.isEmpty() ? pop(base, 1) : base; // the value's frame pops
                    if (after == null || after.isEmpty()) continue;
                    return new Object[] {s, after};
                }
                if (!passable(role)) continue;
                List<Integer> next = apply(s.stack, e);
                if (next == null || next.isEmpty()) continue;
                String spelled = spell(r, mode);
                if (spelled == null || spelled.isBlank()) continue;
                if (!seen.add(next)) continue;
                queue.add(
                        new State(
                                next,
                                s.text + gap(s.text, mode) + spelled,
                                s.nameAt,
                                s.nameEnd,
                                s.depth + 1));
            }
        }
        return null;
    }

    /** From after the arguments: the fewest fixed tokens that end the call in the default mode. */
    private String endPath(List<Integer> after) {
        record E(List<Integer> stack, String text, int depth) {}
        Deque<E> queue = new ArrayDeque<>();
        Set<List<Integer>> seen = new HashSet<>();
        queue.add(new E(after, "", 0));
        seen.add(after);
        while (!queue.isEmpty()) {
            E s = queue.poll();
            if (s.stack.equals(List.of(0))) return s.text;
            if (s.depth > MAX_TOKENS || s.stack.isEmpty()) continue;
            int mode = s.stack.get(s.stack.size() - 1);
            for (int r : model.rulesOfMode(mode)) {
                Role role = model.roleOfRule(r);
                if (!passable(role) && role != Role.CALL_END) continue;
                List<Integer> next = apply(s.stack, effect(r));
                if (next == null || next.isEmpty()) continue;
                String spelled = spell(r, mode);
                if (spelled == null || spelled.isBlank()) continue;
                if (!seen.add(next)) continue;
                queue.add(new E(next, s.text + spelled, s.depth + 1));
            }
        }
        return null;
    }

    /**
     * JSON's space after a separator: one space after a final {@code ,} or {@code :} where the mode
     * reads a space as a token of its own.
     */
    private String gap(String text, int mode) {
        if (!(text.endsWith(",") || text.endsWith(":"))) return "";
        for (int r : model.rulesOfMode(mode)) if (lexesAs(" ", r, mode)) return " ";
        return "";
    }

    /** Tokens a fixed path may go through: markers and dropped text, never values or content. */
    private static boolean passable(Role role) {
        return role == Role.SKIP || role == Role.CALL_END || role == null;
    }

    /** Checks the shape by parsing one call written with it (any name, arguments {}). */
    private String parsesBack(Shape shape) {
        String name = "get_weather";
        String call =
                shape.before
                        + (shape.jsonName ? "\"" + name + "\"" : name)
                        + shape.after
                        + "{}"
                        + shape.end;
        try {
            Lexer lexer = model.factory.apply(CharStreams.fromString(call));
            lexer.removeErrorListeners();
            int calls = 0;
            for (Token t = lexer.nextToken(); t.getType() != Token.EOF; t = lexer.nextToken()) {
                Role role = model.roleOfType(t.getType());
                if (role == Role.CALL_BEGIN) calls++;
                if (role == Role.CONTENT || role == Role.REASONING)
                    return "the derived call "
                            + Json.write(new JsonPrimitive(call))
                            + " lexes as text";
            }
            if (calls != 1 || lexer._modeStack.size() != 0 || lexer._mode != 0)
                return "the derived call "
                        + Json.write(new JsonPrimitive(call))
                        + " does not end back outside a call";
        } catch (RuntimeException e) {
            return "the derived call " + Json.write(new JsonPrimitive(call)) + " does not lex";
        }
        return null;
    }

    // ---- tokens
    // ----------------------------------------------------------------------------------

    private static List<Integer> pop(List<Integer> stack, int pops) {
        if (pops > stack.size()) return null;
        return new ArrayList<>(stack.subList(0, stack.size() - pops));
    }

    private static List<Integer> apply(List<Integer> stack, Effect e) {
        List<Integer> next = pop(stack, e.pops);
        if (next == null || next.isEmpty()) return next;
        if (e.mode >= 0) next.set(next.size() - 1, e.mode);
        next.addAll(e.pushes);
        return List.copyOf(next);
    }

    private Effect effect(int rule) {
        List<LexerAction> actions = new ArrayList<>();
        ConstraintGrammar.collectActions(atn, atn.ruleToStartState[rule], new HashSet<>(), actions);
        int pops = 0;
        int mode = -1;
        List<Integer> pushes = new ArrayList<>();
        for (LexerAction a : actions) {
            if (a instanceof LexerModeAction ma) {
                if (pushes.isEmpty()) mode = ma.getMode();
                else pushes.set(pushes.size() - 1, ma.getMode());
            } else if (a instanceof LexerPushModeAction pa) {
                pushes.add(pa.getMode());
            } else if (a instanceof LexerPopModeAction) {
                if (!pushes.isEmpty()) pushes.remove(pushes.size() - 1);
                else {
                    pops++;
                    mode = -1;
                }
            }
        }
        return new Effect(pops, mode, List.copyOf(pushes));
    }

    /**
     * The token's shortest spelling, with a space after a final {@code :} or {@code ,} where the
     * lexer reads it as the same token; null when it has none short enough.
     */
    private String spell(int rule, int mode) {
        String s = shortest(rule);
        if (s == null) return null;
        if ((s.endsWith(":") || s.endsWith(",")) && lexesAs(s + " ", rule, mode)) return s + " ";
        return s;
    }

    private boolean lexesAs(String text, int rule, int mode) {
        try {
            Lexer lexer = model.factory.apply(CharStreams.fromString(text));
            lexer.removeErrorListeners();
            lexer.pushMode(mode);
            Token t = lexer.nextToken();
            return t.getType() == model.typeOfRule(rule) && t.getStopIndex() == text.length() - 1;
        } catch (RuntimeException e) {
            return false;
        }
    }

    /** Breadth-first over the rule's ATN (fragments entered and returned from). */
    private String shortest(int rule) {
        record P(ATNState state, List<ATNState> returns, String text) {}
        Deque<P> queue = new ArrayDeque<>();
        Set<String> seen = new HashSet<>();
        queue.add(new P(atn.ruleToStartState[rule], List.of(), ""));
        while (!queue.isEmpty()) {
            P p = queue.poll();
            if (p.text.length() > MAX_SPELLING) continue;
            String key = p.state.stateNumber + "/" + p.returns + "/" + p.text.length();
            if (!seen.add(key)) continue;
            if (p.state instanceof RuleStopState) {
                if (p.returns.isEmpty()) return p.text;
                List<ATNState> rest = p.returns.subList(0, p.returns.size() - 1);
                queue.addFirst(new P(p.returns.get(p.returns.size() - 1), rest, p.text));
                continue;
            }
            for (int i = 0; i < p.state.getNumberOfTransitions(); i++) {
                Transition t = p.state.transition(i);
                if (t instanceof RuleTransition rt) {
                    List<ATNState> r = new ArrayList<>(p.returns);
                    r.add(rt.followState);
                    queue.addFirst(new P(rt.target, List.copyOf(r), p.text));
                } else if (t.isEpsilon()) {
                    queue.addFirst(new P(t.target, p.returns, p.text));
                } else {
                    IntervalSet label = TokenLanguages.label(t);
                    if (label == null) continue;
                    IntervalSet printable = label.and(IntervalSet.of(0x20, 0x7e));
                    int ch = printable.isNil() ? label.getMinElement() : printable.getMinElement();
                    if (ch < 0) continue;
                    queue.addLast(new P(t.target, p.returns, p.text + Character.toString(ch)));
                }
            }
        }
        return null;
    }
}
