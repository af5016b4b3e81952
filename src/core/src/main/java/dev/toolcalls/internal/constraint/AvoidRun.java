package dev.toolcalls.internal.constraint;

import org.antlr.v4.runtime.misc.IntervalSet;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Text made of the characters of a set that holds none of a list of markers: the language of a run
 * of content (or of a raw value) that the lexer reads as such, since wherever a marker's text
 * begins the lexer takes the marker. Written as one rule per state of the matcher of the markers
 * (the longest end of the text read so far that begins a marker).
 */
final class AvoidRun {
    /** The runs made, by name, characters and markers: a pure function of these. */
    private static final Map<String, Gbnf> CACHE = new ConcurrentHashMap<>();

    private static final int MAX_CACHED = 4096;

    private AvoidRun() {}

    private static Map<Integer, List<Integer>> byTarget(Map<Integer, Integer> edges) {
        Map<Integer, List<Integer>> out = new LinkedHashMap<>();
        for (Map.Entry<Integer, Integer> e : edges.entrySet())
            out.computeIfAbsent(e.getValue(), k -> new ArrayList<>()).add(e.getKey());
        return out;
    }

    private static String set(List<Integer> chars) {
        IntervalSet cs = new IntervalSet();
        for (int c : chars) cs.add(c);
        return Gbnf.charClass(cs);
    }

    /** Defines the rules and returns the name of the start rule. */
    static String define(Gbnf out, String name, IntervalSet chars, List<String> markers) {
        String key = name + " " + chars + " " + markers;
        Gbnf rules = CACHE.get(key);
        if (rules == null) {
            rules = new Gbnf();
            defineNew(rules, name, chars, markers);
            if (CACHE.size() >= MAX_CACHED) CACHE.clear();
            CACHE.put(key, rules);
        }
        out.defineAll(rules);
        return name;
    }

    private static void defineNew(Gbnf out, String name, IntervalSet chars, List<String> markers) {
        IntervalSet set = Gbnf.clip(chars);
        List<String> relevant = new ArrayList<>();
        TreeSet<Integer> explicit = new TreeSet<>();
        for (String m : markers) {
            if (m.isEmpty() || !m.codePoints().allMatch(set::contains)) continue;
            relevant.add(m);
            m.codePoints().forEach(explicit::add);
        }
        IntervalSet other = new IntervalSet();
        other.addAll(set);
        for (int c : explicit) other.remove(c);
        String otherClass = other.isNil() ? null : Gbnf.charClass(other);
        if (relevant.isEmpty()) {
            out.define(name, otherClass == null ? "\"\"" : otherClass + "*");
            return;
        }

        Map<String, Integer> states = new LinkedHashMap<>();
        List<String> queue = new ArrayList<>();
        states.put("", 0);
        queue.add("");
        Map<Integer, Map<Integer, Integer>> edges = new HashMap<>();
        for (int q = 0; q < queue.size(); q++) {
            String w = queue.get(q);
            Map<Integer, Integer> e = new LinkedHashMap<>();
            for (int c : explicit) {
                String s = w + new String(Character.toChars(c));
                boolean forbidden = false;
                for (String m : relevant) if (s.endsWith(m)) forbidden = true;
                if (forbidden) continue;
                String next = "";
                for (int i = 0; i < s.length(); i++) {
                    String suffix = s.substring(i);
                    boolean prefix = false;
                    for (String m : relevant) if (m.startsWith(suffix)) prefix = true;
                    if (prefix) {
                        next = suffix;
                        break;
                    }
                }
                Integer id = states.get(next);
                if (id == null) {
                    id = states.size();
                    states.put(next, id);
                    queue.add(next);
                }
                e.put(c, id);
            }
            edges.put(q, e);
        }
        // the run is a loop over what keeps state 0, and segments that leave it and come back
        // (so that matching text stays a loop, not a recursion per character), then an end that
        // may stop inside a marker's prefix
        IntervalSet loop = new IntervalSet();
        loop.addAll(other);
        for (Map.Entry<Integer, Integer> e : edges.get(0).entrySet())
            if (e.getValue() == 0) loop.add(e.getKey());
        List<String> loopAlts = new ArrayList<>();
        if (!loop.isNil()) loopAlts.add(Gbnf.charClass(loop));
        List<String> endAlts = new ArrayList<>();
        endAlts.add("\"\"");
        for (Map.Entry<Integer, List<Integer>> e : byTarget(edges.get(0)).entrySet()) {
            if (e.getKey() == 0) continue;
            loopAlts.add(set(e.getValue()) + " " + name + "_s" + e.getKey());
            endAlts.add(set(e.getValue()) + " " + name + "_e" + e.getKey());
        }
        for (int q = 1; q < queue.size(); q++) {
            List<String> seg = new ArrayList<>();
            List<String> end = new ArrayList<>();
            end.add("\"\"");
            IntervalSet toZero = new IntervalSet();
            toZero.addAll(other);
            for (Map.Entry<Integer, List<Integer>> e : byTarget(edges.get(q)).entrySet()) {
                if (e.getKey() == 0) {
                    for (int c : e.getValue()) toZero.add(c);
                    continue;
                }
                seg.add(set(e.getValue()) + " " + name + "_s" + e.getKey());
                end.add(set(e.getValue()) + " " + name + "_e" + e.getKey());
            }
            if (!toZero.isNil()) seg.add(0, Gbnf.charClass(toZero));
            out.define(name + "_s" + q, seg.isEmpty() ? "\"\"" : String.join(" | ", seg));
            out.define(name + "_e" + q, String.join(" | ", end));
        }
        String body = loopAlts.isEmpty() ? "" : "( " + String.join(" | ", loopAlts) + " )* ";
        out.define(name, body + "( " + String.join(" | ", endAlts) + " )");
    }
}
