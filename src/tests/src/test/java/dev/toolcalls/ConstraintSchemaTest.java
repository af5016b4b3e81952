package dev.toolcalls;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.google.gson.Gson;
import com.google.gson.GsonBuilder;
import com.google.gson.JsonArray;
import com.google.gson.JsonElement;
import com.google.gson.JsonNull;
import com.google.gson.JsonObject;
import com.google.gson.JsonParser;
import com.google.gson.JsonPrimitive;

import dev.toolcalls.internal.assemble.SchemaTypes;

import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.function.Function;

/**
 * The arguments a constraint allows, against the strict parser and a reference JSON Schema
 * validator: random tool schemas of the keywords the grammar enforces (types and lists of them,
 * {@code enum}, {@code const}, {@code properties}, {@code required}, {@code additionalProperties}
 * absent, {@code true}, {@code false} or a schema, {@code items}, {@code anyOf}, {@code oneOf} of
 * disjoint branches, {@code allOf} of one, {@code $ref} into {@code $defs}, recursive ones too;
 * names with quotes, backslashes, spaces, Cyrillic and emoji), and for each, arguments made to fit
 * it and the same mutated (a value of another type, a key left out, a key added), written as calls.
 * Each call must be accepted by the {@code gbnf} constraint (xgrammar, WebAssembly, under Node)
 * exactly where the strict parser reads it and Ajv (draft-07) validates the arguments it reads:
 * {@code hermes} with the arguments as an object and as a JSON string holding it (every call read),
 * {@code kimi_k2}, and the key/value formats {@code qwen3_coder}, {@code glm45}, {@code
 * deepseek_v32} and {@code minimax_m2}, each value raw (a string as it is, anything else as JSON;
 * in DSML with {@code string="true"} and {@code "false"}), their parameters' schemas those the
 * parser types.
 *
 * <p>Outside what is checked here ({@code docs/constraints.md}, "What the grammar does not say"): a
 * key written twice, a key spelled with an escape its name does not need, a number of an integer
 * parameter written with a fraction or an exponent, more than eight required parameters, and in the
 * key/value formats the parameters whose values the grammar leaves as any text.
 */
class ConstraintSchemaTest {
    /** Schemas per run ({@code -Dconstraint.schemas=N}). */
    static final int SCHEMAS = Integer.getInteger("constraint.schemas", 120);

    static final long SEED = Long.getLong("constraint.schemaSeed", 20261130L);

    private static final Gson GSON =
            new GsonBuilder().disableHtmlEscaping().serializeNulls().create();

    /**
     * How a key/value format writes a call of {@code f}: {@code open}, then per parameter {@code
     * key}, the name, {@code between} ({@code %s}: whether the value is a string), the raw value
     * and {@code end}; then {@code close}.
     */
    record KeyValueSyntax(
            String format, String open, String key, String between, String end, String close) {}

    static final List<KeyValueSyntax> KEY_VALUE =
            List.of(
                    new KeyValueSyntax(
                            "qwen3_coder",
                            "<tool_call>\n<function=f>\n",
                            "<parameter=",
                            ">\n",
                            "\n</parameter>\n",
                            "</function>\n</tool_call>"),
                    new KeyValueSyntax(
                            "glm45",
                            "<tool_call>f\n",
                            "<arg_key>",
                            "</arg_key>\n<arg_value>",
                            "</arg_value>\n",
                            "</tool_call>"),
                    new KeyValueSyntax(
                            "deepseek_v32",
                            "<｜DSML｜function_calls>\n<｜DSML｜invoke name=\"f\">\n",
                            "<｜DSML｜parameter name=\"",
                            "\" string=\"%s\">",
                            "</｜DSML｜parameter>\n",
                            "</｜DSML｜invoke>\n</｜DSML｜function_calls>"),
                    // the output begins in reasoning
                    new KeyValueSyntax(
                            "minimax_m2",
                            "</think>\n<minimax:tool_call>\n<invoke name=\"f\">\n",
                            "<parameter name=\"",
                            "\">",
                            "</parameter>\n",
                            "</invoke>\n</minimax:tool_call>"));

