package dev.toolcalls;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;

import java.lang.management.ManagementFactory;
import java.lang.reflect.Method;
import java.util.ArrayList;
import java.util.List;

/**
 * A chunk that makes nothing certain allocates nothing (beyond the amortised growth of the buffer
 * holding back the undecided text): no event, no list, no string. Measured with the JVM's
 * per-thread allocation counter, after a warm-up so that no class loading or compilation counts.
 */
class AllocationTest {

    /**
     * The JVM's count of bytes this thread allocated (com.sun.management, reached by reflection:
     * the tests compile as the module).
     */
    private static final class Allocated {
        private final Object bean = ManagementFactory.getThreadMXBean();
        private final Method method;

        Allocated() {
            Method m;
            try {
                m =
                        Class.forName("com.sun.management.ThreadMXBean")
                                .getMethod("getThreadAllocatedBytes", long.class);
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
        // a call whose function name is long: every chunk of the name is held until the name ends
        double perChunk =
                bytesPerChunk(
                        "<tool_call>{\"name\": \"",
                        "k".repeat(40_000),
                        "\", \"arguments\": {}}</tool_call>",
                        0);
        // the held name grows the carry buffer by doubling, to the power of two above 40 000 chars:
        // 2 x 65 536 chars x 2 bytes in all, 26 bytes per 4-character chunk; anything per chunk on
        // top trips the bound
        assertTrue(
                perChunk < 34,
                "held chunks allocate "
                        + perChunk
                        + " bytes each (only the carry's amortised growth is expected)");
    }

    @Test
    void chunksOfAHeldCallsStringArgumentAllocateOnlyTheGathering() {
        // the arguments come before the name, so the call is held: each chunk inside the string
        // is taken whole as a token, its text the chunk itself, and gathered; the gathering turns
        // every 4 096 characters into one string (a byte per character, 4 bytes per chunk). A
        // string cut per chunk (24 bytes and its array) trips the bound
        double perChunk =
                bytesPerChunk(
                        "<tool_call>{\"arguments\": {\"a\": \"",
                        "plain words and more ".repeat(2_000),
                        "\"}, \"name\": \"f\"}</tool_call>",
                        0);
        assertTrue(
                perChunk < 16,
                "a chunk of a held call's string argument allocates "
                        + perChunk
                        + " bytes (expected: the gathered arguments' share)");
    }

    @Test
    void plainTextChunksAllocateOnlyTheirEvent() {
        String prose = "Plain words and more plain words, then a full stop. ".repeat(2_000);
        double perChunk = bytesPerChunk("Start. ", prose, "", prose.length() / 4);
        // the event (16 bytes + its record) and the immutable one-element list that carries it; the
        // text is the chunk itself
        assertTrue(
                perChunk <= 48,
                "a plain-text chunk allocates "
                        + perChunk
                        + " bytes (expected: its event and the list holding it)");
    }

    @Test
    void aSmallWholeParseAllocatesLittleBeyondItsResult() {
        // the fixed cost of a parse: a new parser (lexer, stream, assembler: about 1.6 KB, nothing
        // made before it is needed) and the result; a call adds its events, its id and its strings
        double text = bytesPerParse("Hello, world.");
        double call =
                bytesPerParse(
                        "<tool_call>{\"name\": \"f\", \"arguments\": {\"a\": 1}}</tool_call>");
        assertTrue(text <= 2048, "a parse of one short sentence allocates " + text + " bytes");
        assertTrue(call <= 4096, "a parse of one short call allocates " + call + " bytes");
    }

    @Test
    void aLongArgumentIsCopiedOnce() {
        // a Latin-1 string argument of 200 000 characters: its one copy (the arguments string) is
        // a byte per character; a raw copy of the call kept for a fallback that strict mode never
        // takes would add a builder that doubles its way up to the call's size, and its string
        String value = "plain words and more ".repeat(10_000);
        for (String call :
                List.of(
                        "{\"name\": \"f\", \"arguments\": {\"a\": \"" + value + "\"}}",
                        "{\"arguments\": {\"a\": \"" + value + "\"}, \"name\": \"f\"}")) {
            double bytes = bytesPerParse("<tool_call>" + call + "</tool_call>", 10);
            assertTrue(
                    bytes < 1.5 * value.length(),
                    "a parse of a call with a "
                            + value.length()
                            + "-character argument allocates "
                            + bytes
                            + " bytes: "
                            + call.substring(0, 20));
        }
    }

    @Test
    void whiteSpaceHeldOrDroppedMakesNoString() {
        // blank lines around a call, in a format whose blank content is none: they are held or
        // dropped where they lie, so the parse allocates what the bare call's parse does
        String call = "[TOOL_CALLS]get_time[ARGS]{}";
        double bare = bytesPerParse("mistral", call, 200);
        double blank = bytesPerParse("mistral", "\n\n" + call + "\n", 200);
        assertEquals(
                bare,
                blank,
                1.0,
                "blank lines around a call allocate " + (blank - bare) + " bytes");
    }

    @Test
    void textAroundACallIsCutOnce() {
        // text before and after a call, parsed whole: the content is cut from the output once,
        // with no string of each piece before they are joined (48 bytes: the content "a\n\nb")
        String call = "<tool_call>{\"name\": \"f\"}</tool_call>";
        double bare = bytesPerParse(call);
        double around = bytesPerParse("a\n" + call + "\nb");
        assertTrue(
                around <= bare + 48,
                "text around a call allocates "
                        + (around - bare)
                        + " bytes beyond the call's parse (its content, 4 characters)");
    }

    @Test
    void aRawValueThatIsNotJsonIsToldSoWithoutAnError() {
        // a raw value read as JSON where it is JSON, else as a string: UTC is not JSON, and telling
        // so makes no error and no message; the string it becomes is its quoted copy (48 bytes)
        // beyond the same call with the JSON string "UTC" written
        String bare = minicpmCall("UTC");
        String quoted = minicpmCall("\"UTC\"");
        double text = bytesPerParse("minicpm5", bare, 200);
        double json = bytesPerParse("minicpm5", quoted, 200);
        assertEquals(
                Formats.get("minicpm5").parse(quoted).toolCalls().get(0).arguments(),
                Formats.get("minicpm5").parse(bare).toolCalls().get(0).arguments());
        assertTrue(
                text <= json + 48,
                "a value that is not JSON allocates "
                        + (text - json)
                        + " bytes beyond the same value written as a JSON string");
    }

    private static String minicpmCall(String value) {
        return "<functionname=\"get_time\"><paramname=\"timezone\">"
                + value
                + "</param></function>";
    }

    @Test
    void aRawValueIsEscapedIntoTheArguments() {
        // a raw parameter value with characters to escape is escaped into the arguments being
        // gathered: no builder and no string of the escaped value of its own (more than 80 bytes
        // for this value), only the arguments' longer string (at most 8 bytes more here)
        String escaped = "a \"quoted\"\nvalue\tthere";
        String plain = "a  quoted  nvalue there";
        double withEscapes = bytesPerParse("qwen3_coder", qwenCall(escaped), 200);
        double without = bytesPerParse("qwen3_coder", qwenCall(plain), 200);
        assertTrue(
                withEscapes <= without + 8,
                "a value with escapes allocates "
                        + withEscapes
                        + " bytes per parse, one of as many characters without "
                        + without);
    }

    private static String qwenCall(String value) {
        return "<tool_call>\n<function=write>\n<parameter=text>\n"
                + value
                + "\n</parameter>\n</function>\n</tool_call>";
    }

    /** Bytes one batch parse of {@code text} by hermes allocates: the least of 30 rounds of 200. */
    private static double bytesPerParse(String text) {
        return bytesPerParse(text, 200);
    }

    /** The least of 30 rounds of {@code perRound} parses by hermes, per parse. */
    private static double bytesPerParse(String text, int perRound) {
        return bytesPerParse("hermes", text, perRound);
    }

    /** The least of 30 rounds of {@code perRound} parses by {@code format}, per parse. */
    private static double bytesPerParse(String format, String text, int perRound) {
        Allocated threads = new Allocated();
        Format f = Formats.get(format);
        long best = Long.MAX_VALUE;
        int sink = 0;
        for (int round = 0; round < 30; round++) {
            long start = threads.bytes();
            for (int i = 0; i < perRound; i++) sink += f.parse(text).toolCalls().size();
            best = Math.min(best, threads.bytes() - start);
        }
        assertTrue(sink >= 0);
        return (double) best / perRound;
    }

    /**
     * Bytes allocated per 4-character chunk of {@code middle}, fed to hermes after {@code before}
     * (not counted) and followed by {@code after}: the least of 30 rounds, so warm-up does not
     * count. Each round must give {@code events} events over the middle.
     */
    private static double bytesPerChunk(String before, String middle, String after, int events) {
        Allocated threads = new Allocated();
        Format f = Formats.get("hermes");
        List<String> chunks = new ArrayList<>();
        for (int i = 0; i < middle.length(); i += 4)
            chunks.add(middle.substring(i, Math.min(middle.length(), i + 4)));
        long best = Long.MAX_VALUE;
        for (int round = 0; round < 30; round++) {
            StreamParser s = f.newStream();
            s.feed(before);
            long start = threads.bytes();
            int got = 0;
            for (String c : chunks) got += s.feed(c).size();
            long end = threads.bytes();
            assertEquals(
                    events,
                    got,
                    events == 0
                            ? "text that has not ended makes nothing certain"
                            : "every chunk of plain text is one event");
            best = Math.min(best, end - start);
            if (!after.isEmpty()) s.feed(after);
            s.finish();
        }
        return (double) best / chunks.size();
    }
}
