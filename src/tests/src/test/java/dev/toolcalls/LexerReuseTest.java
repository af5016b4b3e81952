package dev.toolcalls;

import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.toolcalls.bench.Corpora;
import dev.toolcalls.suite.SuiteCase;

import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Random;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

/**
 * A finished parser gives its parts (its lexer, the assemblers) back for the next parser of the
 * format to reuse. Whatever the order, the options (lenient base modes, thinking modes, tools), the
 * errors, the parsers abandoned midway and the threads, each parse gives what a parser with parts
 * of its own gives.
 */
class LexerReuseTest {
    private record Run(Format format, SuiteCase c, Tools tools, String batch, String streamed) {}

    @Test
    void reusedLexersParseAsFreshOnes() throws Exception {
        List<Run> runs = new ArrayList<>();
        for (String name : List.of("hermes", "qwen3", "gpt_oss", "kimi_k2", "pythonic")) {
            Format f = Formats.get(name);
            for (SuiteCase c : Corpora.cases(f)) {
                if (c.expected().has("_problem")) continue;
                Tools tools =
                        c.expected().has("tools") && !c.expected().get("tools").isJsonNull()
                                ? Tools.parse(c.expected().get("tools").toString())
                                : Tools.none();
                GrammarFormat g = (GrammarFormat) f;
                String batch;
                try {
                    batch =
                            message(
                                    ChatMessage.fromEvents(
                                            g.newSimulatedStream(tools, c.options())
                                                    .wholeOutput()
                                                    .feedWhole(c.input())));
                } catch (ToolCallParseException e) {
                    batch = error(e);
                }
                String streamed =
                        outcome(g.newSimulatedStream(tools, c.options()), List.of(c.input()));
                runs.add(new Run(f, c, tools, batch, streamed));
            }
        }
        assertTrue(runs.size() > 100, runs.size() + " cases");
        ExecutorService pool = Executors.newFixedThreadPool(4);
        ExecutorService feeders = Executors.newFixedThreadPool(3);
        try {
            List<Future<String>> pending = new ArrayList<>();
            List<Run> order = new ArrayList<>();
            for (int round = 0; round < 4; round++) {
                List<Run> shuffled = new ArrayList<>(runs);
                Collections.shuffle(shuffled, new Random(round));
                for (Run r : shuffled) {
                    int seed = pending.size();
                    pending.add(pool.submit(() -> parse(r, new Random(seed), feeders)));
                    order.add(r);
                }
            }
            for (int i = 0; i < pending.size(); i++) {
                Run r = order.get(i);
                String got = pending.get(i).get();
                assertTrue(
                        got.equals(r.batch) || got.equals(r.streamed),
                        r.format + " " + r.c.name() + ": " + got);
            }
        } finally {
            pool.shutdownNow();
            feeders.shutdownNow();
        }
    }

    /** Batch, or streamed in random chunks (some fed from another thread); some abandoned first. */
    private static String parse(Run r, Random random, ExecutorService pool) throws Exception {
        if (random.nextInt(5) == 0) { // a parser abandoned midway holds its lexer for good
            StreamParser s = r.format.newStream(r.tools, r.c.options());
            try {
                s.feed(r.c.input().substring(0, r.c.input().length() / 2));
            } catch (ToolCallParseException e) {
                // it failed before the half: abandoned all the same
            }
        }
        if (random.nextBoolean()) {
            String got;
            try {
                got = message(r.format.parse(r.c.input(), r.tools, r.c.options()));
            } catch (ToolCallParseException e) {
                got = error(e);
            }
            return got.equals(r.batch) ? got : "batch: " + got;
        }
        List<String> chunks = new ArrayList<>();
        String text = r.c.input();
        for (int i = 0; i < text.length(); ) {
            int n = Math.min(text.length() - i, 1 + random.nextInt(6));
            if (Character.isHighSurrogate(text.charAt(i + n - 1)) && i + n < text.length()) n++;
            chunks.add(text.substring(i, i + n));
            i += n;
        }
        StreamParser s = r.format.newStream(r.tools, r.c.options());
        String got;
        if (random.nextBoolean()) {
            got = outcome(s, chunks);
        } else { // fed from other threads in turn
            List<DeltaMessage> all = new ArrayList<>();
            try {
                for (String c : chunks)
                    all.addAll(pool.submit(() -> DeltaMessage.of(s.feed(c))).get());
                all.addAll(DeltaMessage.of(s.finish()));
                got = message(ChatMessage.fromDeltas(all));
            } catch (ExecutionException e) {
                if (!(e.getCause() instanceof ToolCallParseException)) throw e;
                got = error((ToolCallParseException) e.getCause());
            } catch (ToolCallParseException e) {
                got = error(e);
            }
        }
        return got.equals(r.streamed) ? got : "streamed: " + got;
    }

    private static String outcome(StreamParser s, List<String> chunks) {
        List<DeltaMessage> all = new ArrayList<>();
        try {
            for (String c : chunks) all.addAll(DeltaMessage.of(s.feed(c)));
            all.addAll(DeltaMessage.of(s.finish()));
        } catch (ToolCallParseException e) {
            return error(e);
        }
        return message(ChatMessage.fromDeltas(all));
    }

    private static String message(ChatMessage m) {
        return m.toString();
    }

    private static String error(ToolCallParseException e) {
        return "error " + e.kind() + " at " + e.offset();
    }
}
