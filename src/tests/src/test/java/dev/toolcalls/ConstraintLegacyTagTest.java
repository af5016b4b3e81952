package dev.toolcalls;

import static org.junit.jupiter.api.Assertions.assertTrue;

import com.google.gson.JsonElement;
import com.google.gson.JsonObject;
import com.google.gson.JsonParser;

import dev.toolcalls.suite.SuiteCase;

import org.junit.jupiter.api.Test;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * The {@code structural-tag-legacy} target checked by xgrammar 0.1.27 ({@code
 * Grammar.fromStructuralTag(structures, triggers)} under Node, {@code @mlc-ai/web-xgrammar}): for
 * every format and every strictly parsed regression case with tools (its own, or written from its
 * calls as {@link ConstraintXgrammarTest} does), the tag built with those tools either is refused (the format cannot be said in this form: the reason is tabled) or
 * compiles; it accepts the case's whole output wherever each call is spelled as its structure's
 * begin followed by the arguments' {@code {} and then its end, and the trigger occurs only
 * at calls (xgrammar enters a structure at every trigger, in text and reasoning too), and rejects it under the case's tools changed: a required argument added (missing in the
 * call) and an argument retyped (a wrong-typed value). The table goes to {@link #TABLE}.
 */
class ConstraintLegacyTagTest {
    static final Path TABLE = Path.of("src/tests/target/constraint-legacy-table.md");

    /** Reads jobs [{tag, strings}] on stdin, prints one line of results per job. */
    static final String SCRIPT =
            """
            const Module = require('module'); const fs = require('fs'); const path = require('path');
            const file = path.resolve('node_modules/@mlc-ai/web-xgrammar/lib/index.js');
            const m = new Module(file); m.filename = file; m.paths = Module._nodeModulePaths(path.dirname(file));
            m._compile(fs.readFileSync(file, 'utf8'), file);
            const xg = m.exports;
            (async () => {
              const jobs = JSON.parse(fs.readFileSync(0, 'utf8'));
              for (const job of jobs) {
                const tag = JSON.parse(job.tag);
                const items = tag.structures.map(s => new xg.StructuralTagItem(s.begin, s.schema, s.end));
                const g = await xg.Grammar.fromStructuralTag(items, tag.triggers);
                const out = [];
                for (const s of job.strings) out.push(await xg.Testings.isGrammarAcceptString(g, s));
                process.stdout.write('@@' + JSON.stringify(out) + '\\n');
              }
            })().catch(e => { console.error(String(e)); process.exit(3); });
            """;

    static final class Tally {
        String refused;
        int cases;
        int spelled;
        int accepted;
        int mutations;
        int rejected;
        final List<String> failures = new ArrayList<>();
    }

    @Test
    void everySpelledCaseAcceptedEveryMutationRejected() throws Exception {
        Map<String, Tally> tallies = new TreeMap<>();
        List<ConstraintXgrammarTest.Job> jobs = new ArrayList<>();
        Map<ConstraintXgrammarTest.Check, Boolean> spelled = new LinkedHashMap<>();
        for (Map.Entry<String, List<SuiteCase>> e :
                SuiteCase.load(Path.of("tests-data")).entrySet()) {
            Format format = Formats.get(e.getKey());
            Tally tally = tallies.computeIfAbsent(format.name(), k -> new Tally());
            for (SuiteCase c : e.getValue()) {
                Tools given = ConstraintXgrammarTest.tools(c);
                List<ParseEvent.ToolCallEnd> calls =
                        ConstraintXgrammarTest.strictCalls(format, c, given);
                if (calls == null) continue;
                if (given.size() == 0 && calls.isEmpty()) continue;
                Tools tools = given.size() > 0 ? given : ConstraintXgrammarTest.toolsFrom(calls);
                if (!calls.stream().allMatch(k -> tools.names().contains(k.name()))) continue;
                String tag;
                try {
                    tag = legacy(format, tools);
                } catch (ConstraintException ex) {
                    tally.refused = ex.getMessage();
                    continue;
                }
                tally.cases++;
                boolean asBegun = true;
                JsonObject parsed = JsonParser.parseString(tag).getAsJsonObject();
                int from = 0;
                for (ParseEvent.ToolCallEnd call : calls) {
                    String begin = beginOf(parsed, call.name());
                    int at = c.input().indexOf(begin, from);
                    if (at < 0
                            || at + begin.length() >= c.input().length()
                            || c.input().charAt(at + begin.length()) != '{') asBegun = false;
                    else {
                        String end = endOf(parsed, call.name());
                        int close = c.input().indexOf(end, at + begin.length());
                        if (close < 0) asBegun = false;
                        else from = close + end.length();
                    }
                }
                String trigger = parsed.getAsJsonArray("triggers").get(0).getAsString();
                int triggers = 0;
                for (int i = c.input().indexOf(trigger);
                        i >= 0;
                        i = c.input().indexOf(trigger, i + 1)) triggers++;
                if (triggers != calls.size()) asBegun = false; // a trigger in text or reasoning
                ConstraintXgrammarTest.Check asWritten =
                        new ConstraintXgrammarTest.Check(
                                format.name(), c.name(), "as written", c.input(), true);
                spelled.put(asWritten, asBegun);
                jobs.add(new ConstraintXgrammarTest.Job(tag, List.of(asWritten)));
                if (calls.isEmpty() || !asBegun) continue;
                ParseEvent.ToolCallEnd last = calls.get(calls.size() - 1);
                List<ConstraintXgrammarTest.Check> mutated = new ArrayList<>();
                jobs.add(
                        new ConstraintXgrammarTest.Job(
                                legacy(
                                        format,
                                        ConstraintXgrammarTest.mutate(tools, last.name(), null)),
                                List.of(
                                        new ConstraintXgrammarTest.Check(
                                                format.name(),
                                                c.name(),
                                                "missing required argument",
                                                c.input(),
                                                false))));
                JsonElement args = JsonParser.parseString(last.arguments());
                if (args.isJsonObject() && !args.getAsJsonObject().keySet().isEmpty()) {
                    String key = args.getAsJsonObject().keySet().iterator().next();
                    jobs.add(
                            new ConstraintXgrammarTest.Job(
                                    legacy(
                                            format,
                                            ConstraintXgrammarTest.mutate(tools, last.name(), key)),
                                    List.of(
                                            new ConstraintXgrammarTest.Check(
                                                    format.name(),
                                                    c.name(),
                                                    "wrong-typed value of " + key,
                                                    c.input(),
                                                    false))));
                }
                mutated.clear();
            }
        }
        List<List<Boolean>> results = run(jobs);
        List<String> failures = new ArrayList<>();
        for (int i = 0; i < jobs.size(); i++) {
            ConstraintXgrammarTest.Job job = jobs.get(i);
            ConstraintXgrammarTest.Check ch = job.checks().get(0);
            Tally t = tallies.get(ch.format());
            List<Boolean> r = results.get(i);
            if (r == null) {
                failures.add(ch.format() + "/" + ch.caseName() + ": the tag did not compile");
                continue;
            }
            boolean got = r.get(0);
            if (ch.accept()) {
                boolean begun = spelled.get(ch);
                if (begun) t.spelled++;
                if (got) t.accepted++;
                else if (begun)
                    failures.add(ch.format() + "/" + ch.caseName() + ": rejected as written");
            } else {
                t.mutations++;
                if (!got) t.rejected++;
                else failures.add(ch.format() + "/" + ch.caseName() + ": accepted " + ch.what());
            }
        }
        writeTable(tallies);
        assertTrue(failures.isEmpty(), String.join("\n", failures));
        long supported = tallies.values().stream().filter(t -> t.cases > 0).count();
        assertTrue(supported > 0, "no format has a legacy structural tag");
    }

    private static String legacy(Format format, Tools tools) {
        return format.constraint(
                tools,
                ConstraintOptions.defaults()
                        .withTarget(ConstraintOptions.Target.STRUCTURAL_TAG_LEGACY));
    }

    private static String beginOf(JsonObject tag, String name) {
        for (JsonElement s : tag.getAsJsonArray("structures")) {
            String begin = s.getAsJsonObject().get("begin").getAsString();
            if (begin.contains(name)) return begin;
        }
        return "\u0000";
    }

    private static String endOf(JsonObject tag, String name) {
        for (JsonElement s : tag.getAsJsonArray("structures"))
            if (s.getAsJsonObject().get("begin").getAsString().contains(name))
                return s.getAsJsonObject().get("end").getAsString();
        return "\u0000";
    }

    /** Results per job (null where the tag did not compile), many jobs per Node process. */
    static List<List<Boolean>> run(List<ConstraintXgrammarTest.Job> jobs) {
        return ConstraintXgrammarTest.run(jobs, SCRIPT, "tag");
    }

    private static void writeTable(Map<String, Tally> tallies) throws Exception {
        StringBuilder b = new StringBuilder();
        b.append(
                        "| format | structural-tag-legacy | cases accepted (spelled as the begins / all) |")
                .append(" mutations rejected |\n|---|---|---|---|\n");
        for (Map.Entry<String, Tally> e : tallies.entrySet()) {
            Tally t = e.getValue();
            if (t.cases == 0 && t.refused == null) continue;
            b.append("| ").append(e.getKey()).append(" | ");
            if (t.cases == 0)
                b.append("refused: ").append(t.refused.replace("|", "\\|")).append(" | - | - |\n");
            else
                b.append("supported | ")
                        .append(t.accepted)
                        .append("/")
                        .append(t.cases)
                        .append(" (")
                        .append(t.spelled)
                        .append(" spelled as the begins) | ")
                        .append(t.rejected)
                        .append("/")
                        .append(t.mutations)
                        .append(" |\n");
        }
        Files.createDirectories(TABLE.getParent());
        Files.writeString(TABLE, b.toString());
    }
}
