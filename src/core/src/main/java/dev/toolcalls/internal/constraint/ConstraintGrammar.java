package dev.toolcalls.internal.constraint;

import com.google.gson.JsonArray;
import com.google.gson.JsonElement;
import com.google.gson.JsonObject;
import com.google.gson.JsonPrimitive;

import dev.toolcalls.ConstraintException;
import dev.toolcalls.ConstraintOptions;
import dev.toolcalls.internal.assemble.SchemaTypes;
import dev.toolcalls.internal.format.CompiledFormat;
import dev.toolcalls.internal.format.FormatRules;
import dev.toolcalls.internal.json.Json;
import dev.toolcalls.internal.lex.LexerModel;
import dev.toolcalls.internal.lex.Role;

import org.antlr.v4.runtime.atn.ATN;
import org.antlr.v4.runtime.atn.ATNState;
import org.antlr.v4.runtime.atn.ActionTransition;
import org.antlr.v4.runtime.atn.LexerAction;
import org.antlr.v4.runtime.atn.RuleTransition;
import org.antlr.v4.runtime.atn.Transition;
import org.antlr.v4.runtime.misc.IntervalSet;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.EnumSet;
import java.util.HashMap;
import java.util.HashSet;
import java.util.IdentityHashMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The GBNF grammar of a format's complete outputs under a set of tools and options, derived from
 * its lexer: every mode is a rule per context (outside a call, inside a call of one tool, inside
 * the value of one of its parameters), the lexer's mode stack is the grammar's nesting, runs of
 * text are the characters of their rules holding none of the mode's markers, and what the roles say
 * is replaced by the tools: names by the tools' names, JSON arguments by each tool's schema,
 * parameter names by its properties, raw values by their type.
 */
public final class ConstraintGrammar {
    /** What a token does to the mode stack: pops, then a mode for the frame, then pushes. */
    record Effect(int pops, int mode, List<Integer> pushes, boolean command) {}

    /**
     * Where the builder is: outside or inside a call, of which tool, in which parameter. Equal by
     * its fields where {@link #ctx} makes the build's one instance of each; what holds contexts
     * holds those instances, and compares them by identity.
     */
    private static final class Ctx {
        final boolean call;
        final int tool;
        final int key;
        final int mask;
        final boolean called;

        /** The hash, made once: contexts are looked up many times each. */
        private final int hash;

        /*
         * What the build derived for this context (a build makes one instance of each context,
         * see ConstraintGrammar.ctx): its steps, its summary by mode, its number in the rule names
         * (-1: none yet), and the context it is stripped to by the fields kept.
         */
        List<Step>[] steps;
        Summary[] summaries;
        int id = -1;
        Ctx[] stripped;

        /** A deferred context resumed with each of the first required states (see resumed). */
        Ctx[] resumed;

        /**
         * A deferred context's {@link #KEYED} context (null before it is made), and the contexts
         * its frames end in by the key they end with and the mode they set (see unkeyed).
         */
        Ctx keyed;

        Ctx[] unkeyed;

        /**
         * Per mode, the context frames in that mode are made in where it is not this one (see
         * ConstraintGrammar.kept; null before asked), and their returns given this context's fields
         * back, each as of the summary's size it was made at (see returnsOf).
         */
        Ctx[] kept;

        List<Exit>[] passed;

        Ctx(boolean call, int tool, int key, int mask, boolean called) {
            this.call = call;
            this.tool = tool;
            this.key = key;
            this.mask = mask;
            this.called = called;
            this.hash = mix(mix(mix((call ? 1 : 0) | (called ? 2 : 0), tool), key), mask);
        }

        @Override
        public int hashCode() {
            return hash;
        }

        @Override
        public boolean equals(Object o) {
            return this == o
                    || o instanceof Ctx c
                            && hash == c.hash
                            && tool == c.tool
                            && key == c.key
                            && mask == c.mask
                            && call == c.call
                            && called == c.called;
        }
    }

    /**
     * How a frame ends: at the end of the output, or by popping {@code pops} frames; {@code
     * popped}: by the spelling {@link #popSpellings} holds at that index, after which the run of
     * the frame below must not go on to a longer token of the popping token's mode (-1: any other).
     */
    private static final class Exit {
        final boolean eof;
        final Ctx ctx;
        final int pops;
        final int mode;
        final int popped;
        private final int hash;

        /**
         * The contexts {@link #keptAs} was made for, and this exit as a frame made in {@code
         * keptIn} for one in {@code keptFrom} ends (see ConstraintGrammar.forth; null before made).
         */
        Ctx keptFrom;

        Ctx keptIn;

        Exit keptAs;

        Exit(boolean eof, Ctx ctx, int pops, int mode, int popped) {
            this.eof = eof;
            this.ctx = ctx;
            this.pops = pops;
            this.mode = mode;
            this.popped = popped;
            this.hash =
                    mix(mix(mix(mix(eof ? 1 : 0, ctx == null ? 0 : ctx.hash), pops), mode), popped);
        }

        @Override
        public int hashCode() {
            return hash;
        }

        @Override
        public boolean equals(Object o) {
            return this == o
                    || o instanceof Exit x
                            && hash == x.hash
                            && pops == x.pops
                            && mode == x.mode
                            && eof == x.eof
                            && popped == x.popped
                            && ctx == x.ctx;
        }
    }

    private static final class Key {
        final int mode;
        final Ctx ctx;
        private final int hash;

        Key(int mode, Ctx ctx) {
            this.mode = mode;
            this.ctx = ctx;
            this.hash = mix(mode, ctx.hash);
        }

        @Override
        public int hashCode() {
            return hash;
        }

        @Override
        public boolean equals(Object o) {
            return this == o
                    || o instanceof Key k && hash == k.hash && mode == k.mode && ctx == k.ctx;
        }
    }

    /**
     * What a frame in a mode and context is known to return so far, and the frames whose summaries
     * read it (looked at again when it grows). One per key: equal by identity, hashed as its key.
     */
    private static final class Summary {
        final Key key;

        /** The returns, in the order found, each once. */
        final Exits returns = new Exits();

        /**
         * The summaries that read it, in the order they first did (a summary read again after
         * another read it may come twice: looking at it again is then a no-op).
         */
        final List<Summary> readers = new ArrayList<>(4);

        /** The reader added last: a summary reads the same frame many times in a row. */
        Summary lastReader;

        boolean queued;

        Summary(Key key) {
            this.key = key;
        }

        @Override
        public int hashCode() {
            return key.hash;
        }
    }

    /**
     * Exits in the order added, each once: a list, and a set of them once there are more than a few
     * to look through.
     */
    private static final class Exits {
        private static final int FEW = 8;

        final List<Exit> list = new ArrayList<>(2);
        private Set<Exit> set;

        boolean contains(Exit x) {
            return set != null ? set.contains(x) : holds(list, x);
        }

        /** Adds {@code x} unless held; whether it was added. */
        boolean add(Exit x) {
            if (set != null) {
                if (!set.add(x)) return false;
            } else if (holds(list, x)) return false;
            list.add(x);
            if (set == null && list.size() > FEW) set = new HashSet<>(list);
            return true;
        }

        /** Adds each of {@code from} unless held; whether one was added. */
        boolean addAll(List<Exit> from) {
            boolean added = false;
            for (int i = 0; i < from.size(); i++) added |= add(from.get(i));
            return added;
        }

        void clear() {
            list.clear();
            set = null;
        }
    }

    /**
     * A frame's rule; {@code after}: the run it begins with follows a token (-1: any run). Equal by
     * its fields; {@code id}: its number among the frames of a build, once it is made (-1 before),
     * which indexes what is derived from it.
     */
    private static final class Nt {
        final int mode;
        final Ctx ctx;
        final Exit exit;
        final int after;

        /** {@link #WHOLE}, or {@link #TAIL}: what follows the value of a frame written so. */
        final int part;

        private final int hash;
        int id = -1;

        /**
         * Where the frame is written as its value and a rule of what follows it (see
         * ModePlan.tailLive): that rule (else null), and the value, its run (null: none).
         */
        Nt tail;

        String value;

        Nt(int mode, Ctx ctx, Exit exit, int after) {
            this(mode, ctx, exit, after, WHOLE);
        }

        Nt(int mode, Ctx ctx, Exit exit, int after, int part) {
            this.mode = mode;
            this.ctx = ctx;
            this.exit = exit;
            this.after = after;
            this.part = part;
            this.hash = mix(mix(mix(mix(mode, ctx.hash), exit.hash), after), part);
        }

        @Override
        public boolean equals(Object o) {
            return this == o
                    || o instanceof Nt n
                            && hash == n.hash
                            && mode == n.mode
                            && after == n.after
                            && part == n.part
                            && ctx == n.ctx
                            && exit.equals(n.exit);
        }

        @Override
        public int hashCode() {
            return hash;
        }
    }

    /** The run of mode {@code next} after the spelling {@code lit} of a token of {@code rule}. */
    private record After(int mode, int rule, String lit, int next, String run) {}

    /** The run {@code run} of mode {@code mode} that completes none of the rivals {@code left}. */
    private record Carry(int mode, String run, TokenDifference.Rivals left) {}

    /** A spelling {@code lit} of a token of {@code rule} (of {@code mode}) that pops its frame. */
    private record PopSpelling(int mode, int rule, String lit) {}

    /**
     * A popping token's spellings that leave a longer token partly read ({@link #popSpellings}
     * indices), and the expression of its other spellings (null: there are none).
     */
    private record PopSplit(List<Integer> spelled, String plain) {}

    /** One way a token can be read in a context. */
    private record Step(Ctx ctx, String expr, boolean swallow) {}

    /** A tool: name, parameters schema, and the properties its raw values are typed by. */
    private record Tool(
            String name,
            JsonElement parameters,
            List<String> keys,
            JsonSchemaRules.Required required,
            boolean extraKeys,
            SchemaText args) {}

    /**
     * A schema's rules and expression as written with {@link #SCHEMA_PREFIX} for their prefix, to
     * be replaced by the prefix of a tool, and the outermost object of its value (null where none).
     * It is a function of the schema (and of the parameters it refers into) only, and so are the
     * beginnings written from it ({@link #openings}, by the keys not first and the suffix of their
     * rule): builds share them.
     */
    private static final class SchemaText {
        private final String expr;
        private final String[] names;
        private final String[] bodies;
        private final JsonSchemaRules.Outer outer;
        private final Map<String, SchemaText> openings = new ConcurrentHashMap<>();

        /** The texts as {@link #define} named them last. */
        private volatile Named named;

        private SchemaText(String expr, Gbnf rules, JsonSchemaRules.Outer outer) {
            this.expr = expr;
            this.names = new String[rules.size()];
            this.bodies = new String[rules.size()];
            this.outer = outer;
            for (int i = 0; i < rules.size(); i++) {
                names[i] = rules.name(i);
                bodies[i] = rules.body(i);
            }
        }

        JsonSchemaRules.Outer outer() {
            return outer;
        }

        /**
         * Defines the rules in {@code g}, named with {@code prefix}; returns the expression. The
         * texts of the prefix asked for last are kept (a tool's schema is asked for with the same
         * prefix by every build of its tool set).
         */
        String define(Gbnf g, String prefix) {
            Named known = named;
            if (known == null || !known.prefix.equals(prefix)) {
                String[] n = new String[names.length];
                String[] d = new String[names.length];
                for (int i = 0; i < n.length; i++) {
                    n[i] = names[i].replace(SCHEMA_PREFIX, prefix);
                    d[i] = bodies[i].replace(SCHEMA_PREFIX, prefix);
                }
                known = new Named(prefix, n, d, expr.replace(SCHEMA_PREFIX, prefix));
                named = known;
            }
            for (int i = 0; i < known.names.length; i++) g.define(known.names[i], known.bodies[i]);
            return known.expr;
        }

        /** The texts named with {@code prefix}. */
        private record Named(String prefix, String[] names, String[] bodies, String expr) {}
    }

    /** The schemas' rules of earlier builds, by the texts of {@link #schemaText}'s key. */
    private static final Map<List<String>, SchemaText> SCHEMA_TEXTS = new ConcurrentHashMap<>();

    private static final int MAX_SCHEMA_TEXTS = 256;

    /** The most one-character spellings of a popping token that are followed apart. */
    private static final int MAX_POP_SPELLINGS = 16;

    /**
     * How deep a JSON value written for a parameter that takes a string is told from text: a
     * container opened deeper is taken as text (more than the parser reads as a string).
     */
    private static final int NOT_JSON_DEPTH = 2;

    /**
     * The most states of a tool's required parameters written in which a string parameter's value
     * after {@code string="false"} is told from JSON.
     */
    private static final int MAX_NOT_JSON_STATES = 64;

    /** The keys of a schema that say nothing of its values. */
    private static final Set<String> ANNOTATIONS =
            Set.of(
                    "description",
                    "title",
                    "examples",
                    "default",
                    "$comment",
                    "deprecated",
                    "readOnly",
                    "writeOnly");

    /** The keys of a string's schema that leave its JSON values the JSON strings. */
    private static final Set<String> PLAIN_STRING =
            union(ANNOTATIONS, Set.of("type", "format", "pattern", "minLength", "maxLength"));

    /** The prefix of a schema's rules until they are named for their tool (no text holds it). */
    private static final String SCHEMA_PREFIX = "\u0001";

    private static final IntervalSet ANY = IntervalSet.of(0, Gbnf.MAX_CODE_POINT);

    /**
     * The one context of frames that leave the context alone (their text is the same in every
     * context), and the two they have where the output may end inside them: where it may end
     * outside a call there, and where not.
     */
    private final Ctx opaqueCtx;

    /** The tool of {@link #opaqueCtx}. */
    private static final int OPAQUE = -3;

    /** The tool of the context that stands for the calls a token begins (its rule as the key). */
    private static final int CALLS = -4;

    /**
     * The mask of a context whose required state is deferred after a parameter not among the tool's
     * (which leaves it as it is); below it, {@link #deferredKey} after one of them.
     */
    private static final int DEFERRED_OTHER = -2;

    /**
     * The tool of a deferred context that stands for those whose frames read the tool and the
     * parameter only by whether the parameter takes a string ({@link #KEY_STRING}) and whether its
     * value is read as JSON ({@link #KEY_JSON}): its key holds these, or the key where it names no
     * parameter of the tool (-1, -2), and it has no required state (see {@link #keyed}).
     */
    private static final int KEYED = -5;

    private static final int KEY_JSON = 1;
    private static final int KEY_STRING = 2;

    /** The required states a deferred context keeps its resumed contexts for. */
    private static final int RESUMED_KEPT = 16;

    private final Ctx opaqueEnd;
    private final Ctx opaqueNoEnd;

    /** A frame that cannot end as asked (one that leaves the context alone cannot change it). */
    private final Nt dead;

    /** A frame written whole, and what follows the value of one written as its value and that. */
    private static final int WHOLE = 0;

    private static final int TAIL = 1;

    /** The type names of JSON Schema. */
    private static final Set<String> JSON_TYPES =
            Set.of("string", "integer", "number", "boolean", "null", "object", "array");

    private final LexerModel model;
    private final FormatRules rules;
    private final ATN atn;
    private final Gbnf out;
    private final TokenLanguages languages;
    private final List<Tool> tools = new ArrayList<>();
    private final Set<Integer> allowedTools = new LinkedHashSet<>();
    private final boolean noCalls;
    private final boolean requireCall;
    private final boolean parallel;
    private final boolean thinking;

    private final Effect[] effects;
    private final Role[] roles;
    private final String[] exprs;
    private final IntervalSet[] runSets;
    private final List<List<Integer>> earlier = new ArrayList<>();
    private final TokenDifference difference;
    private final ModePlan plan;
    private final List<List<Integer>> runRules = new ArrayList<>();
    private final List<List<Integer>> itemRules = new ArrayList<>();
    private final List<List<Integer>> textRules = new ArrayList<>();
    private final Map<String, String> runCache = new HashMap<>();
    private final Map<String, Integer> avoidedRuns = new HashMap<>();

    /** By mode: its run less the texts that are JSON of a type other than a string (or null). */
    private final Map<Integer, String> notJsonRuns = new HashMap<>();

    private final Map<Integer, String> thens = new HashMap<>();
    private final Map<Long, String> typedValues = new HashMap<>();

    /** Per rule: its token's effect where it ends a deferred frame (see effectIn), once made. */
    private final Effect[] resumingEffects;

    /** Per rule: the frames its token leaves, by mode and whether the innermost is swallowed. */
    private final List<Integer>[][] stacks;

    /** Each mode's run rule name. */
    private final String[] runNames;

    private final Map<After, Integer> afterIds = new HashMap<>();
    private final List<String> afterRuns = new ArrayList<>();

    /** What each of {@link #afterRuns} is made of. */
    private final List<Carry> afterSources = new ArrayList<>();

    private final Map<Carry, Integer> carryIds = new HashMap<>();

    /**
     * A token of {@code rule} after {@code in}, followed by a frame of {@code next} in {@code c}.
     */
    private record SplitAt(int rule, TokenDifference.Rivals in, int next, Ctx c) {}

    private final Map<SplitAt, List<TokenDifference.TokenClass>> splits = new HashMap<>();

    /** A token of {@code rule} after {@code in}: what its split depends on. */
    private record SplitOf(int rule, TokenDifference.Rivals in) {
        @Override
        public int hashCode() {
            return mix(rule, in == null ? 0 : in.hashCode());
        }
    }