    private static final String[] NAMES = {
        "a",
        "b",
        "city",
        "unit",
        "n",
        "x_y",
        "days",
        "key with space",
        "ключ",
        "k\"q",
        "back\\slash",
        "<tag>",
        "emoji😀",
        "id",
        "items",
        "next",
        "value"
    };

    private static final String[] STRINGS = {
        "",
        "a",
        "Paris",
        "quote \" inside",
        "back\\slash",
        "new\nline",
        "tab\t",
        "ünïcödé",
        "中文",
        "emoji 😀",
        "\u0001 control",
        "</tool_call>",
        "<tool_call>",
        "{\"json\": 1}",
        "null",
        "0"
    };

    /** Reads jobs [{grammar, schema, instances, strings}], prints {valid, accepted} per job. */
    static final String SCRIPT =
            ConstraintXgrammarTest.LOAD_XGRAMMAR
                    + """
            const Ajv = require('ajv');
            const ajv = new Ajv({strict: false});
            (async () => {
              const jobs = JSON.parse(fs.readFileSync(0, 'utf8'));
              const info = await xg.TokenizerInfo.createTokenizerInfo([]);
              const compiler = await xg.GrammarCompiler.createGrammarCompiler(info, false);
              for (const job of jobs) {
                const validate = ajv.compile(job.schema);
                const valid = job.instances.map(t => t !== null && validate(JSON.parse(t)));
                const accepted = await acceptAll(compiler, job.grammar, job.strings);
                process.stdout.write('@@' + JSON.stringify({valid, accepted}) + '\\n');
              }
            })().catch(e => { console.error(String(e)); process.exit(3); });
            """;

    @Test
    void argumentsAreAcceptedExactlyWhereTheSchemaValidatesThem() {
        Format hermes = Formats.get("hermes");
        check(
                hermes,
                SCHEMAS,
                SEED,
                false,
                args -> {
                    List<String> out = new ArrayList<>();
                    for (String output : outputs(GSON.toJson(args))) {
                        ChatMessage message =
                                hermes.parse(output, Tools.none(), ParseOptions.defaults());
                        assertEquals(1, message.toolCalls().size(), output);
                        assertEquals(
                                args,
                                JsonParser.parseString(message.toolCalls().get(0).arguments()),
                                output);
                        out.add(output);
                    }
                    return out;
                });
    }

    /** Another format's JSON arguments: {@code kimi_k2}'s, after its special tokens. */
    @Test
    void jsonArgumentsOfAnotherFormatFollowTheSchemaToo() {
        check(
                Formats.get("kimi_k2"),
                SCHEMAS / 3,
                SEED + 1,
                false,
                args ->
                        List.of(
                                "<|tool_calls_section_begin|><|tool_call_begin|>functions.f:0"
                                        + "<|tool_call_argument_begin|>"
                                        + GSON.toJson(args)
                                        + "<|tool_call_end|><|tool_calls_section_end|>"));
    }

    /**
     * Key/value formats, whose values are raw text typed by the schema: each output is accepted
     * exactly where the strict parser reads it and the arguments it reads are valid (a value its
     * parameter cannot take is kept as a string by the parser, and rejected by the grammar).
     */
    @Test
    void keyValueCallsAreAcceptedExactlyWhereTheParsedArgumentsAreValid() {
        for (KeyValueSyntax w : KEY_VALUE) {
            check(
                    Formats.get(w.format()),
                    SCHEMAS / 3,
                    SEED + w.format().hashCode(),
                    true,
                    args -> {
                        StringBuilder b = new StringBuilder(w.open());
                        for (Map.Entry<String, JsonElement> e : args.entrySet()) {
                            JsonElement v = e.getValue();
                            boolean string =
                                    v.isJsonPrimitive() && v.getAsJsonPrimitive().isString();
                            b.append(w.key())
                                    .append(e.getKey())
                                    .append(w.between().replace("%s", String.valueOf(string)))
                                    .append(string ? v.getAsString() : GSON.toJson(v))
                                    .append(w.end());
                        }
                        return List.of(b.append(w.close()).toString());
                    });
        }
    }

