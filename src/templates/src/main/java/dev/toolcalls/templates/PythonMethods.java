package dev.toolcalls.templates;

import com.hubspot.jinjava.objects.Namespace;

import jinjava.javax.el.ELContext;
import jinjava.javax.el.ELResolver;

import java.beans.FeatureDescriptor;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * Attributes and methods of strings, mappings, lists, numbers and booleans exactly as Hugging
 * Face's Jinja has them ({@code startswith}, {@code split}, {@code items()}, {@code get}, {@code
 * length}); any other method is an error rather than a Java method of the same name.
 */
final class PythonMethods extends ELResolver {

    private static boolean handled(Object base) {
        return base instanceof CharSequence
                || base instanceof Number
                || base instanceof Boolean
                || base instanceof None
                || base instanceof List
                || (base instanceof Map && !(base instanceof Namespace));
    }

    @Override
    public Object getValue(ELContext context, Object base, Object property) {
        if (base == null || !handled(base)) {
            return null;
        }
        Integer index = index(property);
        if (base instanceof List && index != null) {
            return null; // indexing: jinjava's list resolver (negative indices included)
        }
        context.setPropertyResolved(true);
        if (base instanceof Map<?, ?> m) {
            Object key = property instanceof CharSequence ? property.toString() : property;
            return m.get(key);
        }
        if ("length".equals(property)) {
            if (base instanceof CharSequence s) {
                return (long) s.length();
            }
            if (base instanceof List<?> l) {
                return (long) l.size();
            }
        }
        if (base instanceof CharSequence s && index != null) {
            return charAt(s.toString(), index);
        }
        if (base instanceof None) {
            throw new Values.Unrenderable("cannot read attribute " + property + " of none");
        }
        return null;
    }

    /** jinjava passes every property as a string: a decimal integer is an index. */
    private static Integer index(Object property) {
        if (property instanceof Long || property instanceof Integer) {
            return ((Number) property).intValue();
        }
        if (property instanceof CharSequence c && decimal(c)) {
            return Integer.parseInt(c.toString());
        }
        return null;
    }

    /** {@code -?[0-9]{1,9}}: an int, every property read asks. */
    private static boolean decimal(CharSequence c) {
        int from = c.length() > 0 && c.charAt(0) == '-' ? 1 : 0;
        int digits = c.length() - from;
        if (digits < 1 || digits > 9) return false;
        for (int i = from; i < c.length(); i++)
            if (c.charAt(i) < '0' || c.charAt(i) > '9') return false;
        return true;
    }

    private static Object charAt(String s, int i) {
        int k = i < 0 ? s.length() + i : i;
        return k >= 0 && k < s.length() ? String.valueOf(s.charAt(k)) : null;
    }

    @Override
    public Object invoke(
            ELContext context, Object base, Object method, Class<?>[] paramTypes, Object[] params) {
        if (base == null) {
            throw new Values.Unrenderable("cannot call " + method + "() on an undefined value");
        }
        if (!handled(base)) {
            return null;
        }
        context.setPropertyResolved(true);
        String name = String.valueOf(method);
        Object[] args = params == null ? new Object[0] : params;
        if (base instanceof CharSequence cs) {
            return stringMethod(cs.toString(), name, args);
        }
        if (base instanceof Map<?, ?> m) {
            return mapMethod(m, name, args);
        }
        throw new Values.Unrenderable(Tests.type(base) + " has no method " + name + "()");
    }

    Object invokeString(String s, String name, Object[] args) {
        return stringMethod(s, name, args);
    }

    private static Object stringMethod(String s, String name, Object[] args) {
        switch (name) {
            case "upper":
                return s.toUpperCase(Locale.ROOT);
            case "lower":
                return s.toLowerCase(Locale.ROOT);
            case "strip":
                return Js.trim(s);
            case "lstrip":
                return Js.trimStart(s);
            case "rstrip":
                return Js.trimEnd(s);
            case "title":
                return Js.titleCase(s);
            case "capitalize":
                return s.isEmpty() ? s : Character.toUpperCase(s.charAt(0)) + s.substring(1);
            case "startswith":
            case "endswith":
                return affix(s, name, args);
            case "split":
                return split(s, args);
            case "replace":
                return replace(s, args);
            default:
                throw new Values.Unrenderable("a string has no method " + name + "()");
        }
    }

    private static Object affix(String s, String name, Object[] args) {
        if (args.length == 0) {
            throw new Values.Unrenderable(name + "() requires at least one argument");
        }
        List<Object> patterns = new ArrayList<>();
        if (args[0] instanceof CharSequence p) {
            patterns.add(p.toString());
        } else if (args[0] instanceof List<?> l) {
            patterns.addAll(l);
        } else {
            throw new Values.Unrenderable(
                    name + "() argument must be a string or tuple of strings");
        }
        for (Object p : patterns) {
            if (!(p instanceof CharSequence)) {
                throw new Values.Unrenderable(name + "() tuple elements must be strings");
            }
            String x = p.toString();
            if (name.equals("startswith") ? s.startsWith(x) : s.endsWith(x)) {
                return true;
            }
        }
        return false;
    }

