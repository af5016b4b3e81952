package dev.toolcalls.internal.constraint;

import dev.toolcalls.internal.constraint.ConstraintGrammar.Effect;
import dev.toolcalls.internal.lex.LexerModel;
import dev.toolcalls.internal.lex.Role;

import org.antlr.v4.runtime.atn.ATN;
import org.antlr.v4.runtime.atn.LexerAction;
import org.antlr.v4.runtime.atn.LexerModeAction;
import org.antlr.v4.runtime.atn.LexerPopModeAction;
import org.antlr.v4.runtime.atn.LexerPushModeAction;
import org.antlr.v4.runtime.misc.IntervalSet;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.EnumSet;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.WeakHashMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Function;

/**
 * What a constraint grammar takes from a format's lexer alone, derived once per lexer and shared by
 * every build for any tools (immutable once made but for the sizes builds start their tables at,
 * safe to share between threads): what each token does to the mode stack, its role, the characters
 * of its runs, which tokens of a mode are its run, its markers and its plain text, the GBNF of each
 * token's language, and in which modes the parameter a value belongs to can still matter.
 */
final class ModePlan {
    /** Rules defined for an expression (read only once made), and the expression. */
    private record Answer(String expr, Gbnf rules) {}

    private static final Set<Role> TEXT_ROLES = EnumSet.of(Role.CONTENT, Role.REASONING, Role.SKIP);

    private static final Set<Role> RUN_ROLES =
            EnumSet.of(
                    Role.CONTENT,
                    Role.REASONING,
                    Role.SKIP,
                    Role.INHERIT,
                    Role.ARGS_JSON,
                    Role.ARGS_JSON_STRING,
                    Role.ARG_VALUE,
                    Role.ARG_END,
                    Role.LIT_CHARS,
                    Role.LIT_ATOM,
                    Role.LIT_COMMA,
                    Role.LIT_COLON,
                    Role.ID);

    /** Roles whose tokens read or change the context of the call. */
    private static final Set<Role> CONTEXT_ROLES =
            EnumSet.of(
                    Role.CALL_BEGIN,
                    Role.CALL_END,
                    Role.NAME,
                    Role.NAME_JSON,
                    Role.ARG_KEY,
                    Role.ARGS_JSON,
                    Role.ID);

    /** Roles of runs that are replaced by what the context allows. */
    private static final Set<Role> CONTEXT_RUNS =
            EnumSet.of(Role.ARGS_JSON, Role.ARGS_JSON_STRING, Role.ARG_VALUE, Role.ID);

    /** The tool of the call, a field of the context a build threads through the frames. */
    static final int TOOL = 1;

    /** The parameter whose value is read. */
    static final int KEY = 2;

    /** The required parameters written. */
    static final int MASK = 4;

    static final int ALL = TOOL | KEY | MASK;

    private static final Map<LexerModel, ModePlan> CACHE =
            Collections.synchronizedMap(new WeakHashMap<>());

    private final ATN atn;
    private final String[] ruleNames;
    private final TokenDifference difference;

    final Effect[] effects;
    final Role[] roles;
    final IntervalSet[] runSets;
    final List<List<Integer>> earlier = new ArrayList<>();
    final List<List<Integer>> runRules = new ArrayList<>();
    final List<List<Integer>> itemRules = new ArrayList<>();
    final List<List<Integer>> textRules = new ArrayList<>();

    /** Per mode: {@link #itemRules} as an array. */
    final int[][] items;

    /** Per mode: the list of that mode alone (a stack of one frame). */
    final List<List<Integer>> singles = new ArrayList<>();

    /** Per mode: whether its run holds JSON arguments ({@code args.json}). */
    final boolean[] argsRun;

    /** Per mode: whether its run holds a raw value ({@code arg.value}). */
    final boolean[] valueRun;

    /** Per mode: whether its run is ids alone (and it has no text tokens). */
    final boolean[] idRun;

    /** Per mode: the characters of its run. */
    final IntervalSet[] runChars;

    /** Each mode's name as it appears in rule names. */
    final String[] modeIds;

    /** Whether arguments are written as JSON (no parameter-name tokens). */
    final boolean jsonArgs;