    /** A token's split, and whether its rules are defined in the build's grammar. */
    private static final class SplitMade {
        final TokenDifference.Split split;
        boolean defined;

        SplitMade(TokenDifference.Split split) {
            this.split = split;
        }
    }

    private final Map<SplitOf, SplitMade> splitsMade = new HashMap<>();

    /** Per rule: the other rules of its mode ({@link #rivalsOf}). */
    private List<Integer>[] rivals;

    /** The fields of a context that the run of a mode depends on ({@link #run}). */
    private record RunAt(int mode, boolean call, int tool, int key) {
        @Override
        public int hashCode() {
            return mix(mix(mix(call ? 1 : 0, mode), tool), key);
        }
    }

    /** In {@link #runs}: a run that is none (null); told apart from any run by identity. */
    @SuppressWarnings("StringOperationCanBeSimplified")
    private static final String NO_RUN = new String("no run");

    private final Map<RunAt, String> runs = new HashMap<>();

    /** Per mode: its plain run ({@link #plainRun}). */
    private String[] plainRuns;

    /** Per tool and parameter: 1 where its schema takes a string, -1 where not, 0 not yet known. */
    private byte[][] takesStrings;

    /** Per run after a token (an index in {@link #afterRuns}): the rivals it may end with. */
    private final List<List<TokenDifference.Rivals>> afterEndsOf = new ArrayList<>();

    /** A run after a token ending with some rivals partly read, or with none of them. */
    private record EndingAt(int after, Set<TokenDifference.Rivals> ends, boolean within) {}

    private final Map<EndingAt, String> endings = new HashMap<>();

    /** Per rule: the spellings after which the run below a pop must not go on ({@link #popped}). */
    private PopSplit[] popSplits;

    /** Whether the ids of calls may name tools: no token names a tool itself (null: not known). */
    private Boolean idsName;

    /** The whitespace the parser strips around a name or a parameter's name that a model writes. */
    private static final char[] STRIPPED = {' ', '\t', '\n', '\r'};

    private static final String STRIPPED_TEXT = new String(STRIPPED);

    /** Per name token: whether it reads escapes. */
    private final Map<Integer, Boolean> escapes = new HashMap<>();

    /** Per rule: its tokens spelling each word ({@link #stripped}), once made. */
    private Map<String, String>[] strippedWords;

    /** How many words {@link #strippedWords} holds, over all rules. */
    private int strippedMade;

    /** The classes of the whitespace stripped before or after a word, by its characters. */
    private final Map<String, String> strippedSpaces = new HashMap<>();

    /** Per tool name: the rule of its JSON spellings. */
    private final Map<String, String> jsonNames = new HashMap<>();

    private final List<PopSpelling> popSpellings = new ArrayList<>();
    private final Map<String, String> schemaCache = new HashMap<>();
    private final Map<Set<String>, Integer> notFirsts = new HashMap<>();

    /** The values written by {@link #opening}, by schema's expression and suffix. */
    private final Map<String, String> openings = new HashMap<>();

    private final Map<Integer, Set<String>> notFirstKeys = new HashMap<>();

    /** Whitespace probed around a key: none, each JSON whitespace character, and two. */
    private static final List<String> WHITESPACE = List.of("", " ", "\t", "\n", "\r", " \n");

    private final Map<List<String>, SchemaText> schemaTexts = new HashMap<>();

    /**
     * The texts of schemas inside a tool's parameters that refer to nothing outside them, by the
     * schema's instance: a function of the schema alone, which is written once per build.
     */
    private final Map<JsonElement, SchemaText> partTexts = new IdentityHashMap<>();

    /** The expressions of the schemas this build has written, by schema. */
    private final Map<SchemaText, String> writtenSchemas = new IdentityHashMap<>();

    /** The prefixes the schemas this build has written are named with, by schema. */
    private final Map<SchemaText, String> writtenPrefixes = new IdentityHashMap<>();

    /** The rules defined by {@link #shared}: their names by body. */
    private final Map<String, String> sharedRules = new HashMap<>();

    private record IdAt(int tool, IntervalSet chars) {}

    private final Map<IdAt, String> idCache = new HashMap<>();

    /** Per tool and parameter, the first of its value class (see valueClass). */
    private final Map<Long, Long> valueClasses = new HashMap<>();

    /** The first tool and parameter of each value class, by how the value is written. */
    private final Map<String, Long> firstOfValue = new HashMap<>();

    private final Map<Integer, List<Step>> callSteps = new HashMap<>();
    private final int[] modeOfRule;
    private final ArrayDeque<Summary> work = new ArrayDeque<>();

    /** The returns found for the summary being read. */
    private final Exits found = new Exits();

    private Summary reading;

    /**
     * Each frame's one instance: the productions and what is derived from them hold frames by
     * identity, and index what is derived from a frame by its id.
     */
    private final Map<Nt, Nt> frames;

    /** The frames by id. */
    private final List<Nt> frameList = new ArrayList<>();

    /**
     * The alternatives of the frames and the root: each its number of parts, then its parts (a
     * frame by its id, a text by {@code -1 - } its index in {@link #texts}).
     */
    private int[] pool = new int[1024];

    /** How much of {@link #pool} is used. */
    private int used;

    /** Where each frame's alternatives begin and end in {@link #pool}, by id. */
    private int[] prodStart;

    private int[] prodEnd;

    /** The texts in alternatives. */
    private final List<String> texts = new ArrayList<>();

    /** A rule's alternatives as written, and where each begins and ends in it. */
    private final StringBuilder scratch = new StringBuilder(256);

    private int[] bounds = new int[16];

    /** Each frame's rule name, by id (null until written). */
    private final List<String> names = new ArrayList<>();

    /** The numbers of the runs after a token in the rule names (-1: not named yet). */
    private int[] afterNames = new int[0];

    private int afterNamed;

    /** How many contexts are numbered in the rule names. */
    private int ctxIds;

    /**
     * The frame written for each frame, by id: the first of those that derive the same strings
     * (null until the frames are merged).
     */
    private int[] merged;

    /** The one instance of each context of the build, which holds what the build derives for it. */
    private final Map<Ctx, Ctx> contexts = new HashMap<>();

    /** The contexts outside a call, once a call was made and before. */
    private final Ctx outsideCalled = ctx(false, -1, -1, 0, true);

    private final Ctx outsideNotCalled = ctx(false, -1, -1, 0, false);

    private final List<Nt> pending = new ArrayList<>();

    /** The held arguments' rule by mode (high half) and tool (low half). */
    private final Map<Long, String> heldRules = new HashMap<>();

    private final Map<Integer, StringHeldRules> heldSpellings = new HashMap<>();

    /** The parameter names of tools, one id per list (tools alike share their rules). */
    private final Map<List<String>, Integer> otherKeys = new HashMap<>();

    /** The other keys' expressions by rule and parameter names' id (see {@link #otherKey}). */
    private final Map<Long, String> otherKeyExprs = new HashMap<>();

    /** The key tokens {@link #otherKey} has been asked for, in order. */
    private final List<Integer> otherKeyRules = new ArrayList<>();

    /** Per key token, its {@link KeyGroup} (null: none of two or more). */
    private final Map<Integer, KeyGroup> keyGroups = new HashMap<>();

    /** The rules of {@link #blankedOtherKey} by base, whitespace and names' id. */
    private final Map<List<Object>, String> blankedOtherKeys = new HashMap<>();

    /** Per key token, its base (see {@link #keyBase}; -1: none). */
    private final Map<Integer, Integer> keyBases = new HashMap<>();

    /** The matchers of the other keys that a key group shares, by first token and names' id. */
    private final Map<Long, String> groupOtherKeys = new HashMap<>();

    private final Set<String> heldRuns = new HashSet<>();

    private ConstraintGrammar(
            CompiledFormat format, List<JsonObject> functions, ConstraintOptions options) {
        this.model = format.model();
        this.rules = format.rules();
        this.atn = model.atn;
        this.out = new Gbnf(ModePlan.of(model).rulesMade);
        this.languages = new TokenLanguages(atn, model.ruleNames, out);
        this.difference = TokenDifference.forOneThread(atn);
        for (JsonObject f : functions) tools.add(tool(f));
        String choice = options.toolChoice();
        String lower = choice.toLowerCase(Locale.ROOT);
        if (options.toolChoiceIsKeyword()) {
            noCalls = lower.equals("none");
            requireCall = lower.equals("required");
            for (int i = 0; i < tools.size(); i++) allowedTools.add(i);
        } else {
            noCalls = false;
            requireCall = true;
            int found = -1;
            for (int i = 0; i < tools.size(); i++) if (tools.get(i).name.equals(choice)) found = i;
            if (found < 0)
                throw new ConstraintException(
                        choice,
                        "tool_choice",
                        "tool_choice names " + choice + ", which is not one of the tools");
            allowedTools.add(found);
        }
        this.parallel = options.parallelToolCalls();
        boolean think = options.thinking() != null ? options.thinking() : rules.thinkingDefault();
        this.thinking = think && rules.thinkingMode() > 0;

        this.plan = ModePlan.of(model);
        frames = new HashMap<>(plan.framesMade * 4 / 3 + 1);
        effects = plan.effects;
        roles = plan.roles;
        exprs = new String[model.ruleNames.length];
        resumingEffects = new Effect[model.ruleNames.length];
        @SuppressWarnings("unchecked")
        List<Integer>[][] byRule = new List[model.ruleNames.length][];
        stacks = byRule;
        runSets = plan.runSets;
        earlier.addAll(plan.earlier);
        runRules.addAll(plan.runRules);
        itemRules.addAll(plan.itemRules);
        textRules.addAll(plan.textRules);
        prodStart = new int[plan.framesMade + 1];
        prodEnd = new int[plan.framesMade + 1];
        opaqueCtx = ctx(true, OPAQUE, -1, 0, false);
        opaqueEnd = ctx(false, -1, -1, 0, true);
        opaqueNoEnd = ctx(true, OPAQUE, -1, 0, true);
        dead = new Nt(-1, opaqueCtx, new Exit(false, opaqueCtx, 0, -1, -1), -1);
        register(dead);
        runNames = new String[model.modeNames.length];
        for (int m = 0; m < runNames.length; m++)
            runNames[m] = "run_" + TokenLanguages.sanitize(model.modeNames[m]);
        modeOfRule = new int[model.ruleNames.length];
        for (int m = 0; m < model.modeNames.length; m++)
            for (int r : itemRules.get(m)) modeOfRule[r] = m;
    }

    /**
     * The grammar text for these functions (each a {@code {"name", "parameters"}} object; none: any
     * name and any JSON object).
     *
     * @param lazy start at a call's first marker (for engines that apply the grammar from a trigger
     *     on) instead of at the output's first character
     * @throws ConstraintException when a schema says what the grammar cannot
     */
    public static String build(
            CompiledFormat format,
            List<JsonObject> functions,
            ConstraintOptions options,
            boolean lazy) {
        return new ConstraintGrammar(format, functions, options).grammar(lazy);
    }

    /**
     * The spellings of the markers that begin a call in the default mode (lazy grammar triggers).
     */
    public static List<String> callTriggers(CompiledFormat format) {
        ConstraintGrammar g =
                new ConstraintGrammar(format, List.of(), ConstraintOptions.defaults());
        Set<String> out = new LinkedHashSet<>();
        for (int r : g.itemRules.get(0)) {
            if (g.roles[r] != Role.CALL_BEGIN) continue;
            List<String> lits = g.languages.literals(r);
            if (lits != null) out.addAll(lits);
        }
        return new ArrayList<>(out);
    }

    /**
     * The markers that open and close the reasoning block (the first spelling of each), or nulls
     * when the format has none.
     */
    public static List<String> thinkingTags(CompiledFormat format) {
        ConstraintGrammar g =
                new ConstraintGrammar(format, List.of(), ConstraintOptions.defaults());
        String open = null;
        String close = null;
        int think = -1;
        for (int m = 0; m < g.model.modeNames.length; m++)
            for (int r : g.model.rulesOfMode(m))
                if (g.roles[r] == Role.REASONING && think < 0 && m != 0) think = m;
        if (think > 0) {
            for (int r : g.itemRules.get(0)) {
                Effect e = g.effects[r];
                if ((e.mode == think || e.pushes.contains(think)) && open == null) {
                    List<String> l = g.languages.literals(r);
                    if (l != null && !l.isEmpty()) open = l.get(0);
                }
            }
            for (int r : g.itemRules.get(think)) {
                Effect e = g.effects[r];
                if ((e.pops > 0 || e.mode == 0) && close == null && g.roles[r] != Role.CALL_BEGIN) {
                    List<String> l = g.languages.literals(r);
                    if (l != null && !l.isEmpty()) close = l.get(0);
                }
            }
        }
        List<String> tags = new ArrayList<>();
        tags.add(open);
        tags.add(close);
        return tags;
    }

    /**
     * The same grammar in llguidance's Lark dialect: {@code start: root}, rules in lower case,
     * character classes as regular expressions, the empty string as an empty alternative.
     */
    public static String lark(String gbnf) {
        StringBuilder b = new StringBuilder("start: root\n");
        for (String line : gbnf.split("\n")) {
            int sep = line.indexOf(" ::= ");
            if (sep < 0) continue;
            b.append(line.substring(0, sep).toLowerCase(Locale.ROOT)).append(": ");
            String body = line.substring(sep + 5);
            StringBuilder o = new StringBuilder();
            int i = 0;
            while (i < body.length()) {
                char ch = body.charAt(i);
                if (ch == '"') {
                    int j = i + 1;
                    while (body.charAt(j) != '"') j += body.charAt(j) == '\\' ? 2 : 1;
                    String lit = body.substring(i, j + 1);
                    if (!lit.equals("\"\"")) o.append(lit);
                    i = j + 1;
                } else if (ch == '[') {
                    int j = i + 1;
                    while (body.charAt(j) != ']') j += body.charAt(j) == '\\' ? 2 : 1;
                    o.append('/').append(body, i, j + 1).append('/');
                    i = j + 1;
                } else if (Character.isLetter(ch) || ch == '_') {
                    int j = i;
                    while (j < body.length()
                            && (Character.isLetterOrDigit(body.charAt(j)) || body.charAt(j) == '_'))
                        j++;
                    o.append(body.substring(i, j).toLowerCase(Locale.ROOT));
                    i = j;
                } else {
                    o.append(ch);
                    i++;
                }
            }
            b.append(o).append('\n');
        }
        return b.toString();
    }

    private Tool tool(JsonObject f) {
        String name = f.get("name").getAsString();
        JsonElement params = f.has("parameters") ? f.get("parameters") : new JsonObject();
        // checking the schema builds its rules: where it names its type, the very rules of the
        // tool's JSON arguments
        boolean typed = !params.isJsonObject() || params.getAsJsonObject().has("type");
        SchemaText args = schemaText(name, params, params);
        List<String> keys = new ArrayList<>();
        JsonSchemaRules.Required required = JsonSchemaRules.Required.NONE;
        boolean extra = true;
        if (params.isJsonObject()) {
            JsonObject p = params.getAsJsonObject();
            if (p.has("properties") && p.get("properties").isJsonObject())
                keys.addAll(p.getAsJsonObject("properties").keySet());
            required = JsonSchemaRules.required(p, keys);
            extra =
                    !(p.has("additionalProperties")
                            && p.get("additionalProperties").isJsonPrimitive()
                            && !p.get("additionalProperties").getAsBoolean());
        }
        return new Tool(name, params, keys, required, extra, typed ? args : null);
    }

    /**
     * The rules of the values {@code schema} (inside the tool parameters {@code root}) allows,
     * checked (a schema the grammar cannot express is refused, naming the tool). Equal schemas
     * (tools of the same parameters) give the same rules but for their prefix: they are derived
     * once per build.
     */
    private SchemaText schemaText(String tool, JsonElement root, JsonElement schema) {
        if (schema == root) return schemaText(tool, root, schema, root.toString(), "");
        SchemaText known = partTexts.get(schema);
        if (known != null) return known;
        String part = schema.toString();
        // the root is read only for the references the schema holds
        if (part.contains("\"$ref\"")) return schemaText(tool, root, schema, root.toString(), part);
        SchemaText made = schemaText(tool, root, schema, "", part);
        partTexts.put(schema, made);
        return made;
    }

    /** The rules of {@code schema} by its text and that of the parameters it refers into. */
    private SchemaText schemaText(
            String tool, JsonElement root, JsonElement schema, String refs, String part) {
        return schemaTexts.computeIfAbsent(
                List.of(refs, part),
                k -> {
                    SchemaText known = SCHEMA_TEXTS.get(k);
                    if (known != null) return known;
                    Gbnf made = new Gbnf();
                    JsonSchemaRules rules = new JsonSchemaRules(made, tool, root, SCHEMA_PREFIX);
                    String expr = rules.value(schema);
                    SchemaText text = new SchemaText(expr, made, rules.outer());
                    if (SCHEMA_TEXTS.size() >= MAX_SCHEMA_TEXTS) SCHEMA_TEXTS.clear();
                    SCHEMA_TEXTS.put(k, text);
                    return text;
                });
    }

    /**
     * The token of {@code rule} spelling {@code word}, which the parser reads with the whitespace
     * around it stripped: the word, with before and after it the whitespace characters the token
     * reads there; null where the token cannot spell the word (a parameter named {@code <tag>}
     * where the token reads no {@code <}).
     */
    private String stripped(int rule, String word) {
        if (strippedWords == null) {
            @SuppressWarnings("unchecked")
            Map<String, String>[] byRule = new Map[roles.length];
            strippedWords = byRule;
        }
        Map<String, String> words = strippedWords[rule];
        if (words == null) words = strippedWords[rule] = new HashMap<>();
        String known = words.get(word);
        if (known != null || words.containsKey(word)) return known;
        String made = strippedNew(rule, word);
        words.put(word, made);
        strippedMade++;
        return made;
    }