    /**
     * Builds {@code format}'s constraint for each of {@code schemas} random schemas, writes each of
     * its arguments as {@code write} does, and checks with xgrammar and ajv that every output is
     * accepted exactly where the strict parser reads it to arguments the schema validates.
     */
    private static void check(
            Format format,
            int schemas,
            long seed,
            boolean typedParameters,
            Function<JsonObject, List<String>> write) {
        Random random = new Random(seed);
        JsonArray jobs = new JsonArray();
        List<List<String>> shown = new ArrayList<>();
        for (int i = 0; i < schemas; i++) {
            Schemas s = new Schemas(random, typedParameters);
            JsonObject schema = s.root();
            JsonObject fn = new JsonObject();
            fn.addProperty("name", "f");
            fn.add("parameters", schema);
            JsonObject tool = new JsonObject();
            tool.addProperty("type", "function");
            tool.add("function", fn);
            JsonArray tools = new JsonArray();
            tools.add(tool);
            Tools parsed = Tools.parse(tools.toString());
            List<JsonObject> instances = new ArrayList<>();
            for (int k = 0; k < 4; k++) {
                JsonObject valid = s.valid(schema, 0).getAsJsonObject();
                instances.add(valid);
                for (int m = 0; m < 2; m++) instances.add(s.mutated(valid));
            }
            JsonArray strings = new JsonArray();
            JsonArray read = new JsonArray();
            List<String> texts = new ArrayList<>();
            for (JsonObject args : instances)
                for (String output : write.apply(args)) {
                    strings.add(output);
                    texts.add(output);
                    // what the strict parser reads: the arguments, or null where it refuses
                    ChatMessage message;
                    try {
                        message = format.parse(output, parsed, ParseOptions.defaults());
                    } catch (ToolCallParseException e) {
                        message = null;
                    }
                    read.add(
                            message == null || message.toolCalls().size() != 1
                                    ? JsonNull.INSTANCE
                                    : new JsonPrimitive(message.toolCalls().get(0).arguments()));
                }
            JsonObject job = new JsonObject();
            job.addProperty("grammar", format.constraint(parsed, ConstraintOptions.defaults()));
            job.add("schema", schema);
            job.add("instances", read);
            job.add("strings", strings);
            jobs.add(job);
            shown.add(texts);
        }
        NodePeers.Result r = NodePeers.run(SCRIPT, jobs.toString(), List.of(), 600);
        String out = r.ok();
        List<String> wrong = new ArrayList<>();
        int valid = 0;
        int invalid = 0;
        int job = 0;
        for (String line : out.split("\n")) {
            if (!line.startsWith("@@")) continue;
            JsonObject o = JsonParser.parseString(line.substring(2)).getAsJsonObject();
            JsonArray v = o.getAsJsonArray("valid");
            JsonArray a = o.getAsJsonArray("accepted");
            for (int k = 0; k < v.size(); k++) {
                boolean ok = v.get(k).getAsBoolean();
                if (ok) valid++;
                else invalid++;
                if (a.get(k).getAsBoolean() == ok) continue;
                wrong.add(
                        (ok ? "valid, rejected: " : "invalid, accepted: ")
                                + shown.get(job).get(k)
                                + "\n    read: "
                                + jobs.get(job).getAsJsonObject().getAsJsonArray("instances").get(k)
                                + "\n    schema: "
                                + jobs.get(job).getAsJsonObject().get("schema"));
            }
            job++;
        }
        assertEquals(schemas, job, "every grammar compiled:\n" + r.stderr());
        System.out.printf(
                "ConstraintSchemaTest %s: %d schemas, %d outputs valid, %d not%n",
                format.name(), schemas, valid, invalid);
        assertTrue(valid > schemas && invalid > schemas, valid + " valid, " + invalid + " invalid");
        assertTrue(
                wrong.isEmpty(),
                format.name()
                        + ": "
                        + wrong.size()
                        + " of "
                        + (valid + invalid)
                        + " outputs disagree with the parser and the schema:\n"
                        + String.join("\n", wrong.subList(0, Math.min(20, wrong.size()))));
    }

