package dev.toolcalls.internal.format;

import java.util.ArrayList;
import java.util.Collections;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Function;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Where the rules and modes of a lexer grammar are written: its file and the files it imports,
 * scanned for rule and mode definitions, so that a message can point at {@code file:line:column}. A
 * rule of the importing grammar overrides an imported one of the same name, as in ANTLR.
 */
public final class GrammarText {
    /** A grammar file as the user knows it (its path) and its text. */
    public record SourceFile(String path, String text) {}

    private static final Pattern RULE =
            Pattern.compile(
                    "^([ \\t]*)(?:fragment[ \\t]+)?([A-Z][A-Za-z0-9_]*)\\s*:", Pattern.MULTILINE);
    private static final Pattern MODE =
            Pattern.compile(
                    "^([ \\t]*)mode[ \\t]+([A-Za-z_][A-Za-z0-9_]*)[ \\t]*;", Pattern.MULTILINE);
    private static final Pattern IMPORT =
            Pattern.compile("^[ \\t]*import[ \\t]+([^;]+);", Pattern.MULTILINE);

    private final String mainFile;
    private final Map<String, String> rules = new LinkedHashMap<>();
    private final Map<String, String> modes = new LinkedHashMap<>();
    private final Map<String, SourceFile> imports = new LinkedHashMap<>();
    private final List<SourceFile> files = new ArrayList<>();

    private GrammarText(String mainFile) {
        this.mainFile = mainFile;
    }

    /** No source text: locations name the file only. */
    public static GrammarText fileOnly(String path) {
        return new GrammarText(path);
    }

    /**
     * A grammar and, recursively, the grammars it imports.
     *
     * @param imports the imported grammar of this name, or null when it cannot be found
     */
    public static GrammarText of(SourceFile main, Function<String, SourceFile> imports) {
        GrammarText g = new GrammarText(main.path());
        List<SourceFile> queue = new ArrayList<>(List.of(main));
        Set<String> seen = new HashSet<>();
        for (int i = 0; i < queue.size(); i++) {
            SourceFile f = queue.get(i);
            g.scan(f);
            Matcher m = IMPORT.matcher(stripComments(f.text()));
            while (m.find()) {
                for (String name : m.group(1).split(",")) {
                    String n = name.strip().replaceFirst(".*=", "").strip();
                    if (n.isEmpty() || !seen.add(n)) continue;
                    SourceFile imported = imports.apply(n);
                    if (imported == null) continue;
                    queue.add(imported);
                    g.imports.put(n, imported);
                }
            }
        }
        return g;
    }

    private void scan(SourceFile f) {
        files.add(f);
        String text = stripComments(f.text());
        Matcher m = RULE.matcher(text);
        while (m.find()) rules.putIfAbsent(m.group(2), position(f, text, m.start(2)));
        m = MODE.matcher(text);
        while (m.find())
            modes.putIfAbsent(m.group(2), position(f, text, m.start(1) + m.group(1).length()));
    }

    private static String position(SourceFile f, String text, int at) {
        int line = 1;
        int col = 1;
        for (int i = 0; i < at; i++) {
            if (text.charAt(i) == '\n') {
                line++;
                col = 1;
            } else col++;
        }
        return f.path() + ":" + line + ":" + col;
    }

    /** Comments blanked out (newlines kept, so positions stay right). */
    private static String stripComments(String s) {
        StringBuilder b = new StringBuilder(s);
        int i = 0;
        while (i < b.length()) {
            char c = b.charAt(i);
            if (c == '\'') { // a literal: skip it, escapes included
                i++;
                while (i < b.length() && b.charAt(i) != '\'' && b.charAt(i) != '\n')
                    i += b.charAt(i) == '\\' ? 2 : 1;
                i++;
            } else if (c == '/' && i + 1 < b.length() && b.charAt(i + 1) == '/') {
                while (i < b.length() && b.charAt(i) != '\n') b.setCharAt(i++, ' ');
            } else if (c == '/' && i + 1 < b.length() && b.charAt(i + 1) == '*') {
                while (i < b.length()
                        && !(b.charAt(i) == '*' && i + 1 < b.length() && b.charAt(i + 1) == '/')) {
                    if (b.charAt(i) != '\n') b.setCharAt(i, ' ');
                    i++;
                }
                if (i < b.length()) {
                    b.setCharAt(i, ' ');
                    if (i + 1 < b.length()) b.setCharAt(i + 1, ' ');
                    i += 2;
                }
            } else {
                i++;
            }
        }
        return b.toString();
    }