    /**
     * Per mode: whether it reads JSON arguments held in a JSON string: its run and the tokens that
     * stay in it (characters and escapes) are all of that role, and its other tokens leave it.
     */
    final boolean[] heldMode;

    /**
     * Whether a call's JSON arguments are read by tokens only (an arguments value, or a string
     * holding it), so that the context can say whether they were written: a call that writes none
     * has no arguments, which a tool with required parameters cannot have.
     */
    final boolean argsTracked;

    /**
     * Whether a raw value is always the run of one mode: no token read as part of a value is one of
     * its mode's other tokens (a value's first character read by a token that changes the mode,
     * then the rest as a run). A value read by several tokens is left untyped: the run alone is not
     * the value, and typing it would reject values the parser accepts.
     */
    final boolean valuesWhole;

    /**
     * Per mode, for formats whose calls end explicitly ([0]) and implicitly ([1]): the fields of
     * the context ({@link #TOOL}, {@link #KEY}, {@link #MASK}) that a frame in it may still read
     * before a token sets them; contexts that differ only in the others derive the same text.
     */
    private final int[][] live = new int[2][];

    /** The same for the frame that a frame in the mode returns to, where it pops. */
    private final int[][] liveBelow = new int[2][];

    /**
     * Per mode, for formats whose calls end explicitly ([0]) and implicitly ([1]): where a frame in
     * it is written as its value (the mode's run) and a rule of what follows the value, the fields
     * the tokens after the value read; 0 elsewhere. A mode is written so where its run is a value
     * typed by its parameter and every token of it leaves the mode reading the required state and
     * no parameter: the value is then the same for every required state, and what follows it for
     * every parameter.
     */
    private final int[][] tailLive = new int[2][];

    /**
     * Per mode (not the default one): whether a frame in it, and every frame it pushes, neither
     * reads nor changes the context (the tool, the parameter, the call): it then ends in the
     * context it began in, and derives the same text in every context.
     */
    final boolean[] opaque;

    /**
     * Per mode (not the default one): whether a frame in it, and every frame it leads to or pushes
     * before it pops, neither reads nor changes the call's required state (JSON: whether its
     * arguments are written), popping at most its own frame: it then ends with the state it began
     * with, and derives the same text whatever that state is.
     */
    final boolean[] maskThrough;

    /**
     * Per mode: whether a call's frame in it that lacks a required parameter (JSON: its arguments)
     * may still write it before the output ends in the frame: a token of it, or of a mode it leads
     * to, pushes, or returns to, writes a parameter's name or the arguments. A token that ends the
     * call or begins another leads nowhere: the call lacking a parameter, it is not read.
     */
    final boolean[] maskSettable;

    /**
     * Per mode (not the default one): whether a frame in it, and every frame it leads to or pushes
     * before it pops, reads the tool and the parameter only through the parameter's value (a run
     * typed by it, whether an empty value is a string) and changes neither but to leave the
     * parameter, popping at most its own frame: parameters whose values are written alike derive
     * the same text there.
     */
    final boolean[] valueOnly;

    /**
     * Per mode: whether the output may end after a frame in it began inside a call, that is,
     * whether from it (without popping it) a token ending the call, or the default mode, is
     * reached.
     */
    final boolean[] mayEndCall;

    /**
     * Per mode: whether a call's frame in it may leave which required parameters are written to be
     * applied later, where the frame reaches a mode that is not: no token of the mode reads or
     * changes that state (a call's beginning or end, a parameter's name, JSON arguments), none pops
     * the frame, the output cannot end in the call from it, and the frames its tokens push read
     * none of it either.
     */
    final boolean[] deferrable;

    /**
     * Per mode: whether a frame in it whose required state is deferred, and every frame it leads to
     * or pushes until it ends, reads the tool and the parameter only by whether the parameter takes
     * a string and whether its value is read as JSON: no token of those modes reads or changes the
     * call (a call's beginning or end, a name, a parameter's name, JSON arguments, an id) and no
     * run of theirs is replaced by what the context allows. Such frames derive the same text for
     * every tool and parameter alike in these two.
     */
    final boolean[] keyed;

    /**
     * Per rule: whether its token ends a raw value that no token has read, so that the value is
     * empty: a token that ends the value ({@code arg.end}), or leads to a mode whose every token
     * does, read in a mode where a value begins (every value token of the mode leaves it, and no
     * value token leads to it).
     */
    final boolean[] endsEmptyValue;

