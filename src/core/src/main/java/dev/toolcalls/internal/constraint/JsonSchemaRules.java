package dev.toolcalls.internal.constraint;

import com.google.gson.JsonArray;
import com.google.gson.JsonElement;
import com.google.gson.JsonObject;

import dev.toolcalls.ConstraintException;
import dev.toolcalls.internal.assemble.SchemaTypes;
import dev.toolcalls.internal.json.Json;

import org.antlr.v4.runtime.misc.IntervalSet;

import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;

/**
 * GBNF for JSON values that a tool's JSON schema allows: types, {@code enum} / {@code const},
 * {@code anyOf} / {@code oneOf}, objects ({@code properties}, {@code required} in any order, {@code
 * additionalProperties}), arrays ({@code items}), local {@code $ref} (recursive ones included).
 * Keywords that only narrow a value further ({@code pattern}, {@code format}, lengths, bounds) are
 * not enforced: the grammar accepts more there, never less. {@code patternProperties}, a {@code
 * $ref} outside the schema and {@code allOf} with several branches are refused, naming the tool.
 */
final class JsonSchemaRules {
    /**
     * The most states times the choices in each that following an object's required properties may
     * take: one state per combination of the tracked ones written (2^t) and count of the others (0
     * to their number), each with a choice per property.
     */
    static final long REQUIRED_BUDGET = 1 << 12;

    /** The characters {@code String.strip()} takes from a value's ends (Java's whitespace). */
    static final IntervalSet STRIPPED = stripped();

    /** The characters a JSON key may hold raw (less the quote and the backslash). */
    private static final IntervalSet KEY_CHARS = keyChars();

    /** The first number of an escape as a step of the other-key matcher (above every character). */
    private static final int ESCAPED = Character.MAX_CODE_POINT + 1;

    private static final String OTHER_KEY_CHARS = Gbnf.charClass(KEY_CHARS);

    /** The class of the raw characters of a key but {@code cs}, by {@code cs} as a string. */
    private static final Map<String, String> OTHER_KEY_CLASSES = new ConcurrentHashMap<>();

    private static final int MAX_OTHER_KEY_CLASSES = 4096;

    /** The class of the raw characters of a key but one ASCII character, by that character. */
    private static final String[] OTHER_KEY_CHAR = new String[128];

    /**
     * An object's required properties as its rules follow them, in the order {@code required} gives
     * them: which of {@code tracked} are written (a bit each), and how many writes of {@code
     * counted} were read (up to their number; a name written twice counts twice). A state is the
     * bits with the count above them; the object may end in {@link #full()} only.
     */
    record Required(List<String> tracked, List<String> counted) {
        static final Required NONE = new Required(List.of(), List.of());

        boolean isEmpty() {
            return tracked.isEmpty() && counted.isEmpty();
        }

        /** The state where every required property is written. */
        int full() {
            return (1 << tracked.size()) - 1 | counted.size() << tracked.size();
        }

        /** The state after the property {@code name} is written in {@code state}. */
        int next(int state, String name) {
            int r = tracked.indexOf(name);
            if (r >= 0) return state | 1 << r;
            if (!counted.contains(name)) return state;
            int t = tracked.size();
            int count = Math.min(counted.size(), (state >>> t) + 1);
            return state & ((1 << t) - 1) | count << t;
        }
    }

    /**
     * The outermost object of a schema's value as its rules write it, from which {@link #opening}
     * writes another beginning of it: the root value's alternatives and which of them is the
     * object; the object's rule ({@code null} where it is {@code json_object}), its properties,
     * their member rules and the state of the required ones after each, whether it may end at once,
     * the value of other keys and their member rule ({@code null} where none is allowed).
     */
    record Outer(
            List<String> alts,
            int at,
            String base,
            List<String> names,
            List<String> members,
            int[] after,
            boolean empty,
            String extraValue,
            String extraMember) {
        Outer in(List<String> alts, int at) {
            return new Outer(alts, at, base, names, members, after, empty, extraValue, extraMember);
        }
    }

    private final Gbnf out;
    private final String tool;
    private final JsonElement root;
    private final String prefix;
    private final Map<String, String> refs = new HashMap<>();
    private Outer outer;
    private int counter;

