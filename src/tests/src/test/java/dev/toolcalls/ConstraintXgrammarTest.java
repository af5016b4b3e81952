package dev.toolcalls;

import static org.junit.jupiter.api.Assertions.assertTrue;

import com.google.gson.JsonArray;
import com.google.gson.JsonElement;
import com.google.gson.JsonObject;
import com.google.gson.JsonParser;
import com.google.gson.JsonPrimitive;

import dev.toolcalls.internal.format.FormatDefinition;
import dev.toolcalls.internal.lex.LexerModel;
import dev.toolcalls.internal.lex.Role;
import dev.toolcalls.suite.SuiteCase;

import org.junit.jupiter.api.Test;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

/**
 * Every strictly parsed regression case of every format, checked by a real grammar engine
 * (xgrammar's WebAssembly build under Node): the GBNF constraint built with the case's tools (or
 * none) accepts the output, and rejects it mutated: a call under tool choice {@code none}, no call
 * under {@code required}, a second call under {@code parallel_tool_calls: false}, an unknown tool
 * name, a call cut open, a missing required argument and a wrong-typed value (the last two through
 * the tools: a required parameter added, or a present one's type changed). Cases without tools get
 * tools written from their calls for the mutations. A case that calls a function not among its
 * tools, or holds a value of a type its parameter's schema does not name (the parser keeps it as a
 * string), is expected to be rejected: under a constraint neither can be written.
 *
 * <p>Asserted: every grammar compiles, and every output the strict parser accepts with the case's
 * tools (or none) is accepted, under {@code auto}, {@code none} (no call) and parallel calls off
 * (one call). The mutations, and acceptance under tools written from the calls, are counted per
 * format in {@link #TABLE}, with each one the grammar let through listed.
 *
 * <p>The grammars are built in parallel and compiled once each, and the strings checked against one
 * grammar go to the same Node process, many grammars per process; a grammar that aborts xgrammar's
 * runtime takes only its process down, and the rest of that batch is run again in a new one.
 */
class ConstraintXgrammarTest {
    static final Path TABLE = Path.of("src/tests/target/constraint-table.md");

    /** The mutations the grammars are known to let through, one per line. */
    static final Path KNOWN_LEAKS =
            Path.of("src/tests/src/test/resources/constraint-known-leaks.txt");

    /**
     * Loads xgrammar's UMD build as CommonJS, as {@code xg} (with {@code fs} and {@code path}), in
     * a script run in {@link NodePeers#HOME}, and defines {@code acceptAll(compiler, grammar,
     * strings)}: whether the grammar accepts each string whole.
     */
    static final String LOAD_XGRAMMAR =
            """
            const Module = require('module'); const fs = require('fs'); const path = require('path');
            const file = path.resolve('node_modules/@mlc-ai/web-xgrammar/lib/index.js');
            const m = new Module(file); m.filename = file; m.paths = Module._nodeModulePaths(path.dirname(file));
            m._compile(fs.readFileSync(file, 'utf8'), file);
            const xg = m.exports;
            // Testings.isGrammarAcceptString, with the grammar compiled once for all its strings
            async function acceptAll(compiler, grammar, strings) {
              const g = await xg.Grammar.fromEBNF(grammar, 'root');
              const compiled = await compiler.compileGrammar(g);
              const out = [];
              for (const s of strings) {
                const matcher = await xg.GrammarMatcher.createGrammarMatcher(compiled, undefined, true);
                out.push(matcher._acceptString(s, false) && matcher.isTerminated());
                matcher.dispose();
              }
              compiled.dispose();
              g.dispose();
              return out;
            }
            """;