    /**
     * Answers to the questions of builds that depend on the lexer alone, by question (a rule's
     * number: the GBNF of its tokens).
     */
    private final Map<Object, Answer> derived = new ConcurrentHashMap<>();

    /**
     * The most frames a build for this lexer has made: the size its tables start at, so that a
     * build seldom grows them.
     */
    volatile int framesMade = 64;

    /** The most rules a build for this lexer has defined besides its frames (likewise a hint). */
    volatile int rulesMade = 1024;

    private ModePlan(LexerModel model) {
        this.atn = model.atn;
        this.ruleNames = model.ruleNames;
        TokenLanguages languages = new TokenLanguages(atn, ruleNames, new Gbnf());
        this.difference = new TokenDifference(atn);
        int n = ruleNames.length;
        int modes = model.modeNames.length;
        effects = new Effect[n];
        roles = new Role[n];
        runSets = new IntervalSet[n];
        modeIds = new String[modes];
        items = new int[modes][];
        for (int m = 0; m < modes; m++) singles.add(List.of(m));
        for (int r = 0; r < n; r++) earlier.add(List.of());
        for (int m = 0; m < modes; m++) {
            modeIds[m] = TokenLanguages.sanitize(model.modeNames[m]);
            List<Integer> run = new ArrayList<>();
            List<Integer> items = new ArrayList<>();
            List<Integer> before = new ArrayList<>();
            for (int r : model.rulesOfMode(m)) {
                earlier.set(r, List.copyOf(before));
                before.add(r);
                if (effects[r] == null) {
                    effects[r] = effect(r);
                    roles[r] = model.roleOfRule(r);
                    runSets[r] = languages.runSet(r);
                }
                if (!effects[r].command() && RUN_ROLES.contains(roles[r]) && runSets[r] != null)
                    run.add(r);
                else items.add(r);
            }
            List<Integer> texts = texts(run, items);
            runRules.add(List.copyOf(run));
            itemRules.add(List.copyOf(items));
            this.items[m] = items.stream().mapToInt(Integer::intValue).toArray();
            textRules.add(List.copyOf(texts));
        }
        boolean json = true;
        for (Role r : roles) if (r == Role.ARG_KEY) json = false;
        jsonArgs = json;
        heldMode = new boolean[modes];
        boolean tracked = jsonArgs;
        boolean whole = true;
        for (int m = 0; m < modes; m++) {
            boolean held = !runRules.get(m).isEmpty();
            for (int r : runRules.get(m)) held &= roles[r] == Role.ARGS_JSON_STRING;
            for (int r : itemRules.get(m)) {
                held &= stays(m, r) == (roles[r] == Role.ARGS_JSON_STRING);
                whole &= roles[r] != Role.ARG_VALUE;
            }
            heldMode[m] = held;
        }
        for (int m = 0; m < modes; m++) {
            for (int r : runRules.get(m))
                tracked &=
                        roles[r] != Role.ARGS_JSON
                                && (roles[r] != Role.ARGS_JSON_STRING || heldMode[m]);
            for (int r : itemRules.get(m))
                tracked &= roles[r] != Role.ARGS_JSON_STRING || heldMode[m];
        }
        argsTracked = tracked;
        valuesWhole = whole;
        argsRun = new boolean[modes];
        valueRun = new boolean[modes];
        idRun = new boolean[modes];
        runChars = new IntervalSet[modes];
        for (int m = 0; m < modes; m++) {
            runChars[m] = new IntervalSet();
            boolean ids = textRules.get(m).isEmpty();
            for (int r : runRules.get(m)) {
                argsRun[m] |= roles[r] == Role.ARGS_JSON;
                valueRun[m] |= roles[r] == Role.ARG_VALUE;
                ids &= roles[r] == Role.ID;
                runChars[m].addAll(runSets[r]);
            }
            idRun[m] = ids;
            runChars[m].setReadonly(true);
        }
        endsEmptyValue = emptyValueEnds(modes);
        List<Set<Integer>> below = frameBelow(modes);
        for (int implicit = 0; implicit < 2; implicit++) {
            live[implicit] = new int[modes];
            liveBelow[implicit] = new int[modes];
            if (below == null) {
                Arrays.fill(live[implicit], ALL);
                Arrays.fill(liveBelow[implicit], ALL);
            } else liveness(below, implicit == 1, live[implicit], liveBelow[implicit]);
            tailLive[implicit] = new int[modes];
            if (below != null) splits(live[implicit], liveBelow[implicit], implicit);
        }
        opaque = new boolean[modes];
        opacity();
        maskThrough = maskPassing(modes);
        maskSettable = maskSetting(modes);
        valueOnly = valueReading(modes);
        mayEndCall = new boolean[modes];
        endings(below);
        deferrable = deferrals();
        keyed = keyedModes();
    }