    /**
     * Whether a rule or mode is written in the grammar file itself (not in a grammar it imports).
     */
    public boolean ownRule(String name) {
        return !rules.containsKey(name) || rules.get(name).startsWith(mainFile + ":");
    }

    public boolean ownMode(String name) {
        return !modes.containsKey(name) || modes.get(name).startsWith(mainFile + ":");
    }

    /** The grammars it imports, directly or through another, by name, in the order found. */
    public Map<String, SourceFile> imports() {
        return Collections.unmodifiableMap(imports);
    }

    /** A string literal of a grammar, or several written one after the other, and where. */
    public record Literal(String text, String at) {}

    /**
     * The string literals of the grammar and its imports, decoded ({@code '\\''} is a quote), those
     * written next to each other (separated by blanks only) joined into one: the marker spellings
     * the grammar matches.
     */
    public List<Literal> literals() {
        List<Literal> out = new ArrayList<>();
        for (SourceFile f : files) {
            String text = stripComments(f.text());
            StringBuilder run = null;
            int runAt = 0;
            int i = 0;
            while (i < text.length()) {
                char c = text.charAt(i);
                if (c == '[') { // a character set may hold quotes
                    i++;
                    while (i < text.length() && text.charAt(i) != ']')
                        i += text.charAt(i) == '\\' ? 2 : 1;
                    i++;
                    run = flush(out, f, text, run, runAt);
                    continue;
                }
                if (c == '\'') {
                    StringBuilder lit = new StringBuilder();
                    int at = i++;
                    while (i < text.length() && text.charAt(i) != '\'') {
                        char d = text.charAt(i++);
                        if (d != '\\' || i >= text.length()) {
                            lit.append(d);
                            continue;
                        }
                        char e = text.charAt(i++);
                        switch (e) {
                            case 'n' -> lit.append('\n');
                            case 'r' -> lit.append('\r');
                            case 't' -> lit.append('\t');
                            case 'b' -> lit.append('\b');
                            case 'f' -> lit.append('\f');
                            case 'u' -> {
                                int end;
                                int cp;
                                if (i < text.length() && text.charAt(i) == '{') {
                                    end = text.indexOf('}', i);
                                    cp = Integer.parseInt(text.substring(i + 1, end), 16);
                                    end++;
                                } else {
                                    end = Math.min(i + 4, text.length());
                                    cp = Integer.parseInt(text.substring(i, end), 16);
                                }
                                lit.appendCodePoint(cp);
                                i = end;
                            }
                            default -> lit.append(e);
                        }
                    }
                    i++;
                    if (run == null) {
                        run = new StringBuilder();
                        runAt = at;
                    }
                    run.append(lit);
                    continue;
                }
                if (!Character.isWhitespace(c)) run = flush(out, f, text, run, runAt);
                i++;
            }
            flush(out, f, text, run, runAt);
        }
        return out;
    }

    private static StringBuilder flush(
            List<Literal> out, SourceFile f, String text, StringBuilder run, int at) {
        if (run != null && run.length() > 0)
            out.add(new Literal(run.toString(), position(f, text, at)));
        return null;
    }

    /** The grammar file itself. */
    public String file() {
        return mainFile;
    }

    /**
     * {@code file:line:column} of a rule's definition, or the grammar file when it is not written
     * anywhere known.
     */
    public String rule(String name) {
        return rules.getOrDefault(name, mainFile);
    }

    /** {@code file:line:column} of a mode's definition ({@code DEFAULT_MODE}: the grammar file). */
    public String mode(String name) {
        return modes.getOrDefault(name, mainFile);
    }
}