    JsonSchemaRules(Gbnf out, String tool, JsonElement root, String prefix) {
        this.out = out;
        this.tool = tool;
        this.root = root;
        this.prefix = prefix;
        defineGeneric(out);
    }

    /** The outermost object of the value {@link #value(JsonElement)} wrote, or null where none. */
    Outer outer() {
        return outer;
    }

    static void defineGeneric(Gbnf out) {
        if (out.has("json_value")) return;
        out.define("ws", "[ \\t\\n\\r]*");
        out.define(
                "json_value",
                "json_object | json_array | json_string | json_number | \"true\" | \"false\" | \"null\"");
        out.define(
                "json_object",
                "\"{\" ws ( \"}\" | json_string ws \":\" ws json_value ws ( \",\" ws json_string ws \":\" ws json_value ws )* \"}\" )");
        out.define(
                "json_array",
                "\"[\" ws ( \"]\" | json_value ws ( \",\" ws json_value ws )* \"]\" )");
        out.define("json_string", "\"\\\"\" json_char* \"\\\"\"");
        out.define(
                "json_char",
                "[^\"\\\\\\u0000-\\u001F] | \"\\\\\" ( [\"\\\\/bfnrt] | \"u\" [0-9a-fA-F] [0-9a-fA-F] [0-9a-fA-F] [0-9a-fA-F] )");
        out.define("json_int", "\"-\"? ( \"0\" | [1-9] [0-9]* )");
        out.define("json_number", "json_int ( \".\" [0-9]+ )? ( [eE] [-+]? [0-9]+ )?");
    }

    private static IntervalSet stripped() {
        IntervalSet set = new IntervalSet();
        for (int c = 0; c <= 0xFFFF; c++) if (Character.isWhitespace(c)) set.add(c);
        return set;
    }

    private String fresh(String what) {
        return prefix + "_" + what + (counter++);
    }

    private ConstraintException refuse(String keyword, String why) {
        return new ConstraintException(
                tool,
                keyword,
                "tool "
                        + tool
                        + ": the schema keyword "
                        + keyword
                        + " cannot be expressed: "
                        + why);
    }

    /** An expression for the values the schema allows. */
    String value(JsonElement schema) {
        return value(schema, 0);
    }

    private String value(JsonElement schema, int depth) {
        if (depth > 64) throw refuse("$ref", "the schema nests deeper than 64 levels");
        if (schema == null || schema.isJsonNull()) return "json_value";
        if (schema.isJsonPrimitive() && schema.getAsJsonPrimitive().isBoolean()) {
            if (schema.getAsBoolean()) return "json_value";
            throw refuse("false", "a schema that allows no value");
        }
        if (!schema.isJsonObject()) return "json_value";
        JsonObject s = schema.getAsJsonObject();
        if (s.has("patternProperties"))
            throw refuse(
                    "patternProperties",
                    "property names given by a regular expression; list the properties instead");
        if (s.has("$ref")) return ref(s.get("$ref").getAsString(), depth);
        if (s.has("const")) return Gbnf.literal(json(s.get("const")));
        if (s.has("enum") && s.get("enum").isJsonArray()) {
            Set<String> alts = new LinkedHashSet<>();
            for (JsonElement v : s.getAsJsonArray("enum")) alts.add(Gbnf.literal(json(v)));
            if (alts.isEmpty()) throw refuse("enum", "an empty enum allows no value");
            return "(" + String.join(" | ", alts) + ")";
        }
        for (String k : new String[] {"anyOf", "oneOf"}) {
            if (s.has(k) && s.get(k).isJsonArray()) {
                List<String> alts = new ArrayList<>();
                for (JsonElement b : s.getAsJsonArray(k))
                    alts.add(value(merge(s, b, k), depth + 1));
                return "(" + String.join(" | ", alts) + ")";
            }
        }
        if (s.has("allOf") && s.get("allOf").isJsonArray()) {
            JsonArray all = s.getAsJsonArray("allOf");
            if (all.size() == 1) return value(merge(s, all.get(0), "allOf"), depth + 1);
            throw refuse("allOf", "an intersection of several schemas");
        }
        List<String> types = typeNames(s);
        if (types.isEmpty()) return "json_value";
        List<String> alts = new ArrayList<>();
        int at = -1;
        for (String t : new LinkedHashSet<>(types)) {
            if (depth == 0 && t.equals("object")) at = alts.size();
            alts.add(typed(t, s, depth));
        }
        if (at >= 0) outer = outer.in(alts, at);
        return either(alts);
    }