    /** The modes of {@link #keyed}, to a fixpoint from those whose own tokens and runs qualify. */
    private boolean[] keyedModes() {
        int modes = deferrable.length;
        boolean[] keyed = new boolean[modes];
        for (int m = 1; m < modes; m++) keyed[m] = !heldMode[m] && readsNoCall(m);
        boolean shrank = true;
        while (shrank) {
            shrank = false;
            for (int m = 1; m < modes; m++) {
                if (!keyed[m]) continue;
                boolean ok = true;
                for (int r : itemRules.get(m)) {
                    Effect e = effects[r];
                    // a token of a deferred frame leading to a mode that reads the state ends it
                    if (deferrable[m]
                            && e.pops() == 0
                            && e.pushes().isEmpty()
                            && e.mode() >= 0
                            && !deferrable[e.mode()]) continue;
                    ok &= e.mode() < 0 || keyed[e.mode()];
                    for (int p : e.pushes()) ok &= keyed[p] && !deferrable[p];
                }
                if (!ok) {
                    keyed[m] = false;
                    shrank = true;
                }
            }
        }
        return keyed;
    }

    /** Whether a token of the rule (of the mode) reads or changes the call's required state. */
    private boolean readsState(int mode, int rule) {
        return switch (roles[rule]) {
            case CALL_BEGIN, CALL_END, ARG_KEY, ARGS_JSON -> true;
            default -> heldMode[mode] && !stays(mode, rule);
        };
    }

    /** The modes of {@link #deferrable}, to a fixpoint from all. */
    private boolean[] deferrals() {
        int modes = mayEndCall.length;
        // modes read through inside a frame pushed from a deferred one
        boolean[] nested = new boolean[modes];
        boolean[] deferred = new boolean[modes];
        for (int m = 1; m < modes; m++) {
            boolean reads = jsonArgs;
            boolean pops = false;
            for (int r : itemRules.get(m)) {
                reads |= readsState(m, r);
                pops |= effects[r].pops() > 0;
            }
            nested[m] = !reads;
            deferred[m] = !reads && !pops && !opaque[m] && !mayEndCall[m];
        }
        boolean shrank = true;
        while (shrank) {
            shrank = false;
            for (int m = 1; m < modes; m++) {
                if (!nested[m] && !deferred[m]) continue;
                boolean inner = nested[m];
                boolean frame = deferred[m];
                for (int r : itemRules.get(m)) {
                    Effect e = effects[r];
                    boolean pushed = true;
                    for (int p : e.pushes()) pushed &= nested[p];
                    // a pop that sets the mode of the frame below may set a deferred frame's
                    if (e.pops() > 0)
                        inner &=
                                pushed
                                        && e.pops() == 1
                                        && (e.mode() < 0 || nested[e.mode()] && deferred[e.mode()]);
                    else inner &= pushed && nested[e.mode() >= 0 ? e.mode() : m];
                    if (!e.pushes().isEmpty())
                        frame &= pushed && deferred[e.mode() >= 0 ? e.mode() : m];
                }
                if (inner != nested[m] || frame != deferred[m]) {
                    nested[m] = inner;
                    deferred[m] = frame;
                    shrank = true;
                }
            }
        }
        return deferred;
    }