    private static Object split(String s, Object[] args) {
        Object sep = args.length > 0 ? args[0] : None.NONE;
        Object max = args.length > 1 ? args[1] : Long.valueOf(-1);
        if (sep == null || !(sep instanceof CharSequence || sep instanceof None)) {
            throw new Values.Unrenderable("sep argument must be a string or null");
        }
        if (!Tests.type(max).equals("IntegerValue")) {
            throw new Values.Unrenderable("maxsplit argument must be a number");
        }
        long maxsplit = ((Number) max).longValue();
        List<Object> out = new ArrayList<>();
        if (sep instanceof None) {
            String text = Js.trimStart(s);
            int i = 0;
            while (i < text.length()) {
                while (i < text.length() && isRegexSpace(text.charAt(i))) {
                    i++;
                }
                if (i >= text.length()) {
                    break;
                }
                int start = i;
                while (i < text.length() && !isRegexSpace(text.charAt(i))) {
                    i++;
                }
                if (maxsplit != -1 && out.size() >= maxsplit) {
                    out.add(text.substring(start));
                    break;
                }
                out.add(text.substring(start, i));
            }
            return out;
        }
        String sp = sep.toString();
        if (sp.isEmpty()) {
            throw new Values.Unrenderable("empty separator");
        }
        List<String> parts = new ArrayList<>();
        int from = 0;
        int at;
        while ((at = s.indexOf(sp, from)) >= 0) {
            parts.add(s.substring(from, at));
            from = at + sp.length();
        }
        parts.add(s.substring(from));
        if (maxsplit != -1 && parts.size() > maxsplit) {
            List<String> head = new ArrayList<>(parts.subList(0, (int) maxsplit));
            head.add(String.join(sp, parts.subList((int) maxsplit, parts.size())));
            parts = head;
        }
        out.addAll(parts);
        return out;
    }

    /** \s in a JavaScript regular expression: the same set as trim. */
    private static boolean isRegexSpace(char c) {
        return Js.isSpace(c);
    }

    private static Object replace(String s, Object[] args) {
        if (args.length < 2) {
            throw new Values.Unrenderable("replace() requires at least two arguments");
        }
        if (!(args[0] instanceof CharSequence o && args[1] instanceof CharSequence n)) {
            throw new Values.Unrenderable("replace() arguments must be strings");
        }
        long count = -1;
        if (args.length > 2) {
            if (Tests.type(args[2]).equals("IntegerValue")) {
                count = ((Number) args[2]).longValue();
            } else if (!(args[2] instanceof None)) {
                throw new Values.Unrenderable("replace() count argument must be a number or null");
            }
        }
        if (count == 0) {
            return s;
        }
        String old = o.toString();
        String rep = n.toString();
        long remaining = count < 0 ? Long.MAX_VALUE : count;
        StringBuilder b = new StringBuilder();
        if (old.isEmpty()) {
            // the empty pattern matches before every code point and at the end
            int i = 0;
            while (i <= s.length()) {
                if (remaining > 0) {
                    b.append(rep);
                    remaining--;
                }
                if (i == s.length()) {
                    break;
                }
                int cp = s.codePointAt(i);
                b.appendCodePoint(cp);
                i += Character.charCount(cp);
            }
            return b.toString();
        }
        int from = 0;
        int at;
        while (remaining > 0 && (at = s.indexOf(old, from)) >= 0) {
            b.append(s, from, at).append(rep);
            from = at + old.length();
            remaining--;
        }
        b.append(s, from, s.length());
        return b.toString();
    }

    private static Object mapMethod(Map<?, ?> m, String name, Object[] args) {
        switch (name) {
            case "get":
                {
                    if (args.length == 0 || !(args[0] instanceof CharSequence key)) {
                        throw new Values.Unrenderable(
                                "Object key must be a string: got "
                                        + (args.length == 0
                                                ? "UndefinedValue"
                                                : Tests.type(args[0])));
                    }
                    Object v = m.get(key.toString());
                    if (v != null) {
                        return v;
                    }
                    return args.length > 1 && args[1] != null ? args[1] : None.NONE;
                }
            case "items":
                {
                    List<Object> out = new ArrayList<>();
                    for (Map.Entry<?, ?> e : m.entrySet()) {
                        List<Object> pair = new ArrayList<>(2);
                        pair.add(e.getKey());
                        pair.add(e.getValue());
                        out.add(pair);
                    }
                    return out;
                }
            case "keys":
                return new ArrayList<Object>(m.keySet());
            case "values":
                return new ArrayList<Object>(m.values());
            default:
                throw new Values.Unrenderable("a mapping has no method " + name + "()");
        }
    }

    @Override
    public Class<?> getType(ELContext context, Object base, Object property) {
        return null;
    }

    @Override
    public void setValue(ELContext context, Object base, Object property, Object value) {}

    @Override
    public boolean isReadOnly(ELContext context, Object base, Object property) {
        return false;
    }

    @Override
    public Iterator<FeatureDescriptor> getFeatureDescriptors(ELContext context, Object base) {
        return null;
    }

    @Override
    public Class<?> getCommonPropertyType(ELContext context, Object base) {
        return Object.class;
    }
}