    /**
     * The types a schema names: its {@code type} (one or a list), else {@code object} where it has
     * {@code properties} and {@code array} where it has {@code items}; {@code null} besides where
     * it is {@code nullable}.
     */
    private static List<String> typeNames(JsonObject s) {
        List<String> types = new ArrayList<>();
        JsonElement type = s.get("type");
        if (type != null && type.isJsonArray())
            for (JsonElement t : type.getAsJsonArray()) types.add(t.getAsString());
        else if (type != null && type.isJsonPrimitive()) types.add(type.getAsString());
        else if (s.has("properties")) types.add("object");
        else if (s.has("items")) types.add("array");
        if (s.has("nullable")
                && s.get("nullable").isJsonPrimitive()
                && s.get("nullable").getAsBoolean()) types.add("null");
        return types;
    }

    private static String either(List<String> alts) {
        return alts.size() == 1 ? alts.get(0) : "(" + String.join(" | ", alts) + ")";
    }

    /**
     * The schema of the values of {@code schema} whose JSON type is one of {@code types} (a type
     * name as the parser reads it, an alias such as {@code dict} written as the type it stands for;
     * a name it does not read is any of them), read as {@link #value} reads it: consts and enums
     * keep their values of those types, each branch of an {@code anyOf} or {@code oneOf} (and of an
     * {@code allOf} of one) is restricted, and a schema's types are cut to those; null where it
     * allows no such value. A schema read through a {@code $ref}, or an {@code allOf} of several
     * branches, is given back whole: more values than those types, never fewer.
     */
    static JsonElement ofTypes(JsonElement schema, Set<SchemaTypes.Type> types) {
        return ofTypes(schema, types, 0);
    }

    private static JsonElement ofTypes(JsonElement schema, Set<SchemaTypes.Type> types, int depth) {
        if (schema != null
                && schema.isJsonPrimitive()
                && schema.getAsJsonPrimitive().isBoolean()
                && !schema.getAsBoolean()) return null;
        if (depth > 64 || schema == null || !schema.isJsonObject()) return anyOf(types);
        JsonObject s = schema.getAsJsonObject();
        if (s.has("$ref")) return s;
        if (s.has("const")) return holds(types, s.get("const")) ? s : null;
        if (s.has("enum") && s.get("enum").isJsonArray()) {
            JsonArray kept = new JsonArray();
            for (JsonElement v : s.getAsJsonArray("enum")) if (holds(types, v)) kept.add(v);
            if (kept.isEmpty()) return null;
            JsonObject out = s.deepCopy();
            out.add("enum", kept);
            return out;
        }
        for (String k : new String[] {"anyOf", "oneOf"}) {
            if (s.has(k) && s.get(k).isJsonArray()) {
                JsonArray kept = new JsonArray();
                for (JsonElement b : s.getAsJsonArray(k)) {
                    JsonElement r = ofTypes(merge(s, b, k), types, depth + 1);
                    if (r != null) kept.add(r);
                }
                if (kept.isEmpty()) return null;
                JsonObject out = new JsonObject();
                out.add("anyOf", kept);
                return out;
            }
        }
        if (s.has("allOf") && s.get("allOf").isJsonArray()) {
            JsonArray all = s.getAsJsonArray("allOf");
            return all.size() == 1 ? ofTypes(merge(s, all.get(0), "allOf"), types, depth + 1) : s;
        }
        List<String> named = typeNames(s);
        Set<String> kept = new LinkedHashSet<>();
        for (String t : named) {
            SchemaTypes.Type read = SchemaTypes.named(t);
            if (read == null) kept.addAll(names(types));
            else if (types.contains(read)) kept.add(read.name().toLowerCase(Locale.ROOT));
        }
        if (named.isEmpty()) kept.addAll(names(types));
        if (kept.isEmpty()) return null;
        JsonObject out = s.deepCopy();
        out.remove("nullable");
        out.add("type", array(kept));
        return out;
    }