    private boolean[] emptyValueEnds(int modes) {
        boolean[] valueStart = new boolean[modes];
        boolean[] ends = new boolean[modes];
        for (int m = 0; m < modes; m++) {
            boolean start = !valueRun[m];
            boolean values = false;
            boolean end = !itemRules.get(m).isEmpty() && runRules.get(m).isEmpty();
            for (int r : itemRules.get(m)) {
                values |= roles[r] == Role.ARG_VALUE;
                start &= roles[r] != Role.ARG_VALUE || !stays(m, r);
                end &= roles[r] == Role.ARG_END;
            }
            valueStart[m] = start && values;
            ends[m] = end;
        }
        for (int r = 0; r < roles.length; r++) {
            if (roles[r] != Role.ARG_VALUE) continue;
            Effect e = effects[r];
            if (e.mode() >= 0) valueStart[e.mode()] = false;
            for (int m : e.pushes()) valueStart[m] = false;
        }
        boolean[] empty = new boolean[roles.length];
        for (int m = 0; m < modes; m++) {
            if (!valueStart[m]) continue;
            for (int r : itemRules.get(m)) {
                Effect e = effects[r];
                empty[r] =
                        roles[r] == Role.ARG_END
                                || roles[r] == Role.SKIP
                                        && e.pops() == 0
                                        && e.pushes().isEmpty()
                                        && e.mode() >= 0
                                        && ends[e.mode()];
            }
        }
        return empty;
    }

    /** Notes the frames and other rules a build made (a hint for the next build's tables). */
    void made(int frames, int rules) {
        if (frames > framesMade) framesMade = frames;
        if (rules > rulesMade) rulesMade = rules;
    }

    /** Whether a token of the mode leaves the frame in the mode, pushing nothing. */
    boolean stays(int mode, int rule) {
        Effect e = effects[rule];
        return e.pops() == 0 && e.pushes().isEmpty() && (e.mode() < 0 || e.mode() == mode);
    }

    static ModePlan of(LexerModel model) {
        ModePlan p = CACHE.get(model);
        if (p != null) return p;
        p = new ModePlan(model);
        ModePlan raced = CACHE.putIfAbsent(model, p);
        return raced != null ? raced : p;
    }

    /**
     * The tokens of a mode of plain text (content, reasoning, skipped text) that change no mode and
     * hold no marker: they are read as part of the mode's run, so that no sequence of them spells a
     * marker the lexer would take. They leave the mode's items.
     */
    private List<Integer> texts(List<Integer> run, List<Integer> items) {
        for (int r : run) if (!TEXT_ROLES.contains(roles[r])) return List.of();
        List<Integer> texts = new ArrayList<>();
        for (int r : items)
            if (!effects[r].command() && TEXT_ROLES.contains(roles[r])) texts.add(r);
        if (texts.isEmpty()) return texts;
        List<Integer> markers = new ArrayList<>(items);
        markers.removeAll(texts);
        texts.removeIf(r -> difference.covers(r, markers));
        items.removeAll(texts);
        return texts;
    }

    private Effect effect(int rule) {
        List<LexerAction> actions = new ArrayList<>();
        ConstraintGrammar.collectActions(atn, atn.ruleToStartState[rule], new HashSet<>(), actions);
        int pops = 0;
        int mode = -1;
        List<Integer> pushes = new ArrayList<>();
        boolean command = false;
        for (LexerAction a : actions) {
            if (a instanceof LexerModeAction ma) {
                command = true;
                if (pushes.isEmpty()) mode = ma.getMode();
                else pushes.set(pushes.size() - 1, ma.getMode());
            } else if (a instanceof LexerPushModeAction pa) {
                command = true;
                pushes.add(pa.getMode());
            } else if (a instanceof LexerPopModeAction) {
                command = true;
                if (!pushes.isEmpty()) pushes.remove(pushes.size() - 1);
                else {
                    pops++;
                    mode = -1;
                }
            }
        }
        // a pop followed by pushes is a mode change of the frame, then the remaining pushes
        if (pops == 1 && !pushes.isEmpty() && mode < 0) {
            mode = pushes.remove(0);
            pops = 0;
        }
        return new Effect(pops, mode, List.copyOf(pushes), command);
    }

    /** The fields of the context live in a frame of the mode. */
    int live(int mode, boolean implicitCallEnd) {
        return live[implicitCallEnd ? 1 : 0][mode];
    }

    /**
     * The fields the tokens after the value of a frame in the mode read, where the mode's frames
     * are written as their value and what follows it; 0 where they are written whole.
     */
    int tailLive(int mode, boolean implicitCallEnd) {
        return tailLive[implicitCallEnd ? 1 : 0][mode];
    }

