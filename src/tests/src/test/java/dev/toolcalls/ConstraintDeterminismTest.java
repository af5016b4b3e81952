package dev.toolcalls;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import dev.toolcalls.bench.ConstraintBenchmark;

import org.junit.jupiter.api.Test;

import java.io.File;
import java.lang.reflect.Method;
import java.net.URL;
import java.net.URLClassLoader;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

/**
 * A constraint's text is a function of the format, the tools and the options alone: every format's
 * constraint, built in a fresh copy of the library (its own classes, so none of the caches shared
 * between builds hold anything) after building the other formats in one order, equals the one built
 * after building them in the reverse order, byte for byte. Each copy first builds every format for
 * a second tool set, so that what the shared caches hold differs between the copies when the
 * measured builds run.
 */
class ConstraintDeterminismTest {
    private static final String ONLY = System.getProperty("constraint.formats", "");

    @Test
    void textDoesNotDependOnEarlierBuilds() throws Exception {
        List<String> names = formatNames();
        Map<String, String> forward = buildAll(names, false);
        Map<String, String> reverse = buildAll(names, true);
        assertFalse(forward.isEmpty());
        assertEquals(forward.keySet(), reverse.keySet());
        List<String> differing = new ArrayList<>();
        for (String name : forward.keySet())
            if (!forward.get(name).equals(reverse.get(name))) differing.add(name);
        assertEquals(List.of(), differing, "formats whose text depends on earlier builds");
    }

    private static List<String> formatNames() {
        Set<String> names = new TreeSet<>();
        for (Format f : Formats.all()) names.add(f.name());
        if (!ONLY.isEmpty()) names.retainAll(Arrays.asList(ONLY.split(",")));
        return new ArrayList<>(names);
    }

    /**
     * In a fresh copy of the library: builds every format for 20 tools, in the order of names, or
     * in the reverse order each after builds for 3 tools with other options and for 20 tools with
     * thinking on, and returns the texts for 20 tools with the default options.
     */
    private static Map<String, String> buildAll(List<String> names, boolean reversed)
            throws Exception {
        List<String> order = new ArrayList<>(names);
        if (reversed) Collections.reverse(order);
        List<URL> urls = new ArrayList<>();
        for (String entry : System.getProperty("java.class.path").split(File.pathSeparator))
            urls.add(new File(entry).toURI().toURL());
        try (URLClassLoader fresh =
                new URLClassLoader(
                        urls.toArray(URL[]::new), ClassLoader.getPlatformClassLoader())) {
            Class<?> formats = fresh.loadClass(Formats.class.getName());
            Class<?> format = fresh.loadClass(Format.class.getName());
            Class<?> tools = fresh.loadClass(Tools.class.getName());
            Class<?> options = fresh.loadClass(ConstraintOptions.class.getName());
            Method get = formats.getMethod("get", String.class);
            Method parse = tools.getMethod("parse", String.class);
            Method constraint = format.getMethod("constraint", tools, options);
            Object defaults = options.getMethod("defaults").invoke(null);
            List<Object> others =
                    List.of(
                            options.getMethod("withThinking", Boolean.class)
                                    .invoke(defaults, false),
                            options.getMethod("withThinking", Boolean.class).invoke(defaults, true),
                            options.getMethod("withToolChoice", String.class)
                                    .invoke(defaults, "required"),
                            options.getMethod("withParallelToolCalls", boolean.class)
                                    .invoke(defaults, false));
            Object few = parse.invoke(null, ConstraintBenchmark.tools(3));
            Object many = parse.invoke(null, ConstraintBenchmark.tools(20));
            Map<String, String> texts = new LinkedHashMap<>();
            for (String name : order) {
                Object f = get.invoke(null, name);
                if (reversed) {
                    for (Object o : others) constraint.invoke(f, few, o);
                    constraint.invoke(f, many, others.get(1));
                }
                texts.put(name, (String) constraint.invoke(f, many, defaults));
            }
            return texts;
        }
    }
}
