package dev.toolcalls.templates;

import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Values as Hugging Face's Jinja ({@code @huggingface/jinja}) sees them: printing with {@code {{
 * }}}, {@code tojson}, and plain copies of caller values.
 */
final class Values {
    private Values() {}

    /** A deep copy as LinkedHashMap, ArrayList, String, Long, Double, Boolean or null. */
    static Object plain(Object v) {
        if (v == null || v instanceof String || v instanceof Boolean) {
            return v;
        }
        if (v instanceof Map<?, ?> m) {
            Map<String, Object> out = new LinkedHashMap<>();
            for (Map.Entry<?, ?> e : m.entrySet()) {
                if (!(e.getKey() instanceof String key)) {
                    throw new IllegalArgumentException("a map key is not a string: " + e.getKey());
                }
                out.put(key, plain(e.getValue()));
            }
            return out;
        }
        if (v instanceof Iterable<?> it) {
            List<Object> out = new ArrayList<>();
            for (Object x : it) {
                out.add(plain(x));
            }
            return out;
        }
        if (v instanceof Object[] a) {
            return plain(List.of(a));
        }
        if (v instanceof Number n) {
            return number(n instanceof BigDecimal b ? b : new BigDecimal(n.toString()));
        }
        if (v instanceof Character c) {
            return c.toString();
        }
        throw new IllegalArgumentException(
                "a value of type " + v.getClass().getName() + " is not JSON-like");
    }

    /** A number as JavaScript holds it: integral values as Long, others as Double. */
    static Object number(BigDecimal d) {
        double x = d.doubleValue();
        if (x == Math.rint(x) && !Double.isInfinite(x) && Math.abs(x) < 9.007199254740992E15) {
            return (long) x;
        }
        return x;
    }

    /** How {@code {{ value }}} prints. */
    static String str(Object v) {
        if (v == null || v instanceof None) {
            return "";
        }
        if (v instanceof CharSequence s) {
            return s.toString();
        }
        if (v instanceof Boolean b) {
            return b ? "true" : "false";
        }
        if (v instanceof Double || v instanceof Float) {
            double d = ((Number) v).doubleValue();
            if (d == 0 && 1 / d < 0) {
                return "-0.0";
            }
            if (d == Math.rint(d) && !Double.isInfinite(d)) {
                return jsNumber(d) + (Math.abs(d) < 1e21 ? ".0" : "");
            }
            return jsNumber(d);
        }
        if (v instanceof Number n) {
            return n.toString();
        }
        if (v instanceof Map || v instanceof List || v instanceof Map.Entry) {
            StringBuilder b = new StringBuilder();
            json(b, v, 0, 0, false);
            return b.toString();
        }
        throw new Unrenderable(
                "a value of type " + v.getClass().getSimpleName() + " cannot be printed");
    }

    /** {@code tojson} with the given indent (0: none): {@code ", "} and {@code ": "} separators. */
    static String tojson(Object v, int indent, boolean ensureAscii) {
        StringBuilder b = new StringBuilder();
        json(b, v, indent, 0, true);
        if (!ensureAscii) {
            return b.toString();
        }
        StringBuilder a = new StringBuilder();
        for (int i = 0; i < b.length(); i++) {
            char c = b.charAt(i);
            if (c >= 0x7f) {
                a.append(String.format("\\u%04x", (int) c));
            } else {
                a.append(c);
            }
        }
        return a.toString();
    }

