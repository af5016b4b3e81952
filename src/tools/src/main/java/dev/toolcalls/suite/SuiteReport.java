package dev.toolcalls.suite;

import dev.toolcalls.FormatException;

import java.io.PrintStream;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** Runs a whole suite directory and prints a pass/fail table per format. */
public final class SuiteReport {
    private final Map<String, int[]> counts = new LinkedHashMap<>(); // format -> {cases, failed}
    private final List<String> failures = new ArrayList<>();

    public static SuiteReport run(Path suiteDir, CaseRunner runner) {
        return run(suiteDir, runner, List.of());
    }

    /**
     * Runs a suite. A format that cannot be loaded fails all its cases and is reported once; so is
     * each of {@code formatProblems} (formats that cannot be used, whether or not the suite has
     * cases for them).
     */
    public static SuiteReport run(Path suiteDir, CaseRunner runner, List<String> formatProblems) {
        SuiteReport report = new SuiteReport();
        for (String p : formatProblems) report.failures.add("format: " + p);
        for (Map.Entry<String, List<SuiteCase>> e : SuiteCase.load(suiteDir).entrySet()) {
            int[] n = report.counts.computeIfAbsent(e.getKey(), k -> new int[2]);
            String broken = null;
            try {
                runner.format(e.getKey());
            } catch (FormatException ex) {
                broken = ex.getMessage();
            }
            if (broken != null) {
                n[0] += e.getValue().size();
                n[1] += e.getValue().size();
                if (formatProblems.stream().noneMatch(broken::equals))
                    report.failures.add(
                            e.getKey()
                                    + ": all "
                                    + e.getValue().size()
                                    + " cases: the format cannot be loaded: "
                                    + broken);
                continue;
            }
            for (SuiteCase c : e.getValue()) {
                n[0]++;
                List<String> problems;
                try {
                    problems = runner.run(c);
                } catch (RuntimeException ex) {
                    problems = List.of("crashed: " + ex);
                }
                if (!problems.isEmpty()) {
                    n[1]++;
                    report.failures.add(
                            c
                                    + "\n    "
                                    + String.join(
                                            "\n    ",
                                            problems.subList(0, Math.min(5, problems.size()))));
                }
            }
        }
        return report;
    }

    public boolean passed() {
        return failures.isEmpty() && !counts.isEmpty();
    }

    public int failureCount() {
        return failures.size();
    }

    public void print(PrintStream out) {
        int width = Math.max(6, counts.keySet().stream().mapToInt(String::length).max().orElse(6));
        out.printf("%-" + width + "s  %6s  %6s  %6s%n", "format", "cases", "passed", "failed");
        int cases = 0;
        int failed = 0;
        for (Map.Entry<String, int[]> e : counts.entrySet()) {
            int[] n = e.getValue();
            out.printf("%-" + width + "s  %6d  %6d  %6d%n", e.getKey(), n[0], n[0] - n[1], n[1]);
            cases += n[0];
            failed += n[1];
        }
        out.printf("%-" + width + "s  %6d  %6d  %6d%n", "total", cases, cases - failed, failed);
        for (String f : failures) out.println("FAIL " + f);
        out.println((cases - failed) + " passed, " + failed + " failed");
    }
}