    /** Reads jobs [{grammar, strings}] on stdin, prints one line of results per job. */
    static final String SCRIPT =
            LOAD_XGRAMMAR
                    + """
            (async () => {
              const jobs = JSON.parse(fs.readFileSync(0, 'utf8'));
              const info = await xg.TokenizerInfo.createTokenizerInfo([]);
              const compiler = await xg.GrammarCompiler.createGrammarCompiler(info, false);
              for (const job of jobs) {
                const out = await acceptAll(compiler, job.grammar, job.strings);
                process.stdout.write('@@' + JSON.stringify(out) + '\\n');
              }
            })().catch(e => { console.error(String(e)); process.exit(3); });
            """;

    /**
     * Cases per format whose mutations through the tools are checked (each such check compiles a
     * grammar of its own): every case, or the first N with {@code -Dconstraint.toolMutationCases=N}
     * (while working on a format); the acceptance and the tool-choice checks run on every case.
     */
    static final int TOOL_MUTATION_CASES =
            Integer.getInteger("constraint.toolMutationCases", Integer.MAX_VALUE);

    /** Grammars compiled per Node process. */
    static final int BATCH = 100;

    /** The type names of JSON Schema. */
    private static final Set<String> JSON_TYPES =
            Set.of("string", "integer", "number", "boolean", "null", "object", "array");

    /** Mutations checked and rejected, by kind. */
    private static final Map<String, int[]> KINDS = new TreeMap<>();

    /** The grammars to build, by format, tools and options, and the checks against each. */
    private static final Map<String, Request> REQUESTS = new LinkedHashMap<>();

    /** {@code -Dconstraint.formats=a,b} checks those formats only (while working on them). */
    static final String ONLY = System.getProperty("constraint.formats", "");

    record Check(String format, String caseName, String what, String text, boolean accept) {}

    record Job(String grammar, List<Check> checks) {}

    record Request(Format format, Tools tools, ConstraintOptions options, List<Check> checks) {}

    static final class Tally {
        int cases;
        int accepted;
        int mutations;
        int rejected;
        int grammarChars;
        final List<String> failures = new ArrayList<>();
    }

