package dev.toolcalls.internal.format;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import com.google.gson.JsonElement;
import com.google.gson.JsonPrimitive;

import dev.toolcalls.internal.grammar.BundledFormats;
import dev.toolcalls.internal.json.Json;

import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The format file's own JSON reader gives the tree Gson gives (as plain Java values), and refuses
 * what Gson's does.
 */
class JsonTreeTest {

    /** Gson's tree as the plain values {@link JsonTree} reads: maps, lists, strings, ... */
    static Object plain(JsonElement e) {
        if (e.isJsonNull()) return null;
        if (e.isJsonObject()) {
            Map<String, Object> out = new LinkedHashMap<>();
            for (Map.Entry<String, JsonElement> m : e.getAsJsonObject().entrySet())
                out.put(m.getKey(), plain(m.getValue()));
            return out;
        }
        if (e.isJsonArray()) {
            List<Object> out = new ArrayList<>();
            for (JsonElement item : e.getAsJsonArray()) out.add(plain(item));
            return out;
        }
        JsonPrimitive p = e.getAsJsonPrimitive();
        if (p.isBoolean()) return p.getAsBoolean();
        if (p.isNumber()) return p.getAsBigDecimal();
        return p.getAsString();
    }

    @Test
    void everyBundledFormatFileAndRoleFileReadsAsGsonReadsIt() throws Exception {
        List<String> texts = new ArrayList<>();
        for (BundledFormat b : BundledFormats.all()) texts.add(b.formatFile());
        for (String g : BundledFormats.importGrammars()) {
            String roles = BundledFormats.importRoles(g);
            if (roles != null) texts.add(roles);
        }
        assertEquals(true, texts.size() > 70, "bundled format files found: " + texts.size());
        for (String t : texts) assertEquals(plain(Json.parseStrict(t)), JsonTree.parse(t), t);
    }

    /**
     * A bundled file is read without the strict check ({@link FormatFile#parseBundled}): each is
     * strict JSON (the check passes), and read so it is the same format file as read with it.
     */
    @Test
    void everyBundledFileIsStrictJsonAndReadsTheSameUnchecked() throws Exception {
        int n = 0;
        for (BundledFormat b : BundledFormats.all()) {
            Json.check(b.formatFile());
            assertEquals(
                    FormatFile.parse(b.formatFile(), b.name()),
                    FormatFile.parseBundled(b.formatFile(), b.name()),
                    b.name());
            n++;
        }
        for (String g : BundledFormats.importGrammars()) {
            String roles = BundledFormats.importRoles(g);
            if (roles == null) continue;
            Json.check(roles);
            assertEquals(FormatFile.parse(roles, g), FormatFile.parseBundled(roles, g), g);
            n++;
        }
        assertEquals(true, n > 70, "bundled files read: " + n);
    }

    @Test
    void escapesNumbersNestingAndRepeatedKeysAsGson() throws Exception {
        String[] cases = {
            "{}",
            "[]",
            " { \"a\" : [ 1 , -2.5e3 , 0 , true , false , null , \"x\" ] } ",
            "{\"q\": \"\\\"\\\\\\/\\b\\f\\n\\r\\t\\u00e9\\ud83d\\ude00 \\\\u0041\"}",
            "{\"a\": 1, \"b\": {\"c\": [[], {}, [{\"d\": \"\"}]]}, \"a\": 2}",
            "\"just a string\"",
            "[\"\\u0000\", \"é漢\"]",
            "{\"roles\": {\"A\": \"text\", \"B\": \"skip\"}, \"streamable\": [\"A\"]}",
        };
        for (String c : cases) assertEquals(plain(Json.parseStrict(c)), JsonTree.parse(c), c);
    }

    @Test
    void notJsonIsRefusedWithTheStrictMessage() {
        for (String bad : new String[] {"{", "{\"a\": 1,}", "[01]", "{'a': 1}", "{} x", ""}) {
            Json.NotJson strict = assertThrows(Json.NotJson.class, () -> Json.parseStrict(bad));
            Json.NotJson ours = assertThrows(Json.NotJson.class, () -> JsonTree.parse(bad));
            assertEquals(strict.getMessage(), ours.getMessage(), bad);
        }
    }
}
