package dev.toolcalls;

import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.toolcalls.bench.ConstraintBenchmark;

import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A constraint's grammar grows linearly with its tools: for every bundled format, twice the tools
 * (of the benchmark's shape: five parameters, two of them required) give at most about twice the
 * text. A rule copied per tool pair, or a tool's value rules copied per combination of parameters
 * written, grows faster and fails this.
 */
class ConstraintGrowthTest {
    /** Twice the tools: twice the per-tool part, plus the part for no tools at most once more. */
    private static final double MAX_RATIO = 2.2;

    /** A rule of a key matcher: {@code xk_TOKEN_KEYS_STATE ::= body}. */
    private static final Pattern KEY_RULE =
            Pattern.compile("^(xk_\\w+?_(\\d+))_(\\d+) ::= (.*)$", Pattern.MULTILINE);

    @Test
    void twiceTheToolsAtMostAboutTwiceTheGrammar() {
        Tools ten = Tools.parse(ConstraintBenchmark.tools(10));
        Tools twenty = Tools.parse(ConstraintBenchmark.tools(20));
        List<String> over = new ArrayList<>();
        for (Format f : Formats.all()) {
            int a = f.constraint(ten, ConstraintOptions.defaults()).length();
            int b = f.constraint(twenty, ConstraintOptions.defaults()).length();
            assertTrue(b > a, f.name() + ": more tools, more grammar (" + a + ", " + b + ")");
            if (b > MAX_RATIO * a)
                over.add(
                        String.format(
                                "%s: %d characters for 10 tools, %d for 20 (x%.2f)",
                                f.name(), a, b, (double) b / a));
        }
        assertTrue(
                over.isEmpty(),
                "grammar size not linear in the tools:\n" + String.join("\n", over));
    }

    /**
     * The matcher of the other keys of a tool's object writes each state once: no two of its rules
     * have the same body once each rule's references to itself are marked (a loop of blanks after a
     * name is one rule, not one per name), and two key tokens of one language share one matcher
     * rather than each writing the same rules under its own names.
     */
    @Test
    void keyMatchersWriteEachStateOnce() {
        Tools twenty = Tools.parse(ConstraintBenchmark.tools(20));
        List<String> twice = new ArrayList<>();
        for (Format f : Formats.all()) {
            String g = f.constraint(twenty, ConstraintOptions.defaults());
            // per matcher (token and keys), its bodies, each rule's own name marked
            Map<String, List<String>> matchers = new TreeMap<>();
            Map<String, String> keysOf = new HashMap<>();
            Matcher m = KEY_RULE.matcher(g);
            while (m.find()) {
                String matcher = m.group(1);
                String name = matcher + "_" + m.group(3);
                String body = m.group(4).replaceAll("\\b" + name + "\\b", "@self");
                matchers.computeIfAbsent(matcher, k -> new ArrayList<>()).add(body);
                keysOf.put(matcher, m.group(2));
            }
            Map<String, String> seen = new HashMap<>();
            for (Map.Entry<String, List<String>> e : matchers.entrySet()) {
                List<String> bodies = e.getValue();
                if (bodies.size() != bodies.stream().distinct().count())
                    twice.add(f.name() + ": " + e.getKey() + " writes a state twice");
                String token = e.getKey().substring(0, e.getKey().lastIndexOf('_'));
                List<String> alike = new ArrayList<>();
                for (String b : bodies) alike.add(b.replace(token + "_", "@_"));
                alike.sort(null);
                String held = seen.putIfAbsent(keysOf.get(e.getKey()) + " " + alike, e.getKey());
                if (held != null)
                    twice.add(f.name() + ": " + e.getKey() + " and " + held + " are one matcher");
            }
        }
        assertTrue(twice.isEmpty(), String.join("\n", twice));
    }

    /**
     * A parameter's value and what follows it are written apart where the value's mode allows: in a
     * DSML or {@code dots} call, whose value is ended by the parameter's close tag before the next
     * parameter or the call's end, every rule of the value's mode is one of what follows the value,
     * made once per required state of a tool (the benchmark's tools require two of their five
     * parameters: four states) and spelling of the mode, never one per parameter as well.
     */
    @Test
    void aValueAndWhatFollowsItAreWrittenApart() {
        Tools twenty = Tools.parse(ConstraintBenchmark.tools(20));
        // a frame's rule: m_MODE_cCONTEXT_..., its mode's name holding VALUE
        Pattern valueRule =
                Pattern.compile("^m_(\\w*?VALUE\\w*?)_c\\d+\\S* ::=", Pattern.MULTILINE);
        for (String name : List.of("deepseek_v4", "dots", "mimo")) {
            String g = Formats.get(name).constraint(twenty, ConstraintOptions.defaults());
            Matcher m = valueRule.matcher(g);
            int tails = 0;
            Set<String> modes = new TreeSet<>();
            while (m.find()) {
                String rule = m.group().substring(0, m.group().length() - " ::=".length());
                assertTrue(rule.endsWith("_t"), name + ": " + rule + " writes a value whole");
                modes.add(m.group(1));
                tails++;
            }
            assertTrue(tails > 0, name + ": no value mode is written apart");
            assertTrue(
                    tails <= 20 * 4 * modes.size(),
                    name + ": " + tails + " rules of what follows a value in " + modes);
        }
    }
}
