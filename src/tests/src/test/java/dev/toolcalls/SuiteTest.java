package dev.toolcalls;

import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.toolcalls.suite.CaseRunner;
import dev.toolcalls.suite.SuiteCase;

import org.junit.jupiter.api.DynamicContainer;
import org.junit.jupiter.api.DynamicNode;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

/**
 * Every case of every format in {@code tests-data/}, plus the runtime's own fixture cases: batch,
 * 1-character chunks, every 2-way split and 50 seeded random chunkings each, checking the streaming
 * contract on every delta (see {@link CaseRunner}).
 */
class SuiteTest {
    static final Path TESTS_DATA = Path.of("tests-data");
    static final Path FIXTURES = Path.of("src/tests/src/test/resources/suite");

    @TestFactory
    Stream<DynamicNode> testsData() {
        return suite(TESTS_DATA);
    }

    @TestFactory
    Stream<DynamicNode> runtimeFixtures() {
        return suite(FIXTURES);
    }

    private static Stream<DynamicNode> suite(Path dir) {
        if (!Files.isDirectory(dir)) return Stream.empty();
        CaseRunner runner = CaseRunner.standard();
        List<DynamicNode> formats = new ArrayList<>();
        for (Map.Entry<String, List<SuiteCase>> e : SuiteCase.load(dir).entrySet()) {
            List<DynamicNode> cases = new ArrayList<>();
            for (SuiteCase c : e.getValue()) {
                cases.add(
                        DynamicTest.dynamicTest(
                                c.name(),
                                c.rawFile().toUri(),
                                () -> {
                                    List<String> problems = runner.run(c);
                                    assertTrue(
                                            problems.isEmpty(),
                                            () ->
                                                    c
                                                            + " ("
                                                            + c.expected().get("description")
                                                            + "):\n  "
                                                            + String.join("\n  ", problems));
                                }));
            }
            formats.add(DynamicContainer.dynamicContainer(e.getKey(), cases));
        }
        return formats.stream();
    }

    /** No two formats claim a name, no provider fails, and every registered format builds. */
    @Test
    void everyRegisteredFormatLoads() {
        assertTrue(Formats.problems().isEmpty(), () -> Formats.problems().toString());
        for (Format f : Formats.all())
            assertTrue(f.problem().isEmpty(), () -> f.problem().get().getMessage());
    }

    /** A format without regression cases is a format nobody checks. */
    @Test
    void everyBundledFormatHasCases() {
        for (Format f : Formats.all()) {
            if (f.name().equals("toy"))
                continue; // the runtime's test fixture; its cases are FIXTURES
            Path dir = TESTS_DATA.resolve(f.name());
            assertTrue(
                    Files.isDirectory(dir),
                    "format " + f.name() + " has no tests-data/" + f.name() + "/");
            assertTrue(
                    SuiteCase.load(TESTS_DATA).getOrDefault(f.name(), List.of()).size() >= 10,
                    "format "
                            + f.name()
                            + " has fewer than 10 cases in tests-data/"
                            + f.name()
                            + "/");
        }
    }
}
