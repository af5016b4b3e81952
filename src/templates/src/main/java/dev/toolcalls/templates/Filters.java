package dev.toolcalls.templates;

import com.hubspot.jinjava.interpret.JinjavaInterpreter;
import com.hubspot.jinjava.lib.filter.Filter;

import java.util.ArrayList;
import java.util.Collections;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * The filters of Hugging Face's Jinja, with its semantics. jinjava's other filters are replaced by
 * {@link #refusing(String)} ones: a template that uses them fails instead of rendering differently.
 */
final class Filters {
    private Filters() {}

    /** What a filter does: (value, positional arguments, keyword arguments) to a value. */
    interface Body {
        Object apply(Object v, Object[] args, Map<String, Object> kwargs);
    }

    static List<Filter> all() {
        List<Filter> f = new ArrayList<>();
        f.add(of("tojson", Filters::tojson));
        f.add(of("safe", (v, a, k) -> v));
        f.add(of("trim", (v, a, k) -> Js.trim(string(v, "trim"))));
        f.add(of("upper", (v, a, k) -> string(v, "upper").toUpperCase(Locale.ROOT)));
        f.add(of("lower", (v, a, k) -> string(v, "lower").toLowerCase(Locale.ROOT)));
        f.add(of("title", (v, a, k) -> Js.titleCase(string(v, "title"))));
        f.add(
                of(
                        "capitalize",
                        (v, a, k) -> {
                            String s = string(v, "capitalize");
                            return s.isEmpty()
                                    ? s
                                    : Character.toUpperCase(s.charAt(0)) + s.substring(1);
                        }));
        f.add(of("length", Filters::length));
        f.add(of("count", Filters::length));
        f.add(
                of(
                        "first",
                        (v, a, k) -> list(v, "first").isEmpty() ? null : list(v, "first").get(0)));
        f.add(
                of(
                        "last",
                        (v, a, k) -> {
                            List<?> l = list(v, "last");
                            return l.isEmpty() ? null : l.get(l.size() - 1);
                        }));
        f.add(
                of(
                        "reverse",
                        (v, a, k) -> {
                            List<Object> l = new ArrayList<>(list(v, "reverse"));
                            Collections.reverse(l);
                            return l;
                        }));
        f.add(of("list", (v, a, k) -> list(v, "list")));
        f.add(of("join", Filters::join));
        f.add(of("string", (v, a, k) -> v instanceof CharSequence ? v : Values.str(v)));
        f.add(of("items", Filters::items));
        f.add(of("default", Filters::defaultFilter));
        f.add(of("d", Filters::defaultFilter));
        f.add(of("indent", Filters::indent));
        f.add(
                of(
                        "replace",
                        (v, a, k) ->
                                new PythonMethods()
                                        .invokeString(string(v, "replace"), "replace", a)));
        f.add(of("unique", Filters::unique));
        return f;
    }

    private static Object tojson(Object v, Object[] args, Map<String, Object> kwargs) {
        Object indent = kwargs.getOrDefault("indent", args.length > 0 ? args[0] : None.NONE);
        int n = 0;
        if (indent != null && !(indent instanceof None)) {
            if (!Tests.type(indent).equals("IntegerValue")) {
                throw new Values.Unrenderable("If set, indent must be a number");
            }
            n = ((Number) indent).intValue();
        }
        Object ascii = kwargs.getOrDefault("ensure_ascii", Boolean.FALSE);
        Object sort = kwargs.getOrDefault("sort_keys", Boolean.FALSE);
        if (Boolean.TRUE.equals(sort)) {
            throw new Values.Unrenderable("tojson(sort_keys=true) is not supported");
        }
        if (kwargs.containsKey("separators")) {
            throw new Values.Unrenderable("tojson(separators=...) is not supported");
        }
        if (!(ascii instanceof Boolean)) {
            throw new Values.Unrenderable("If set, ensure_ascii must be a boolean");
        }
        return Values.tojson(v, n, (Boolean) ascii);
    }

    private static Object length(Object v, Object[] args, Map<String, Object> kwargs) {
        if (v instanceof CharSequence s) {
            return (long) s.length();
        }
        if (v instanceof List<?> l) {
            return (long) l.size();
        }
        if (Tests.type(v).equals("ObjectValue")) {
            return (long) ((Map<?, ?>) v).size();
        }
        throw new Values.Unrenderable("Cannot apply filter \"length\" to type: " + Tests.type(v));
    }

    private static Object join(Object v, Object[] args, Map<String, Object> kwargs) {
        Object sep = args.length > 0 ? args[0] : kwargs.getOrDefault("separator", "");
        if (!(sep instanceof CharSequence)) {
            throw new Values.Unrenderable("separator must be a string");
        }
        List<String> parts = new ArrayList<>();
        if (v instanceof CharSequence s) {
            s.toString().codePoints().forEach(cp -> parts.add(new String(Character.toChars(cp))));
        } else if (v instanceof List<?> l) {
            for (Object x : l) {
                if (!(x == null
                        || x instanceof CharSequence
                        || x instanceof Number
                        || x instanceof Boolean
                        || x instanceof None)) {
                    throw new Values.Unrenderable(
                            "join of a list holding " + Tests.type(x) + " is not supported");
                }
                parts.add(
                        x == null || x instanceof None
                                ? ""
                                : x instanceof Double
                                        ? Values.jsNumber((Double) x)
                                        : String.valueOf(x));
            }
        } else {
            throw new Values.Unrenderable("Cannot apply filter \"join\" to type: " + Tests.type(v));
        }
        return String.join(sep.toString(), parts);
    }

    private static Object items(Object v, Object[] args, Map<String, Object> kwargs) {
        if (!Tests.type(v).equals("ObjectValue")) {
            throw new Values.Unrenderable(
                    "Cannot apply filter \"items\" to type: " + Tests.type(v));
        }
        List<Object> out = new ArrayList<>();
        for (Map.Entry<?, ?> e : ((Map<?, ?>) v).entrySet()) {
            List<Object> pair = new ArrayList<>(2);
            pair.add(e.getKey());
            pair.add(e.getValue());
            out.add(pair);
        }
        return out;
    }

    private static Object defaultFilter(Object v, Object[] args, Map<String, Object> kwargs) {
        Object d = args.length > 0 ? args[0] : "";
        Object flag = args.length > 1 ? args[1] : kwargs.getOrDefault("boolean", Boolean.FALSE);
        if (!(flag instanceof Boolean)) {
            throw new Values.Unrenderable("`default` filter flag must be a boolean");
        }
        if (v == null || ((Boolean) flag && !truthy(v))) {
            return d;
        }
        return v;
    }

    static boolean truthy(Object v) {
        if (v == null || v instanceof None) {
            return false;
        }
        if (v instanceof Boolean b) {
            return b;
        }
        if (v instanceof CharSequence s) {
            return s.length() > 0;
        }
        if (v instanceof Number n) {
            return n.doubleValue() != 0;
        }
        if (v instanceof Map<?, ?> m) {
            return !m.isEmpty();
        }
        if (v instanceof List<?> l) {
            return !l.isEmpty();
        }
        return true;
    }

    private static Object indent(Object v, Object[] args, Map<String, Object> kwargs) {
        String s = string(v, "indent");
        Object width = args.length > 0 ? args[0] : kwargs.getOrDefault("width", 4L);
        Object first = args.length > 1 ? args[1] : kwargs.getOrDefault("first", Boolean.FALSE);
        Object blank = args.length > 2 ? args[2] : kwargs.getOrDefault("blank", Boolean.FALSE);
        if (!Tests.type(width).equals("IntegerValue")) {
            throw new Values.Unrenderable("width must be a number");
        }
        String pad = " ".repeat(((Number) width).intValue());
        String[] lines = s.split("\n", -1);
        StringBuilder b = new StringBuilder();
        for (int i = 0; i < lines.length; i++) {
            if (i > 0) {
                b.append('\n');
            }
            boolean keep = (!truthy(first) && i == 0) || (!truthy(blank) && lines[i].isEmpty());
            b.append(keep ? lines[i] : pad + lines[i]);
        }
        return b.toString();
    }

    private static Object unique(Object v, Object[] args, Map<String, Object> kwargs) {
        List<Object> out = new ArrayList<>();
        Set<Object> seen = new HashSet<>();
        for (Object x : list(v, "unique")) {
            if (!(x instanceof CharSequence || x instanceof Number || x instanceof Boolean)) {
                throw new Values.Unrenderable(
                        "unique of a list holding " + Tests.type(x) + " is not supported");
            }
            Object key =
                    x instanceof Number n ? (Object) n.doubleValue() : x.toString() + Tests.type(x);
            if (seen.add(key)) {
                out.add(x);
            }
        }
        return out;
    }

    private static String string(Object v, String filter) {
        if (v instanceof CharSequence s) {
            return s.toString();
        }
        throw new Values.Unrenderable(
                "Cannot apply filter \"" + filter + "\" to type: " + Tests.type(v));
    }

    private static List<?> list(Object v, String filter) {
        if (v instanceof List<?> l) {
            return l;
        }
        throw new Values.Unrenderable(
                "Cannot apply filter \"" + filter + "\" to type: " + Tests.type(v));
    }

    /** A filter jinjava has and Hugging Face's Jinja does not, or has with other semantics. */
    static Filter refusing(String name) {
        return of(
                name,
                (v, a, k) -> {
                    throw new Values.Unrenderable("the filter " + name + " is not supported");
                });
    }

    static Filter of(String name, Body body) {
        return new Filter() {
            @Override
            public String getName() {
                return name;
            }

            @Override
            public Object filter(Object var, JinjavaInterpreter interpreter, String... args) {
                return body.apply(var, args, Map.of());
            }

            @Override
            public Object filter(
                    Object var,
                    JinjavaInterpreter interpreter,
                    Object[] args,
                    Map<String, Object> kwargs) {
                return body.apply(var, args, kwargs);
            }
        };
    }
}