    /** A call of {@code f} with the arguments as an object and as a JSON string holding them. */
    private static List<String> outputs(String args) {
        return List.of(
                "<tool_call>\n{\"name\": \"f\", \"arguments\": " + args + "}\n</tool_call>",
                "<tool_call>\n{\"name\": \"f\", \"arguments\": "
                        + GSON.toJson(new JsonPrimitive(args))
                        + "}\n</tool_call>");
    }

    /** Random schemas of one tool's parameters, and values made to fit them. */
    static final class Schemas {
        private final Random random;
        private final JsonObject defs = new JsonObject();

        /**
         * Whether each parameter's schema names its types where the parser of a key/value format
         * reads them ({@code type}, {@code enum}, or branches of these): one that does not ({@code
         * const}, {@code $ref}, none) is any text, kept as a string.
         */
        private final boolean typedParameters;

        Schemas(Random random) {
            this(random, false);
        }

        Schemas(Random random, boolean typedParameters) {
            this.random = random;
            this.typedParameters = typedParameters;
        }

        JsonObject root() {
            JsonObject o = object(0);
            if (random.nextInt(4) == 0 && !typedParameters) {
                // a recursive definition: a list of values linked by "next"
                String name = "d" + defs.size();
                JsonObject props = new JsonObject();
                props.add("v", leaf());
                JsonObject ref = new JsonObject();
                ref.addProperty("$ref", "#/$defs/" + name);
                props.add("next", ref);
                JsonObject def = new JsonObject();
                def.addProperty("type", "object");
                def.add("properties", props);
                defs.add(name, def);
                o.getAsJsonObject("properties").add("chain", ref.deepCopy());
            }
            if (defs.size() > 0) o.add("$defs", defs);
            return o;
        }

        private JsonObject object(int depth) {
            JsonObject o = new JsonObject();
            o.addProperty("type", "object");
            JsonObject props = new JsonObject();
            JsonArray required = new JsonArray();
            List<String> names = new ArrayList<>(List.of(NAMES));
            Collections.shuffle(names, random);
            int n = random.nextInt(depth == 0 ? 5 : 3) + (depth == 0 ? 1 : 0);
            for (int i = 0; i < n; i++) {
                JsonElement p = schema(depth + 1);
                while (depth == 0 && typedParameters && !typed(p)) p = schema(depth + 1);
                props.add(names.get(i), p);
                if (random.nextBoolean()) required.add(names.get(i));
            }
            o.add("properties", props);
            if (!required.isEmpty()) o.add("required", required);
            switch (random.nextInt(4)) {
                case 0 -> o.addProperty("additionalProperties", false);
                case 1 -> {
                    // a further key's value is read as the format reads a key it does not know
                    if (depth == 0 && typedParameters) o.addProperty("additionalProperties", true);
                    else o.add("additionalProperties", leaf());
                }
                case 2 -> o.addProperty("additionalProperties", true);
                default -> {}
            }
            return o;
        }

        /**
         * Whether the parser of a key/value format types a value of the schema as the schema says:
         * it names its types, and a string only alone (a value of a union with a string is text
         * unless it is JSON of another type, which the grammar does not tell apart).
         */
        private static boolean typed(JsonElement schema) {
            Set<SchemaTypes.Type> types = SchemaTypes.of(schema);
            if (types.isEmpty()) return false;
            if (types.contains(SchemaTypes.Type.STRING) && types.size() > 1) return false;
            JsonObject s = schema.getAsJsonObject();
            for (String k : List.of("anyOf", "oneOf"))
                if (s.has(k)) for (JsonElement b : s.getAsJsonArray(k)) if (!typed(b)) return false;
            return true;
        }

        private JsonObject leaf() {
            JsonObject o = new JsonObject();
            o.addProperty(
                    "type",
                    new String[] {"string", "integer", "number", "boolean", "null"}
                            [random.nextInt(5)]);
            return o;
        }