    @Test
    void everyCaseAcceptedEveryMutationRejected() throws Exception {
        Map<String, Tally> tallies = new TreeMap<>();
        for (Map.Entry<String, List<SuiteCase>> e :
                SuiteCase.load(Path.of("tests-data")).entrySet()) {
            if (!ONLY.isEmpty() && !List.of(ONLY.split(",")).contains(e.getKey())) continue;
            Format format = Formats.get(e.getKey());
            int mutated = 0;
            Tally tally = tallies.computeIfAbsent(format.name(), k -> new Tally());
            tally.grammarChars =
                    format.constraint(Tools.none(), ConstraintOptions.defaults()).length();
            boolean typedLiterals = !hasLiteralValues(format);
            for (SuiteCase c : e.getValue()) {
                Tools tools = tools(c);
                List<ParseEvent.ToolCallEnd> calls = strictCalls(format, c, tools);
                if (calls == null) continue; // not strictly parsed
                tally.cases++;
                // a call to a tool that is not among the tools, or a value its schema does not
                // type (the parser keeps it as a string), cannot be written under the constraint
                boolean known =
                        tools.size() == 0
                                || calls.stream()
                                        .allMatch(
                                                k ->
                                                        tools.names().contains(k.name())
                                                                && fits(tools, k));
                ConstraintOptions base = ConstraintOptions.defaults().withThinking(c.thinking());
                add(format, c, tools, base, "as written", c.input(), known);
                if (calls.isEmpty()) {
                    add(
                            format,
                            c,
                            tools,
                            base.withToolChoice("required"),
                            "no call under required",
                            c.input(),
                            false);
                    add(
                            format,
                            c,
                            tools,
                            base.withToolChoice("none"),
                            "no call under none",
                            c.input(),
                            true);
                    continue;
                }
                add(
                        format,
                        c,
                        tools,
                        base.withToolChoice("none"),
                        "a call under none",
                        c.input(),
                        false);
                if (!known) continue;
                add(
                        format,
                        c,
                        tools,
                        base.withParallelToolCalls(false),
                        calls.size() + " call(s) under parallel false",
                        c.input(),
                        calls.size() == 1);
                if (mutated >= TOOL_MUTATION_CASES) continue;
                mutated++;
                Tools typed = tools.size() > 0 ? tools : toolsFrom(calls);
                if (tools.size() == 0)
                    add(
                            format,
                            c,
                            typed,
                            base,
                            "with tools written from its calls",
                            c.input(),
                            true);
                ParseEvent.ToolCallEnd last = calls.get(calls.size() - 1);
                String renamed = renamed(format, c, last.name());
                if (renamed != null)
                    add(format, c, typed, base, "unknown tool name", renamed, false);
                String cut = cutOpen(format, c, last.name());
                if (cut != null) add(format, c, typed, base, "call cut open", cut, false);
                add(
                        format,
                        c,
                        mutate(typed, last.name(), null),
                        base,
                        "missing required argument",
                        c.input(),
                        false);
                JsonObject args = JsonParser.parseString(last.arguments()).getAsJsonObject();
                if (typedLiterals && !args.keySet().isEmpty()) {
                    String key = args.keySet().iterator().next();
                    add(
                            format,
                            c,
                            mutate(typed, last.name(), key),
                            base,
                            "wrong-typed value of " + key,
                            c.input(),
                            false);
                }
            }
        }
        // build the grammars in parallel; requests that give the same grammar share its job
        Map<String, String> built = new ConcurrentHashMap<>();
        REQUESTS.entrySet().parallelStream()
                .forEach(
                        r ->
                                built.put(
                                        r.getKey(),
                                        r.getValue()
                                                .format()
                                                .constraint(
                                                        r.getValue().tools(),
                                                        r.getValue().options())));
        Map<String, Job> jobs = new LinkedHashMap<>();
        for (Map.Entry<String, Request> r : REQUESTS.entrySet())
            jobs.computeIfAbsent(built.get(r.getKey()), g -> new Job(g, new ArrayList<>()))
                    .checks
                    .addAll(r.getValue().checks());
        List<Job> all = new ArrayList<>(jobs.values());
        List<List<Job>> batches = new ArrayList<>();
        for (int i = 0; i < all.size(); i += BATCH)
            batches.add(all.subList(i, Math.min(all.size(), i + BATCH)));
        ExecutorService pool = Executors.newFixedThreadPool(2);
        List<Future<List<List<Boolean>>>> futures = new ArrayList<>();
        for (List<Job> b : batches) futures.add(pool.submit(() -> run(b)));
        pool.shutdown();
        List<String> rejected = new ArrayList<>();
        List<String> leaks = new ArrayList<>();
        Set<String> checked = new LinkedHashSet<>();
        for (int i = 0; i < batches.size(); i++) {
            List<List<Boolean>> results = futures.get(i).get();
            for (int j = 0; j < batches.get(i).size(); j++) {
                Job job = batches.get(i).get(j);
                List<Boolean> r = results.get(j);
                for (int k = 0; k < job.checks.size(); k++) {
                    Check ch = job.checks.get(k);
                    Tally t = tallies.get(ch.format);
                    Boolean got = r == null ? null : r.get(k);
                    boolean mutation = !ch.accept;
                    String kind = kind(ch.what);
                    if (mutation) {
                        t.mutations++;
                        KINDS.computeIfAbsent(kind, x -> new int[2])[0]++;
                    }
                    checked.add(
                            ch.format
                                    + "/"
                                    + ch.caseName
                                    + ": "
                                    + ch.what
                                    + (ch.accept ? ": rejected" : ": accepted"));
                    if (got != null && got == ch.accept) {
                        if (mutation) {
                            t.rejected++;
                            KINDS.get(kind)[1]++;
                        } else if (ch.what.equals("as written")) t.accepted++;
                        continue;
                    }
                    String f =
                            ch.format
                                    + "/"
                                    + ch.caseName
                                    + ": "
                                    + ch.what
                                    + ": "
                                    + (got == null
                                            ? "the grammar did not compile"
                                            : ch.accept ? "rejected" : "accepted");
                    boolean hard =
                            got == null
                                    || (ch.accept
                                            && !ch.what.equals(
                                                    "with tools written from its calls"));
                    (hard ? rejected : leaks).add(f);
                    t.failures.add(f);
                }
            }
        }
        writeTable(tallies);
        // the mutations a grammar lets through are listed in KNOWN_LEAKS (what the grammar cannot
        // say yet, on the constraints page); any other one fails
        Set<String> known = new LinkedHashSet<>();
        if (Files.exists(KNOWN_LEAKS))
            for (String l : Files.readAllLines(KNOWN_LEAKS))
                if (!l.isBlank() && !l.startsWith("#")) known.add(l.strip());
        List<String> newLeaks = new ArrayList<>();
        for (String l : leaks) if (!known.contains(l)) newLeaks.add(l);
        // a listed leak that was checked and rejected is fixed: listed, it could come back
        List<String> fixed = new ArrayList<>();
        for (String l : known) if (checked.contains(l) && !leaks.contains(l)) fixed.add(l);
        assertTrue(
                newLeaks.isEmpty(),
                newLeaks.size()
                        + " mutations were accepted that "
                        + KNOWN_LEAKS
                        + " does not list:\n"
                        + String.join("\n", newLeaks));
        assertTrue(
                fixed.isEmpty(),
                fixed.size()
                        + " mutations listed in "
                        + KNOWN_LEAKS
                        + " were rejected; take them out of the list:\n"
                        + String.join("\n", fixed));
        // an output the parser accepts must never be rejected, and every grammar must compile;
        // mutations the grammar lets through are listed in the table (the constraints page says
        // which the grammar cannot say)
        assertTrue(
                rejected.isEmpty(),
                rejected.size()
                        + " outputs the strict parser accepts were rejected (table: "
                        + TABLE
                        + "):\n"
                        + String.join("\n", rejected));
        int mutations = 0;
        int caught = 0;
        for (Tally t : tallies.values()) {
            mutations += t.mutations;
            caught += t.rejected;
        }
        assertTrue(mutations > 0 && caught > 0, "no mutation was checked");
    }

