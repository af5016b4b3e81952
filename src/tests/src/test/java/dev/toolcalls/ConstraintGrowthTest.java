package dev.toolcalls;

import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.toolcalls.bench.ConstraintBenchmark;

import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;

/**
 * A constraint's grammar grows linearly with its tools: for every bundled format, twice the tools
 * (of the benchmark's shape: five parameters, two of them required) give at most about twice the
 * text. A rule copied per tool pair, or a tool's value rules copied per combination of parameters
 * written, grows faster and fails this.
 */
class ConstraintGrowthTest {
    /** Twice the tools: twice the per-tool part, plus the part for no tools at most once more. */
    private static final double MAX_RATIO = 2.2;

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
}