    /** A schema of any value of the {@code types}. */
    private static JsonObject anyOf(Set<SchemaTypes.Type> types) {
        JsonObject out = new JsonObject();
        out.add("type", array(names(types)));
        return out;
    }

    /** The JSON Schema names of the {@code types}. */
    private static Set<String> names(Set<SchemaTypes.Type> types) {
        Set<String> out = new LinkedHashSet<>();
        for (SchemaTypes.Type t : types) out.add(t.name().toLowerCase(Locale.ROOT));
        return out;
    }

    private static JsonArray array(Set<String> names) {
        JsonArray out = new JsonArray();
        for (String n : names) out.add(n);
        return out;
    }

    /** Whether the JSON value {@code v} is of one of the {@code types}. */
    private static boolean holds(Set<SchemaTypes.Type> types, JsonElement v) {
        if (v == null || v.isJsonNull()) return types.contains(SchemaTypes.Type.NULL);
        if (v.isJsonObject()) return types.contains(SchemaTypes.Type.OBJECT);
        if (v.isJsonArray()) return types.contains(SchemaTypes.Type.ARRAY);
        if (v.getAsJsonPrimitive().isBoolean()) return types.contains(SchemaTypes.Type.BOOLEAN);
        if (!v.getAsJsonPrimitive().isNumber()) return types.contains(SchemaTypes.Type.STRING);
        if (types.contains(SchemaTypes.Type.NUMBER)) return true;
        if (!types.contains(SchemaTypes.Type.INTEGER)) return false;
        try {
            // by its scale: 1e400 is an integer, and is never written out
            BigDecimal d = v.getAsBigDecimal();
            return d.signum() == 0 || d.stripTrailingZeros().scale() <= 0;
        } catch (NumberFormatException e) {
            return false;
        }
    }

    /** A branch of anyOf/oneOf/allOf with the sibling keywords it inherits. */
    private static JsonElement merge(JsonObject parent, JsonElement branch, String keyword) {
        if (!branch.isJsonObject()) return branch;
        JsonObject b = branch.getAsJsonObject().deepCopy();
        for (Map.Entry<String, JsonElement> e : parent.entrySet())
            if (!e.getKey().equals(keyword)
                    && !b.has(e.getKey())
                    && !e.getKey().equals("description")) b.add(e.getKey(), e.getValue());
        return b;
    }

    private String typed(String type, JsonObject s, int depth) {
        return switch (type) {
            case "string" -> "json_string";
            case "integer" -> "json_int";
            case "number" -> "json_number";
            case "boolean" -> "(\"true\" | \"false\")";
            case "null" -> "\"null\"";
            case "array" -> array(s, depth);
            case "object" -> object(s, depth);
            default -> "json_value";
        };
    }

    private String array(JsonObject s, int depth) {
        String item =
                s.has("items") && !s.get("items").isJsonArray()
                        ? value(s.get("items"), depth + 1)
                        : "json_value";
        return "\"[\" ws ( \"]\" | " + item + " ws ( \",\" ws " + item + " ws )* \"]\" )";
    }

    /**
     * The required properties of the object schema {@code s} (of the properties {@code names}) as
     * its rules follow them: knowing which are written takes a state per combination (2^t), so the
     * first t of them by combination, t the most for which the states (2^t times the counts of the
     * others, 0 to their number) times the properties stay within {@link #REQUIRED_BUDGET} (all of
     * them while 2^n times the properties do), and the others by their count.
     */
    static Required required(JsonObject s, List<String> names) {
        List<String> required = new ArrayList<>();
        if (s.has("required") && s.get("required").isJsonArray())
            for (JsonElement r : s.getAsJsonArray("required"))
                if (r.isJsonPrimitive()
                        && names.contains(r.getAsString())
                        && !required.contains(r.getAsString())) required.add(r.getAsString());
        int n = required.size();
        int t = Math.min(n, 24);
        while (t > 0 && (1L << t) * (n - t + 1) * (names.size() + 1) > REQUIRED_BUDGET) t--;
        return required.isEmpty()
                ? Required.NONE
                : new Required(
                        List.copyOf(required.subList(0, t)), List.copyOf(required.subList(t, n)));
    }

