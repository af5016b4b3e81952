package dev.toolcalls.templates;

import com.google.gson.JsonElement;
import com.google.gson.JsonObject;
import com.google.gson.JsonParseException;
import com.google.gson.JsonParser;
import com.hubspot.jinjava.JinjavaConfig;
import com.hubspot.jinjava.interpret.Context;
import com.hubspot.jinjava.interpret.InterpretException;
import com.hubspot.jinjava.interpret.InvalidArgumentException;
import com.hubspot.jinjava.interpret.InvalidInputException;
import com.hubspot.jinjava.interpret.JinjavaInterpreter;
import com.hubspot.jinjava.interpret.TemplateError;
import com.hubspot.jinjava.interpret.TemplateSyntaxException;
import com.hubspot.jinjava.tree.Node;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A model's chat template, rendered as Hugging Face's Jinja ({@code @huggingface/jinja}, the
 * renderer of transformers.js) renders it: {@code trim_blocks} and {@code lstrip_blocks} on, values
 * printed and serialised as it prints them, its string and mapping methods, tests and filters. What
 * the renderer cannot render exactly is a {@link TemplateException} naming the template line, never
 * a different prompt. Thread-safe.
 */
public final class ChatTemplate {
    /**
     * The renderer's functions, filters, tests and tags, copied into a context once per thread
     * (copying them is most of the cost of starting a render) and reset after each render, as
     * jinjava resets its global context: a render's own values live in a child context of it.
     */
    private static final ThreadLocal<Context> LIBRARY =
            ThreadLocal.withInitial(Engine.JINJAVA::getGlobalContextCopy);

    private final String source;
    private final String prepared;
    private final Map<String, Object> variables;

    /**
     * The template parsed once, rendered by every call (the tree is read, never changed, by a
     * render); its parse errors, when it has any, are reported by every render instead.
     */
    private final Node root;

    private final List<TemplateError> parseErrors;

    private ChatTemplate(String source, Map<String, Object> variables) {
        this.source = source;
        this.prepared = Engine.preprocess(source);
        this.variables = Collections.unmodifiableMap(new LinkedHashMap<>(variables));
        JinjavaInterpreter parser = interpreter(Engine.JINJAVA.getGlobalContextCopy(), Map.of());
        JinjavaInterpreter.pushCurrent(parser);
        try {
            this.root = parser.parse(prepared);
        } finally {
            JinjavaInterpreter.popCurrent();
        }
        this.parseErrors = List.copyOf(parser.getErrorsCopy());
    }

    private static JinjavaInterpreter interpreter(Context library, Map<String, Object> bindings) {
        JinjavaConfig config = Engine.JINJAVA.getGlobalConfig();
        Context context = new Context(library, bindings, config.getDisabled());
        return config.getInterpreterFactory().newInstance(Engine.JINJAVA, context, config);
    }

    /**
     * A {@code tokenizer_config.json} (its {@code chat_template}: a string, or a list of {@code
     * {name, template}} of which {@code default} is taken; its special tokens, such as {@code
     * bos_token} and {@code eos_token}, become template variables) or a {@code .jinja} file (any
     * file that is not JSON).
     *
     * @throws IOException when the file cannot be read
     * @throws TemplateException when the file is JSON without a usable chat template, or the
     *     template does not parse
     */
    public static ChatTemplate load(Path file) throws IOException {
        String text = Files.readString(file, StandardCharsets.UTF_8);
        String trimmed = text.stripLeading();
        String name = file.getFileName() == null ? "" : file.getFileName().toString();
        if (!name.endsWith(".json")
                && !(trimmed.startsWith("{")
                        && !trimmed.startsWith("{%")
                        && !trimmed.startsWith("{{")
                        && !trimmed.startsWith("{#"))) {
            return of(text, Map.of());
        }
        JsonElement root;
        try {
            root = JsonParser.parseString(text);
        } catch (JsonParseException e) {
            throw new TemplateException(0, file + " is not JSON: " + e.getMessage(), e);
        }
        if (!root.isJsonObject()) {
            throw new TemplateException(0, file + " is not a JSON object");
        }
        JsonObject config = root.getAsJsonObject();
        String template = chatTemplate(config.get("chat_template"), file);
        Map<String, Object> vars = new LinkedHashMap<>();
        for (Map.Entry<String, JsonElement> e : config.entrySet()) {
            String token = specialToken(e.getValue());
            if (e.getKey().endsWith("_token") && token != null) {
                vars.put(e.getKey(), token);
            }
        }
        return of(template, vars);
    }

    private static String chatTemplate(JsonElement t, Path file) {
        if (t == null || t.isJsonNull()) {
            throw new TemplateException(0, file + " has no \"chat_template\"");
        }
        if (t.isJsonPrimitive() && t.getAsJsonPrimitive().isString()) {
            return t.getAsString();
        }
        if (t.isJsonArray()) {
            List<String> names = new ArrayList<>();
            for (JsonElement x : t.getAsJsonArray()) {
                String n = x.isJsonObject() ? stringField(x.getAsJsonObject(), "name") : null;
                String tt = x.isJsonObject() ? stringField(x.getAsJsonObject(), "template") : null;
                if (n != null && tt != null) {
                    names.add(n);
                    if (n.equals("default")) {
                        return tt;
                    }
                }
            }
            throw new TemplateException(
                    0, file + " has no \"default\" chat template (it has " + names + ")");
        }
        throw new TemplateException(0, file + ": \"chat_template\" is neither a string nor a list");
    }

