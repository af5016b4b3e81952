package dev.toolcalls.internal.format;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.regex.PatternSyntaxException;

/**
 * A format's {@code nameFromId} pattern finds the same name in every id as {@code java.util.regex}
 * does (the first group of a whole match), whether it is matched by its own automaton or handed to
 * {@code java.util.regex}: the bundled formats' patterns, patterns written to reach each construct,
 * and patterns drawn at random from the part of the syntax the automaton reads, each against ids
 * drawn from an alphabet that exercises it.
 */
class IdNamePatternTest {
    /** Patterns the automaton reads. */
    private static final String[] READ = {
        "(?:functions\\.)?([\\w\\-]+(?:\\.[\\w\\-]+)*):\\d+",
        "(a|ab)(c|bcd)(d*)",
        "(a+)(a+)",
        "(a*b|a)+",
        "x(.+)y",
        "([^:]+):(\\d+)",
        "(?:call_)?([a-z_]+)(?:-\\d+)?",
        "([\\w.-]+)",
        "(\\W+)|(\\w+)",
        "([\\s\\S]+)\\.\\d",
        "(é+)\\.(日本)",
        "([a-c-])",
        "([\\t\\n])+",
        "(a)(b)?",
        "((a)|b)+",
        "(?:(a)|b)+",
        "(?:x(a+)|b)*c?",
        "(?:(a|ab)(c|bcd))+(d*)",
    };

    /** Patterns left to java.util.regex. */
    private static final String[] LEFT = {
        "([^.]+(?=\\.[^.]+$)|.+)(?:\\.\\1)?",
        "^(a+)$",
        "(a{2,3})",
        "(a+?)a*",
        "(a*)*",
        "(a++)",
        "(\\p{L}+)",
        "(a)|\\1",
        "([a-c&&b])",
        "(\\b\\w+)",
        "[a-z]+",
    };

    private static final String[] IDS = {
        "",
        "functions.get_weather:0",
        "get_weather:12",
        "functions.a.b:3",
        "functions..a:1",
        "functions.a-b.c_d:42",
        "functions.get weather:0",
        "functions.get_weather:",
        "functions.get_weather:0 ",
        "abcd",
        "abcbcd",
        "aaaa",
        "aab",
        "xay",
        "xy",
        "x\ny",
        "name:7",
        ":7",
        "call_get_time-3",
        "é.日本",
        "ééé.日本",
        "a\tb\nc.1",
        "\t\n\t",
        "ab",
        "b",
        "😀.1",
    };

    @Test
    void findsWhatJavaRegexFinds() {
        for (String p : READ) {
            IdNamePattern pattern = IdNamePattern.compile(p);
            assertTrue(pattern.automaton(), p + " is read by the automaton");
            same(pattern, IDS);
        }
        for (String p : LEFT) {
            IdNamePattern pattern = IdNamePattern.compile(p);
            assertFalse(pattern.automaton(), p + " is left to java.util.regex");
            same(pattern, IDS);
        }
    }

    @Test
    void bundledPatternsFindNames() {
        IdNamePattern kimi =
                IdNamePattern.compile("(?:functions\\.)?([\\w\\-]+(?:\\.[\\w\\-]+)*):\\d+");
        IdNamePattern.Finder f = kimi.finder();
        assertEquals("get_weather", f.nameIn("functions.get_weather:0"));
        assertEquals("get_weather", f.nameIn("get_weather:0"));
        assertEquals("a.b", f.nameIn("functions.a.b:0"));
        assertEquals(null, f.nameIn("functions.get weather:0"));
        assertEquals(null, f.nameIn("functions.get_weather"));
        String longName = "a".repeat(5000);
        assertEquals(longName, f.nameIn("functions." + longName + ":7"));
        assertEquals("b", f.nameIn("b:1"));
    }

    @Test
    void aLongPatternIsLeftToJavaRegex() {
        String p = "(" + "a|".repeat(400) + "b)";
        IdNamePattern pattern = IdNamePattern.compile(p);
        assertFalse(pattern.automaton());
        assertEquals("b", pattern.finder().nameIn("b"));
        assertTrue(IdNamePattern.compile("(" + "a|".repeat(200) + "b)").automaton());
    }

    @Test
    void notARegexIsRefused() {
        assertThrows(PatternSyntaxException.class, () -> IdNamePattern.compile("(a"));
        assertThrows(PatternSyntaxException.class, () -> IdNamePattern.compile("a{"));
    }