    private String object(JsonObject s, int depth) {
        JsonObject props =
                s.has("properties") && s.get("properties").isJsonObject()
                        ? s.getAsJsonObject("properties")
                        : new JsonObject();
        boolean extra =
                !(s.has("additionalProperties")
                        && s.get("additionalProperties").isJsonPrimitive()
                        && !s.get("additionalProperties").getAsBoolean());
        String extraValue =
                extra
                                && s.has("additionalProperties")
                                && s.get("additionalProperties").isJsonObject()
                        ? value(s.get("additionalProperties"), depth + 1)
                        : "json_value";
        List<String> names = new ArrayList<>(props.keySet());
        if (names.isEmpty() && extra && extraValue.equals("json_value")) {
            if (depth == 0)
                outer = new Outer(null, -1, null, names, names, new int[0], true, extraValue, null);
            return "json_object";
        }
        Required required = required(s, names);
        String base = fresh("o");
        List<String> members = new ArrayList<>();
        for (String n : names) {
            String m =
                    out.define(
                            base + "_p" + members.size(),
                            Gbnf.literal(SchemaTypes.quote(n))
                                    + " ws \":\" ws "
                                    + value(props.get(n), depth + 1));
            members.add(m);
        }
        String extraMember =
                extra
                        ? out.define(
                                base + "_x", otherKey(base, names) + " ws \":\" ws " + extraValue)
                        : null;
        follow(base, names, members, required, extraMember);
        int[] after = new int[names.size()];
        for (int i = 0; i < after.length; i++) after[i] = required.next(0, names.get(i));
        Outer o =
                new Outer(
                        null,
                        -1,
                        base,
                        names,
                        members,
                        after,
                        required.full() == 0,
                        extra ? extraValue : null,
                        extraMember);
        if (depth == 0) outer = o;
        StringBuilder b = new StringBuilder(64 + 32 * names.size()).append("\"{\" ws ( ");
        int at = b.length();
        if (o.empty) b.append("\"}\"");
        for (int i = 0; i < names.size(); i++) member(b, at, "", members.get(i), base, after[i]);
        if (extraMember != null) member(b, at, "", extraMember, base, 0);
        return out.define(base, b.append(" )").toString());
    }

    /**
     * Appends an alternative to {@code b}, whose alternatives begin at {@code at}: {@code lead},
     * the member rule, whitespace and the rule after it ({@code base_mN}).
     */
    private static void member(
            StringBuilder b, int at, String lead, String member, String base, int next) {
        if (b.length() > at) b.append(" | ");
        b.append(lead).append(member).append(" ws ").append(base).append("_m").append(next);
    }

    /** The rules {@code base_mN}: after the members seen so far (the required ones in state N). */
    private void follow(
            String base,
            List<String> names,
            List<String> members,
            Required required,
            String extraMember) {
        int full = required.full();
        StringBuilder b = new StringBuilder(64 + 48 * names.size());
        for (int state = 0; state <= full; state++) {
            b.setLength(0);
            if (state == full) b.append("\"}\"");
            for (int i = 0; i < names.size(); i++)
                member(b, 0, "\",\" ws ", members.get(i), base, required.next(state, names.get(i)));
            if (extraMember != null) member(b, 0, "\",\" ws ", extraMember, base, state);
            out.define(base + "_m" + state, b.toString());
        }
    }

    /**
     * The value of the schema whose outermost object is {@code o} (as these rules' prefix names
     * it), the object not beginning with a key of {@code notFirst} (as JSON writes it, between the
     * quotes): where a longer token of the lexer reads that beginning. The object's beginning is a
     * rule of its own, named with {@code suffix} after the object's rule, that goes on into the
     * object's other rules.
     */
    String opening(Outer o, Set<String> notFirst, String suffix) {
        String base = o.base;
        String extraMember = o.extraMember;
        String name;
        if (base == null) {
            base = name = prefix + suffix;
            extraMember =
                    out.define(
                            base + "_x", otherKey(base, o.names) + " ws \":\" ws " + o.extraValue);
            follow(base, o.names, o.members, Required.NONE, extraMember);
        } else name = base + suffix;
        StringBuilder b = new StringBuilder(64 + 32 * o.names.size()).append("\"{\" ws ( ");
        int at = b.length();
        if (o.empty) b.append("\"}\"");
        for (int i = 0; i < o.names.size(); i++) {
            if (notFirst.contains(written(o.names.get(i)))) continue;
            member(b, at, "", o.members.get(i), base, o.after[i]);
        }
        if (extraMember != null) {
            List<String> taken = new ArrayList<>(o.names);
            taken.addAll(notFirst);
            String firstExtra =
                    out.define(
                            name + "_y",
                            otherKey(name + "_f", taken) + " ws \":\" ws " + o.extraValue);
            member(b, at, "", firstExtra, base, 0);
        }
        List<String> alts = new ArrayList<>(o.alts);
        alts.set(o.at, out.define(name, b.append(" )").toString()));
        return either(alts);
    }