    private String strippedNew(int rule, String word) {
        StringBuilder before = new StringBuilder();
        StringBuilder after = new StringBuilder();
        long around = difference.around(rule, word, STRIPPED_TEXT);
        if (around == 0 && !difference.matches(rule, word)) return null;
        for (int i = 0; i < STRIPPED.length; i++) {
            if ((around >>> 2 * i & 1) != 0) before.append(STRIPPED[i]);
            if ((around >>> 2 * i + 1 & 1) != 0) after.append(STRIPPED[i]);
        }
        String lit = Gbnf.literal(word);
        if (before.length() == 0 && after.length() == 0) return lit;
        if (before.length() > 0)
            lit =
                    strippedSpaces.computeIfAbsent(before.toString(), ConstraintGrammar::spaces)
                            + " "
                            + lit;
        if (after.length() > 0)
            lit =
                    lit
                            + " "
                            + strippedSpaces.computeIfAbsent(
                                    after.toString(), ConstraintGrammar::spaces);
        return out.define("sw_" + strippedMade, lit);
    }

    /**
     * The spellings of the token of {@code rule} that name none of {@code keys} (with the
     * whitespace around it that the parser strips): null where they are all its spellings.
     */
    private String otherKey(int rule, List<String> keys) {
        // a key token read as another one already is: that one's rules
        for (int r : otherKeyRules) {
            if (r == rule) break;
            if (difference.sameTokens(r, earlier.get(r), rule, earlier.get(rule)))
                return otherKey(r, keys);
        }
        if (!otherKeyRules.contains(rule)) otherKeyRules.add(rule);
        int id = otherKeys.computeIfAbsent(keys, k -> otherKeys.size());
        long key = (long) rule << 32 | id;
        if (otherKeyExprs.containsKey(key)) return otherKeyExprs.get(key);
        String other = baseOtherKey(rule, keys, id);
        if (other == null) other = groupOtherKey(rule, keys, id);
        if (other == null) {
            String base = "xk_" + TokenLanguages.sanitize(model.ruleNames[rule]);
            other =
                    difference.lessWords(
                            out,
                            base + "_" + id,
                            base + "_f",
                            rule,
                            earlier.get(rule),
                            new TokenDifference.Words(lessBlank(rule, keys), STRIPPED_TEXT));
        }
        otherKeyExprs.put(key, other);
        return other;
    }

    /**
     * The names to take away from a key token's spellings: the parameters', and the empty name
     * (whitespace alone, which the parser refuses) where the token reads the same whitespace around
     * it as around the parameters' names (the names are then spelled with the same whitespace), or
     * the tool has none.
     */
    private List<String> lessBlank(int rule, List<String> keys) {
        if (keys.isEmpty()) return List.of("");
        long around = -1L;
        for (String k : keys) around &= difference.around(rule, k, STRIPPED_TEXT);
        if (difference.around(rule, "", STRIPPED_TEXT) != around) return keys;
        List<String> names = new ArrayList<>(keys);
        names.add("");
        return names;
    }

    /**
     * Key tokens that are each the strings of one or more characters of a class, with the same
     * whitespace among those classes (so the same spellings of a name with whitespace around it):
     * the tokens, and the characters all their classes share.
     */
    private record KeyGroup(List<Integer> rules, IntervalSet common) {}

    /**
     * The other keys of {@code rule} as its group's tokens share them: a token of class {@code C},
     * in a group sharing the characters {@code S}, spells a name that is not a parameter's either
     * in characters of {@code S} alone, which is the group's one matcher of the other keys, or with
     * a character of {@code C} outside {@code S}, which no name (nor whitespace around one) holds.
     * Null where the rule is in no group, or a name holds a character outside {@code S}.
     */
    private String groupOtherKey(int rule, List<String> keys, int id) {
        KeyGroup g = keyGroup(rule);
        if (g == null || !spelledIn(keys, g.common)) return null;
        int first = g.rules.get(0);
        long key = (long) first << 32 | id;
        String shared = groupOtherKeys.get(key);
        if (shared == null && !groupOtherKeys.containsKey(key)) {
            String base = "xk_" + TokenLanguages.sanitize(model.ruleNames[first]) + "_s";
            shared =
                    difference.lessWordsOf(
                            out,
                            base + "_" + id,
                            base + "_f",
                            g.common,
                            first,
                            new TokenDifference.Words(lessBlank(first, keys), STRIPPED_TEXT));
            groupOtherKeys.put(key, shared);
        }
        if (shared == null) return null;
        IntervalSet mine = difference.repeatedClass(rule, earlier.get(rule));
        IntervalSet outside = mine.subtract(g.common);
        String name = "xk_" + TokenLanguages.sanitize(model.ruleNames[rule]);
        String beyond = holding(name + "_o", mine, outside);
        if (shared.isEmpty()) return beyond == null ? "" : beyond;
        if (beyond == null) return shared;
        return out.define(name + "_" + id, shared + " | " + beyond);
    }

    /**
     * The other keys of {@code rule}, a token of class {@code C}, through those of a base: another
     * key token of class {@code B} within {@code C} that reads none of the whitespace the parser
     * strips around a name. A string of {@code C} names no parameter where it is one of the base's
     * other keys; or holds a character of {@code C} neither in {@code B} nor stripped, which no
     * name holds; or is of characters of {@code B} and stripped whitespace {@code S} only, holding
     * some of that whitespace, and is not a name with whitespace around it: whitespace between two
     * other characters, or one of the base's other keys with whitespace before or after it
     * (whitespace alone is an empty name, which the parser refuses). Null where the rule has no
     * base, or a name holds a character outside {@code B}.
     */
    private String baseOtherKey(int rule, List<String> keys, int id) {
        int base = keyBase(rule);
        if (base < 0) return null;
        IntervalSet b = difference.repeatedClass(base, earlier.get(base));
        if (!spelledIn(keys, b)) return null;
        String own = otherKey(base, keys);
        if (own == null) return null;
        IntervalSet mine = difference.repeatedClass(rule, earlier.get(rule));
        IntervalSet blanks = mine.and(strippedChars());
        IntervalSet foreign = mine.subtract(b).subtract(blanks);
        String name = "xk_" + TokenLanguages.sanitize(model.ruleNames[rule]);
        List<String> alts = new ArrayList<>();
        if (!own.isEmpty()) alts.add(own);
        if (!foreign.isNil()) alts.add(holding(name + "_e", mine, foreign));
        if (!blanks.isNil()) alts.add(blankedOtherKey(base, blanks, own, id, name));
        if (alts.isEmpty()) return "";
        if (alts.size() == 1) return alts.get(0);
        return out.define(name + "_" + id, String.join(" | ", alts));
    }

    /**
     * The strings of a base's characters and the whitespace {@code blanks} that hold some of that
     * whitespace and are no name with whitespace around it (see {@link #baseOtherKey}), {@code own}
     * the base's other keys: one rule per base, whitespace and names, named after the first token
     * that asks ({@code name}).
     */
    private String blankedOtherKey(int base, IntervalSet blanks, String own, int id, String name) {
        List<Object> key = List.of(base, blanks, id);
        String known = blankedOtherKeys.get(key);
        if (known != null) return known;
        IntervalSet b = difference.repeatedClass(base, earlier.get(base));
        String ws = Gbnf.charClass(blanks);
        String chars = Gbnf.charClass(b);
        // whitespace alone is no name: the parser refuses a parameter of an empty name
        StringBuilder body =
                new StringBuilder(ws)
                        .append("* ")
                        .append(chars)
                        .append("+ ")
                        .append(ws)
                        .append("+ ")
                        .append(chars)
                        .append(' ')
                        .append(Gbnf.charClass(b.or(blanks)))
                        .append('*');
        if (!own.isEmpty())
            body.append(" | ")
                    .append(ws)
                    .append("+ ")
                    .append(own)
                    .append(' ')
                    .append(ws)
                    .append("* | ")
                    .append(own)
                    .append(' ')
                    .append(ws)
                    .append('+');
        String made = out.define(name + "_w_" + id, body.toString());
        blankedOtherKeys.put(key, made);
        return made;
    }

    /**
     * The rule {@code name} of the strings of {@code chars} that hold one of {@code some} (a subset
     * of them), read up to the first of those; null where {@code some} is empty.
     */
    private String holding(String name, IntervalSet chars, IntervalSet some) {
        if (some.isNil()) return null;
        return out.define(
                name,
                Gbnf.charClass(chars.subtract(some))
                        + "* "
                        + Gbnf.charClass(some)
                        + " "
                        + Gbnf.charClass(chars)
                        + "*");
    }

    /** Whether every name is one or more characters, each in {@code chars}. */
    private static boolean spelledIn(List<String> names, IntervalSet chars) {
        for (String w : names) {
            if (w.isEmpty()) return false;
            for (int i = 0; i < w.length(); ) {
                int c = w.codePointAt(i);
                if (!chars.contains(c)) return false;
                i += Character.charCount(c);
            }
        }
        return true;
    }

    /** The characters the parser strips around a name. */
    private static IntervalSet strippedChars() {
        IntervalSet set = new IntervalSet();
        for (char c : STRIPPED) set.add(c);
        return set;
    }

    /**
     * The base of a key token for {@link #baseOtherKey}: the first other key token whose tokens are
     * the strings of a class within the rule's own class, reading no stripped whitespace; -1 where
     * there is none.
     */
    private int keyBase(int rule) {
        Integer known = keyBases.get(rule);
        if (known != null) return known;
        int base = -1;
        IntervalSet mine = difference.repeatedClass(rule, earlier.get(rule));
        IntervalSet blanks = strippedChars();
        for (int q = 0; mine != null && q < roles.length && base < 0; q++) {
            if (q == rule || roles[q] != Role.ARG_KEY) continue;
            IntervalSet c = difference.repeatedClass(q, earlier.get(q));
            if (c != null && !c.equals(mine) && c.and(blanks).isNil() && c.subtract(mine).isNil())
                base = q;
        }
        keyBases.put(rule, base);
        return base;
    }

    private KeyGroup keyGroup(int rule) {
        if (keyGroups.containsKey(rule)) return keyGroups.get(rule);
        KeyGroup group = null;
        IntervalSet mine = difference.repeatedClass(rule, earlier.get(rule));
        if (mine != null) {
            IntervalSet blanks = strippedChars();
            IntervalSet around = mine.and(blanks);
            List<Integer> rules = new ArrayList<>();
            IntervalSet common = mine;
            boolean differ = false;
            for (int q = 0; q < roles.length; q++) {
                if (roles[q] != Role.ARG_KEY) continue;
                IntervalSet c = q == rule ? mine : difference.repeatedClass(q, earlier.get(q));
                if (c == null || !c.and(blanks).equals(around)) continue;
                rules.add(q);
                differ |= !c.equals(mine);
                common = common.and(c);
            }
            // tokens of one class are one language: they share their matcher already
            if (differ && !common.isNil()) group = new KeyGroup(rules, common);
        }
        keyGroups.put(rule, group);
        return group;
    }

    private static String spaces(CharSequence chars) {
        IntervalSet set = new IntervalSet();
        chars.chars().forEach(set::add);
        return Gbnf.charClass(set) + "*";
    }

    /**
     * The token of {@code rule} spelling the JSON string of {@code name}: any spelling that decodes
     * to it where the token reads escapes, else the name as JSON writes it.
     */
    private String jsonName(int rule, String name) {
        if (!escapes.computeIfAbsent(rule, r -> difference.matches(r, "\"\\u0061\"")))
            return Gbnf.literal(Json.write(new JsonPrimitive(name)));
        return jsonNames.computeIfAbsent(
                name, n -> out.define("jn_" + jsonNames.size(), Gbnf.jsonString(n)));
    }

    /** The lexer actions reachable from {@code s} (a rule's commands), in ATN order. */
    static void collectActions(ATN atn, ATNState s, Set<Integer> seen, List<LexerAction> out) {
        if (!seen.add(s.stateNumber)) return;
        for (int i = 0; i < s.getNumberOfTransitions(); i++) {
            Transition t = s.transition(i);
            if (t instanceof ActionTransition at && at.actionIndex >= 0 && atn.lexerActions != null)
                out.add(atn.lexerActions[at.actionIndex]);
            if (t instanceof RuleTransition rt) collectActions(atn, rt.followState, seen, out);
            else collectActions(atn, t.target, seen, out);
        }
    }

    // ---- contexts ------------------------------------------------------------------------------

    private Ctx outside(boolean called) {
        return called ? outsideCalled : outsideNotCalled;
    }

    private boolean maskComplete(Ctx c) {
        if (!c.call) return true;
        if (c.mask <= DEFERRED_OTHER)
            throw new IllegalStateException("a deferred required state is read");
        if (plan.jsonArgs) return c.mask == 1 || !plan.argsTracked;
        if (c.tool < 0) return true;
        return c.mask == tools.get(c.tool).required.full();
    }

    /**
     * The mask a call of the tool begins with: for JSON arguments, set (1) where the call may write
     * none, that is, the tool requires nothing (or any tool may be called).
     */
    private int maskAtBegin(int tool) {
        if (!plan.jsonArgs || !plan.argsTracked) return 0;
        return tool < 0 || tools.get(tool).required.isEmpty() ? 1 : 0;
    }

    /**
     * The context of a call whose JSON arguments have been written: for key/value arguments, with
     * every required parameter set (the object's schema requires them).
     */
    private Ctx argsWritten(Ctx c) {
        if (!c.call) return c;
        if (plan.jsonArgs) return plan.argsTracked ? ctx(true, c.tool, c.key, 1, c.called) : c;
        if (c.tool < 0) return c;
        return ctx(true, c.tool, c.key, tools.get(c.tool).required.full(), c.called);
    }

    /**
     * Whether a token that pops its frame and pushes one is the opening brace of a JSON object read
     * in the pushed frame to its end: the object is then all that is left of the frame.
     */
    private boolean replacesWithObject(int rule) {
        Effect e = effects[rule];
        return e.pops == 1
                && e.mode < 0
                && e.pushes.size() == 1
                && List.of("{").equals(languages.literals(rule));
    }

    /** Whether a swallowed value ends its frame: the token pushes nothing else after it. */
    private static boolean swallowEnds(Effect e) {
        return e.pushes.isEmpty() || e.pops == 1 && e.mode < 0 && e.pushes.size() == 1;
    }

    /** A call in the default mode of a format whose calls end implicitly has ended. */
    private Ctx normalize(int mode, Ctx c) {
        if (rules.implicitCallEnd() && mode == 0 && c.call) {
            if (!maskComplete(c)) return null;
            return outside(true);
        }
        return c;
    }

    private boolean eofOk(Ctx c) {
        return !c.call && (!requireCall || c.called);
    }

    /**
     * The tokens the rule produces: its language, less what an earlier rule of its mode matches
     * (the lexer gives a tie to the rule listed first); the empty string when nothing is left.
     */
    private String expr(int rule) {
        if (exprs[rule] == null) exprs[rule] = plan.expr(rule, out);
        return exprs[rule];
    }

    /** The steps of each rule in a context, each made when first asked (by {@link #steps}). */
    private List<Step>[] stepsIn(Ctx c) {
        if (c.steps == null) {
            @SuppressWarnings("unchecked")
            List<Step>[] known = new List[roles.length];
            c.steps = known;
        }
        return c.steps;
    }

    /** The steps of a rule in the context whose steps are {@code known}. */
    private List<Step> steps(List<Step>[] known, Ctx c, int rule) {
        if (known[rule] == null) known[rule] = stepsNew(c, rule);
        return known[rule];
    }

    /** The build's one instance of the context. */
    private Ctx ctx(boolean call, int tool, int key, int mask, boolean called) {
        Ctx c = new Ctx(call, tool, key, mask, called);
        Ctx known = contexts.putIfAbsent(c, c);
        return known != null ? known : c;
    }