    /** Whether every argument of the call has a value of the type its parameter's schema names. */
    static boolean fits(Tools tools, ParseEvent.ToolCallEnd call) {
        JsonObject fn =
                JsonParser.parseString(tools.functionJson(call.name()).orElseThrow())
                        .getAsJsonObject();
        JsonElement params = fn.get("parameters");
        if (params == null || !params.isJsonObject()) return true;
        JsonElement props = params.getAsJsonObject().get("properties");
        if (props == null || !props.isJsonObject()) return true;
        JsonObject args = JsonParser.parseString(call.arguments()).getAsJsonObject();
        for (Map.Entry<String, JsonElement> a : args.entrySet()) {
            JsonElement p = props.getAsJsonObject().get(a.getKey());
            if (p != null && !fits(p, a.getValue())) return false;
        }
        return true;
    }

    /**
     * Whether a value has a type (and an {@code enum} value) that the schema names; a schema that
     * names a type outside JSON Schema's (int64) takes any value.
     */
    static boolean fits(JsonElement schema, JsonElement v) {
        if (!schema.isJsonObject()) return true;
        JsonObject s = schema.getAsJsonObject();
        if (s.has("enum") && s.get("enum").isJsonArray()) {
            boolean in = false;
            for (JsonElement e : s.getAsJsonArray("enum")) in |= e.equals(v);
            if (!in) return false;
        }
        for (String k : List.of("anyOf", "oneOf"))
            if (s.has(k) && s.get(k).isJsonArray()) {
                boolean any = false;
                for (JsonElement b : s.getAsJsonArray(k)) any |= fits(b, v);
                if (!any) return false;
            }
        if (!s.has("type")) return true;
        List<String> types = new ArrayList<>();
        if (s.get("type").isJsonArray())
            for (JsonElement t : s.getAsJsonArray("type")) types.add(t.getAsString());
        else types.add(s.get("type").getAsString());
        if (!JSON_TYPES.containsAll(types)) return true;
        String t = typeOf(v);
        return types.contains(t) || (t.equals("integer") && types.contains("number"));
    }