    /** The fields of the context live in the frame below a frame of the mode. */
    int liveBelow(int mode, boolean implicitCallEnd) {
        return liveBelow[implicitCallEnd ? 1 : 0][mode];
    }

    /**
     * The modes the frame below a frame of each mode may be in; null where that cannot be told (a
     * token popping several frames).
     */
    private List<Set<Integer>> frameBelow(int modes) {
        List<Set<Integer>> below = new ArrayList<>();
        for (int m = 0; m < modes; m++) below.add(new HashSet<>());
        // the frames pushed: the mode of the frame each is pushed on
        for (int m = 0; m < modes; m++)
            for (int r : itemRules.get(m)) {
                Effect e = effects[r];
                if (e.pops() > 1 || (e.pops() > 0 && !e.pushes().isEmpty())) return null;
                int under = e.mode() >= 0 ? e.mode() : m;
                for (int p : e.pushes()) {
                    below.get(p).add(under);
                    under = p;
                }
            }
        // the reasoning frame a build may begin in sits on the default mode
        for (int m = 1; m < modes; m++) below.get(m).add(0);
        // a frame that changes mode keeps the frame below; a pop that sets the mode of the frame
        // below makes that mode a frame on what that frame sat on
        boolean grew = true;
        while (grew) {
            grew = false;
            for (int m = 0; m < modes; m++)
                for (int r : itemRules.get(m)) {
                    Effect e = effects[r];
                    if (e.mode() < 0) continue;
                    if (e.pops() == 0) grew |= below.get(e.mode()).addAll(below.get(m));
                    else
                        for (int b : List.copyOf(below.get(m)))
                            grew |= below.get(e.mode()).addAll(below.get(b));
                }
        }
        return below;
    }

    /** The fields a token of the rule reads. */
    private int reads(int rule) {
        // whether the call's required parameters (JSON: its arguments) are all set
        int state = jsonArgs ? MASK : TOOL | MASK;
        return switch (roles[rule]) {
            case CALL_BEGIN, CALL_END -> state;
            case ARG_KEY -> TOOL | MASK;
            case NAME, NAME_JSON, ARGS_JSON, ID -> TOOL;
            case ARG_AS_STRING, ARG_AS_JSON -> TOOL | KEY;
            default -> endsEmptyValue[rule] ? TOOL | KEY : 0;
        };
    }

    /** The fields a token of the rule sets (a call's beginning and end set them all). */
    private int sets(int rule) {
        return switch (roles[rule]) {
            case CALL_BEGIN, CALL_END -> ALL;
            // a parameter's end leaves no parameter whose value is read
            case ARG_KEY, ARG_END -> KEY;
            default -> 0;
        };
    }

    /**
     * The fields each mode may read. A mode reads the tool and the parameter where its run is
     * replaced by what they allow, and what its tokens read; it passes on, through every token,
     * what the token does not set and the modes that token leads to read: the frame's new mode and
     * the modes it pushes, or, where it pops, the mode the frame below is in then. The default mode
     * of a format whose calls end implicitly reads whether the call's parameters are set.
     */
    private void liveness(List<Set<Integer>> below, boolean implicit, int[] live, int[] under) {
        int modes = live.length;
        for (int m = 0; m < modes; m++) live[m] |= runReads(m);
        if (implicit) live[0] |= TOOL | MASK;
        boolean grew = true;
        while (grew) {
            grew = false;
            for (int m = 0; m < modes; m++) {
                int u = 0;
                for (int b : below.get(m)) u |= live[b];
                if ((u | under[m]) != under[m]) {
                    under[m] |= u;
                    grew = true;
                }
                int l = live[m];
                for (int r : itemRules.get(m)) l |= tokenReads(m, r, live, under);
                if (l != live[m]) {
                    live[m] = l;
                    grew = true;
                }
            }
        }
    }