    /**
     * A key that is none of {@code names} as written (a declared property's value is typed by its
     * schema, never by the schema of further keys): a matcher of the names' JSON spellings, a rule
     * per prefix of a name, written once per body (prefixes followed by the same rest share one);
     * past a whole name that no other name extends, any further characters ({@code json_key_more}).
     * An escape a name is written with (a quote, a backslash, a control character) is one step of
     * the matcher, and an escape at a prefix is another key's unless it is one of those the names
     * go on with there.
     */
    private String otherKey(String base, List<String> names) {
        List<String> words = new ArrayList<>();
        for (String n : names) words.add(written(n));
        if (words.isEmpty()) return "json_string";
        // the escapes the names are written with, each a step numbered from ESCAPED on
        List<String> escapes = new ArrayList<>();
        defineGeneric(out);
        out.define("json_key_rest", "json_char* \"\\\"\"");
        String anyEscape = otherEscape(List.of());
        out.define("json_key_more", OTHER_KEY_CHARS + " json_key_rest | " + anyEscape);
        // the prefixes as a trie (each node's next characters in the order the words first give
        // them: a first child and the next sibling), in breadth-first order, then their rules
        // from the longest on
        int most = 1;
        for (String w : words) most += w.length();
        int[] ch = new int[most];
        int[] firstChild = new int[most];
        int[] lastChild = new int[most];
        int[] nextSibling = new int[most];
        int[] childCount = new int[most];
        boolean[] ends = new boolean[most];
        Arrays.fill(firstChild, -1);
        Arrays.fill(nextSibling, -1);
        int nodes = 1;
        for (String w : words) {
            int node = 0;
            for (int i = 0; i < w.length(); ) {
                int c = w.codePointAt(i);
                if (c == '\\') {
                    String e = w.substring(i, i + (w.charAt(i + 1) == 'u' ? 6 : 2));
                    int known = escapes.indexOf(e);
                    if (known < 0) escapes.add(e);
                    c = ESCAPED + (known < 0 ? escapes.size() - 1 : known);
                    i += e.length();
                } else i += Character.charCount(c);
                int child = firstChild[node];
                while (child >= 0 && ch[child] != c) child = nextSibling[child];
                if (child < 0) {
                    child = nodes++;
                    ch[child] = c;
                    if (firstChild[node] < 0) firstChild[node] = child;
                    else nextSibling[lastChild[node]] = child;
                    lastChild[node] = child;
                    childCount[node]++;
                }
                node = child;
            }
            ends[node] = true;
        }
        int[] order = new int[nodes];
        int size = 1;
        for (int q = 0; q < size; q++)
            for (int child = firstChild[order[q]]; child >= 0; child = nextSibling[child])
                order[size++] = child;
        // each node's rule: -1 for json_key_more, else its number in ruleNames
        int[] rules = new int[nodes];
        String[] ruleNames = new String[nodes];
        int made = 0;
        // each rule's key (whether a name ends there, the number of next characters, and each
        // next character with its rule) in a pool from keyAt[rule], the rules by key in a table
        int[] pool = new int[4 * nodes + 4];
        int[] keyAt = new int[nodes];
        int used = 0;
        int[] table = new int[Integer.highestOneBit(nodes) << 2];
        int tableMask = table.length - 1;
        StringBuilder body = new StringBuilder(128);
        int[] sorted = new int[8];
        for (int q = size - 1; q >= 0; q--) {
            int node = order[q];
            int n = childCount[node];
            if (ends[node] && n == 0) {
                rules[node] = -1;
                continue;
            }
            if (sorted.length < n) sorted = new int[Math.max(n, 2 * sorted.length)];
            int k = 0;
            for (int child = firstChild[node]; child >= 0; child = nextSibling[child])
                sorted[k++] = child;
            // by character (insertion sort: a node has few children)
            for (int a = 1; a < n; a++) {
                int x = sorted[a];
                int b = a - 1;
                for (; b >= 0 && ch[sorted[b]] > ch[x]; b--) sorted[b + 1] = sorted[b];
                sorted[b + 1] = x;
            }
            // the body is a function of whether a name ends here and each next character's rule
            int from = used;
            pool[used++] = ends[node] ? 1 : 0;
            pool[used++] = n;
            for (int a = 0; a < n; a++) {
                pool[used++] = ch[sorted[a]];
                pool[used++] = rules[sorted[a]];
            }
            int h = 0;
            for (int i = from; i < used; i++) h = 31 * h + pool[i];
            int slot = (h * 0x9E3779B9) & tableMask;
            int known = -1;
            for (; table[slot] != 0; slot = (slot + 1) & tableMask) {
                int m = table[slot] - 1;
                int at = keyAt[m];
                if (Arrays.equals(pool, at, at + 2 + 2 * pool[at + 1], pool, from, used)) {
                    known = m;
                    break;
                }
            }
            if (known >= 0) {
                used = from;
                rules[node] = known;
                continue;
            }
            body.setLength(0);
            if (!ends[node]) body.append("\"\\\"\"");
            int plain = 0;
            List<String> escaped = null;
            for (int a = 0; a < n; a++) {
                if (body.length() > 0) body.append(" | ");
                int r = rules[sorted[a]];
                int c = ch[sorted[a]];
                if (c < ESCAPED) {
                    Gbnf.literal(body, c);
                    plain++;
                } else {
                    String e = escapes.get(c - ESCAPED);
                    body.append(Gbnf.literal(e));
                    if (escaped == null) escaped = new ArrayList<>();
                    escaped.add(e);
                }
                body.append(' ').append(r < 0 ? "json_key_more" : ruleNames[r]);
            }
            // the escapes sort last: the plain characters are sorted[0..plain)
            body.append(" | ")
                    .append(otherKeyChars(ch, sorted, plain))
                    .append(" json_key_rest | ")
                    .append(escaped == null ? anyEscape : otherEscape(escaped));
            ruleNames[made] = out.define(base + "_k" + made, body.toString());
            keyAt[made] = from;
            table[slot] = made + 1;
            rules[node] = made++;
        }
        String rootRule = rules[0] < 0 ? "json_key_more" : ruleNames[rules[0]];
        return out.define(base + "_k", "\"\\\"\" " + rootRule);
    }