    /** A text of the syntax's characters the automaton reads is a regular expression too. */
    @Test
    void readsOnlyRegularExpressions() {
        Random r = new Random(7);
        String syntax = "ab()|?*+[]^-\\.:{}$dw";
        int read = 0;
        for (int n = 0; n < 20000; n++) {
            StringBuilder b = new StringBuilder();
            int length = 1 + r.nextInt(10);
            for (int i = 0; i < length; i++) b.append(syntax.charAt(r.nextInt(syntax.length())));
            String p = r.nextBoolean() ? "(" + b + ")" : b.toString();
            IdNamePattern pattern;
            try {
                pattern = IdNamePattern.compile(p);
            } catch (PatternSyntaxException e) {
                continue;
            }
            if (!pattern.automaton()) continue;
            read++;
            Pattern.compile(p); // throws where the automaton read what is no regular expression
            same(pattern, new String[] {"", "a", "ab", "ba", "a.b", "a:b-", "dw", "abab"});
        }
        assertTrue(read > 100, "some texts are read: " + read);
    }

    /** Random patterns of the part read, against random ids of their alphabet. */
    @Test
    void randomPatternsFindWhatJavaRegexFinds() {
        Random r = new Random(20261130);
        int read = 0;
        for (int n = 0; n < 3000; n++) {
            String p = "(" + alternation(r, 3) + ")" + (r.nextBoolean() ? alternation(r, 2) : "");
            // the group inside a repetition too: its last capture is the name
            if (r.nextInt(3) == 0)
                p = "(?:" + p + "|" + sequence(r, 1) + ")" + "*+?".charAt(r.nextInt(3));
            try {
                Pattern.compile(p);
            } catch (PatternSyntaxException e) {
                continue;
            }
            IdNamePattern pattern = IdNamePattern.compile(p);
            if (pattern.automaton()) read++;
            List<String> ids = new ArrayList<>();
            for (int i = 0; i < 40; i++) ids.add(randomId(r));
            same(pattern, ids.toArray(String[]::new));
        }
        assertTrue(read > 1000, "most random patterns are read by the automaton: " + read);
    }

    private static String alternation(Random r, int depth) {
        StringBuilder b = new StringBuilder(sequence(r, depth));
        while (r.nextInt(4) == 0) b.append('|').append(sequence(r, depth));
        return b.toString();
    }

    private static String sequence(Random r, int depth) {
        StringBuilder b = new StringBuilder();
        int n = 1 + r.nextInt(3);
        for (int i = 0; i < n; i++) {
            b.append(atom(r, depth));
            int q = r.nextInt(8);
            if (q == 0) b.append('?');
            else if (q == 1) b.append('*');
            else if (q == 2) b.append('+');
        }
        return b.toString();
    }

    private static String atom(Random r, int depth) {
        int k = r.nextInt(depth > 0 ? 9 : 7);
        return switch (k) {
            case 0, 1, 2 -> String.valueOf("ab.-:".charAt(r.nextInt(5))).replace(".", "\\.");
            case 3 -> new String[] {"\\d", "\\w", "\\s", "\\W", "."}[r.nextInt(5)];
            case 4 -> new String[] {"[ab]", "[^a]", "[a-c]", "[\\w-]", "[.:]"}[r.nextInt(5)];
            case 5 -> "b";
            case 6 -> "a";
            case 7 -> "(" + alternation(r, depth - 1) + ")";
            default -> "(?:" + alternation(r, depth - 1) + ")";
        };
    }

    private static String randomId(Random r) {
        String alphabet = "aabbc.-:1 _\n";
        int n = r.nextInt(8);
        StringBuilder b = new StringBuilder();
        for (int i = 0; i < n; i++) b.append(alphabet.charAt(r.nextInt(alphabet.length())));
        return b.toString();
    }

    private static void same(IdNamePattern pattern, String[] ids) {
        Pattern regex = Pattern.compile(pattern.pattern());
        IdNamePattern.Finder finder = pattern.finder();
        for (String id : ids) {
            Matcher m = regex.matcher(id);
            String expected = m.matches() && m.groupCount() >= 1 ? m.group(1) : null;
            assertEquals(
                    expected,
                    finder.nameIn(id),
                    () -> "pattern " + pattern.pattern() + ", id " + id.replace("\n", "\\n"));
        }
    }
}