    /** The kind of a mutation, from its description. */
    static String kind(String what) {
        if (what.contains("under parallel false")) return "second call under parallel false";
        if (what.startsWith("wrong-typed value")) return "wrong-typed value";
        return what;
    }

    /** The output with the name of a call (not a mention of it) renamed, or null. */
    private static String renamed(Format format, SuiteCase c, String name) {
        String in = c.input();
        for (int at = in.lastIndexOf(name); at >= 0; at = in.lastIndexOf(name, at - 1)) {
            String m = in.substring(0, at) + name + "_zz" + in.substring(at + name.length());
            try {
                for (ParseEvent ev : format.parseEvents(m, Tools.none(), c.options()))
                    if (ev instanceof ParseEvent.ToolCallEnd end && end.name().equals(name + "_zz"))
                        return m;
            } catch (ToolCallParseException e) {
                // not this occurrence
            }
            if (at == 0) break;
        }
        return null;
    }

    /** The output cut right after a call's name, leaving the call open, or null. */
    private static String cutOpen(Format format, SuiteCase c, String name) {
        String in = c.input();
        for (int at = in.lastIndexOf(name); at >= 0; at = in.lastIndexOf(name, at - 1)) {
            String m = in.substring(0, at + name.length());
            try {
                format.parseEvents(m, Tools.none(), c.options());
            } catch (ToolCallParseException e) {
                if (e.kind() == ToolCallParseException.Kind.UNTERMINATED_CALL) return m;
            }
            if (at == 0) break;
        }
        return null;
    }

    private static boolean hasLiteralValues(Format format) {
        LexerModel m = FormatDefinition.of(format).compiled().model();
        for (int r = 0; r < m.ruleNames.length; r++) {
            Role role = m.roleOfRule(r);
            if (role == Role.LIT_ATOM || role == Role.LIT_QUOTE) return true;
        }
        return false;
    }

    private static void add(
            Format format,
            SuiteCase c,
            Tools tools,
            ConstraintOptions options,
            String what,
            String text,
            boolean accept) {
        String key =
                format.name()
                        + "\u0000"
                        + tools.names()
                        + toolsJson(tools)
                        + "\u0000"
                        + options.toolChoice()
                        + options.parallelToolCalls()
                        + options.thinking();
        REQUESTS.computeIfAbsent(key, k -> new Request(format, tools, options, new ArrayList<>()))
                .checks()
                .add(new Check(format.name(), c.name(), what, text, accept));
    }

    private static String toolsJson(Tools tools) {
        StringBuilder b = new StringBuilder();
        for (String n : tools.names()) b.append(tools.functionJson(n).orElse(""));
        return b.toString();
    }