    private static void json(
            StringBuilder b, Object v, int indent, int depth, boolean undefinedAsNull) {
        if (v == null) {
            b.append(undefinedAsNull ? "null" : "undefined");
        } else if (v instanceof None) {
            b.append("null");
        } else if (v instanceof CharSequence s) {
            quote(b, s.toString());
        } else if (v instanceof Boolean x) {
            b.append(x ? "true" : "false");
        } else if (v instanceof Double || v instanceof Float) {
            double d = ((Number) v).doubleValue();
            b.append(Double.isFinite(d) ? jsNumber(d) : "null");
        } else if (v instanceof Number n) {
            b.append(n.toString());
        } else if (v instanceof Map.Entry<?, ?> e) {
            json(
                    b,
                    List.of(e.getKey(), e.getValue() == null ? None.NONE : e.getValue()),
                    indent,
                    depth,
                    undefinedAsNull);
        } else if (v instanceof List<?> l) {
            String item = indent > 0 ? "," : ", ";
            if (l.isEmpty()) {
                b.append("[]");
                return;
            }
            b.append('[');
            for (int i = 0; i < l.size(); i++) {
                if (i > 0) {
                    b.append(item);
                }
                newline(b, indent, depth + 1);
                json(b, l.get(i), indent, depth + 1, undefinedAsNull);
            }
            newline(b, indent, depth);
            b.append(']');
        } else if (v instanceof Map<?, ?> m) {
            String item = indent > 0 ? "," : ", ";
            if (m.isEmpty()) {
                b.append("{}");
                return;
            }
            b.append('{');
            Iterator<? extends Map.Entry<?, ?>> it = m.entrySet().iterator();
            boolean first = true;
            while (it.hasNext()) {
                Map.Entry<?, ?> e = it.next();
                if (!first) {
                    b.append(item);
                }
                first = false;
                newline(b, indent, depth + 1);
                quote(b, String.valueOf(e.getKey()));
                b.append(": ");
                json(b, e.getValue(), indent, depth + 1, undefinedAsNull);
            }
            newline(b, indent, depth);
            b.append('}');
        } else {
            throw new Unrenderable(
                    "a value of type "
                            + v.getClass().getSimpleName()
                            + " cannot be written as JSON");
        }
    }

    private static void newline(StringBuilder b, int indent, int depth) {
        if (indent > 0) {
            b.append('\n');
            b.append(" ".repeat(indent * depth));
        }
    }

    /** JSON.stringify of a string: non-ASCII kept, lone surrogates escaped. */
    static void quote(StringBuilder b, String s) {
        b.append('"');
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            switch (c) {
                case '"' -> b.append("\\\"");
                case '\\' -> b.append("\\\\");
                case '\b' -> b.append("\\b");
                case '\f' -> b.append("\\f");
                case '\n' -> b.append("\\n");
                case '\r' -> b.append("\\r");
                case '\t' -> b.append("\\t");
                default -> {
                    if (c < 0x20) {
                        b.append(String.format("\\u%04x", (int) c));
                    } else if (Character.isHighSurrogate(c)
                            && i + 1 < s.length()
                            && Character.isLowSurrogate(s.charAt(i + 1))) {
                        b.append(c).append(s.charAt(++i));
                    } else if (Character.isSurrogate(c)) {
                        b.append(String.format("\\u%04x", (int) c));
                    } else {
                        b.append(c);
                    }
                }
            }
        }
        b.append('"');
    }

    /** Number.prototype.toString of a double. */
    static String jsNumber(double d) {
        if (Double.isNaN(d)) {
            return "NaN";
        }
        if (Double.isInfinite(d)) {
            return d > 0 ? "Infinity" : "-Infinity";
        }
        if (d == 0) {
            return "0";
        }
        BigDecimal x = new BigDecimal(Double.toString(d)).stripTrailingZeros();
        double a = Math.abs(d);
        if (a >= 1e-6 && a < 1e21) {
            return x.toPlainString();
        }
        String digits = x.unscaledValue().abs().toString();
        int exp = digits.length() - 1 - x.scale();
        StringBuilder b = new StringBuilder();
        if (d < 0) {
            b.append('-');
        }
        b.append(digits.charAt(0));
        if (digits.length() > 1) {
            b.append('.').append(digits, 1, digits.length());
        }
        b.append('e').append(exp < 0 ? "-" : "+").append(Math.abs(exp));
        return b.toString();
    }

    /** A value the renderer cannot render exactly. */
    static final class Unrenderable extends RuntimeException {
        private static final long serialVersionUID = 1L;

        Unrenderable(String message) {
            super(message);
        }
    }
}
