package dev.toolcalls.internal.lex;

import java.util.ArrayList;
import java.util.List;

/**
 * Markers by identity: when the caller says which pieces of the output were special tokens of the
 * model's vocabulary, a marker spelled out in ordinary text (a model writing <i>about</i> {@code
 * <tool_call>}) must be text. The format file lists the marker spellings that are special tokens;
 * in ordinary text each occurrence of one has its first character masked, so the lexer cannot take
 * it for a marker, while its text comes back unchanged. An ordinary chunk that ends with the
 * beginning of a spelling waits for the next one, since ordinary text split anywhere can still
 * spell a marker.
 *
 * <p>One per stream; not thread-safe.
 */
public final class SpecialTokens {
    private final List<String> spellings;
    private final int longest;
    private final StringBuilder pending = new StringBuilder();

    /** The first characters of the spellings: text without any of them spells nothing. */
    private final String firsts;

    private static final int[] NONE = new int[0];

    /** The positions to mask in the text {@link #ordinary} returned last, ascending. */
    private int[] masked = NONE;

    public SpecialTokens(List<String> spellings) {
        this.spellings = List.copyOf(spellings);
        int l = 0;
        StringBuilder f = new StringBuilder();
        for (String s : spellings) {
            l = Math.max(l, s.length());
            if (!s.isEmpty() && f.indexOf(s.substring(0, 1)) < 0) f.append(s.charAt(0));
        }
        this.longest = l;
        this.firsts = f.toString();
    }

    /** Whether the text holds a character that begins a spelling. */
    private boolean mayStart(String chunk) {
        for (int i = 0; i < firsts.length(); i++)
            if (chunk.indexOf(firsts.charAt(i)) >= 0) return true;
        return false;
    }

    /**
     * Ordinary (non-special) text: what may be lexed now, with the positions in it to mask ({@link
     * #masked}); a possible start of a spelling is kept. Text that holds no first character of a
     * spelling, with nothing kept, comes back as it is, with nothing allocated.
     */
    public String ordinary(String chunk) {
        if (pending.length() == 0 && !mayStart(chunk)) {
            masked = NONE;
            return chunk;
        }
        pending.append(chunk);
        String all = pending.toString();
        List<Integer> found = new ArrayList<>();
        for (String s : spellings) {
            if (Character.isSurrogate(s.charAt(0)))
                continue; // markers begin with ASCII; a pair cannot be masked in half
            for (int at = all.indexOf(s); at >= 0; at = all.indexOf(s, at + 1)) found.add(at);
        }
        // keep back the longest tail that is a proper prefix of a spelling (and not already a whole
        // one)
        int keep = 0;
        for (int k = Math.min(longest - 1, all.length()); k > 0 && keep == 0; k--) {
            String tail = all.substring(all.length() - k);
            for (String s : spellings)
                if (s.length() > k && s.startsWith(tail)) {
                    keep = k;
                    break;
                }
        }
        int cut = all.length() - keep;
        if (cut > 0 && Character.isHighSurrogate(all.charAt(cut - 1)))
            cut--; // never split a pair here
        pending.setLength(0);
        pending.append(all, cut, all.length());
        masked = found.isEmpty() ? NONE : positions(found, cut);
        return cut == all.length() ? all : all.substring(0, cut);
    }

    /** The positions to mask in the text {@link #ordinary} returned last, ascending. */
    public int[] masked() {
        return masked;
    }

    /**
     * Before a special token or the end: ordinary text kept back is released as it is (it spells
     * nothing).
     */
    public String flush() {
        if (pending.length() == 0) return "";
        String out = pending.toString();
        pending.setLength(0);
        return out;
    }

    private static int[] positions(List<Integer> masked, int below) {
        return masked.stream()
                .filter(i -> i < below)
                .distinct()
                .sorted()
                .mapToInt(Integer::intValue)
                .toArray();
    }
}