    /** Tools whose schemas the calls satisfy: every argument typed by its value, all required. */
    static Tools toolsFrom(List<ParseEvent.ToolCallEnd> calls) {
        Map<String, JsonObject> props = new LinkedHashMap<>();
        Map<String, Set<String>> required = new LinkedHashMap<>();
        for (ParseEvent.ToolCallEnd call : calls) {
            JsonObject args = JsonParser.parseString(call.arguments()).getAsJsonObject();
            JsonObject p = props.computeIfAbsent(call.name(), k -> new JsonObject());
            Set<String> req = required.get(call.name());
            if (req == null) required.put(call.name(), new LinkedHashSet<>(args.keySet()));
            else req.retainAll(args.keySet());
            for (Map.Entry<String, JsonElement> a : args.entrySet()) {
                JsonObject s = new JsonObject();
                s.addProperty("type", typeOf(a.getValue()));
                if (p.has(a.getKey()) && !p.get(a.getKey()).equals(s))
                    p.add(a.getKey(), new JsonObject());
                else if (!p.has(a.getKey())) p.add(a.getKey(), s);
            }
        }
        JsonArray tools = new JsonArray();
        for (Map.Entry<String, JsonObject> e : props.entrySet()) {
            JsonObject params = new JsonObject();
            params.addProperty("type", "object");
            params.add("properties", e.getValue());
            JsonArray req = new JsonArray();
            for (String r : required.get(e.getKey())) req.add(r);
            params.add("required", req);
            JsonObject fn = new JsonObject();
            fn.addProperty("name", e.getKey());
            fn.add("parameters", params);
            JsonObject tool = new JsonObject();
            tool.addProperty("type", "function");
            tool.add("function", fn);
            tools.add(tool);
        }
        return Tools.parse(tools.toString());
    }

    private static String typeOf(JsonElement v) {
        if (v.isJsonNull()) return "null";
        if (v.isJsonObject()) return "object";
        if (v.isJsonArray()) return "array";
        JsonPrimitive p = v.getAsJsonPrimitive();
        if (p.isBoolean()) return "boolean";
        if (p.isNumber()) return p.getAsString().matches("-?[0-9]+") ? "integer" : "number";
        return "string";
    }

    /**
     * The tools with, for {@code name}: a required string parameter added ({@code key} null), or
     * the parameter {@code key} retyped to a type its value does not have.
     */
    static Tools mutate(Tools tools, String name, String key) {
        JsonArray out = new JsonArray();
        for (String n : tools.names()) {
            JsonObject fn =
                    JsonParser.parseString(tools.functionJson(n).orElseThrow()).getAsJsonObject();
            if (n.equals(name)) {
                JsonObject params =
                        fn.has("parameters") && fn.get("parameters").isJsonObject()
                                ? fn.getAsJsonObject("parameters")
                                : new JsonObject();
                params.addProperty("type", "object");
                if (!params.has("properties")) params.add("properties", new JsonObject());
                JsonObject props = params.getAsJsonObject("properties");
                if (key == null) {
                    JsonObject s = new JsonObject();
                    s.addProperty("type", "string");
                    props.add("zz_required_extra", s);
                    JsonArray req =
                            params.has("required")
                                    ? params.getAsJsonArray("required")
                                    : new JsonArray();
                    req.add("zz_required_extra");
                    params.add("required", req);
                } else {
                    JsonObject s = new JsonObject();
                    JsonElement old = props.get(key);
                    boolean wasNull =
                            old != null
                                    && old.isJsonObject()
                                    && old.getAsJsonObject().has("type")
                                    && old.getAsJsonObject()
                                            .get("type")
                                            .toString()
                                            .contains("null");
                    s.addProperty("type", wasNull ? "integer" : "null");
                    props.add(key, s);
                }
                fn.add("parameters", params);
            }
            JsonObject tool = new JsonObject();
            tool.addProperty("type", "function");
            tool.add("function", fn);
            out.add(tool);
        }
        return Tools.parse(out.toString());
    }

    /** Results per job (null where the grammar did not compile), batch by batch. */
    static List<List<Boolean>> run(List<Job> jobs) {
        return run(jobs, SCRIPT, "grammar");
    }

    /**
     * The checks xgrammar answers otherwise than they say, each as its case name and what the
     * grammar did ({@code rejected} or {@code accepted}); empty where all agree.
     */
    static List<String> disagreements(List<Job> jobs) {
        List<List<Boolean>> got = run(jobs);
        List<String> wrong = new ArrayList<>();
        for (int j = 0; j < jobs.size(); j++) {
            List<Check> checks = jobs.get(j).checks();
            for (int i = 0; i < checks.size(); i++)
                if (got.get(j) == null || got.get(j).get(i) != checks.get(i).accept())
                    wrong.add(
                            checks.get(i).caseName()
                                    + (checks.get(i).accept() ? ": rejected" : ": accepted"));
        }
        return wrong;
    }

