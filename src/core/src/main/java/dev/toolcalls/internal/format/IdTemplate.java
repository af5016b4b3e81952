package dev.toolcalls.internal.format;

import dev.toolcalls.IdGenerator;

import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * What call ids look like in a format, from its format file: the ids it generates (a template) and
 * the model-written ids it keeps (a pattern).
 *
 * <ul>
 *   <li>{@code "ids": "call_{random:24}"} (also spelled {@code "openai"}, the default): {@code
 *       call_} and 24 alphanumerics;
 *   <li>{@code "ids": "{random:9}", "idPattern": "[A-Za-z0-9]{9}"}: 9 alphanumerics, and a
 *       model-written id is kept only when it is 9 alphanumerics (as some tokenizers demand);
 *   <li>{@code "ids": "functions.{name}:{index}"}: the function name and the call's index, for
 *       templates that read them back.
 * </ul>
 *
 * Placeholders: {@code {random:N}}, {@code {name}}, {@code {index}}. Without {@code idPattern}
 * every non-empty model-written id is kept.
 */
public final class IdTemplate {
    private final List<Object>
            parts; // String literal, Integer random length, or "name"/"index" markers
    private final Pattern keep;

    /**
     * A pattern that is one character class of ASCII letters and digits (single ones and ranges)
     * with a count, such as {@code [A-Za-z0-9]{9}}: the class's characters and the count, checked
     * by hand (a fresh JVM's first regular expression costs milliseconds); else null.
     */
    private final boolean[] keepClass;

    private final int keepLength;

    /**
     * A template that is a literal and then a random part, or a random part alone: the literal (""
     * for none), else null; and the random part's length.
     */
    private final String prefix;

    private final int randomLength;

    private IdTemplate(List<Object> parts, String keepPattern) {
        this.parts = parts;
        boolean prefixed =
                parts.size() == 2
                        && parts.get(0) instanceof String
                        && parts.get(1) instanceof Integer;
        boolean random = parts.size() == 1 && parts.get(0) instanceof Integer;
        this.prefix = prefixed ? (String) parts.get(0) : random ? "" : null;
        this.randomLength = prefixed ? (Integer) parts.get(1) : random ? (Integer) parts.get(0) : 0;
        boolean[] set = keepPattern == null ? null : characterClassRun(keepPattern);
        this.keepClass = set;
        this.keepLength = set == null ? 0 : runLength(keepPattern);
        this.keep = keepPattern == null || set != null ? null : Pattern.compile(keepPattern);
    }

    /**
     * The ASCII characters of a pattern {@code [class]{n}} whose class holds only letters and
     * digits, single or as ranges {@code a-z}, and whose count is one to four digits; else null.
     */
    static boolean[] characterClassRun(String pattern) {
        int close = pattern.indexOf(']');
        if (!pattern.startsWith("[") || close < 2) return null;
        boolean[] set = new boolean[128];
        for (int i = 1; i < close; i++) {
            char from = pattern.charAt(i);
            char to = from;
            if (i + 2 < close && pattern.charAt(i + 1) == '-') {
                to = pattern.charAt(i + 2);
                i += 2;
            }
            if (!letterOrDigit(from) || !letterOrDigit(to) || to < from) return null;
            for (char c = from; c <= to; c++) set[c] = true;
        }
        int digits = pattern.length() - close - 3; // "{" digits "}"
        if (digits < 1 || digits > 4 || pattern.charAt(close + 1) != '{' || !pattern.endsWith("}"))
            return null;
        for (int i = close + 2; i < pattern.length() - 1; i++)
            if (pattern.charAt(i) < '0' || pattern.charAt(i) > '9') return null;
        return set;
    }

    private static boolean letterOrDigit(char c) {
        return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9');
    }

    /** The count of a pattern {@link #characterClassRun} accepted. */
    private static int runLength(String pattern) {
        return Integer.parseInt(pattern.substring(pattern.indexOf(']') + 2, pattern.length() - 1));
    }

