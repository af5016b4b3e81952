package dev.toolcalls.internal.assemble;

import static org.junit.jupiter.api.Assertions.assertEquals;

import com.google.gson.JsonPrimitive;

import dev.toolcalls.internal.json.Json;

import org.junit.jupiter.api.Test;

/** The hand-written JSON string quoting writes exactly what Gson writes, for every UTF-16 unit. */
class QuoteTest {
    @Test
    void everyCharacterIsQuotedAsGsonQuotesIt() {
        StringBuilder all = new StringBuilder();
        for (int c = 0; c <= 0xFFFF; c++) {
            String one = "a" + (char) c + "b";
            assertEquals(Json.write(new JsonPrimitive(one)), SchemaTypes.quote(one), "U+" + c);
            all.append((char) c);
        }
        String s = all.toString();
        assertEquals(Json.write(new JsonPrimitive(s)), SchemaTypes.quote(s));
        for (String t : new String[] {"", "plain", "\"", "\\", "\u2028\u2029", "😀 \ud800 x"})
            assertEquals(Json.write(new JsonPrimitive(t)), SchemaTypes.quote(t), t);
    }
}