    /** A special token's text: a string, or an AddedToken object's "content". */
    private static String specialToken(JsonElement v) {
        if (v.isJsonPrimitive() && v.getAsJsonPrimitive().isString()) {
            return v.getAsString();
        }
        return v.isJsonObject() ? stringField(v.getAsJsonObject(), "content") : null;
    }

    private static String stringField(JsonObject o, String key) {
        JsonElement v = o.get(key);
        return v != null && v.isJsonPrimitive() && v.getAsJsonPrimitive().isString()
                ? v.getAsString()
                : null;
    }

    /**
     * A template from its source; variables such as {@code bos_token} and {@code eos_token} given
     * by the caller (plain values: String, Number, Boolean, Map, List, null).
     *
     * @throws TemplateException when the template does not parse
     */
    public static ChatTemplate of(String source, Map<String, Object> variables) {
        @SuppressWarnings("unchecked")
        Map<String, Object> vars = (Map<String, Object>) Values.plain(variables);
        Engine.check(source);
        return new ChatTemplate(source, vars);
    }

    /** The template's source. */
    public String source() {
        return source;
    }

    /** The variables every render sees (special tokens), unmodifiable. */
    public Map<String, Object> variables() {
        return variables;
    }

    /**
     * Renders the prompt.
     *
     * @throws TemplateException naming the template line, for a feature the renderer cannot render
     *     exactly, an error the reference renderer raises too, and {@code raise_exception(...)} in
     *     the template
     */
    public String render(ChatInput input) {
        Map<String, Object> bindings = new LinkedHashMap<>();
        bindings.put("none", None.NONE);
        bindings.put("None", None.NONE);
        bindings.put("True", Boolean.TRUE);
        bindings.put("False", Boolean.FALSE);
        for (Map.Entry<String, Object> e : variables.entrySet()) {
            bindings.put(e.getKey(), forTemplate(e.getValue()));
        }
        for (Map.Entry<String, Object> e : input.kwargs().entrySet()) {
            bindings.put(e.getKey(), forTemplate(e.getValue()));
        }
        bindings.put("messages", forTemplate(input.messages()));
        bindings.put("tools", input.tools() == null ? None.NONE : forTemplate(input.tools()));
        bindings.put("add_generation_prompt", input.addGenerationPrompt());
        Context library = LIBRARY.get();
        JinjavaInterpreter interpreter = interpreter(library, bindings);
        String output = null;
        TemplateError thrown = null; // first, as jinjava's renderForResult orders them
        JinjavaInterpreter.pushCurrent(interpreter);
        try {
            output = interpreter.render(root);
        } catch (TemplateSyntaxException e) {
            thrown = TemplateError.fromException(e);
        } catch (InterpretException e) {
            thrown = TemplateError.fromSyntaxError(e);
        } catch (InvalidArgumentException e) {
            thrown = TemplateError.fromInvalidArgumentException(e);
        } catch (InvalidInputException e) {
            thrown = TemplateError.fromInvalidInputException(e);
        } catch (RuntimeException e) {
            thrown = TemplateError.fromException(e);
        } finally {
            JinjavaInterpreter.popCurrent();
            library.reset();
        }
        List<TemplateError> errors = new ArrayList<>();
        if (thrown != null) {
            errors.add(thrown);
        }
        errors.addAll(parseErrors);
        errors.addAll(interpreter.getErrorsCopy());
        for (TemplateError error : errors) {
            Exception e = error.getException();
            String message = e != null ? describe(e) : error.getMessage();
            int line = Engine.templateLine(prepared, error.getLineno(), error.getFieldName());
            throw new TemplateException(line, message, e);
        }
        return output;
    }

    private static String describe(Throwable e) {
        for (Throwable t = e; t != null; t = t.getCause()) {
            if (t instanceof Engine.Raised) {
                return "raise_exception: " + t.getMessage();
            }
            if (t instanceof Values.Unrenderable) {
                return t.getMessage();
            }
            if (t instanceof TemplateException te) {
                return te.getMessage();
            }
        }
        return String.valueOf(e.getMessage());
    }

    /** Caller values as the template sees them: null as Python's None, fresh mutable copies. */
    static Object forTemplate(Object v) {
        if (v == null) {
            return None.NONE;
        }
        if (v instanceof Map<?, ?> m) {
            Map<String, Object> out = new LinkedHashMap<>();
            for (Map.Entry<?, ?> e : m.entrySet()) {
                out.put(String.valueOf(e.getKey()), forTemplate(e.getValue()));
            }
            return out;
        }
        if (v instanceof List<?> l) {
            List<Object> out = new ArrayList<>(l.size());
            for (Object x : l) {
                out.add(forTemplate(x));
            }
            return out;
        }
        return v;
    }
}