    private List<Step> stepsNew(Ctx c, int rule) {
        Role role = roles[rule];
        List<Step> out = new ArrayList<>();
        Effect e = effects[rule];
        if (expr(rule).isEmpty()) return out;
        // an empty raw value is the string "", which a parameter taking no string cannot hold
        if (plan.endsEmptyValue[rule]
                && c.call
                && c.key >= 0
                && (c.tool == KEYED
                        ? (c.key & KEY_STRING) == 0
                        : c.tool >= 0 && !takesString(c.tool, c.key))) return out;
        switch (role) {
            case CALL_BEGIN -> {
                if (noCalls || (c.called && !parallel)) return out;
                if (c.call && !maskComplete(c)) return out;
                if (tools.isEmpty())
                    out.add(new Step(ctx(true, -1, -1, maskAtBegin(-1), true), expr(rule), false));
                for (int t : allowedTools)
                    out.add(new Step(ctx(true, t, -1, maskAtBegin(t), true), expr(rule), false));
                if (out.size() > 1 && e.pops == 0) {
                    // the calls a mode may begin are the same wherever they may begin: one rule
                    callSteps.put(rule, List.copyOf(out));
                    return List.of(new Step(ctx(false, CALLS, rule, 0, false), expr(rule), false));
                }
            }
            case CALL_END -> {
                if (!c.call) out.add(new Step(c, expr(rule), false));
                else if (maskComplete(c)) out.add(new Step(outside(c.called), expr(rule), false));
            }
            case NAME, NAME_JSON -> {
                if (c.call && c.tool >= 0) {
                    String n = tools.get(c.tool).name;
                    String spelled = role == Role.NAME ? stripped(rule, n) : jsonName(rule, n);
                    // a name the token cannot spell is not written in this format
                    if (spelled != null) out.add(new Step(c, spelled, false));
                } else out.add(new Step(c, expr(rule), false));
            }
            case ARG_KEY -> {
                if (c.call && c.tool >= 0) {
                    Tool t = tools.get(c.tool);
                    // the parameter's frames up to a mode that reads the required state are the
                    // same for every state: they are made once, and the state is set after them
                    boolean defer =
                            !t.required.isEmpty()
                                    && e.pops == 0
                                    && e.pushes.isEmpty()
                                    && e.mode >= 0
                                    && plan.deferrable[e.mode];
                    for (int k = 0; k < t.keys.size(); k++) {
                        int mask = defer ? deferredKey(k) : t.required.next(c.mask, t.keys.get(k));
                        String spelled = stripped(rule, t.keys.get(k));
                        if (spelled != null)
                            out.add(new Step(ctx(true, c.tool, k, mask, c.called), spelled, false));
                    }
                    if (t.extraKeys) {
                        // a parameter's own name is that parameter, typed by it
                        String other = otherKey(rule, t.keys);
                        if (other == null) other = expr(rule);
                        int mask = defer ? DEFERRED_OTHER : c.mask;
                        if (!other.isEmpty())
                            out.add(new Step(ctx(true, c.tool, -2, mask, c.called), other, false));
                    }
                } else
                    out.add(new Step(ctx(c.call, c.tool, -2, c.mask, c.called), expr(rule), false));
            }
            case ARGS_JSON -> {
                // a token that begins the JSON value its new frame reads to the end (the frame
                // pops after it), or, where it opens the object in place of the call's frame, the
                // object
                boolean enters =
                        e.pops == 0 ? e.mode >= 0 || !e.pushes.isEmpty() : replacesWithObject(rule);
                if (c.call && enters && (plan.jsonArgs || c.tool >= 0))
                    out.add(new Step(argsWritten(c), schema(c.tool, notFirst(rule)), true));
                else out.add(new Step(argsWritten(c), expr(rule), false));
            }
            case ARG_AS_STRING -> {
                // the value is then a string, which a parameter whose schema names no string
                // type cannot hold
                if (c.tool == KEYED && c.key >= 0) {
                    if ((c.key & KEY_STRING) != 0)
                        out.add(new Step(withKey(c, c.key & ~KEY_JSON), expr(rule), false));
                } else if (!c.call || c.tool < 0 || c.key < 0)
                    out.add(new Step(c, expr(rule), false));
                else if (takesString(c.tool, c.key))
                    out.add(new Step(withKey(c, keyOf(c.tool, c.key)), expr(rule), false));
            }
            case ARG_AS_JSON -> {
                // the value is then JSON where it is JSON, else a string: typed as such
                if (c.tool == KEYED && c.key >= 0)
                    out.add(new Step(withKey(c, c.key | KEY_JSON), expr(rule), false));
                else if (!c.call || c.tool < 0 || c.key < 0)
                    out.add(new Step(c, expr(rule), false));
                else {
                    int k = keyOf(c.tool, c.key) + tools.get(c.tool).keys.size();
                    out.add(new Step(withKey(c, k), expr(rule), false));
                }
            }
            case ID -> {
                IntervalSet chars = runSets[rule] != null ? runSets[rule] : ANY;
                String named = idName(c, chars);
                out.add(new Step(c, named != null ? named : expr(rule), false));
            }
            default -> {
                // the token that ends a string holding the arguments
                int m = modeOfRule[rule];
                boolean held = plan.heldMode[m] && !plan.stays(m, rule);
                Ctx next = held ? argsWritten(c) : c;
                // the end of a value: a value after it, before another name, has no parameter
                if (role == Role.ARG_END && next.call && (next.tool > OPAQUE || next.tool == KEYED))
                    next = withKey(next, -1);
                out.add(new Step(next, expr(rule), false));
            }
        }
        return out;
    }

    // ---- what the tools allow ------------------------------------------------------------------

    private String schema(int tool, Set<String> notFirst) {
        return schemaCache.computeIfAbsent(
                tool + " " + notFirst,
                k -> {
                    if (tool < 0) {
                        JsonSchemaRules.defineGeneric(out);
                        return "json_object";
                    }
                    Tool tl = tools.get(tool);
                    String name = "args_" + tool;
                    String prefix = "a" + tool;
                    if (!notFirst.isEmpty())
                        name += "_n" + notFirsts.computeIfAbsent(notFirst, x -> notFirsts.size());
                    JsonElement p = tl.parameters;
                    if (tl.args == null && p.isJsonObject() && !p.getAsJsonObject().has("type"))
                        p.getAsJsonObject().addProperty("type", "object");
                    SchemaText args = tl.args != null ? tl.args : schemaText(tl.name, p, p);
                    String expr = written(args, prefix);
                    if (notFirst.isEmpty() || args.outer() == null) return shared(name, expr);
                    return shared(name, opening(tl.name, args, notFirst));
                });
    }

    /**
     * The schema's value (written) whose outermost object does not begin with a key of {@code
     * notFirst}: the rules of the schema but the object's beginning, which is written anew once per
     * schema and set of keys.
     */
    private String opening(String tool, SchemaText schema, Set<String> notFirst) {
        String written = writtenSchemas.get(schema);
        String suffix = "_n" + notFirsts.computeIfAbsent(notFirst, x -> notFirsts.size());
        return openings.computeIfAbsent(
                written + " " + suffix,
                k ->
                        schema.openings
                                .computeIfAbsent(
                                        notFirst + suffix,
                                        x -> {
                                            Gbnf made = new Gbnf();
                                            String expr =
                                                    new JsonSchemaRules(
                                                                    made, tool, null, SCHEMA_PREFIX)
                                                            .opening(
                                                                    schema.outer(),
                                                                    notFirst,
                                                                    suffix);
                                            return new SchemaText(expr, made, null);
                                        })
                                .define(out, writtenPrefixes.get(schema)));
    }

    /**
     * The schema's rules, named with {@code prefix} where this build has not written them yet, else
     * as written first (tools of equal schemas share their rules); the expression.
     */
    private String written(SchemaText schema, String prefix) {
        String known = writtenSchemas.get(schema);
        if (known != null) return known;
        String expr = schema.define(out, prefix);
        writtenSchemas.put(schema, expr);
        writtenPrefixes.put(schema, prefix);
        return expr;
    }

    /**
     * A rule of {@code body}, named {@code name} unless a rule of the same body was defined here
     * before under another name, which is then returned: rules alike are written once.
     */
    private String shared(String name, String body) {
        String known = sharedRules.putIfAbsent(body, name);
        if (known != null) return known;
        return out.define(name, body);
    }

    /**
     * The keys a JSON object opened by the one-character token {@code rule} may not begin with: a
     * longer token of its mode reads the object's beginning up to such a key's colon (whatever the
     * whitespace around the key), so the lexer never gives that object to {@code rule}.
     */
    private Set<String> notFirst(int rule) {
        return notFirstKeys.computeIfAbsent(rule, this::notFirstNew);
    }

    private Set<String> notFirstNew(int rule) {
        if (!List.of("{").equals(languages.literals(rule))) return Set.of();
        Set<String> keys = new TreeSet<>();
        int mode = modeOfRule[rule];
        for (int r = 0; r < roles.length; r++) {
            if (r == rule || modeOfRule[r] != mode) continue;
            for (String k : difference.keysAfter(r, "{")) {
                boolean all = true;
                for (String before : WHITESPACE)
                    for (String after : WHITESPACE)
                        all &= difference.matches(r, "{" + before + '"' + k + '"' + after + ":");
                if (all) keys.add(k);
            }
        }
        return keys;
    }

    /**
     * The parameter of a context's key: keys from the number of the tool's parameters on are those
     * of a value the text says is JSON ({@code arg.as-json}), the parameter's index after them.
     */
    private int keyOf(int tool, int key) {
        int n = tools.get(tool).keys.size();
        return key >= n ? key - n : key;
    }

    private Ctx withKey(Ctx c, int key) {
        return key == c.key ? c : ctx(c.call, c.tool, key, c.mask, c.called);
    }

    /**
     * The mask of a context whose required state is deferred after the parameter {@code key}, and
     * back (the map is its own inverse).
     */
    private static int deferredKey(int key) {
        return DEFERRED_OTHER - 1 - key;
    }

    /**
     * The context {@code d} (whose required state is deferred) once that state, {@code mask} when
     * its parameter's name was read, is set by that parameter.
     */
    private Ctx resumed(Ctx d, int mask) {
        if (mask < RESUMED_KEPT) {
            if (d.resumed == null) d.resumed = new Ctx[RESUMED_KEPT];
            Ctx known = d.resumed[mask];
            if (known == null) known = d.resumed[mask] = resumedNew(d, mask);
            return known;
        }
        return resumedNew(d, mask);
    }

    private Ctx resumedNew(Ctx d, int mask) {
        int state = mask;
        if (d.mask != DEFERRED_OTHER) {
            Tool t = tools.get(d.tool);
            // the inverse of deferredKey
            state = t.required.next(mask, t.keys.get(deferredKey(d.mask)));
        }
        return ctx(true, d.tool, d.key, state, d.called);
    }

    /**
     * The context the frames of {@code mode} deferred in {@code d} are made in: where they read the
     * tool and parameter only by whether it takes a string and is read as JSON, the {@link #KEYED}
     * context of these (one for every tool and parameter alike), else {@code d}.
     */
    private Ctx keyed(int mode, Ctx d) {
        if (!plan.keyed[mode]) return d;
        if (d.keyed != null) return d.keyed;
        int key =
                d.key < 0
                        ? d.key
                        : (takesString(d.tool, d.key) ? KEY_STRING : 0)
                                | (d.key >= tools.get(d.tool).keys.size() ? KEY_JSON : 0);
        return d.keyed = ctx(true, KEYED, key, DEFERRED_OTHER, d.called);
    }

    /**
     * The context a frame deferred in {@code d} and made in {@link #keyed} context ends in, where
     * it ends as {@code x}: {@code d} with the parameter {@code x} leaves, without the fields left
     * unread after it (as {@link #exit} leaves them).
     */
    private Ctx unkeyed(Ctx d, Exit x) {
        Ctx k = x.ctx;
        if (k.tool != KEYED) return k;
        // the keys a keyed context holds: -2, -1, and KEY_STRING | KEY_JSON
        int at = (k.key + 2) * model.modeNames.length + x.mode;
        if (d.unkeyed == null)
            d.unkeyed = new Ctx[(KEY_STRING + KEY_JSON + 3) * model.modeNames.length];
        if (d.unkeyed[at] != null) return d.unkeyed[at];
        int key = k.key;
        if (key >= 0)
            key =
                    keyOf(d.tool, d.key)
                            + ((key & KEY_JSON) != 0 ? tools.get(d.tool).keys.size() : 0);
        return d.unkeyed[at] =
                strip(
                        ctx(true, d.tool, key, d.mask, d.called),
                        plan.live(x.mode, rules.implicitCallEnd()));
    }

    /**
     * What a token of {@code rule} does in a frame of {@code mode} in context {@code c}: in a frame
     * whose required state is deferred, a token leading to a mode that reads it ends the frame as a
     * pop setting the mode of the frame it resumes in.
     */
    private Effect effectIn(int mode, Ctx c, int rule) {
        Effect e = effects[rule];
        if (c.mask > DEFERRED_OTHER
                || e.pops > 0
                || !e.pushes.isEmpty()
                || e.mode < 0
                || plan.deferrable[e.mode]) return e;
        Effect pop = resumingEffects[rule];
        if (pop == null) pop = resumingEffects[rule] = new Effect(1, e.mode, List.of(), e.command);
        return pop;
    }

    /** A raw value typed by its parameter's schema; null when any text is a value. */
    private String typedValue(int tool, int key) {
        if (tool < 0 || key < 0) return null;
        // spread: a Long hashes as its halves' exclusive or, the same for many tools and keys
        long k = ((long) tool << 32 | key) * 0x9E3779B97F4A7C15L;
        String known = typedValues.get(k);
        if (known != null || typedValues.containsKey(k)) return known;
        String typed = typedValueNew(tool, key);
        typedValues.put(k, typed);
        return typed;
    }

    private String typedValueNew(int tool, int key) {
        if (key >= tools.get(tool).keys.size()) return jsonValue(tool, keyOf(tool, key));
        Tool t = tools.get(tool);
        JsonElement prop =
                t.parameters.getAsJsonObject().getAsJsonObject("properties").get(t.keys.get(key));
        String name = "v_" + tool + "_" + key;
        if (out.has(name)) return name;
        if (!plan.valuesWhole) return null;
        Set<SchemaTypes.Type> types = SchemaTypes.of(prop);
        // a value typed as a string alone is read as one: where the schema allows a few strings
        // (a branch that names no type among them, such as a const, included), those strings
        JsonArray words = types.equals(EnumSet.of(SchemaTypes.Type.STRING)) ? words(prop) : null;
        if (words != null) {
            List<String> alts = new ArrayList<>();
            for (JsonElement v : words) alts.add(Gbnf.literal(v.getAsString()));
            return shared(name, "[ \\t\\r\\n]* (" + String.join(" | ", alts) + ") [ \\t\\r\\n]*");
        }
        // typed but for branches of one string each ("const": "x"): those strings besides
        List<String> strings = new ArrayList<>();
        if (!jsonSchemaTypes(prop, 0, strings)) return null;
        if (types.isEmpty() || types.contains(SchemaTypes.Type.STRING)) return null;
        JsonSchemaRules.defineGeneric(out);
        List<String> alts = new ArrayList<>();
        // a string the parser reads as a value of the types is not that string: left out
        for (String w : strings)
            if (SchemaTypes.convert(w, types).startsWith("\"")) alts.add(Gbnf.literal(w));
        // read as JSON where it is an object or an array the schema names: its branches of other
        // types are read as a string, which they do not allow
        Set<SchemaTypes.Type> json = EnumSet.copyOf(types);
        json.retainAll(EnumSet.of(SchemaTypes.Type.OBJECT, SchemaTypes.Type.ARRAY));
        JsonElement these = json.isEmpty() ? null : JsonSchemaRules.ofTypes(prop, json);
        String jsonAlt =
                these == null
                        ? null
                        : written(schemaText(t.name, t.parameters, these), "k" + tool + "_" + key);
        for (SchemaTypes.Type ty : types) {
            switch (ty) {
                case NULL -> alts.add("\"null\"");
                case INTEGER -> alts.add("[-+]? [0-9]+");
                case NUMBER ->
                        alts.add(
                                "[-+]? ( [0-9]+ ( \".\" [0-9]* )? | \".\" [0-9]+ ) ( [eE] [-+]? [0-9]+ )?");
                case BOOLEAN ->
                        alts.add("[tT] [rR] [uU] [eE] | [fF] [aA] [lL] [sS] [eE] | \"1\" | \"0\"");
                case OBJECT, ARRAY -> {
                    if (jsonAlt != null) alts.add(jsonAlt);
                }
                default -> {}
            }
        }
        return shared(
                name,
                "[ \\t\\r\\n]* ("
                        + String.join(" | ", new LinkedHashSet<>(alts))
                        + ") [ \\t\\r\\n]*");
    }

    /**
     * The strings a string parameter's schema allows, its {@code enum} or {@code const}, in it, in
     * an {@code allOf} of one branch, or in every branch of an {@code anyOf} or {@code oneOf}
     * (their union), as deep as such branches go; null where it names none.
     */
    private static JsonArray words(JsonElement prop) {
        return words(prop, 0);
    }

    /** The strings of {@code values}. */
    private static JsonArray strings(JsonArray values) {
        JsonArray out = new JsonArray();
        for (JsonElement v : values)
            if (v.isJsonPrimitive() && v.getAsJsonPrimitive().isString()) out.add(v);
        return out;
    }

    private static JsonArray words(JsonElement at, int depth) {
        if (at == null || !at.isJsonObject() || depth >= 16) return null;
        JsonObject p = at.getAsJsonObject();
        // a value read as a string is none of the other JSON values listed
        if (p.has("enum") && p.get("enum").isJsonArray()) return strings(p.getAsJsonArray("enum"));
        if (p.has("const")) {
            JsonArray one = new JsonArray();
            one.add(p.get("const"));
            return strings(one);
        }
        JsonElement all = p.get("allOf");
        if (all != null && all.isJsonArray() && all.getAsJsonArray().size() == 1)
            return words(all.getAsJsonArray().get(0), depth + 1);
        for (String union : List.of("anyOf", "oneOf")) {
            JsonElement branches = p.get(union);
            if (branches == null || !branches.isJsonArray() || branches.getAsJsonArray().isEmpty())
                continue;
            // a value of any branch: the union of their strings (a oneOf's value in two branches
            // is refused by the schema and written here: more than the schema allows, never less)
            JsonArray out = new JsonArray();
            for (JsonElement b : branches.getAsJsonArray()) {
                JsonArray some = words(b, depth + 1);
                if (some == null) return null;
                for (JsonElement w : some) if (!out.contains(w)) out.add(w);
            }
            return out;
        }
        return null;
    }

