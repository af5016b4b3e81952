package dev.toolcalls;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.toolcalls.bench.Corpora;

import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;

/**
 * The heap an open stream holds: at most 2 KB per stream (plus what it holds back, nothing here),
 * measured as the heap's growth over many open streams of each format after a few characters of
 * prose, each after full collections. A size, not a time: the machine's load does not move it.
 */
class StreamMemoryTest {
    private static final int STREAMS = 20_000;
    private static final long MAX_BYTES_PER_STREAM = 2048;
    private static final List<String> FORMATS = Corpora.MATRIX;
    private static final String PROSE = "Let me look that up for you now. ";

    @Test
    void anOpenStreamHoldsAtMostTwoKilobytes() throws InterruptedException {
        StringBuilder figures = new StringBuilder();
        for (String name : FORMATS) {
            Format f = Formats.get(name);
            // the format's shared state (lexer model, DFA cache) is built before measuring
            StreamParser warm = f.newStream();
            List<ParseEvent> events = new ArrayList<>(warm.feed(PROSE));
            events.addAll(warm.finish());
            assertEquals(PROSE.strip(), text(events).strip(), name);
            List<StreamParser> open = new ArrayList<>(STREAMS);
            long before = usedHeap();
            for (int i = 0; i < STREAMS; i++) {
                StreamParser p = f.newStream();
                p.feed(PROSE);
                open.add(p);
            }
            long after = usedHeap();
            long perStream = (after - before) / STREAMS;
            figures.append(name).append(' ').append(perStream).append(" B; ");
            assertTrue(
                    perStream <= MAX_BYTES_PER_STREAM,
                    name + ": " + perStream + " bytes per open stream (" + figures + ")");
            assertEquals(STREAMS, open.size());
        }
        System.out.println("heap per open stream: " + figures);
    }

    /** The text of the events. */
    private static String text(List<ParseEvent> events) {
        StringBuilder text = new StringBuilder();
        for (ParseEvent e : events) if (e instanceof ParseEvent.Text t) text.append(t.text());
        return text.toString();
    }

    private static long usedHeap() throws InterruptedException {
        Runtime r = Runtime.getRuntime();
        long used = Long.MAX_VALUE;
        for (int i = 0; i < 4; i++) {
            System.gc();
            Thread.sleep(50);
            used = Math.min(used, r.totalMemory() - r.freeMemory());
        }
        return used;
    }
}
