package dev.toolcalls;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.google.gson.JsonPrimitive;

import dev.toolcalls.internal.format.CompiledFormat;
import dev.toolcalls.internal.format.FormatDefinition;
import dev.toolcalls.suite.CaseRunner;
import dev.toolcalls.tools.OutputGenerator;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.Stream;

/**
 * Outputs written from each format's grammar alone ({@code toolcalls generate}), a seeded batch per
 * format: batch and stream agree under 1-character and random chunkings, every delta keeps the
 * streaming contract, nothing but a {@link ToolCallParseException} is thrown, and where the
 * generator knows the output holds complete calls, they come back with the names it wrote (and the
 * arguments, where the format streams them verbatim).
 */
class GeneratedOutputsTest {
    static final int PER_FORMAT = 30;
    static final ParseOptions SEEDED = ParseOptions.defaults().withIds(() -> IdGenerator.seeded(0));
    static final AtomicInteger VOUCHED = new AtomicInteger();
    static final AtomicInteger TOTAL = new AtomicInteger();

    @TestFactory
    Stream<DynamicTest> everyFormat() {
        CaseRunner runner = new CaseRunner(6, 8);
        return Formats.all().stream()
                .map(
                        f ->
                                DynamicTest.dynamicTest(
                                        f.name(),
                                        () -> {
                                            CompiledFormat c = FormatDefinition.of(f).compiled();
                                            OutputGenerator generator =
                                                    new OutputGenerator(
                                                            c.model(),
                                                            c.rules().thinkingDefault()
                                                                    ? c.rules().thinkingMode()
                                                                    : -1,
                                                            c.rules().implicitCallEnd());
                                            Random random = new Random(f.name().hashCode());
                                            for (int i = 0; i < PER_FORMAT; i++) {
                                                OutputGenerator.Sample s = generator.next(random);
                                                String input =
                                                        new JsonPrimitive(s.text()).toString();
                                                TOTAL.incrementAndGet();
                                                List<String> problems;
                                                try {
                                                    problems =
                                                            runner.runUnexpected(
                                                                    f, s.text(), SEEDED, null);
                                                } catch (RuntimeException e) {
                                                    throw new AssertionError(
                                                            f.name()
                                                                    + ": "
                                                                    + e
                                                                    + " on generated output "
                                                                    + input,
                                                            e);
                                                }
                                                assertEquals(
                                                        List.of(),
                                                        problems,
                                                        f.name() + ", generated output " + input);
                                                if (s.calls() == null) continue;
                                                VOUCHED.incrementAndGet();
                                                ChatMessage m;
                                                try {
                                                    m = f.parse(s.text(), Tools.none(), SEEDED);
                                                } catch (ToolCallParseException e) {
                                                    // the lexer checks the shape of a call, not
                                                    // that raw JSON arguments are one valid object
                                                    assertEquals(
                                                            ToolCallParseException.Kind
                                                                    .MALFORMED_ARGUMENTS,
                                                            e.kind(),
                                                            f.name()
                                                                    + ": "
                                                                    + e.getMessage()
                                                                    + " on "
                                                                    + input);
                                                    continue;
                                                }
                                                List<String> names = new ArrayList<>();
                                                List<String> wrote = new ArrayList<>();
                                                for (ToolCall t : m.toolCalls())
                                                    names.add(t.name());
                                                for (OutputGenerator.Call call : s.calls())
                                                    wrote.add(call.name());
                                                assertEquals(
                                                        wrote,
                                                        names,
                                                        f.name()
                                                                + ": the names written in "
                                                                + input);
                                                for (int k = 0; k < s.calls().size(); k++) {
                                                    String args = s.calls().get(k).arguments();
                                                    if (args != null)
                                                        assertEquals(
                                                                args,
                                                                m.toolCalls().get(k).arguments(),
                                                                f.name()
                                                                        + ": the arguments written in "
                                                                        + input);
                                                }
                                            }
                                        }));
    }

    @AfterAll
    static void theGeneratorVouchesForAFairShare() {
        if (TOTAL.get() < 200) return;
        assertTrue(
                VOUCHED.get() * 10 >= TOTAL.get(),
                "the generator knew the calls of only " + VOUCHED + " of " + TOTAL + " outputs");
    }
}
