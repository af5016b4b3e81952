package dev.toolcalls.internal.format;

import com.google.gson.JsonArray;
import com.google.gson.JsonElement;
import com.google.gson.JsonNull;
import com.google.gson.JsonObject;
import com.google.gson.JsonPrimitive;

import dev.toolcalls.internal.json.Json;

import java.math.BigDecimal;

/**
 * The tree of a format file or role file, read by hand rather than through Gson's reader: loading a
 * format then loads a handful of tree classes instead of Gson's type adapters (about 120 classes,
 * the largest part of a format's load time in a fresh JVM). The text is checked first with the
 * strict validator, so the messages for bad JSON are those of {@link Json#parseStrict}, and the
 * reader below only ever sees valid JSON. A repeated key keeps its first place and its last value,
 * as in Gson's tree.
 */
final class JsonTree {
    private final String text;
    private int at;

    private JsonTree(String text) {
        this.text = text;
    }

    /**
     * @throws Json.NotJson when the text is not exactly one strict JSON value
     */
    static JsonElement parse(String text) throws Json.NotJson {
        Json.check(text);
        return parseValid(text);
    }

    /** The tree of a text known to be exactly one strict JSON value (not checked here). */
    static JsonElement parseValid(String text) {
        return new JsonTree(text).value();
    }

    private JsonElement value() {
        blanks();
        char c = text.charAt(at);
        switch (c) {
            case '{':
                return object();
            case '[':
                return array();
            case '"':
                return new JsonPrimitive(string());
            case 't':
                at += 4;
                return new JsonPrimitive(Boolean.TRUE);
            case 'f':
                at += 5;
                return new JsonPrimitive(Boolean.FALSE);
            case 'n':
                at += 4;
                return JsonNull.INSTANCE;
            default:
                return number();
        }
    }

    private JsonObject object() {
        JsonObject o = new JsonObject();
        at++;
        blanks();
        if (text.charAt(at) == '}') {
            at++;
            return o;
        }
        while (true) {
            blanks();
            String key = string();
            blanks();
            at++; // ':'
            o.add(key, value());
            blanks();
            if (text.charAt(at++) == '}') return o;
        }
    }

    private JsonArray array() {
        JsonArray a = new JsonArray();
        at++;
        blanks();
        if (text.charAt(at) == ']') {
            at++;
            return a;
        }
        while (true) {
            a.add(value());
            blanks();
            if (text.charAt(at++) == ']') return a;
        }
    }

    private String string() {
        int start = at;
        int i = at + 1;
        boolean escaped = false;
        while (text.charAt(i) != '"') {
            if (text.charAt(i) == '\\') {
                escaped = true;
                i += 2;
            } else i++;
        }
        at = i + 1;
        String inside = text.substring(start + 1, i);
        return escaped ? Json.decodeStringPiece(inside) : inside;
    }

    private JsonPrimitive number() {
        int start = at;
        while (at < text.length() && "+-0123456789.eE".indexOf(text.charAt(at)) >= 0) at++;
        return new JsonPrimitive(new BigDecimal(text.substring(start, at)));
    }

    private void blanks() {
        while (at < text.length()) {
            char c = text.charAt(at);
            if (c != ' ' && c != '\t' && c != '\n' && c != '\r') return;
            at++;
        }
    }
}