    /**
     * A raw value the text says is JSON ({@code arg.as-json}), typed as the parser reads it: the
     * JSON of the parameter's schema with the blanks {@code strip()} takes around it, or, of an
     * {@code enum} or {@code const} that takes a string, one of its strings that is not JSON; null
     * when any text is a value (a schema that takes any string).
     */
    private String jsonValue(int tool, int key) {
        Tool t = tools.get(tool);
        JsonElement prop =
                t.parameters.getAsJsonObject().getAsJsonObject("properties").get(t.keys.get(key));
        if (!jsonSchemaTypes(prop) || !plan.valuesWhole) return null;
        Set<SchemaTypes.Type> types = SchemaTypes.of(prop);
        if (types.isEmpty()) return null;
        JsonArray words = new JsonArray();
        if (types.contains(SchemaTypes.Type.STRING)) {
            JsonObject p = prop.getAsJsonObject();
            if (p.has("enum") && p.get("enum").isJsonArray()) words = p.getAsJsonArray("enum");
            else if (p.has("const")) words.add(p.get("const"));
            // any text that is not JSON is a string: the value mode's run (text that no marker
            // ends), since text that stops being JSON may go on over the marker that ends it
            if (words.isEmpty()) return null;
        }
        String blanks = stripBlanks();
        List<String> alts = new ArrayList<>();
        alts.add(
                blanks
                        + " "
                        + written(schemaText(t.name, t.parameters, prop), "k" + tool + "_" + key)
                        + " "
                        + blanks);
        for (JsonElement w : words)
            if (w.isJsonPrimitive() && w.getAsJsonPrimitive().isString() && !isJson(w))
                alts.add(Gbnf.literal(w.getAsString()));
        return shared("vj_" + tool + "_" + key, String.join(" | ", alts));
    }

    /**
     * A raw value the text says is JSON ({@code arg.as-json}) of a parameter that takes any string,
     * typed as the parser reads it: the JSON of the parameter's schema with the blanks {@code
     * strip()} takes around it, or text of the value's run that is not, stripped, JSON of another
     * type (nested at most {@link #NOT_JSON_DEPTH} levels; deeper JSON is taken as text); null
     * where the value is not such a parameter's, or the run's automaton is too large (then any text
     * of the run).
     */
    private String stringJsonValue(int mode, int tool, int key) {
        if (tool < 0 || key < tools.get(tool).keys.size()) return null;
        key = keyOf(tool, key);
        Tool t = tools.get(tool);
        JsonElement prop =
                t.parameters.getAsJsonObject().getAsJsonObject("properties").get(t.keys.get(key));
        if (!jsonSchemaTypes(prop) || !plan.valuesWhole) return null;
        Set<SchemaTypes.Type> types = SchemaTypes.of(prop);
        if (!types.contains(SchemaTypes.Type.STRING)) return null;
        // a value read in many states of the required parameters written is left the run: each
        // state refers to the value's rules, which web-xgrammar 0.1.27 then cannot hold in memory
        if (t.required.full() >= MAX_NOT_JSON_STATES) return null;
        String text =
                notJsonRuns.computeIfAbsent(
                        mode,
                        m -> {
                            String base = plainRun(m);
                            String run = avoidedRuns.containsKey(base) ? base : base + "_d";
                            return difference.avoidNotJson(
                                    out,
                                    "nj" + m,
                                    run,
                                    plan.runChars[m],
                                    textRules.get(m),
                                    itemRules.get(m),
                                    NOT_JSON_DEPTH);
                        });
        if (text == null) return null;
        // a plain string's JSON is a JSON string, which the text takes already
        JsonObject p = prop.getAsJsonObject();
        if (p.has("type")
                && p.get("type").isJsonPrimitive()
                && p.get("type").getAsString().equals("string")
                && PLAIN_STRING.containsAll(p.keySet())) return text;
        String name = "vs_" + mode + "_" + tool + "_" + key;
        if (out.has(name)) return name;
        String blanks = stripBlanks();
        String json = written(schemaText(t.name, t.parameters, prop), "k" + tool + "_" + key);
        return out.define(name, blanks + " " + json + " " + blanks + " | " + text);
    }

    /**
     * The rule of the blanks {@code strip()} takes from around a raw value read as JSON, defined
     * once: every such value is written between two of them.
     */
    private String stripBlanks() {
        return shared("json_strip", Gbnf.charClass(JsonSchemaRules.STRIPPED) + "*");
    }

    /** Whether the string, its blanks stripped, is JSON (the parser then reads it as JSON). */
    private static boolean isJson(JsonElement w) {
        try {
            Json.check(w.getAsString().strip());
            return true;
        } catch (Json.NotJson e) {
            return false;
        }
    }

    /** Whether the parameter's schema allows a string (or does not say its type). */
    private boolean takesString(int tool, int key) {
        key = keyOf(tool, key);
        if (takesStrings == null) takesStrings = new byte[tools.size()][];
        byte[] known = takesStrings[tool];
        if (known == null) known = takesStrings[tool] = new byte[tools.get(tool).keys.size()];
        if (known[key] == 0) known[key] = takesStringNew(tool, key) ? (byte) 1 : (byte) -1;
        return known[key] > 0;
    }

    private boolean takesStringNew(int tool, int key) {
        Tool t = tools.get(tool);
        JsonElement prop =
                t.parameters.getAsJsonObject().getAsJsonObject("properties").get(t.keys.get(key));
        if (!jsonSchemaTypes(prop)) return true;
        Set<SchemaTypes.Type> types = SchemaTypes.of(prop);
        return types.isEmpty() || types.contains(SchemaTypes.Type.STRING);
    }

    /**
     * Whether every {@code type} the property names (in it, in its {@code anyOf} / {@code oneOf}
     * branches, and in its {@code allOf} branches' own) is one of JSON Schema's, and every such
     * {@code anyOf} / {@code oneOf} branch names one: the parser reads other names ({@code int64})
     * as aliases and keeps a value that fails them as a string, and a branch that names no type (a
     * {@code $ref}, a {@code const}, any value) takes any value, which the parser keeps as its
     * text; such a value is left untyped.
     */
    private static boolean jsonSchemaTypes(JsonElement prop) {
        return jsonSchemaTypes(prop, 0, null);
    }

    /**
     * The string of a branch that is one string ({@code "const": "x"}, alone or with {@link
     * #ANNOTATIONS}); null for any other branch.
     */
    private static String oneString(JsonElement branch) {
        if (!branch.isJsonObject()) return null;
        JsonObject b = branch.getAsJsonObject();
        JsonElement c = b.get("const");
        return c != null
                        && c.isJsonPrimitive()
                        && c.getAsJsonPrimitive().isString()
                        && constraints(b) == 1
                ? c.getAsString()
                : null;
    }

    private static Set<String> union(Set<String> a, Set<String> b) {
        Set<String> out = new HashSet<>(a);
        out.addAll(b);
        return Set.copyOf(out);
    }

    /**
     * The number of keys of a schema that say what its values may be (not {@link #ANNOTATIONS}).
     */
    private static int constraints(JsonObject schema) {
        int n = 0;
        for (String k : schema.keySet()) if (!ANNOTATIONS.contains(k)) n++;
        return n;
    }

    /**
     * Whether a branch names no type the parser reads and may take a value the parser keeps as
     * text: any branch but one that lists only values other than strings ({@code "const": 58}),
     * which a value read by the parameter's other types or kept as a string never is unless those
     * types take it.
     */
    private static boolean takesAnyValue(JsonElement branch) {
        if (!SchemaTypes.of(branch).isEmpty()) return false;
        if (!branch.isJsonObject()) return true;
        JsonObject b = branch.getAsJsonObject();
        JsonElement listed = b.has("const") ? b.get("const") : null;
        if (listed == null || constraints(b) != 1) return true;
        return listed.isJsonPrimitive() && listed.getAsJsonPrimitive().isString();
    }

    /**
     * {@link #jsonSchemaTypes(JsonElement)}, but where {@code strings} is not null, a branch that
     * is one string ({@link #oneString}) is taken too, and its string added to them.
     */
    private static boolean jsonSchemaTypes(JsonElement prop, int depth, List<String> strings) {
        if (prop == null || !prop.isJsonObject()) return true;
        // deeper than the parser reads types: left untyped
        if (depth > 16) return false;
        JsonObject p = prop.getAsJsonObject();
        JsonElement t = p.get("type");
        if (t != null && t.isJsonPrimitive() && !JSON_TYPES.contains(t.getAsString())) return false;
        if (t != null && t.isJsonArray())
            for (JsonElement e : t.getAsJsonArray())
                if (!e.isJsonPrimitive() || !JSON_TYPES.contains(e.getAsString())) return false;
        for (String k : List.of("anyOf", "oneOf"))
            if (p.has(k) && p.get(k).isJsonArray())
                for (JsonElement b : p.getAsJsonArray(k)) {
                    if (!jsonSchemaTypes(b, depth + 1, strings)) return false;
                    if (!takesAnyValue(b)) continue;
                    String one = strings == null ? null : oneString(b);
                    if (one == null) return false;
                    if (!strings.contains(one)) strings.add(one);
                }
        // a branch of an allOf holds what its own branches allow (one of them may take any value)
        if (p.has("allOf") && p.get("allOf").isJsonArray())
            for (JsonElement b : p.getAsJsonArray("allOf"))
                if (!jsonSchemaTypes(b, depth + 1, strings)) return false;
        return true;
    }

    /**
     * The ids that name the call's tool, where the format reads names only from ids; null where any
     * id is allowed.
     */
    private String idName(Ctx c, IntervalSet chars) {
        if (!c.call || c.tool < 0 || rules.nameFromId() == null) return null;
        if (idsName == null) {
            boolean named = true;
            for (Role r : roles) named &= r != Role.NAME && r != Role.NAME_JSON;
            idsName = named;
        }
        if (!idsName) return null;
        return idCache.computeIfAbsent(
                new IdAt(c.tool, chars),
                k -> {
                    String e =
                            IdNames.expr(
                                    rules.nameFromId().pattern(), tools.get(c.tool).name, chars);
                    return e == null ? null : out.define("id_" + idCache.size(), e);
                });
    }

    /** The run of a mode in a context: text without the mode's markers, or what replaces it. */
    private String run(int mode, Ctx c) {
        RunAt at = new RunAt(mode, c.call, c.tool, c.key);
        String known = runs.get(at);
        if (known != null) return known == NO_RUN ? null : known;
        String made = runNew(mode, c);
        runs.put(at, made == null ? NO_RUN : made);
        return made;
    }

    private String runNew(int mode, Ctx c) {
        List<Integer> run = runRules.get(mode);
        List<Integer> texts = textRules.get(mode);
        if (run.isEmpty() && texts.isEmpty()) return null;
        if (c.call && plan.heldMode[mode]) {
            String h = held(mode, c.tool);
            if (h != null) return h;
        }
        if (plan.argsRun[mode] && c.call && plan.jsonArgs) return schema(c.tool, Set.of()) + "?";
        if (plan.valueRun[mode] && c.call) {
            // a value read where no parameter is named has none to go to: the parser refuses it
            if (c.key == -1 && c.tool > OPAQUE) return "\"\"";
            String typed = typedValue(c.tool, c.key);
            if (typed == null) typed = stringJsonValue(mode, c.tool, c.key);
            if (typed != null) return typed;
        }
        if (plan.idRun[mode]) {
            String named = idName(c, plan.runChars[mode]);
            if (named != null) return named;
        }
        return plainRun(mode);
    }

    /** The run of a mode: text without the mode's markers. */
    private String plainRun(int mode) {
        if (plainRuns == null) plainRuns = new String[runNames.length];
        String known = plainRuns[mode];
        return known != null ? known : (plainRuns[mode] = plainRunNew(mode));
    }

    private String plainRunNew(int mode) {
        List<Integer> texts = textRules.get(mode);
        String name = runNames[mode];
        return runCache.computeIfAbsent(
                name,
                k -> {
                    IntervalSet chars = plan.runChars[mode];
                    List<String> markers = new ArrayList<>();
                    boolean patterns = false;
                    for (int r : itemRules.get(mode)) {
                        List<String> lits = languages.literals(r);
                        if (lits != null) markers.addAll(lits);
                        else patterns = true;
                    }
                    if (patterns || !texts.isEmpty()) {
                        String avoided =
                                difference.avoid(out, name, chars, texts, itemRules.get(mode));
                        if (avoided != null) {
                            avoidedRuns.put(avoided, mode);
                            return avoided;
                        }
                    }
                    return AvoidRun.define(out, name, chars, markers);
                });
    }

    /**
     * The tool's JSON arguments (any object without tools) as a held mode's string holds them: the
     * object, with whitespace around it, each character spelled as the mode's tokens read it; the
     * empty string too where the tool requires nothing (the parser reads it as no arguments). Null
     * where the spellings the tokens read cannot be listed.
     */
    private String held(int mode, int tool) {
        return heldRules.computeIfAbsent(
                (long) mode << 32 | (tool & 0xFFFFFFFFL),
                k -> {
                    StringHeldRules h = spellings(mode);
                    if (h == null) return null;
                    String args = schema(tool, Set.of());
                    String object = h.rule(args);
                    String ws = h.rule("ws");
                    if (object == null || ws == null) return null;
                    String body = ws + " " + object + " " + ws;
                    if (tool < 0 || tools.get(tool).required.isEmpty())
                        body = "( " + body + " | \"\" )";
                    String name = shared("held_" + mode + "_" + tool, body);
                    heldRuns.add(name);
                    return name;
                });
    }

    /**
     * How the held mode's string spells a character: raw where its run reads it, and the escapes
     * its other tokens read; null where they read only one case of the hex digits of {@code \}
     * {@code uXXXX}.
     */
    private StringHeldRules spellings(int mode) {
        return heldSpellings.computeIfAbsent(
                mode,
                m -> {
                    IntervalSet raw = new IntervalSet();
                    for (int r : runRules.get(m)) raw.addAll(runSets[r]);
                    List<Integer> escapes = new ArrayList<>();
                    for (int r : itemRules.get(m)) if (plan.stays(m, r)) escapes.add(r);
                    StringBuilder letters = new StringBuilder();
                    for (char l : "\"\\/bfnrt".toCharArray())
                        if (reads(escapes, "\\" + l)) letters.append(l);
                    boolean lower = reads(escapes, "\\u00e9");
                    boolean upper = reads(escapes, "\\u00E9");
                    if (lower != upper) return null;
                    return new StringHeldRules(out, "h" + m, raw, letters.toString(), lower);
                });
    }

    private boolean reads(List<Integer> rules, String s) {
        for (int r : rules) if (difference.matches(r, s)) return true;
        return false;
    }

    /**
     * The run followed by a token of {@code rule}, where the token completes no marker that the
     * run's end has partly read (the lexer would take that marker from inside the run); null where
     * no such marker can be completed, or the run is not one of text avoiding markers.
     */
    private String runThen(String run, int rule, String token) {
        Integer mode = avoidedRuns.get(run);
        if (mode == null || !token.equals(expr(rule))) return null;
        int key = mode * roles.length + rule;
        String known = thens.get(key);
        if (known != null || thens.containsKey(key)) return known;
        IntervalSet chars = plan.runChars[mode];
        String then =
                difference.avoidThen(
                        out,
                        run,
                        chars,
                        textRules.get(mode),
                        itemRules.get(mode),
                        rule,
                        earlier.get(rule),
                        token);
        thens.put(key, then);
        return then;
    }

    /**
     * The run of mode {@code next} after the token of {@code rule} (of {@code mode}) spelled {@code
     * lit}, where it completes none of the longer tokens of {@code mode} that the spelling leaves
     * partly read (the lexer would read that token instead): its index in {@link #afterRuns}, or -1
     * when the spelling leaves none, or the run is not one of text avoiding markers.
     */
    private int after(int mode, int rule, String lit, int next, Ctx c) {
        String base = run(next, c);
        if (base == null) return -1;
        After key = new After(mode, rule, lit, next, base);
        Integer known = afterIds.get(key);
        if (known != null) return known;
        TokenDifference.Rivals left = difference.rivalsLeft(rivalsOf(mode, rule), lit);
        int id = left == null ? -1 : carried(next, left, c);
        afterIds.put(key, id);
        return id;
    }

    /** The other rules of the mode of {@code rule}: the longer tokens it may be the start of. */
    private List<Integer> rivalsOf(int mode, int rule) {
        if (rivals == null) {
            @SuppressWarnings("unchecked")
            List<Integer>[] byRule = new List[roles.length];
            rivals = byRule;
        }
        List<Integer> known = rivals[rule];
        if (known != null) return known;
        List<Integer> made = new ArrayList<>();
        for (int r : model.rulesOfMode(mode)) if (r != rule) made.add(r);
        rivals[rule] = made;
        return made;
    }

