package dev.toolcalls;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

/** A Format (its lexer caches included) is shared by many responses parsed at once. */
class ConcurrencyTest {
    @Test
    void oneFormatServesManyThreadsAtOnce() throws Exception {
        Format toy =
                ToyFormats.compile(
                        ToyFormats.resource("dev/toolcalls/toy/ToyLexer.g4"),
                        ToyFormats.resource("dev/toolcalls/toy/toy.json"));
        StringBuilder b = new StringBuilder();
        for (int i = 0; i < 200; i++)
            b.append("é中😀 text ")
                    .append(i)
                    .append(" <ca <call f")
                    .append((char) ('a' + i % 26))
                    .append(">{\"v\": \"ü")
                    .append(i)
                    .append("</c\"}</call>\n");
        String text = b.toString();
        ParseOptions options = ParseOptions.defaults().withIds(() -> IdGenerator.seeded(3));
        ExecutorService pool = Executors.newFixedThreadPool(8);
        try {
            List<Future<ChatMessage>> results = new ArrayList<>();
            for (int t = 0; t < 32; t++) {
                // small chunks, and chunks long enough that the lexer compares the tokens the
                // format's model knows (which all threads teach it at once) where they lie
                int step = t % 4 == 3 ? 40 + 9 * t : 1 + t % 7;
                results.add(
                        pool.submit(
                                () -> {
                                    StreamParser s = toy.newStream(Tools.none(), options);
                                    List<DeltaMessage> all = new ArrayList<>();
                                    for (int i = 0; i < text.length(); i += step)
                                        all.addAll(
                                                DeltaMessage.of(
                                                        s.feed(
                                                                text.substring(
                                                                        i,
                                                                        Math.min(
                                                                                text.length(),
                                                                                i + step)))));
                                    all.addAll(DeltaMessage.of(s.finish()));
                                    return ChatMessage.fromDeltas(all);
                                }));
            }
            ChatMessage expected = toy.parse(text, Tools.none(), options);
            assertEquals(200, expected.toolCalls().size());
            for (Future<ChatMessage> f : results) assertEquals(expected, f.get());
        } finally {
            pool.shutdownNow();
        }
    }
}