    /**
     * Results per job of a Node script that reads {@code [{<key>: grammar, strings: [...]}, ...]}
     * and prints one {@code @@[booleans]} line per job: null where the grammar aborted the runtime
     * (the rest go to a new process).
     */
    static List<List<Boolean>> run(List<Job> jobs, String script, String key) {
        List<List<Boolean>> results = new ArrayList<>();
        int from = 0;
        while (from < jobs.size()) {
            JsonArray input = new JsonArray();
            for (Job j : jobs.subList(from, jobs.size())) {
                JsonObject o = new JsonObject();
                o.addProperty(key, j.grammar);
                JsonArray strings = new JsonArray();
                for (Check c : j.checks) strings.add(c.text);
                o.add("strings", strings);
                input.add(o);
            }
            NodePeers.Result r = NodePeers.run(script, input.toString(), List.of(), 600);
            int done = 0;
            for (String line : r.stdout().split("\n")) {
                if (!line.startsWith("@@")) continue;
                List<Boolean> one = new ArrayList<>();
                for (JsonElement b : JsonParser.parseString(line.substring(2)).getAsJsonArray())
                    one.add(b.getAsBoolean());
                results.add(one);
                done++;
            }
            from += done;
            if (from < jobs.size() && r.exitCode() != 0) {
                results.add(null); // this grammar aborted the runtime
                from++;
            } else if (from < jobs.size()) {
                throw new AssertionError("node stopped early without an error:\n" + r.stderr());
            }
        }
        return results;
    }

    private static void writeTable(Map<String, Tally> tallies) throws Exception {
        StringBuilder b = new StringBuilder();
        b.append(
                "| format | cases accepted | mutations rejected | grammar (chars, no tools) |\n|---|---|---|---|\n");
        for (Map.Entry<String, Tally> e : tallies.entrySet()) {
            Tally t = e.getValue();
            b.append("| ")
                    .append(e.getKey())
                    .append(" | ")
                    .append(t.accepted)
                    .append("/")
                    .append(t.cases)
                    .append(" | ")
                    .append(t.rejected)
                    .append("/")
                    .append(t.mutations)
                    .append(" | ")
                    .append(t.grammarChars)
                    .append(" |\n");
        }
        b.append("\n| mutation | rejected |\n|---|---|\n");
        for (Map.Entry<String, int[]> e : KINDS.entrySet())
            b.append("| ")
                    .append(e.getKey())
                    .append(" | ")
                    .append(e.getValue()[1])
                    .append("/")
                    .append(e.getValue()[0])
                    .append(" |\n");
        for (Tally t : tallies.values()) for (String f : t.failures) b.append("\n- ").append(f);
        Files.createDirectories(TABLE.getParent());
        Files.writeString(TABLE, b.toString());
        System.out.println(b);
    }

    /** The tools a case gives, or none. */
    static Tools tools(SuiteCase c) {
        return c.expected().has("tools")
                ? Tools.parse(c.expected().get("tools").toString())
                : Tools.none();
    }

    /**
     * The calls of a case the strict parser reads whole with these tools; null for a lenient case,
     * one that expects an error, or one the strict parser rejects.
     */
    static List<ParseEvent.ToolCallEnd> strictCalls(Format format, SuiteCase c, Tools tools) {
        if (c.lenient() || c.expected().has("error") || c.expected().has("_problem")) return null;
        List<ParseEvent.ToolCallEnd> calls = new ArrayList<>();
        try {
            for (ParseEvent ev : format.parseEvents(c.input(), tools, c.options()))
                if (ev instanceof ParseEvent.ToolCallEnd end) calls.add(end);
        } catch (ToolCallParseException ex) {
            return null;
        }
        return calls;
    }
}