    /**
     * The run of mode {@code next} that completes none of the longer tokens {@code left} partly
     * read before it (the lexer would read that token instead): its index in {@link #afterRuns}, or
     * -1 when the run is not one of text avoiding markers or its automaton is too large.
     */
    private int carried(int next, TokenDifference.Rivals left, Ctx c) {
        String base = run(next, c);
        if (base == null) return -1;
        Carry key = new Carry(next, base, left);
        Integer known = carryIds.get(key);
        if (known != null) return known;
        int id = -1;
        String name = base;
        IntervalSet chars = plan.runChars[next];
        if (!avoidedRuns.containsKey(base)) {
            // a run of literal markers: the same run, written by the automaton the rest needs
            String plain = runCache.get(runNames[next]);
            name = base.equals(plain) ? base + "_d" : null;
        }
        if (name != null) {
            String run = name;
            String a =
                    plan.derived(
                            new Carry(next, run, left),
                            out,
                            g ->
                                    difference.avoidAfter(
                                            g,
                                            run,
                                            chars,
                                            textRules.get(next),
                                            itemRules.get(next),
                                            left));
            if (a != null) {
                id = afterRuns.indexOf(a);
                if (id < 0) {
                    id = afterRuns.size();
                    afterRuns.add(a);
                    afterSources.add(new Carry(next, run, left));
                }
            }
        }
        carryIds.put(key, id);
        return id;
    }

    /**
     * The rivals the run {@code after} (an index in {@link #afterRuns}) may end with still partly
     * read; empty when it ends only once they are done.
     */
    private List<TokenDifference.Rivals> afterEnds(int after) {
        while (afterEndsOf.size() <= after) afterEndsOf.add(null);
        List<TokenDifference.Rivals> known = afterEndsOf.get(after);
        if (known != null) return known;
        Carry a = afterSources.get(after);
        List<TokenDifference.Rivals> made =
                difference.avoidAfterEnds(
                        a.run,
                        plan.runChars[a.mode],
                        textRules.get(a.mode),
                        itemRules.get(a.mode),
                        a.left);
        afterEndsOf.set(after, made);
        return made;
    }

    /**
     * The run {@code after} ending with some rivals of {@code ends} partly read ({@code within}),
     * or else with none of them; null when it cannot end so.
     */
    private String afterEnding(int after, Set<TokenDifference.Rivals> ends, boolean within) {
        EndingAt at = new EndingAt(after, ends, within);
        String known = endings.get(at);
        if (known != null || endings.containsKey(at)) return known;
        String made = afterEndingNew(after, ends, within);
        endings.put(new EndingAt(after, Set.copyOf(ends), within), made);
        return made;
    }

    private String afterEndingNew(int after, Set<TokenDifference.Rivals> ends, boolean within) {
        Carry a = afterSources.get(after);
        return difference.avoidAfterEnding(
                out,
                a.run,
                plan.runChars[a.mode],
                textRules.get(a.mode),
                itemRules.get(a.mode),
                a.left,
                ends,
                within);
    }

    /**
     * The tail after a token that leaves {@code left} partly read: its first frame begins with a
     * run that completes none of them, where that frame begins with a run of text avoiding markers;
     * else the tail as it is.
     */
    private List<Object> carry(List<Object> tail, TokenDifference.Rivals left) {
        if (left == null || tail.isEmpty() || !(tail.get(0) instanceof Nt head)) return tail;
        if (head == dead || head.ctx.tool == CALLS || head.after >= 0) return tail;
        int k = carried(head.mode, left, head.ctx);
        if (k < 0) return tail;
        List<Object> t = new ArrayList<>(tail.size());
        t.add(nt(head.mode, head.ctx, head.exit, k));
        t.addAll(tail.subList(1, tail.size()));
        return t;
    }

    /**
     * A token's spellings split by the longer tokens they leave partly read ({@code in}: those
     * partly read before it, which it must not complete; and the other rules of its mode begun
     * where it begins), where that changes what may follow: some spelling completes one of {@code
     * in}, or the frame after the token ({@code next}, in context {@code c}) begins with a run the
     * rest is carried into; null where the token stays whole.
     */
    private List<TokenDifference.TokenClass> split(
            int mode, int rule, TokenDifference.Rivals in, int next, Ctx c) {
        SplitAt at = new SplitAt(rule, in, next, c);
        List<TokenDifference.TokenClass> known = splits.get(at);
        if (known != null || splits.containsKey(at)) return known;
        List<TokenDifference.TokenClass> made = splitNew(mode, rule, in, next, c);
        splits.put(at, made);
        return made;
    }

    private List<TokenDifference.TokenClass> splitNew(
            int mode, int rule, TokenDifference.Rivals in, int next, Ctx c) {
        SplitOf of = new SplitOf(rule, in);
        SplitMade made = splitsMade.get(of);
        if (made == null) {
            made =
                    new SplitMade(
                            difference.split(
                                    "sp_" + TokenLanguages.sanitize(model.ruleNames[rule]),
                                    rule,
                                    earlier.get(rule),
                                    in,
                                    rivalsOf(mode, rule)));
            splitsMade.put(of, made);
        }
        TokenDifference.TokenSplit sp = made.split.split();
        if (sp == null) return null;
        if (!sp.narrows()) {
            String base = run(next, c);
            if (base == null
                    || !avoidedRuns.containsKey(base) && !base.equals(runCache.get(runNames[next])))
                return null;
        }
        if (!made.defined) {
            made.split.define(out);
            made.defined = true;
        }
        return sp.classes();
    }

    /** The mode of the frame a token of {@code rule} read in {@code mode} leaves next. */
    private int nextMode(int mode, int rule) {
        Effect e = effects[rule];
        return !e.pushes.isEmpty()
                ? e.pushes.get(e.pushes.size() - 1)
                : e.mode >= 0 ? e.mode : mode;
    }

    // ---- the returns of each frame, to a fixpoint ---------------------------------------------

    private List<Exit> returnsOf(int mode, Ctx c) {
        boolean opaque = plan.opaque[mode];
        Ctx k = opaque ? c : kept(mode, c);
        boolean passes = k != c;
        Ctx kc = opaque ? opaqueCtx : canon(mode, k);
        Summary summary = summary(mode, kc);
        if (summary == null) {
            summary = new Summary(new Key(mode, kc));
            enqueue(summary);
            if (kc.summaries == null) kc.summaries = new Summary[model.modeNames.length];
            kc.summaries[mode] = summary;
        }
        if (reading != null && summary.lastReader != reading) {
            summary.readers.add(reading);
            summary.lastReader = reading;
        }
        List<Exit> s = summary.returns.list;
        if (passes) {
            // the frame ends with the fields it began with (kept until the summary grows)
            if (c.passed == null) {
                @SuppressWarnings("unchecked")
                List<Exit>[] made = new List[model.modeNames.length];
                c.passed = made;
            }
            List<Exit> known = c.passed[mode];
            if (known != null && known.size() == s.size()) return known;
            List<Exit> in = new ArrayList<>(s.size());
            for (int i = 0; i < s.size(); i++) in.add(back(mode, s.get(i), k, c));
            c.passed[mode] = in;
            return in;
        }
        if (!opaque) return s;
        // a frame that leaves the context alone ends in the context it began in
        List<Exit> in = new ArrayList<>(s.size());
        for (Exit x : s) addNew(in, new Exit(false, c, x.pops, x.mode, x.popped));
        return in;
    }

    /**
     * The context the frames of {@code mode} in {@code c} are made in, their returns given {@code
     * c}'s fields back: with the base required state ({@link #baseMask}) where they pass the state
     * on ({@link #passesMask}), and with the first tool and parameter of the parameter's value
     * class ({@link #valueClass}) where they read the parameter only by its value ({@link
     * ModePlan#valueOnly}). Frames of parameters alike in these are then made once.
     */
    private Ctx kept(int mode, Ctx c) {
        boolean passes = passesMask(mode, c);
        boolean valued = plan.valueOnly[mode] && c.call && c.tool >= 0;
        if (!passes && !valued) return c;
        if (c.kept != null && c.kept[mode] != null) return c.kept[mode];
        Ctx k = passes ? withMask(c, baseMask(c)) : c;
        if (valued) {
            long first = valueClass(k.tool, k.key);
            int tool = (int) (first >>> 32);
            int key = (int) first;
            if (tool != k.tool || key != k.key) k = ctx(true, tool, key, k.mask, k.called);
        }
        if (c.kept == null) c.kept = new Ctx[model.modeNames.length];
        c.kept[mode] = k;
        return k;
    }

    /**
     * The first tool and parameter ({@code tool << 32 | parameter}) of the build whose value is
     * written as the parameter {@code key} of {@code tool}: typed alike and alike in whether it
     * takes a string (a value of no parameter, -1 or -2, is one class each; one a token read as
     * JSON or as a string, a class of its own).
     */
    private long valueClass(int tool, int key) {
        long at = (long) tool << 32 | (key & 0xFFFFFFFFL);
        // a value read as JSON or as a string by a token before it stays its own
        if (key >= tools.get(tool).keys.size()) return at;
        Long known = valueClasses.get(at);
        if (known != null) return known;
        String typed = key < 0 ? null : typedValue(tool, key);
        String value =
                key < 0 ? "k" + key : (typed == null ? "-" : typed) + " " + takesString(tool, key);
        Long first = firstOfValue.putIfAbsent(value, at);
        long made = first != null ? first : at;
        valueClasses.put(at, made);
        return made;
    }

    /**
     * The return {@code x} of a frame in {@code mode} made in {@code k} ({@link #kept}) as a frame
     * in {@code c} returns: with {@code c}'s tool, parameter and required state where the frame
     * below keeps them.
     */
    private Exit back(int mode, Exit x, Ctx k, Ctx c) {
        Ctx y = x.ctx;
        if (!y.call) return x;
        int tool = y.tool == k.tool ? c.tool : y.tool;
        int key = y.key == k.key ? c.key : y.key;
        int mask = y.mask;
        if (k.mask != c.mask && masked(mode, x)) {
            if (y.mask != k.mask)
                throw new IllegalStateException("a frame that passes the state on changed it");
            mask = c.mask;
        }
        if (tool == y.tool && key == y.key && mask == y.mask) return x;
        return new Exit(false, ctx(true, tool, key, mask, y.called), x.pops, x.mode, x.popped);
    }

    /**
     * The return {@code e} of a frame in {@code mode} and context {@code c} as the frame made in
     * {@code k} ({@link #kept}) ends; null where it cannot end so.
     */
    private Exit forth(int mode, Exit e, Ctx c, Ctx k) {
        if (e.keptIn == k && e.keptFrom == c) return e.keptAs;
        Exit x = e;
        Ctx y = e.ctx;
        if (y.call) {
            int tool = y.tool == c.tool ? k.tool : y.tool;
            int key = y.key == c.key ? k.key : y.key;
            int mask = y.mask;
            if (k.mask != c.mask && masked(mode, e))
                mask = y.mask == c.mask ? k.mask : Integer.MIN_VALUE;
            if (mask == Integer.MIN_VALUE) x = null;
            else if (tool != y.tool || key != y.key || mask != y.mask)
                x = new Exit(false, ctx(true, tool, key, mask, y.called), e.pops, e.mode, e.popped);
            if (x != null && !back(mode, x, k, c).equals(e)) x = null;
        }
        e.keptFrom = c;
        e.keptIn = k;
        e.keptAs = x;
        return x;
    }

    /**
     * Whether a frame of {@code mode} in {@code c} is made with the base state ({@link #baseMask})
     * instead of its own: its mode passes the state on unread ({@link ModePlan#maskThrough}, or a
     * deferred state through {@link ModePlan#deferrable} modes).
     */
    private boolean passesMask(int mode, Ctx c) {
        if (!c.call || c.tool < -1 || c.mask == baseMask(c)) return false;
        if (plan.maskThrough[mode]) return true;
        // a deferred state is carried, unread, to where it is set; it names the parameter, so that
        // only frames that do not keep the parameter are alike for every deferred state
        return c.mask <= DEFERRED_OTHER
                && plan.deferrable[mode]
                && (c.key < 0 || (plan.live(mode, rules.implicitCallEnd()) & ModePlan.KEY) == 0);
    }

    /**
     * The required state a frame that passes it on is made with: none, or, where the state is
     * deferred, the deferred state after a parameter not among the tool's.
     */
    private static int baseMask(Ctx c) {
        return c.mask <= DEFERRED_OTHER ? DEFERRED_OTHER : 0;
    }

    private Ctx withMask(Ctx c, int mask) {
        return c.mask == mask ? c : ctx(c.call, c.tool, c.key, mask, c.called);
    }

    /**
     * Whether the return {@code x} of a frame in {@code mode} keeps the required state: where the
     * frame below reads it, or it is deferred (see strip).
     */
    private boolean masked(int mode, Exit x) {
        if (x.ctx.call && x.ctx.mask <= DEFERRED_OTHER) return true;
        boolean implicit = rules.implicitCallEnd();
        int live = x.mode >= 0 ? plan.live(x.mode, implicit) : plan.liveBelow(mode, implicit);
        return (live & ModePlan.MASK) != 0 && x.ctx.call;
    }

    /** The summary of frames in {@code mode} and context {@code c}; null before it is made. */
    private static Summary summary(int mode, Ctx c) {
        return c.summaries == null ? null : c.summaries[mode];
    }

    /** Adds {@code x} to the few exits {@code to} unless it holds it. */
    private static void addNew(List<Exit> to, Exit x) {
        if (!holds(to, x)) to.add(x);
    }

    /** Whether the few exits {@code in} hold {@code x} (hashes compared first). */
    private static boolean holds(List<Exit> in, Exit x) {
        for (int i = 0; i < in.size(); i++) {
            Exit e = in.get(i);
            if (e == x || e.hash == x.hash && e.equals(x)) return true;
        }
        return false;
    }

    private void enqueue(Summary s) {
        if (!s.queued) {
            s.queued = true;
            work.add(s);
        }
    }

    /**
     * The returns of every frame reached, to a fixpoint: a frame is looked at again only when the
     * returns of a frame it read have grown.
     */
    private void summarize() {
        while (!work.isEmpty()) {
            Summary summary = work.poll();
            summary.queued = false;
            reading = summary;
            Key k = summary.key;
            Exits found = this.found;
            found.clear();
            Ctx c = normalize(k.mode, k.ctx);
            if (c == null) continue;
            if (c.tool == CALLS)
                for (Step s : callSteps.get(c.key))
                    stackReturns(stackOf(k.mode, c.key, false), s.ctx, found);
            else {
                List<Step>[] known = stepsIn(c);
                for (int r : plan.items[k.mode]) {
                    Effect e = effectIn(k.mode, c, r);
                    List<Step> steps = steps(known, c, r);
                    for (int i = 0; i < steps.size(); i++) {
                        Step s = steps.get(i);
                        if (s.swallow) {
                            if (swallowEnds(e)) found.add(exit(k.mode, s.ctx, 1, -1, -1));
                            else stackReturns(stackOf(k.mode, r, true), s.ctx, found);
                        } else if (e.pops > 0) {
                            PopSplit split = popped(k.mode, r, s);
                            for (int p = 0; p < split.spelled.size(); p++)
                                found.add(
                                        exit(k.mode, s.ctx, e.pops, e.mode, split.spelled.get(p)));
                            if (split.plain != null)
                                found.add(exit(k.mode, s.ctx, e.pops, e.mode, -1));
                        } else if (defers(c, s)) {
                            List<Exit> ends = returnsOf(e.mode, keyed(e.mode, s.ctx));
                            for (int x = 0; x < ends.size(); x++)
                                stackReturns(
                                        plan.singles.get(ends.get(x).mode),
                                        resumed(unkeyed(s.ctx, ends.get(x)), c.mask),
                                        found);
                        } else stackReturns(stackOf(k.mode, r, false), s.ctx, found);
                    }
                }
            }
            if (summary.returns.addAll(found.list))
                for (int i = 0; i < summary.readers.size(); i++) enqueue(summary.readers.get(i));
        }
        reading = null;
    }

    /**
     * The context a frame in {@code mode} is summarized in: an ended call as such, and without the
     * fields it cannot read any more (contexts alike but for these derive the same text).
     */
    private Ctx canon(int mode, Ctx c) {
        Ctx n = normalize(mode, c);
        return strip(n != null ? n : c, plan.live(mode, rules.implicitCallEnd()));
    }

    /** The context with only the {@code live} fields kept (outside a call, none). */
    private Ctx strip(Ctx c, int live) {
        if (c.tool <= OPAQUE) return c;
        if (!c.call) live = 0;
        if (c.stripped != null && c.stripped[live] != null) return c.stripped[live];
        // a deferred state is set once the frames it is deferred over end: by its tool
        boolean deferred = c.mask <= DEFERRED_OTHER;
        int tool = deferred || (live & ModePlan.TOOL) != 0 ? c.tool : -1;
        int key = (live & ModePlan.KEY) != 0 ? c.key : -1;
        int mask = deferred || (live & ModePlan.MASK) != 0 ? c.mask : 0;
        Ctx s =
                tool == c.tool && key == c.key && mask == c.mask
                        ? c
                        : ctx(c.call, tool, key, mask, c.called);
        if (c.stripped == null) c.stripped = new Ctx[ModePlan.ALL + 1];
        c.stripped[live] = s;
        return s;
    }

    /** A hash of {@code h} and {@code v}, spread over all bits (the fields are small numbers). */
    private static int mix(int h, int v) {
        int x = (h ^ v * 0x9E3779B9) * 0x85EBCA6B;
        return x ^ (x >>> 15);
    }

    /** How a frame in {@code mode} ends by popping, without the fields left unread after it. */
    private Exit exit(int mode, Ctx c, int pops, int next, int popped) {
        boolean implicit = rules.implicitCallEnd();
        int live = next >= 0 ? plan.live(next, implicit) : plan.liveBelow(mode, implicit);
        return new Exit(false, strip(c, live), pops, next, popped);
    }