    /**
     * An escape and the rest of a key, the escape none of {@code taken} (as JSON writes them: a
     * character after the backslash, or {@code u} and four hex digits as written): {@code
     * json_key_esc} where none is taken, a rule named by the escapes taken otherwise.
     */
    private String otherEscape(List<String> taken) {
        IntervalSet simple = IntervalSet.of('"');
        for (char c : "\\/bfnrt".toCharArray()) simple.add(c);
        List<String> hex = new ArrayList<>();
        for (String e : taken) {
            if (e.charAt(1) == 'u') hex.add(e.substring(2));
            else simple.remove(e.charAt(1));
        }
        List<String> alts = new ArrayList<>();
        if (!simple.isNil()) alts.add(Gbnf.charClass(simple));
        String u = otherHex(hex, 4);
        if (u != null) alts.add("\"u\" " + u);
        String name =
                taken.isEmpty()
                        ? "json_key_esc"
                        : "json_key_esc_" + String.join("_", escapeNames(taken));
        if (out.has(name)) return name;
        return out.define(name, "\"\\\\\" ( " + String.join(" | ", alts) + " ) json_key_rest");
    }

    /** The escapes' characters as a rule name's parts. */
    private static List<String> escapeNames(List<String> taken) {
        List<String> parts = new ArrayList<>();
        for (String e : taken)
            parts.add(e.charAt(1) == 'u' ? e.substring(2) : Integer.toHexString(e.charAt(1)));
        Collections.sort(parts);
        return parts;
    }