    /**
     * @throws IllegalArgumentException on an unknown placeholder or a bad pattern
     */
    public static IdTemplate parse(String template, String keepPattern) {
        String t = template == null || template.equals("openai") ? "call_{random:24}" : template;
        List<Object> parts = new ArrayList<>();
        int at = 0;
        for (int open = t.indexOf('{'); open >= 0; open = t.indexOf('{', open + 1)) {
            int close = t.indexOf('}', open);
            if (close < 0) break;
            String inside = t.substring(open + 1, close);
            Object placeholder = placeholder(inside);
            if (placeholder == null) continue;
            if (open > at) parts.add(t.substring(at, open));
            parts.add(placeholder);
            at = close + 1;
            open = close;
        }
        if (at < t.length()) parts.add(t.substring(at));
        for (Object p : parts)
            if (p instanceof String && ((String) p).contains("{"))
                throw new IllegalArgumentException(
                        "id template '"
                                + t
                                + "' has an unknown placeholder (known: {random:N}, {name}, {index})");
        if (parts.isEmpty()) throw new IllegalArgumentException("empty id template");
        return new IdTemplate(parts, keepPattern);
    }

    /**
     * {@code random:N} (N digits) as its length, {@code name} and {@code index} as their markers,
     * anything else null (searched by hand: a regular expression would cost every format's first
     * load the compilation of a pattern).
     */
    private static Object placeholder(String inside) {
        if (inside.equals("name")) return Placeholder.NAME;
        if (inside.equals("index")) return Placeholder.INDEX;
        if (!inside.startsWith("random:") || inside.length() == 7) return null;
        for (int i = 7; i < inside.length(); i++)
            if (inside.charAt(i) < '0' || inside.charAt(i) > '9') return null;
        return Integer.parseInt(inside.substring(7));
    }

    /**
     * An id source that writes a literal and the random characters after it as one string: an id of
     * a template such as {@code call_{random:24}} is then made without a string of its random part
     * alone.
     */
    public interface Prefixed extends IdGenerator {
        /** {@code prefix} followed by {@link #alphanumeric(int) alphanumeric(length)}. */
        String alphanumeric(String prefix, int length);

        @Override
        default String alphanumeric(int length) {
            return alphanumeric("", length);
        }

        /**
         * Writes {@code prefix} into the first bytes of {@code out}, one per character; false, with
         * nothing written, where a character is outside Latin-1.
         */
        static boolean writeLatin1(String prefix, byte[] out) {
            int p = prefix.length();
            for (int i = 0; i < p; i++) if (prefix.charAt(i) > 0xFF) return false;
            for (int i = 0; i < p; i++) out[i] = (byte) prefix.charAt(i);
            return true;
        }
    }

    private enum Placeholder {
        NAME,
        INDEX
    }

    public String generate(IdGenerator ids, String name, int index) {
        if (prefix != null)
            return ids instanceof Prefixed p
                    ? p.alphanumeric(prefix, randomLength)
                    : prefix.isEmpty()
                            ? ids.alphanumeric(randomLength)
                            : prefix.concat(ids.alphanumeric(randomLength));
        StringBuilder b = new StringBuilder();
        for (Object p : parts) {
            if (p instanceof String) b.append((String) p);
            else if (p instanceof Integer) b.append(ids.alphanumeric((Integer) p));
            else b.append(p == Placeholder.NAME ? name : String.valueOf(index));
        }
        return b.toString();
    }

    /**
     * A matcher of the pattern a model-written id must match, for one caller to reuse with {@link
     * #keeps}; null where no such pattern is needed.
     */
    public Matcher keepMatcher() {
        return keep == null ? null : keep.matcher("");
    }

    /**
     * Whether a model-written id is used as the call's id, matched by {@code reused} (from {@link
     * #keepMatcher}; null: a matcher of its own) where a pattern decides.
     */
    public boolean keeps(String modelId, Matcher reused) {
        if (modelId.isEmpty()) return false;
        if (keepClass != null) {
            if (modelId.length() != keepLength) return false;
            for (int i = 0; i < modelId.length(); i++) {
                char c = modelId.charAt(i);
                if (c >= 128 || !keepClass[c]) return false;
            }
            return true;
        }
        return keep == null
                || (reused != null ? reused.reset(modelId) : keep.matcher(modelId)).matches();
    }
}
