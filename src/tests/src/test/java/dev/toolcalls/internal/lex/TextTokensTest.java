package dev.toolcalls.internal.lex;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.toolcalls.Format;
import dev.toolcalls.Formats;
import dev.toolcalls.internal.format.FormatDefinition;

import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;

/**
 * Prose in small chunks is taken without the lexer's loop wherever the grammar decides it within
 * the chunk, also in formats whose blanks may begin a marker ({@code ' '+ 'to='}, blanks before
 * {@code '{'}: a guarded run, decided by the characters after the blanks) or whose letters may
 * ({@code ' functools['}, {@code 'to='}: one-character tokens decided by the one or two characters
 * after them). A blank or letter at a chunk's end that a marker may still follow is held back, as
 * the simulator holds it, and the text before it taken. That the events are exactly the
 * simulator's is {@code RunsTest}'s check.
 */
class TextTokensTest {
    private static final String PROSE =
            "Plain prose with words, commas and full stops. Then the other thing: it is that. "
                    .repeat(40);

    private static FastRuns runs(String format) {
        return FormatDefinition.of(Formats.get(format)).compiled().model().runs;
    }

    /** Characters taken of {@code text} in the default mode, or -1 for none. */
    private static int taken(String format, String text) {
        int found = runs(format).textTokens(0, text);
        return found < 0 ? -1 : found >>> 16;
    }

    @Test
    void blanksAndLettersThatMayBeginAMarkerAreDecidedByWhatFollows() {
        for (String f :
                List.of("muse_glimmer", "firefunction_v2", "gpt_oss", "generic", "apriel")) {
            assertEquals(4, taken(f, "an b"), f);
            assertEquals(8, taken(f, "a big ox"), f);
            // a blank at the end may still begin a marker: held back from its start
            assertEquals(3, taken(f, "ary "), f);
        }
        // blanks alone: a guarded run waits for what follows it; one-character blanks are decided
        // one by one, the last held back
        assertEquals(-1, taken("gpt_oss", "    "));
        assertEquals(3, taken("firefunction_v2", "    "));
        // blanks followed by what a marker goes on with: the lexer decides
        assertEquals(-1, taken("gpt_oss", "ab to="));
        assertEquals(-1, taken("muse_glimmer", "ab <|"));
        assertEquals(-1, taken("generic", "ab {"));
        assertEquals(-1, taken("apriel", "ab [E"));
        assertEquals(-1, taken("firefunction_v2", "ab fun"));
        // ... or only its first character: the second one decides
        assertEquals(6, taken("gpt_oss", "ab the"));
        assertEquals(6, taken("muse_glimmer", "ab the"));
        assertEquals(6, taken("firefunction_v2", "ab for"));
    }

    /**
     * Text a mode holds back until a marker says what it was (inkling's default mode: a block's
     * header, or text) grows by each chunk whose characters leave the held token's DFA state where
     * it was, without the lexer's loop; a chunk with a character that may begin a marker goes to
     * the loop.
     */
    @Test
    void aHeldTokenGrowsOverChunksThatLeaveItsStateWhereItWas() {
        LexerDriver lexer =
                new LexerDriver(
                        FormatDefinition.of(Formats.get("inkling")).compiled().model(), 1 << 20);
        int grew = 0;
        int chunks = 0;
        for (int i = 0; i + 4 <= PROSE.length(); i += 4) {
            String chunk = PROSE.substring(i, i + 4);
            chunks++;
            String token = lexer.appendText(chunk);
            if ("".equals(token)) grew++;
            else assertEquals(null, token, chunk);
            if (token == null) assertEquals(LexerDriver.Step.NEED_MORE, lexer.next(), chunk);
        }
        assertTrue(grew > chunks * 9 / 10, grew + " of " + chunks);
        assertEquals(
                LexerDriver.Step.NEED_MORE, lexer.appendText("<|") == null ? lexer.next() : null);
        lexer.appendText("content_text|>");
        assertEquals(LexerDriver.Step.TOKEN, lexer.next());
        assertEquals(PROSE.length() + "<|content_text|>".length(), lexer.tokenEnd());
    }

    /**
     * In every bundled format whose default mode reads prose as it comes (not held back until a
     * marker says what it was), nine in ten of its 4-character chunks are taken without the lexer's
     * loop, the text held back at a chunk's end read again with the next chunk.
     */
    @Test
    void proseInFourCharacterChunksIsTakenWithoutTheLexersLoop() {
        List<String> slow = new ArrayList<>();
        for (Format f : Formats.all()) {
            if (f.name().equals("toy")) continue;
            FastRuns runs = runs(f.name());
            int taken = 0;
            int all = 0;
            String held = "";
            for (int i = 0; i + 4 <= PROSE.length(); i += 4) {
                String text = held + PROSE.substring(i, i + 4);
                int found = runs.textTokens(0, text);
                all++;
                held = "";
                if (found >= 0) {
                    taken++;
                    held = text.substring(found >>> 16);
                }
            }
            if (taken * 10 < all * 9) slow.add(f.name() + " " + taken + "/" + all);
        }
        // the two whose default mode holds text back until a marker, or a first character, says
        // what it is
        assertTrue(slow.size() <= 2, "prose chunks taken by the lexer's loop: " + slow);
    }
}