    /**
     * The fields a token of the rule, read in mode {@code m}, reads: its own, and those that the
     * modes it leads to read and it does not set (the frame's new mode and the modes it pushes, or,
     * where it pops, the mode the frame below is in then).
     */
    private int tokenReads(int m, int r, int[] live, int[] under) {
        Effect e = effects[r];
        int next;
        if (e.pops() > 0) next = e.mode() >= 0 ? live[e.mode()] : under[m];
        else {
            next = live[e.mode() >= 0 ? e.mode() : m];
            for (int p : e.pushes()) next |= live[p];
            // a token whose inner mode is read as one JSON value ends the frame
            if (e.pushes().isEmpty() && e.mode() >= 0) next |= under[m];
        }
        return reads(r) | (next & ~sets(r));
    }

    /** The fields the runs of mode {@code m} read: those the context replaces them by. */
    private int runReads(int m) {
        int reads = 0;
        for (int r : runRules.get(m))
            if (roles[r] == Role.ARG_VALUE) reads |= TOOL | KEY;
            else if (CONTEXT_RUNS.contains(roles[r])) reads |= TOOL;
        return reads;
    }

    /** The modes of {@link #tailLive}, from the fields each mode and the frame below it read. */
    private void splits(int[] live, int[] under, int implicit) {
        for (int m = 1; m < live.length; m++) {
            if (heldMode[m]) continue;
            int tail = 0;
            boolean ok = true;
            for (int r : itemRules.get(m)) {
                int reads = tokenReads(m, r, live, under);
                ok &= !stays(m, r) && !endsEmptyValue[r] && (reads & MASK) != 0;
                tail |= reads;
            }
            if (!ok || (runReads(m) & KEY) == 0 || (tail & KEY) != 0 || (tail & MASK) == 0)
                continue;
            tailLive[implicit][m] = tail;
        }
    }

    /**
     * Which modes may end a call without being popped: those with a token ending it that leaves the
     * frame open, the default mode, those on which a frame is pushed that may end the call (then
     * popping, or left open), and those that lead to one of them: by a token changing the frame's
     * mode or pushing one, or by a frame pushed on it popping with a mode for it. A token that ends
     * the call by popping the frame ends the frame before the output ends.
     */
    private void endings(List<Set<Integer>> below) {
        int modes = mayEndCall.length;
        if (below == null) {
            Arrays.fill(mayEndCall, true);
            return;
        }
        List<Set<Integer>> next = new ArrayList<>();
        List<Set<Integer>> pushed = new ArrayList<>();
        for (int m = 0; m < modes; m++) {
            next.add(new HashSet<>());
            pushed.add(new HashSet<>());
        }
        // per mode: whether a frame in it, or one it leads to or pushes, has a token ending a call
        boolean[] ends = new boolean[modes];
        for (int m = 0; m < modes; m++)
            for (int r : itemRules.get(m)) {
                Effect e = effects[r];
                if (roles[r] == Role.CALL_END) {
                    ends[m] = true;
                    if (e.pops() == 0) mayEndCall[m] = true;
                }
                if (e.pops() == 0) {
                    next.get(m).add(e.mode() >= 0 ? e.mode() : m);
                    next.get(m).addAll(e.pushes());
                    pushed.get(m).addAll(e.pushes());
                } else if (e.mode() >= 0) for (int b : below.get(m)) next.get(b).add(e.mode());
            }
        spread(ends, next);
        for (int m = 0; m < modes; m++) for (int p : pushed.get(m)) mayEndCall[m] |= ends[p];
        mayEndCall[0] = true;
        spread(mayEndCall, next);
    }

    /**
     * Sets {@code flags[m]} wherever one of the modes {@code next[m]} leads to is set, to a
     * fixpoint.
     */
    private static void spread(boolean[] flags, List<Set<Integer>> next) {
        boolean grew = true;
        while (grew) {
            grew = false;
            for (int m = 0; m < flags.length; m++) {
                if (flags[m]) continue;
                for (int n : next.get(m))
                    if (flags[n]) {
                        flags[m] = true;
                        grew = true;
                        break;
                    }
            }
        }
    }

    /**
     * Whether no token of the mode reads or changes the call and no run of it is replaced by what
     * the context allows.
     */
    private boolean readsNoCall(int m) {
        for (int r : runRules.get(m)) if (CONTEXT_RUNS.contains(roles[r])) return false;
        for (int r : itemRules.get(m)) if (CONTEXT_ROLES.contains(roles[r])) return false;
        return true;
    }

