package dev.toolcalls.templates;

import com.hubspot.jinjava.interpret.JinjavaInterpreter;
import com.hubspot.jinjava.lib.exptest.ExpTest;
import com.hubspot.jinjava.objects.Namespace;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.function.BiPredicate;

/** The tests ({@code x is string}) of Hugging Face's Jinja, on jinjava's values. */
final class Tests {
    private Tests() {}

    /** The Hugging Face type name of a template value. */
    static String type(Object v) {
        if (v == null) {
            return "UndefinedValue";
        }
        if (v instanceof None) {
            return "NullValue";
        }
        if (v instanceof CharSequence) {
            return "StringValue";
        }
        if (v instanceof Boolean) {
            return "BooleanValue";
        }
        if (v instanceof Double || v instanceof Float) {
            return "FloatValue";
        }
        if (v instanceof Number) {
            return "IntegerValue";
        }
        if (v instanceof Namespace) {
            return "NamespaceValue";
        }
        if (v instanceof Map) {
            return "ObjectValue";
        }
        if (v instanceof List) {
            return "ArrayValue";
        }
        return v.getClass().getSimpleName();
    }

    static List<ExpTest> all() {
        List<ExpTest> tests = new ArrayList<>();
        tests.add(of("boolean", (v, a) -> v instanceof Boolean));
        tests.add(of("callable", (v, a) -> false));
        tests.add(of("odd", (v, a) -> integer(v, "odd") % 2 != 0));
        tests.add(of("even", (v, a) -> integer(v, "even") % 2 == 0));
        tests.add(of("false", (v, a) -> Boolean.FALSE.equals(v)));
        tests.add(of("true", (v, a) -> Boolean.TRUE.equals(v)));
        tests.add(of("none", (v, a) -> v instanceof None));
        tests.add(of("string", (v, a) -> v instanceof CharSequence));
        tests.add(
                of(
                        "number",
                        (v, a) -> type(v).equals("IntegerValue") || type(v).equals("FloatValue")));
        tests.add(of("integer", (v, a) -> type(v).equals("IntegerValue")));
        tests.add(of("iterable", (v, a) -> v instanceof List || v instanceof CharSequence));
        tests.add(of("mapping", (v, a) -> type(v).equals("ObjectValue")));
        tests.add(
                of(
                        "sequence",
                        (v, a) ->
                                v instanceof List
                                        || type(v).equals("ObjectValue")
                                        || v instanceof CharSequence));
        tests.add(
                of(
                        "lower",
                        (v, a) ->
                                v instanceof CharSequence s
                                        && s.toString()
                                                .equals(s.toString().toLowerCase(Locale.ROOT))));
        tests.add(
                of(
                        "upper",
                        (v, a) ->
                                v instanceof CharSequence s
                                        && s.toString()
                                                .equals(s.toString().toUpperCase(Locale.ROOT))));
        tests.add(of("defined", (v, a) -> v != null));
        tests.add(of("undefined", (v, a) -> v == null));
        tests.add(of("equalto", Tests::strictEquals));
        tests.add(of("eq", Tests::strictEquals));
        return tests;
    }

    static boolean strictEquals(Object v, Object[] a) {
        Object b = a.length > 0 ? a[0] : null;
        if (v instanceof Number x && b instanceof Number y) {
            return x.doubleValue() == y.doubleValue();
        }
        if (v instanceof CharSequence || v instanceof Boolean || v == null || v instanceof None) {
            return Objects.equals(v == null ? null : v.toString(), b == null ? null : b.toString())
                    && type(v).equals(type(b));
        }
        return v == b;
    }

    private static long integer(Object v, String test) {
        if (!type(v).equals("IntegerValue")) {
            throw new Values.Unrenderable("cannot " + test + " on " + type(v));
        }
        return ((Number) v).longValue();
    }

    private static ExpTest of(String name, BiPredicate<Object, Object[]> p) {
        return new ExpTest() {
            @Override
            public String getName() {
                return name;
            }

            @Override
            public boolean evaluate(Object var, JinjavaInterpreter interpreter, Object... args) {
                return p.test(var, args);
            }
        };
    }
}