    /** Whether {@code x} is {@link #exit}{@code (mode, c, pops, next, popped)}. */
    private boolean endsAs(Exit x, int mode, Ctx c, int pops, int next, int popped) {
        if (x.eof || x.pops != pops || x.mode != next || x.popped != popped) return false;
        boolean implicit = rules.implicitCallEnd();
        return x.ctx
                == strip(c, next >= 0 ? plan.live(next, implicit) : plan.liveBelow(mode, implicit));
    }

    /**
     * The spellings of the token of {@code rule} (of {@code mode}, read as {@code s}) that pops its
     * frame and leaves a longer token of its mode partly read ({@code <} before {@code
     * |tool_call_start|>}, a one-character token's <code>{</code> before {@code "name":}). After
     * one of them the run of the frame below must not go on to that longer token (the lexer would
     * have read it instead). Tokens of a few literal spellings and of one character are split so.
     */
    private PopSplit popped(int mode, int rule, Step s) {
        if (s.swallow || !s.expr.equals(expr(rule))) return new PopSplit(List.of(), s.expr);
        if (popSplits == null) popSplits = new PopSplit[roles.length];
        PopSplit known = popSplits[rule];
        return known != null ? known : (popSplits[rule] = poppedNew(mode, rule, s));
    }

    private PopSplit poppedNew(int mode, int r, Step s) {
        List<Integer> rivals = new ArrayList<>();
        for (int o : model.rulesOfMode(mode)) if (o != r) rivals.add(o);
        List<String> lits = languages.literals(r);
        List<String> spelled = new ArrayList<>();
        String plain;
        if (lits != null) {
            List<String> rest = new ArrayList<>();
            for (String lit : lits)
                (difference.leavesPartlyRead(rivals, lit) ? spelled : rest).add(lit);
            List<String> parts = new ArrayList<>();
            for (String lit : rest) parts.add(Gbnf.literal(lit));
            plain =
                    parts.isEmpty()
                            ? null
                            : parts.size() == 1
                                    ? parts.get(0)
                                    : "( " + String.join(" | ", parts) + " )";
        } else {
            IntervalSet one = languages.oneChar(r);
            IntervalSet partly =
                    one == null ? null : difference.partlyReading(rivals, one, MAX_POP_SPELLINGS);
            if (partly == null || partly.isNil()) return new PopSplit(List.of(), s.expr);
            for (int ch : partly.toList()) spelled.add(Character.toString(ch));
            IntervalSet rest = Gbnf.clip(one.subtract(partly));
            plain = rest.isNil() ? null : Gbnf.charClass(rest);
        }
        if (spelled.isEmpty()) return new PopSplit(List.of(), s.expr);
        List<Integer> ids = new ArrayList<>();
        for (String lit : spelled) {
            ids.add(popSpellings.size());
            popSpellings.add(new PopSpelling(mode, r, lit));
        }
        return new PopSplit(ids, plain);
    }

    /**
     * The frames a token of {@code rule} read in {@code mode} leaves, bottom first (unmodifiable).
     */
    private List<Integer> stackOf(int mode, int rule, boolean swallowInner) {
        Effect e = effects[rule];
        List<Integer>[] known = stacks[rule];
        if (known == null) {
            @SuppressWarnings("unchecked")
            List<Integer>[] made = new List[2 * model.modeNames.length];
            stacks[rule] = known = made;
        }
        int i = 2 * mode + (swallowInner ? 1 : 0);
        if (known[i] == null) {
            List<Integer> stack = new ArrayList<>();
            stack.add(e.mode >= 0 ? e.mode : mode);
            stack.addAll(e.pushes);
            if (swallowInner) stack.remove(stack.size() - 1);
            known[i] = List.copyOf(stack);
        }
        return known[i];
    }

    private void stackReturns(List<Integer> stack, Ctx c, Exits found) {
        if (c.tool == CALLS) {
            found.addAll(returnsOf(modeOfRule[c.key], c));
            return;
        }
        if (stack.size() == 1) {
            found.addAll(returnsOf(stack.get(0), c));
            return;
        }
        int inner = stack.get(stack.size() - 1);
        List<Integer> rest = stack.subList(0, stack.size() - 1);
        // the returns do not change while frames are read (a summary grows once it is read)
        List<Exit> returns = returnsOf(inner, c);
        for (int i = 0; i < returns.size(); i++) {
            Exit r = returns.get(i);
            int more = r.pops - 1;
            if (more < rest.size()) {
                List<Integer> next = new ArrayList<>(rest.subList(0, rest.size() - more));
                if (r.mode >= 0) next.set(next.size() - 1, r.mode);
                stackReturns(next, r.ctx, found);
            } else found.add(new Exit(false, r.ctx, r.pops - rest.size(), r.mode, r.popped));
        }
    }

    /** Whether the step, read in a frame in context {@code c}, defers the required state. */
    private static boolean defers(Ctx c, Step s) {
        return s.ctx.mask <= DEFERRED_OTHER && c.mask > DEFERRED_OTHER;
    }

    // ---- productions ---------------------------------------------------------------------------

    /**
     * The frame in {@code mode} and context {@code c} that ends as {@code e}; {@link #dead} where
     * its summary says it cannot end so.
     */
    private Nt nt(int mode, Ctx c, Exit e) {
        return nt(mode, c, e, -1);
    }

    private Nt nt(int mode, Ctx c, Exit e, int after) {
        return made(frame(mode, c, e, after));
    }

    /**
     * The frame {@link #nt} makes, not yet made where it is new (its id is then -1), or {@link
     * #dead}.
     */
    private Nt frame(int mode, Ctx c, Exit e, int after) {
        if (e.eof && c.call && !plan.mayEndCall[mode]) return dead;
        // a call that ends implicitly ends only with every required parameter written
        if (normalize(mode, c) == null) return dead;
        // nor does any other, and the output ends after the call: where no parameter can be
        // written any more, a call that lacks one cannot end
        if (e.eof
                && c.call
                && c.mask > DEFERRED_OTHER
                && !plan.maskSettable[mode]
                && !maskComplete(c)) return dead;
        Nt n;
        Ctx k = plan.opaque[mode] || e.eof ? c : kept(mode, c);
        if (k != c) {
            // made in the context kept: it ends with the fields it began with
            Exit x = forth(mode, e, c, k);
            if (x == null) return dead;
            n = new Nt(mode, canon(mode, k), x, after);
        } else if (!plan.opaque[mode]) n = new Nt(mode, canon(mode, c), e, after);
        else if (e.eof) n = new Nt(mode, eofOk(c) ? opaqueEnd : opaqueNoEnd, e, after);
        else if (!e.ctx.equals(c)) return dead;
        else
            n =
                    new Nt(
                            mode,
                            opaqueCtx,
                            new Exit(false, opaqueCtx, e.pops, e.mode, e.popped),
                            after);
        if (!e.eof) {
            Summary ends = summary(mode, n.ctx);
            if (ends != null && !ends.returns.contains(n.exit)) return dead;
        }
        Nt known = frames.get(n);
        return known != null ? known : n;
    }

    /** The frame {@code n} of {@link #frame}, made where it is new. */
    private Nt made(Nt n) {
        if (n.id >= 0 || n == dead) return n;
        Nt known = frames.putIfAbsent(n, n);
        if (known != null) return known;
        register(n);
        if (!splitFrame(n)) pending.add(n);
        return n;
    }

    /**
     * Writes the frame as its value, where its mode allows ({@link ModePlan#tailLive}), and a rule
     * of the token that ends the value and what follows: the value is its run, the same for every
     * required state, and the rule is made in the fields it reads, so that it is the same for every
     * parameter. Not where the run and a token ending the value are written together ({@link
     * #runThen}), the run follows a token whose spelling it must not complete, or the output may
     * end in the frame.
     */
    private boolean splitFrame(Nt n) {
        boolean implicit = rules.implicitCallEnd();
        if (n.part != WHOLE || plan.tailLive(n.mode, implicit) == 0 || n.exit.eof) return false;
        Ctx c = normalize(n.mode, n.ctx);
        if (c != n.ctx || !c.call || c.tool < -1 || c.mask <= DEFERRED_OTHER) return false;
        if (n.after >= 0 && !afterEnds(n.after).isEmpty()) return false;
        String run = n.after >= 0 ? afterRuns.get(n.after) : run(n.mode, c);
        if (run != null && heldRuns.contains(run)) return false;
        List<Step>[] known = stepsIn(c);
        for (int r : plan.items[n.mode])
            for (Step s : steps(known, c, r))
                if (s.swallow || run != null && runThen(run, r, s.expr) != null) return false;
        n.value = run;
        n.tail = made(new Nt(n.mode, strip(c, plan.tailLive(n.mode, implicit)), n.exit, -1, TAIL));
        return true;
    }

    /** Numbers a new frame: its id indexes its alternatives and its name. */
    private void register(Nt n) {
        n.id = frameList.size();
        frameList.add(n);
        names.add(null);
    }

    private List<List<Object>> stackAlts(List<Integer> stack, Ctx c, Exit e) {
        return stackAlts(stack, c, e, -1);
    }

    /** The frames of {@code stack}, the innermost beginning with the run {@code after}. */
    private List<List<Object>> stackAlts(List<Integer> stack, Ctx c, Exit e, int after) {
        List<List<Object>> out = new ArrayList<>();
        if (c.tool == CALLS) {
            Nt calls = nt(modeOfRule[c.key], c, e, after);
            if (calls != dead) out.add(List.of(calls));
            return out;
        }
        if (stack.size() == 1) {
            Nt only = nt(stack.get(0), c, e, after);
            if (only != dead) out.add(List.of(only));
            return out;
        }
        int inner = stack.get(stack.size() - 1);
        List<Integer> rest = stack.subList(0, stack.size() - 1);
        if (e.eof) {
            Nt open = nt(inner, c, e, after);
            if (open != dead) out.add(List.of(open));
        }
        List<Exit> returns = returnsOf(inner, c);
        for (int i = 0; i < returns.size(); i++) {
            Exit r = returns.get(i);
            int more = r.pops - 1;
            if (more < rest.size()) {
                List<Integer> next = new ArrayList<>(rest.subList(0, rest.size() - more));
                if (r.mode >= 0) next.set(next.size() - 1, r.mode);
                int below = -1;
                if (r.popped >= 0) {
                    PopSpelling p = popSpellings.get(r.popped);
                    below = after(p.mode, p.rule, p.lit, next.get(next.size() - 1), r.ctx);
                }
                // the frame is made only where something can follow its return
                Nt head = frame(inner, c, r, after);
                if (head == dead) continue;
                List<List<Object>> tails = stackAlts(next, r.ctx, e, below);
                if (tails.isEmpty()) continue;
                head = made(head);
                for (int t = 0; t < tails.size(); t++) {
                    List<Object> tail = tails.get(t);
                    List<Object> alt = new ArrayList<>(1 + tail.size());
                    alt.add(head);
                    alt.addAll(tail);
                    out.add(alt);
                }
            } else if (!e.eof
                    && e.equals(new Exit(false, r.ctx, r.pops - rest.size(), r.mode, r.popped))) {
                Nt head = nt(inner, c, r, after);
                if (head != dead) out.add(List.of(head));
            }
        }
        return out;
    }

    /**
     * The frames after a token that defers the required state ({@code mask} before it): a frame of
     * {@code mode} in the deferred context {@code d}, then, where it ends, the frame it resumes in
     * with the state set.
     */
    private List<List<Object>> deferredAlts(int mode, Ctx d, int mask, Exit e) {
        List<List<Object>> out = new ArrayList<>();
        Ctx k = keyed(mode, d);
        List<Exit> returns = returnsOf(mode, k);
        for (int i = 0; i < returns.size(); i++) {
            Exit r = returns.get(i);
            Ctx c = resumed(unkeyed(d, r), mask);
            int below = -1;
            if (r.popped >= 0) {
                PopSpelling p = popSpellings.get(r.popped);
                below = after(p.mode, p.rule, p.lit, r.mode, c);
            }
            Nt head = frame(mode, k, r, -1);
            if (head == dead) continue;
            List<List<Object>> tails = stackAlts(plan.singles.get(r.mode), c, e, below);
            if (tails.isEmpty()) continue;
            head = made(head);
            for (int t = 0; t < tails.size(); t++) {
                List<Object> tail = tails.get(t);
                List<Object> alt = new ArrayList<>(1 + tail.size());
                alt.add(head);
                alt.addAll(tail);
                out.add(alt);
            }
        }
        return out;
    }

    private List<List<Object>> alternatives(Nt n, boolean onlyCallBegin) {
        List<List<Object>> out = new ArrayList<>();
        Ctx c = normalize(n.mode, n.ctx);
        if (c == null) return out;
        if (c.tool == CALLS) {
            // what follows the token that begins a call, for each tool it may call
            for (Step s : callSteps.get(c.key))
                out.addAll(stackAlts(stackOf(n.mode, c.key, false), s.ctx, n.exit));
            return out;
        }
        String run =
                onlyCallBegin || n.part == TAIL
                        ? null
                        : n.after >= 0 ? afterRuns.get(n.after) : run(n.mode, c);
        boolean held = run != null && heldRuns.contains(run);
        // the rivals a run after a token may end with still partly read: the token after the
        // run must not complete them either, and carries them on
        List<TokenDifference.Rivals> runEnds =
                onlyCallBegin || n.after < 0 ? List.of() : afterEnds(n.after);
        Set<TokenDifference.Rivals> splitEnds = splitEnds(n, c, runEnds);
        List<Step>[] known = stepsIn(c);
        for (int r : plan.items[n.mode]) {
            if (onlyCallBegin && roles[r] != Role.CALL_BEGIN) continue;
            // the held arguments read the characters and escapes themselves
            if (held && plan.stays(n.mode, r)) continue;
            Effect e = effectIn(n.mode, c, r);
            List<Step> steps = steps(known, c, r);
            for (int si = 0; si < steps.size(); si++) {
                Step s = steps.get(si);
                List<List<Object>> tails;
                String popExpr = null;
                if (s.swallow) {
                    if (swallowEnds(e))
                        tails =
                                endsAs(n.exit, n.mode, s.ctx, 1, -1, -1)
                                        ? List.of(List.of())
                                        : List.of();
                    else tails = stackAlts(stackOf(n.mode, r, true), s.ctx, n.exit);
                } else if (e.pops > 0) {
                    // spellings after which the run below must not go on to a longer token
                    PopSplit split = popped(n.mode, r, s);
                    int p = n.exit.popped;
                    boolean ends =
                            endsAs(n.exit, n.mode, s.ctx, e.pops, e.mode, p)
                                    && (p < 0 ? split.plain != null : split.spelled.contains(p));
                    tails = ends ? List.of(List.of()) : List.of();
                    if (ends && p >= 0) popExpr = Gbnf.literal(popSpellings.get(p).lit);
                    else if (ends && !split.spelled.isEmpty()) popExpr = split.plain;
                } else if (defers(c, s)) tails = deferredAlts(e.mode, s.ctx, c.mask, n.exit);
                else tails = stackAlts(stackOf(n.mode, r, false), s.ctx, n.exit);
                String then =
                        run == null || tails.isEmpty() || popExpr != null
                                ? null
                                : runThen(run, r, s.expr);
                boolean whole =
                        !s.swallow && e.pops == 0 && !tails.isEmpty() && s.expr.equals(expr(r));
                String runHere = run;
                int next = nextMode(n.mode, r);
                if (whole && !runEnds.isEmpty() && !splitEnds.isEmpty()) {
                    // after the ends some token is split after, each token by how it is split
                    Map<TokenDifference.TokenClass, Set<TokenDifference.Rivals>> by =
                            new LinkedHashMap<>();
                    for (TokenDifference.Rivals k : splitEnds) {
                        List<TokenDifference.TokenClass> sp = split(n.mode, r, k, next, s.ctx);
                        if (sp == null) sp = List.of(new TokenDifference.TokenClass(s.expr, null));
                        for (TokenDifference.TokenClass tc : sp)
                            by.computeIfAbsent(tc, x -> new LinkedHashSet<>()).add(k);
                    }
                    for (Map.Entry<TokenDifference.TokenClass, Set<TokenDifference.Rivals>> g :
                            by.entrySet()) {
                        String endRun = afterEnding(n.after, g.getValue(), true);
                        if (endRun == null) continue;
                        for (List<Object> tail : tails) {
                            List<Object> alt = new ArrayList<>();
                            alt.add(endRun);
                            alt.add(g.getKey().expr());
                            alt.addAll(carry(tail, g.getKey().left()));
                            out.add(alt);
                        }
                    }
                    // the run ending otherwise is followed as any run is
                    runHere = afterEnding(n.after, splitEnds, false);
                    if (runHere == null) continue;
                }
                if (whole
                        && then == null
                        && languages.literals(r) == null
                        && plan.stays(n.mode, r)) {
                    // a token spelled by a pattern: the run after it completes none of the longer
                    // tokens of its mode that a spelling leaves partly read
                    List<TokenDifference.TokenClass> sp = split(n.mode, r, null, next, s.ctx);
                    if (sp != null) {
                        List<List<Object>> made = new ArrayList<>();
                        boolean carries = false;
                        for (List<Object> tail : tails)
                            for (TokenDifference.TokenClass tc : sp) {
                                List<Object> rest = carry(tail, tc.left());
                                carries |= rest != tail;
                                List<Object> alt = new ArrayList<>();
                                if (runHere != null) alt.add(runHere);
                                alt.add(tc.expr());
                                alt.addAll(rest);
                                made.add(alt);
                            }
                        if (carries) {
                            out.addAll(made);
                            continue;
                        }
                    }
                }
                // spellings of the token that leave a longer token partly read: the run after
                // them must not complete it
                List<String> lits =
                        s.swallow || e.pops > 0 || !s.expr.equals(expr(r))
                                ? null
                                : languages.literals(r);
                for (int t = 0; t < tails.size(); t++) {
                    List<Object> tail = tails.get(t);
                    List<String> plain = null;
                    if (lits != null
                            && !tail.isEmpty()
                            && tail.get(0) instanceof Nt head
                            && head.ctx.tool != CALLS) {
                        plain = new ArrayList<>();
                        for (int li = 0; li < lits.size(); li++) {
                            String lit = lits.get(li);
                            int k = after(n.mode, r, lit, next, head.ctx);
                            if (k < 0) {
                                plain.add(lit);
                                continue;
                            }
                            List<Object> alt = new ArrayList<>();
                            if (runHere != null) alt.add(runHere);
                            alt.add(Gbnf.literal(lit));
                            alt.add(nt(next, head.ctx, head.exit, k));
                            alt.addAll(tail.subList(1, tail.size()));
                            out.add(alt);
                        }
                        if (plain.isEmpty()) continue;
                    }
                    List<Object> alt = new ArrayList<>();
                    if (popExpr != null) {
                        if (runHere != null) alt.add(runHere);
                        alt.add(popExpr);
                    } else if (plain != null && plain.size() < lits.size()) {
                        if (runHere != null) alt.add(runHere);
                        List<String> alts = new ArrayList<>();
                        for (String lit : plain) alts.add(Gbnf.literal(lit));
                        alt.add(
                                alts.size() == 1
                                        ? alts.get(0)
                                        : "( " + String.join(" | ", alts) + " )");
                    } else if (then != null) alt.add(then);
                    else {
                        if (runHere != null) alt.add(runHere);
                        alt.add(s.expr);
                    }
                    alt.addAll(tail);
                    out.add(alt);
                }
            }
        }
        if (!onlyCallBegin && n.exit.eof && eofOk(c))
            out.add(run == null ? List.of("\"\"") : List.of(run));
        return out;
    }