    /** Whether a token of the rule, read in {@code mode}, may read or change the required state. */
    private boolean touchesMask(int mode, int rule) {
        return switch (roles[rule]) {
            case CALL_BEGIN, CALL_END, ARG_KEY, ARGS_JSON -> true;
            // the token that ends a string holding the arguments sets them written
            default -> heldMode[mode] && !stays(mode, rule);
        };
    }

    /**
     * Whether a token of the rule ends a call or begins one: a call that lacks a required parameter
     * neither ends nor is followed by another.
     */
    private boolean endsOrBegins(int rule) {
        return roles[rule] == Role.CALL_BEGIN || roles[rule] == Role.CALL_END;
    }

    private boolean[] maskSetting(int modes) {
        boolean[] sets = new boolean[modes];
        List<Set<Integer>> next = new ArrayList<>();
        for (int m = 0; m < modes; m++) {
            Set<Integer> to = new HashSet<>();
            for (int r : itemRules.get(m)) {
                if (endsOrBegins(r)) continue;
                sets[m] |= touchesMask(m, r);
                if (effects[r].mode() >= 0) to.add(effects[r].mode());
                to.addAll(effects[r].pushes());
            }
            next.add(to);
        }
        spread(sets, next);
        return sets;
    }

    private boolean[] valueReading(int modes) {
        boolean[] only = new boolean[modes];
        for (int m = 1; m < modes; m++) {
            boolean value = !heldMode[m];
            for (int r : runRules.get(m))
                value &= roles[r] == Role.ARG_VALUE || !CONTEXT_RUNS.contains(roles[r]);
            for (int r : itemRules.get(m))
                value &=
                        effects[r].pops() <= 1
                                && !CONTEXT_ROLES.contains(roles[r])
                                && roles[r] != Role.ARG_AS_STRING
                                && roles[r] != Role.ARG_AS_JSON;
            only[m] = value;
        }
        closeUnder(only);
        return only;
    }

    private boolean[] maskPassing(int modes) {
        boolean[] through = new boolean[modes];
        for (int m = 1; m < modes; m++) {
            boolean passes = true;
            for (int r : itemRules.get(m)) passes &= effects[r].pops() <= 1 && !touchesMask(m, r);
            through[m] = passes;
        }
        closeUnder(through);
        return through;
    }

    private void opacity() {
        int modes = opaque.length;
        for (int m = 1; m < modes; m++) {
            boolean neutral = readsNoCall(m);
            for (int r : itemRules.get(m)) neutral &= effects[r].pops() <= 1;
            opaque[m] = neutral;
        }
        closeUnder(opaque);
    }

    /**
     * Keeps in {@code in} only the modes whose tokens lead, until the frame pops, to modes in it
     * alone: the frame's next mode and the modes it pushes.
     */
    private void closeUnder(boolean[] in) {
        boolean shrank = true;
        while (shrank) {
            shrank = false;
            for (int m = 1; m < in.length; m++) {
                if (!in[m]) continue;
                for (int r : itemRules.get(m)) {
                    Effect e = effects[r];
                    boolean ok = e.pops() > 0 || in[e.mode() >= 0 ? e.mode() : m];
                    for (int p : e.pushes()) ok &= in[p];
                    if (!ok) {
                        in[m] = false;
                        shrank = true;
                        break;
                    }
                }
            }
        }
    }

    /**
     * What {@code make} defines and returns for a question whose answer depends on the lexer alone
     * ({@code key} holds the question whole): derived once, its rules defined in {@code out}.
     */
    String derived(Object key, Gbnf out, Function<Gbnf, String> make) {
        Answer a =
                derived.computeIfAbsent(
                        key,
                        k -> {
                            Gbnf g = new Gbnf();
                            return new Answer(make.apply(g), g);
                        });
        out.defineAll(a.rules);
        return a.expr;
    }

    /**
     * The GBNF of the tokens the rule produces in its mode (its language less what an earlier rule
     * of the mode matches); its rules are defined in {@code out}.
     */
    String expr(int rule, Gbnf out) {
        return derived(
                rule,
                out,
                g -> {
                    String less =
                            difference.define(
                                    g,
                                    "x_" + TokenLanguages.sanitize(ruleNames[rule]),
                                    rule,
                                    earlier.get(rule));
                    return less != null ? less : new TokenLanguages(atn, ruleNames, g).expr(rule);
                });
    }
}
