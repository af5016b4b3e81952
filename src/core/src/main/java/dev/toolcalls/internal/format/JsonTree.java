package dev.toolcalls.internal.format;

import dev.toolcalls.internal.json.Json;

import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The tree of a format file or role file, read by hand into plain Java values: an object is a
 * {@code Map<String, Object>} in the order of its keys, an array a {@code List<Object>}, a string a
 * {@code String}, {@code true} and {@code false} a {@code Boolean}, a number a {@code BigDecimal}
 * and {@code null} a null. Loading a format then loads no JSON classes at all (Gson's type adapters
 * are about 120 classes, its tree a score more), and the reader works on the text's characters as
 * an array: a format's first load runs it once, in a fresh JVM's interpreter, where each call of
 * {@code String.charAt} costs more than reading an array element. The text is checked first with
 * the strict validator, so the messages for bad JSON are those of {@link Json#parseStrict}, and the
 * reader below only ever sees valid JSON. A repeated key keeps its first place and its last value,
 * as in Gson's tree.
 */
final class JsonTree {
    private final char[] text;
    private int at;

    private JsonTree(String text) {
        this.text = text.toCharArray();
    }

    /**
     * @throws Json.NotJson when the text is not exactly one strict JSON value
     */
    static Object parse(String text) throws Json.NotJson {
        Json.check(text);
        return parseValid(text);
    }

    /** The tree of a text known to be exactly one strict JSON value (not checked here). */
    static Object parseValid(String text) {
        return new JsonTree(text).value();
    }

    private Object value() {
        blanks();
        switch (text[at]) {
            case '{':
                return object();
            case '[':
                return array();
            case '"':
                return string();
            case 't':
                at += 4;
                return Boolean.TRUE;
            case 'f':
                at += 5;
                return Boolean.FALSE;
            case 'n':
                at += 4;
                return null;
            default:
                return number();
        }
    }

    private Map<String, Object> object() {
        Map<String, Object> o = new LinkedHashMap<>();
        at++;
        blanks();
        if (text[at] == '}') {
            at++;
            return o;
        }
        while (true) {
            blanks();
            String key = string();
            blanks();
            at++; // ':'
            o.put(key, value());
            blanks();
            if (text[at++] == '}') return o;
        }
    }

    private List<Object> array() {
        List<Object> a = new ArrayList<>();
        at++;
        blanks();
        if (text[at] == ']') {
            at++;
            return a;
        }
        while (true) {
            a.add(value());
            blanks();
            if (text[at++] == ']') return a;
        }
    }

    private String string() {
        char[] t = text;
        int start = at + 1;
        int i = start;
        boolean escaped = false;
        for (char c; (c = t[i]) != '"'; ) {
            if (c == '\\') {
                escaped = true;
                i += 2;
            } else i++;
        }
        at = i + 1;
        String inside = new String(t, start, i - start);
        return escaped ? Json.decodeStringPiece(inside) : inside;
    }

    private BigDecimal number() {
        int start = at;
        while (at < text.length && "+-0123456789.eE".indexOf(text[at]) >= 0) at++;
        return new BigDecimal(text, start, at - start);
    }

    private void blanks() {
        char[] t = text;
        int i = at;
        for (char c; i < t.length && ((c = t[i]) == ' ' || c == '\t' || c == '\n' || c == '\r'); )
            i++;
        at = i;
    }
}