    /**
     * The ends of the run a frame begins with after which one of the frame's tokens is split: it
     * completes a rival left partly read there, or carries one on.
     */
    private Set<TokenDifference.Rivals> splitEnds(
            Nt n, Ctx c, List<TokenDifference.Rivals> runEnds) {
        Set<TokenDifference.Rivals> out = new LinkedHashSet<>();
        if (runEnds.isEmpty()) return out;
        List<Step>[] known = stepsIn(c);
        for (int r : plan.items[n.mode]) {
            // a token that ends a frame whose required state is deferred pops it
            Effect e = effectIn(n.mode, c, r);
            if (e.pops > 0) continue;
            for (Step s : steps(known, c, r)) {
                if (s.swallow || !s.expr.equals(expr(r))) continue;
                for (TokenDifference.Rivals k : runEnds)
                    if (split(n.mode, r, k, nextMode(n.mode, r), s.ctx) != null) out.add(k);
            }
        }
        return out;
    }

    private String grammar(boolean lazy) {
        Ctx start = outside(false);
        List<Integer> stack = new ArrayList<>();
        stack.add(0);
        if (thinking && !lazy) stack.add(rules.thinkingMode());
        Exit eof = new Exit(true, null, 0, -1, -1);
        returnsOf(0, start);
        if (stack.size() > 1) returnsOf(stack.get(1), start);
        summarize();
        List<List<Object>> root;
        if (lazy) root = alternatives(new Nt(0, start, eof, -1), true);
        else root = stackAlts(stack, start, eof);
        int rootAt = encode(root);
        int rootEnd = used;
        while (!pending.isEmpty()) {
            Nt n = pending.remove(pending.size() - 1);
            List<List<Object>> alts = alternatives(n, false);
            int at = encode(alts);
            if (n.id >= prodStart.length) {
                prodStart = Arrays.copyOf(prodStart, 2 * frameList.size());
                prodEnd = Arrays.copyOf(prodEnd, 2 * frameList.size());
            }
            prodStart[n.id] = at;
            prodEnd[n.id] = used;
        }
        plan.made(frameList.size(), out.size());
        // keep what can derive a string
        boolean[] productive = productive();
        boolean any = false;
        for (int a = rootAt; a < rootEnd && !any; a += pool[a] + 1)
            any = allProductive(a, productive);
        if (!any)
            throw new ConstraintException(
                    null,
                    "tool_choice",
                    "format "
                            + model.formatName
                            + ": no output satisfies these options (a call is required but the format cannot make one with these tools)");
        // reachable rules only, in a stable order, each with its alternatives that derive a string
        int[] order = new int[frameList.size()];
        int ordered = 0;
        boolean[] seen = new boolean[frameList.size()];
        int[] work = new int[64];
        int top = 0;
        for (int a = rootAt; a < rootEnd; a += pool[a] + 1) {
            if (!allProductive(a, productive)) continue;
            if (top + pool[a] > work.length) work = Arrays.copyOf(work, 2 * (top + pool[a]));
            for (int i = a + 1; i <= a + pool[a]; i++) if (pool[i] >= 0) work[top++] = pool[i];
        }
        while (top > 0) {
            int id = work[--top];
            if (seen[id]) continue;
            seen[id] = true;
            order[ordered++] = id;
            for (int a = prodStart[id]; a < prodEnd[id]; a += pool[a] + 1) {
                if (!allProductive(a, productive)) continue;
                if (top + pool[a] > work.length) work = Arrays.copyOf(work, 2 * (top + pool[a]));
                for (int i = a + 1; i <= a + pool[a]; i++) if (pool[i] >= 0) work[top++] = pool[i];
            }
        }
        merge(order, ordered, productive);
        // frames merged into one may make root alternatives alike: each is written once
        keep(rootAt, rootEnd, productive, true);
        String rootText = scratch.toString();
        // the frames' text, then the other rules, in a builder of about the whole's size (the
        // other rules' size is known)
        StringBuilder b = new StringBuilder(256 * ordered + rootText.length() + out.textSize());
        b.append("root ::= ").append(rootText).append('\n');
        for (int o = 0; o < ordered; o++) {
            int id = order[o];
            if (merged[id] != id) continue;
            b.append(name(frameList.get(id))).append(" ::= ");
            factor(b, keep(prodStart[id], prodEnd[id], productive, true));
            b.append('\n');
        }
        for (int i = 0; i < out.size(); i++)
            if (!out.name(i).equals("root"))
                b.append(out.name(i)).append(" ::= ").append(out.body(i)).append('\n');
        return b.toString();
    }

    /**
     * Adds the alternatives to {@link #pool}, each as its length and its parts (a frame by its id,
     * a text by {@code -1 - } its index in {@link #texts}); returns where they begin.
     */
    private int encode(List<List<Object>> alts) {
        int at = used;
        for (int a = 0; a < alts.size(); a++) {
            List<Object> alt = alts.get(a);
            // a frame written as its value and a rule of what follows is those two
            int size = alt.size();
            for (int i = 0; i < alt.size(); i++)
                if (alt.get(i) instanceof Nt n && n.tail != null && n.value != null) size++;
            int need = used + size + 1;
            if (need > pool.length) pool = Arrays.copyOf(pool, Math.max(need, 2 * pool.length));
            pool[used++] = size;
            for (int i = 0; i < alt.size(); i++) {
                Object o = alt.get(i);
                if (o instanceof Nt n) {
                    if (n.tail == null) pool[used++] = n.id;
                    else {
                        if (n.value != null) {
                            pool[used++] = -1 - texts.size();
                            texts.add(n.value);
                        }
                        pool[used++] = n.tail.id;
                    }
                } else {
                    pool[used++] = -1 - texts.size();
                    texts.add((String) o);
                }
            }
        }
        return at;
    }

    /**
     * Writes into {@link #scratch} the alternatives of {@link #pool} from {@code from} to {@code
     * to} that derive a string ({@code unique}: each text once), separated by {@code " | "}, and
     * into {@link #bounds} where each begins and ends; returns how many.
     */
    private int keep(int from, int to, boolean[] productive, boolean unique) {
        StringBuilder s = scratch;
        s.setLength(0);
        int kept = 0;
        for (int a = from; a < to; a += pool[a] + 1) {
            if (!allProductive(a, productive)) continue;
            int mark = s.length();
            if (kept > 0) s.append(" | ");
            int begin = s.length();
            render(a, s);
            int end = s.length();
            if (unique && repeats(kept, begin, end)) {
                s.setLength(mark);
                continue;
            }
            if (2 * kept + 2 > bounds.length) bounds = Arrays.copyOf(bounds, 2 * bounds.length);
            bounds[2 * kept] = begin;
            bounds[2 * kept + 1] = end;
            kept++;
        }
        return kept;
    }

    /**
     * Whether the text from {@code begin} to {@code end} of {@link #scratch} is one kept before.
     */
    private boolean repeats(int kept, int begin, int end) {
        int length = end - begin;
        for (int k = 0; k < kept; k++)
            if (bounds[2 * k + 1] - bounds[2 * k] == length
                    && same(scratch, bounds[2 * k], begin, length)) return true;
        return false;
    }

    private static boolean same(CharSequence s, int a, int b, int length) {
        for (int i = 0; i < length; i++) if (s.charAt(a + i) != s.charAt(b + i)) return false;
        return true;
    }

    /**
     * Writes the {@code alts} alternatives {@link #keep} left in {@link #scratch}; those that all
     * begin with the mode's run share it: {@code run ( a | b | "" )}.
     */
    private void factor(StringBuilder b, int alts) {
        StringBuilder s = scratch;
        int first = bounds[0];
        int firstEnd = bounds[1];
        int headEnd = firstEnd;
        for (int i = first; i < firstEnd; i++)
            if (s.charAt(i) == ' ') {
                headEnd = i;
                break;
            }
        int head = headEnd - first;
        if (!startsWith(s, first, headEnd, "run_")
                && !startsWith(s, first, headEnd, "args_")
                && !startsWith(s, first, headEnd, "v_")) {
            b.append(s);
            return;
        }
        for (int k = 0; k < alts; k++) {
            int begin = bounds[2 * k];
            int length = bounds[2 * k + 1] - begin;
            if (length == head
                    ? !same(s, first, begin, head)
                    : length < head + 1
                            || s.charAt(begin + head) != ' '
                            || !same(s, first, begin, head)) {
                b.append(s);
                return;
            }
        }
        b.append(s, first, headEnd);
        if (alts == 1) {
            int begin = bounds[0];
            int length = bounds[1] - begin;
            if (length == head
                    || length == head + 3
                            && s.charAt(begin + head + 1) == '"'
                            && s.charAt(begin + head + 2) == '"') return;
        }
        b.append(" ( ");
        for (int k = 0; k < alts; k++) {
            if (k > 0) b.append(" | ");
            int begin = bounds[2 * k];
            int end = bounds[2 * k + 1];
            if (end - begin == head) b.append("\"\"");
            else b.append(s, begin + head + 1, end);
        }
        b.append(" )");
    }

    private static boolean startsWith(CharSequence s, int from, int to, String prefix) {
        if (to - from < prefix.length()) return false;
        for (int i = 0; i < prefix.length(); i++)
            if (s.charAt(from + i) != prefix.charAt(i)) return false;
        return true;
    }

    /** Whether every frame of the alternative at {@code a} in {@link #pool} derives a string. */
    private boolean allProductive(int a, boolean[] productive) {
        int[] p = pool;
        for (int i = a + 1; i <= a + p[a]; i++) if (p[i] >= 0 && !productive[p[i]]) return false;
        return true;
    }

    /** Writes the alternative at {@code a} in {@link #pool}: its parts, separated by blanks. */
    private void render(int a, StringBuilder s) {
        int size = pool[a];
        if (size == 0) {
            s.append("\"\"");
            return;
        }
        for (int i = a + 1; i <= a + size; i++) {
            if (i > a + 1) s.append(' ');
            int part = pool[i];
            s.append(part >= 0 ? name(frameList.get(part)) : texts.get(-1 - part));
        }
    }

    /**
     * Merges the frames that derive the same strings by the same alternatives ({@link #merged}):
     * the coarsest partition of the first {@code n} frames of {@code order} in which the frames of
     * a class have the same set of alternatives that derive a string, item by item, once each frame
     * is named by its class (refined from one class until no class splits). Each class is written
     * once, as its first frame, and named in place of the others: replacing each frame by its class
     * maps the derivations of each frame onto those of the class and back, so every rule derives
     * the strings it derived unmerged.
     */
    private void merge(int[] order, int n, boolean[] productive) {
        int[] at = new int[frameList.size()];
        for (int i = 0; i < n; i++) at[order[i]] = i;
        // each frame's alternatives as numbers: a frame by its place in the order, a text by its
        // number (negative; equal texts one number)
        Map<String, Integer> strings = new HashMap<>();
        int[] p = pool;
        int alts = 0;
        int parts = 0;
        for (int i = 0; i < n; i++) {
            int id = order[i];
            for (int a = prodStart[id]; a < prodEnd[id]; a += p[a] + 1)
                if (allProductive(a, productive)) {
                    alts++;
                    parts += p[a];
                }
        }
        int[] altStart = new int[n + 1];
        int[] itemStart = new int[alts + 1];
        int[] items = new int[parts];
        int alt = 0;
        int item = 0;
        for (int i = 0; i < n; i++) {
            int id = order[i];
            altStart[i] = alt;
            for (int a = prodStart[id]; a < prodEnd[id]; a += p[a] + 1) {
                if (!allProductive(a, productive)) continue;
                itemStart[alt++] = item;
                for (int k = a + 1; k <= a + p[a]; k++) {
                    int part = p[k];
                    if (part >= 0) items[item++] = at[part];
                    else {
                        Integer known =
                                strings.putIfAbsent(texts.get(-1 - part), -strings.size() - 1);
                        items[item++] = known != null ? known : -strings.size();
                    }
                }
            }
        }
        altStart[n] = alt;
        itemStart[alts] = item;
        int[] cls = FrameClasses.of(n, altStart, itemStart, items);
        merged = new int[frameList.size()];
        int[] first = new int[n];
        Arrays.fill(first, -1);
        for (int i = 0; i < n; i++) {
            if (first[cls[i]] < 0) first[cls[i]] = order[i];
            merged[order[i]] = first[cls[i]];
        }
    }

    /**
     * The frames that can derive a string, by id: each alternative counts down the frames it holds
     * as they are found to derive one. The alternatives waiting on a frame are kept as lists linked
     * through arrays (an alternative once per frame it holds).
     */
    private boolean[] productive() {
        int frames = frameList.size();
        int[] p = pool;
        boolean[] done = new boolean[frames];
        int[] first = new int[frames];
        Arrays.fill(first, -1);
        // links and alternatives: at most one per part and one per alternative of the pool
        int[] next = new int[used];
        int[] waiter = new int[used];
        int[] left = new int[used];
        int[] head = new int[used];
        int alts = 0;
        int links = 0;
        int[] ready = new int[frames];
        int readyEnd = 0;
        for (int h = 0; h < frames; h++) {
            if (h >= prodStart.length) break;
            for (int a = prodStart[h]; a < prodEnd[h]; a += p[a] + 1) {
                head[alts] = h;
                int count = 0;
                for (int i = a + 1; i <= a + p[a]; i++) {
                    int id = p[i];
                    if (id < 0) continue;
                    count++;
                    waiter[links] = alts;
                    next[links] = first[id];
                    first[id] = links++;
                }
                left[alts++] = count;
                if (count == 0 && !done[h]) {
                    done[h] = true;
                    ready[readyEnd++] = h;
                }
            }
        }
        for (int r = 0; r < readyEnd; r++)
            for (int l = first[ready[r]]; l >= 0; l = next[l]) {
                int a = waiter[l];
                if (--left[a] == 0 && !done[head[a]]) {
                    done[head[a]] = true;
                    ready[readyEnd++] = head[a];
                }
            }
        return done;
    }

    private String name(Nt frame) {
        Nt n = merged != null ? frameList.get(merged[frame.id]) : frame;
        String known = names.get(n.id);
        if (known != null) return known;
        // the exit's context is numbered first; one builder of about the name's size (a
        // concatenation would grow a default one)
        int exitCtx = n.exit.eof ? -1 : ctxId(n.exit.ctx);
        StringBuilder b = new StringBuilder(48).append("m_").append(plan.modeIds[n.mode]);
        b.append("_c").append(ctxId(n.ctx)).append('_');
        if (n.exit.eof) b.append('e');
        else {
            b.append('r').append(exitCtx).append('p').append(n.exit.pops);
            if (n.exit.mode >= 0) b.append('m').append(n.exit.mode);
            if (n.exit.popped >= 0) b.append('s').append(n.exit.popped);
        }
        if (n.after >= 0) b.append("_a").append(afterId(n.after));
        if (n.part == TAIL) b.append("_t");
        String made = b.toString();
        names.set(n.id, made);
        return made;
    }

    /** The number of the run after a token in the rule names, given in the order they are named. */
    private int afterId(int after) {
        if (after >= afterNames.length) {
            int from = afterNames.length;
            afterNames = Arrays.copyOf(afterNames, Math.max(after + 1, 2 * from));
            Arrays.fill(afterNames, from, afterNames.length, -1);
        }
        if (afterNames[after] < 0) afterNames[after] = afterNamed++;
        return afterNames[after];
    }

    private int ctxId(Ctx c) {
        if (c.id < 0) c.id = ctxIds++;
        return c.id;
    }
}