        private JsonElement schema(int depth) {
            JsonObject o = new JsonObject();
            switch (random.nextInt(depth >= 3 ? 9 : 16)) {
                case 0, 1, 2 -> o = leaf();
                case 3 -> {
                    JsonArray types = new JsonArray();
                    types.add(
                            new String[] {"string", "integer", "number", "boolean"}
                                    [random.nextInt(4)]);
                    types.add(random.nextBoolean() ? "null" : "string");
                    if (types.get(0).equals(types.get(1))) types.remove(1);
                    o.add("type", types);
                }
                case 4 -> {
                    o.addProperty("type", "string");
                    JsonArray e = new JsonArray();
                    for (int i = 0; i < 1 + random.nextInt(3); i++) {
                        JsonPrimitive v =
                                new JsonPrimitive(STRINGS[random.nextInt(STRINGS.length)]);
                        if (!e.contains(v)) e.add(v);
                    }
                    o.add("enum", e);
                }
                case 5 -> {
                    JsonArray e = new JsonArray();
                    e.add(1 + random.nextInt(9));
                    e.add("x");
                    e.add(random.nextBoolean());
                    e.add(JsonNull.INSTANCE);
                    o.add("enum", e);
                }
                case 6 -> o.add("const", any(1));
                case 7 -> {} // any value
                case 8 -> {
                    o.addProperty("type", "array");
                    if (random.nextInt(4) > 0) o.add("items", schema(depth + 1));
                }
                case 9, 10 -> o = object(depth);
                case 11 -> {
                    JsonArray any = new JsonArray();
                    any.add(schema(depth + 1));
                    any.add(schema(depth + 1));
                    o.add("anyOf", any);
                }
                case 12 -> {
                    JsonArray all = new JsonArray();
                    all.add(schema(depth + 1));
                    o.add("allOf", all);
                }
                case 14 -> {
                    // one branch per type: no value is of both
                    JsonArray one = new JsonArray();
                    one.add(leaf());
                    JsonObject array = new JsonObject();
                    array.addProperty("type", "array");
                    array.add("items", schema(depth + 1));
                    one.add(array);
                    if (!one.get(0).equals(one.get(1))) o.add("oneOf", one);
                    else o = leaf();
                }
                case 15 -> {
                    JsonArray types = new JsonArray();
                    types.add("object");
                    types.add("null");
                    o = object(depth);
                    o.add("type", types);
                }
                default -> {
                    String name = "d" + defs.size();
                    defs.add(name, new JsonObject()); // the name is taken before its schema
                    defs.add(name, schema(depth + 1));
                    o.addProperty("$ref", "#/$defs/" + name);
                }
            }
            // a third of the schemas say what they are for, as real ones do (drawn from the
            // schema's text, not the random source, so that the values drawn stay as they were)
            if (!o.isEmpty() && Math.floorMod(o.toString().hashCode(), 3) == 0)
                o.addProperty("description", "what it is for");
            return o;
        }

        /** A value of the schema. */
        JsonElement valid(JsonElement schema, int depth) {
            JsonObject s = schema.getAsJsonObject();
            if (s.has("$ref")) {
                String ref = s.get("$ref").getAsString();
                return valid(defs.get(ref.substring(ref.lastIndexOf('/') + 1)), depth + 1);
            }
            if (s.has("const")) return s.get("const").deepCopy();
            if (s.has("enum")) {
                JsonArray e = s.getAsJsonArray("enum");
                return e.get(random.nextInt(e.size())).deepCopy();
            }
            for (String k : List.of("anyOf", "oneOf"))
                if (s.has(k)) {
                    JsonArray a = s.getAsJsonArray(k);
                    return valid(a.get(random.nextInt(a.size())), depth);
                }
            if (s.has("allOf")) return valid(s.getAsJsonArray("allOf").get(0), depth);
            if (!s.has("type")) return any(2);
            JsonElement t = s.get("type");
            String type =
                    t.isJsonArray()
                            ? t.getAsJsonArray()
                                    .get(random.nextInt(t.getAsJsonArray().size()))
                                    .getAsString()
                            : t.getAsString();
            switch (type) {
                case "string":
                    return new JsonPrimitive(STRINGS[random.nextInt(STRINGS.length)]);
                case "integer":
                    return new JsonPrimitive(random.nextInt(2001) - 1000);
                case "number":
                    return switch (random.nextInt(3)) {
                        case 0 -> new JsonPrimitive(random.nextInt(100) - 50);
                        case 1 -> new JsonPrimitive((random.nextInt(20001) - 10000) / 64.0);
                        default -> new JsonPrimitive((random.nextInt(199) - 99) * 1e21); // 1.5E22
                    };
                case "boolean":
                    return new JsonPrimitive(random.nextBoolean());
                case "null":
                    return JsonNull.INSTANCE;
                case "array":
                    {
                        JsonArray a = new JsonArray();
                        int n = depth > 4 ? 0 : random.nextInt(4);
                        for (int i = 0; i < n; i++)
                            a.add(s.has("items") ? valid(s.get("items"), depth + 1) : any(1));
                        return a;
                    }
                default:
                    return validObject(s, depth);
            }
        }

