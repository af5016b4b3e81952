package dev.toolcalls;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.management.ManagementFactory;
import java.util.ArrayList;
import java.util.List;

import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;

/**
 * A chunk that makes nothing certain allocates nothing (beyond the amortised growth of the buffer
 * holding back the undecided text): no event, no list, no string. Measured with the JVM's
 * per-thread allocation counter, after a warm-up so that no class loading or compilation counts.
 */
class AllocationTest {

    /** The JVM's count of bytes this thread allocated (com.sun.management, reached by reflection: the tests compile as the module). */
    private static final class Allocated {
        private final Object bean = ManagementFactory.getThreadMXBean();
        private final java.lang.reflect.Method method;

        Allocated() {
            java.lang.reflect.Method m;
            try {
                m = Class.forName("com.sun.management.ThreadMXBean").getMethod("getThreadAllocatedBytes", long.class);
            } catch (ReflectiveOperationException e) {
                m = null;
            }
            Assumptions.assumeTrue(m != null, "this JVM does not count allocated bytes");
            method = m;
        }

        long bytes() {
            try {
                return (long) method.invoke(bean, Thread.currentThread().getId());
            } catch (ReflectiveOperationException e) {
                throw new AssertionError(e);
            }
        }
    }

    @Test
    void heldChunksAllocateNothing() {
        Allocated threads = new Allocated();
        Format f = Formats.get("hermes");
        // a call whose function name is long: every chunk of the name is held until the name ends
        String key = "k".repeat(40_000);
        List<String> chunks = new ArrayList<>();
        for (int i = 0; i < key.length(); i += 4) chunks.add(key.substring(i, i + 4));
        long best = Long.MAX_VALUE;
        for (int round = 0; round < 30; round++) {
            StreamParser s = f.newStream();
            s.feedEvents("<tool_call>{\"name\": \"");
            long before = threads.bytes();
            int events = 0;
            for (String c : chunks) events += s.feedEvents(c).size();
            long after = threads.bytes();
            assertEquals(0, events, "a name that has not ended makes nothing certain");
            best = Math.min(best, after - before);
            s.feedEvents("\", \"arguments\": {}}</tool_call>");
            s.finishEvents();
        }
        // the held name grows the carry buffer by doubling, to the power of two above 40 000 chars:
        // 2 x 65 536 chars x 2 bytes in all, 26 bytes per 4-character chunk; anything per chunk on top trips the bound
        double perChunk = (double) best / chunks.size();
        assertTrue(perChunk < 34, "held chunks allocate " + perChunk + " bytes each (only the carry's amortised growth is expected)");
    }

    @Test
    void plainTextChunksAllocateOnlyTheirEvent() {
        Allocated threads = new Allocated();
        Format f = Formats.get("hermes");
        List<String> chunks = new ArrayList<>();
        String prose = "Plain words and more plain words, then a full stop. ".repeat(2_000);
        for (int i = 0; i < prose.length(); i += 4) chunks.add(prose.substring(i, i + 4));
        long best = Long.MAX_VALUE;
        for (int round = 0; round < 30; round++) {
            StreamParser s = f.newStream();
            s.feedEvents("Start. ");
            long before = threads.bytes();
            int events = 0;
            for (String c : chunks) events += s.feedEvents(c).size();
            long after = threads.bytes();
            assertEquals(chunks.size(), events, "every chunk of plain text is one event");
            best = Math.min(best, after - before);
            s.finishEvents();
        }
        // the event (16 bytes + its record) and the immutable one-element list that carries it; the text is the chunk itself
        double perChunk = (double) best / chunks.size();
        assertTrue(perChunk <= 48, "a plain-text chunk allocates " + perChunk + " bytes (expected: its event and the list holding it)");
    }
}
