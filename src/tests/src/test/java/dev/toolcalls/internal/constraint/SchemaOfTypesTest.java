package dev.toolcalls.internal.constraint;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import com.google.gson.JsonElement;
import com.google.gson.JsonParser;

import dev.toolcalls.internal.assemble.SchemaTypes.Type;

import org.junit.jupiter.api.Test;

import java.util.EnumSet;
import java.util.Set;

/** A schema cut to the values of some JSON types ({@link JsonSchemaRules#ofTypes}). */
class SchemaOfTypesTest {
    private static String of(String schema, Set<Type> types) {
        JsonElement cut = JsonSchemaRules.ofTypes(JsonParser.parseString(schema), types);
        return cut == null ? null : cut.toString();
    }

    @Test
    void valuesOfOtherTypesAreLeftOut() {
        Set<Type> arrays = EnumSet.of(Type.ARRAY);
        assertNull(of("{\"const\":-2.5}", arrays));
        assertEquals("{\"const\":[1]}", of("{\"const\":[1]}", arrays));
        assertEquals(
                "{\"anyOf\":[{\"type\":[\"array\"],\"items\":{}}]}",
                of(
                        "{\"allOf\":[{\"anyOf\":[{\"type\":\"array\",\"items\":{}},{\"const\":-2.5}]}]}",
                        arrays));
        assertEquals("{\"enum\":[[2]]}", of("{\"enum\":[1,[2],\"x\",null]}", arrays));
        assertNull(of("{\"type\":[\"string\",\"number\"]}", arrays));
        assertNull(of("false", arrays));
    }

    @Test
    void typesAreCutAndNamedAsTheParserReadsThem() {
        Set<Type> objects = EnumSet.of(Type.OBJECT, Type.ARRAY);
        assertEquals(
                "{\"type\":[\"object\"]}",
                of("{\"type\":[\"dict\",\"integer\"],\"nullable\":true}", objects));
        assertEquals(
                "{\"properties\":{},\"type\":[\"object\"]}", of("{\"properties\":{}}", objects));
        // a type the parser does not read stands for any of them; no type at all too
        assertEquals("{\"type\":[\"object\",\"array\"]}", of("{\"type\":\"thing\"}", objects));
        assertEquals("{\"type\":[\"object\",\"array\"]}", of("{}", objects));
        assertEquals("{\"type\":[\"object\",\"array\"]}", of("true", objects));
    }

    @Test
    void whatCannotBeCutIsGivenBackWhole() {
        Set<Type> arrays = EnumSet.of(Type.ARRAY);
        assertEquals("{\"$ref\":\"#/$defs/a\"}", of("{\"$ref\":\"#/$defs/a\"}", arrays));
        String several = "{\"allOf\":[{\"type\":\"array\"},{\"const\":1}]}";
        assertEquals(several, of(several, arrays));
    }

    @Test
    void integersAreToldByTheirValueNotTheirSpelling() {
        Set<Type> integers = EnumSet.of(Type.INTEGER);
        assertEquals(
                "{\"enum\":[1,2.0,1e400]}",
                of("{\"enum\":[1,2.0,1.5,1e400,\"1\",true]}", integers));
    }
}