    /**
     * Hex digits, {@code length} of them, spelling none of {@code taken} (as written: another case
     * is another spelling); null where there are none.
     */
    private static String otherHex(List<String> taken, int length) {
        String digit = "[0-9a-fA-F]";
        if (taken.isEmpty()) return String.join(" ", Collections.nCopies(length, digit));
        if (length == 0) return null;
        Map<Character, List<String>> byFirst = new TreeMap<>();
        for (String t : taken)
            byFirst.computeIfAbsent(t.charAt(0), k -> new ArrayList<>()).add(t.substring(1));
        List<String> alts = new ArrayList<>();
        IntervalSet other = IntervalSet.of('0', '9');
        other.add('a', 'f');
        other.add('A', 'F');
        for (Map.Entry<Character, List<String>> e : byFirst.entrySet()) {
            other.remove(e.getKey());
            String rest = otherHex(e.getValue(), length - 1);
            if (rest != null)
                alts.add(
                        Gbnf.literal(String.valueOf(e.getKey()))
                                + (rest.isEmpty() ? "" : " " + rest));
        }
        if (!other.isNil()) {
            StringBuilder b = new StringBuilder(Gbnf.charClass(other));
            for (int i = 1; i < length; i++) b.append(' ').append(digit);
            alts.add(b.toString());
        }
        if (alts.isEmpty()) return null;
        return alts.size() == 1 ? alts.get(0) : "( " + String.join(" | ", alts) + " )";
    }

    private static IntervalSet keyChars() {
        IntervalSet any = IntervalSet.of(0x20, Gbnf.MAX_CODE_POINT);
        any.remove('"');
        any.remove('\\');
        any.setReadonly(true);
        return any;
    }

    /**
     * The class of a key's raw characters other than those of the nodes {@code sorted[0..n)}
     * (sorted by character, none twice).
     */
    private static String otherKeyChars(int[] ch, int[] sorted, int n) {
        if (n == 1 && ch[sorted[0]] < OTHER_KEY_CHAR.length) {
            int c = ch[sorted[0]];
            String known = OTHER_KEY_CHAR[c];
            if (known == null) OTHER_KEY_CHAR[c] = known = otherKeyCharsNew(new int[] {c});
            return known;
        }
        int[] cs = new int[n];
        for (int i = 0; i < n; i++) cs[i] = ch[sorted[i]];
        String key = new String(cs, 0, n);
        String known = OTHER_KEY_CLASSES.get(key);
        if (known != null) return known;
        String made = otherKeyCharsNew(cs);
        if (OTHER_KEY_CLASSES.size() >= MAX_OTHER_KEY_CLASSES) OTHER_KEY_CLASSES.clear();
        OTHER_KEY_CLASSES.put(key, made);
        return made;
    }

    private static String otherKeyCharsNew(int[] cs) {
        IntervalSet other = new IntervalSet(KEY_CHARS);
        for (int c : cs) other.remove(c);
        return Gbnf.charClass(other);
    }

    /** The name as JSON writes it between the quotes. */
    private static String written(String name) {
        return SchemaTypes.quoteInside(name);
    }

    /** A value as JSON writes it (a string without a writer). */
    private static String json(JsonElement v) {
        return v.isJsonPrimitive() && v.getAsJsonPrimitive().isString()
                ? SchemaTypes.quote(v.getAsString())
                : Json.write(v);
    }

    private String ref(String ref, int depth) {
        String known = refs.get(ref);
        if (known != null) return known;
        if (!ref.startsWith("#"))
            throw refuse("$ref", "a reference outside the tool's parameters (" + ref + ")");
        JsonElement target = root;
        for (String part : ref.substring(1).split("/")) {
            if (part.isEmpty()) continue;
            String key = part.replace("~1", "/").replace("~0", "~");
            if (target == null || !target.isJsonObject() || !target.getAsJsonObject().has(key))
                throw refuse("$ref", "the reference " + ref + " points at nothing");
            target = target.getAsJsonObject().get(key);
        }
        String name = fresh("ref");
        refs.put(ref, name);
        out.define(name, "\"\"");
        out.redefine(name, value(target, depth + 1));
        return name;
    }
}