        private JsonObject validObject(JsonObject s, int depth) {
            JsonObject props =
                    s.has("properties") ? s.getAsJsonObject("properties") : new JsonObject();
            List<String> required = new ArrayList<>();
            if (s.has("required"))
                for (JsonElement r : s.getAsJsonArray("required")) required.add(r.getAsString());
            List<Map.Entry<String, JsonElement>> members = new ArrayList<>();
            for (Map.Entry<String, JsonElement> p : props.entrySet())
                if (required.contains(p.getKey()) || depth < 4 && random.nextBoolean())
                    members.add(Map.entry(p.getKey(), valid(p.getValue(), depth + 1)));
            JsonElement extra = s.get("additionalProperties");
            if (random.nextInt(3) == 0 && (extra == null || extra.isJsonObject()))
                members.add(Map.entry("extra", extra == null ? any(1) : valid(extra, depth + 1)));
            Collections.shuffle(members, random);
            JsonObject o = new JsonObject();
            for (Map.Entry<String, JsonElement> e : members) o.add(e.getKey(), e.getValue());
            return o;
        }

        /** Any small JSON value. */
        private JsonElement any(int depth) {
            switch (random.nextInt(depth > 0 ? 7 : 5)) {
                case 0:
                    return new JsonPrimitive(STRINGS[random.nextInt(STRINGS.length)]);
                case 1:
                    return new JsonPrimitive(random.nextInt(100));
                case 2:
                    return new JsonPrimitive(random.nextBoolean());
                case 3:
                    return JsonNull.INSTANCE;
                case 4:
                    return new JsonPrimitive(-2.5);
                case 5:
                    {
                        JsonArray a = new JsonArray();
                        a.add(any(depth - 1));
                        return a;
                    }
                default:
                    {
                        JsonObject o = new JsonObject();
                        o.add(NAMES[random.nextInt(NAMES.length)], any(depth - 1));
                        return o;
                    }
            }
        }

        /**
         * The arguments with one change: a value of another type put somewhere, a key left out, or
         * a key added.
         */
        JsonObject mutated(JsonObject args) {
            JsonObject copy = args.deepCopy();
            List<JsonObject> objects = new ArrayList<>();
            List<JsonArray> arrays = new ArrayList<>();
            collect(copy, objects, arrays);
            JsonObject target = objects.get(random.nextInt(objects.size()));
            int what = random.nextInt(3);
            if (what == 0 && !target.keySet().isEmpty()) {
                List<String> keys = new ArrayList<>(target.keySet());
                target.add(keys.get(random.nextInt(keys.size())), any(1));
            } else if (what == 1 && !target.keySet().isEmpty()) {
                List<String> keys = new ArrayList<>(target.keySet());
                target.remove(keys.get(random.nextInt(keys.size())));
            } else if (!arrays.isEmpty() && random.nextBoolean()) {
                arrays.get(random.nextInt(arrays.size())).add(any(1));
            } else {
                target.add(NAMES[random.nextInt(NAMES.length)] + "2", any(1));
            }
            return copy;
        }

        private static void collect(
                JsonElement e, List<JsonObject> objects, List<JsonArray> arrays) {
            if (e.isJsonObject()) {
                objects.add(e.getAsJsonObject());
                for (Map.Entry<String, JsonElement> m : e.getAsJsonObject().entrySet())
                    collect(m.getValue(), objects, arrays);
            } else if (e.isJsonArray()) {
                arrays.add(e.getAsJsonArray());
                for (JsonElement x : e.getAsJsonArray()) collect(x, objects, arrays);
            }
        }
    }
}
