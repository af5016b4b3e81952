package dev.toolcalls.templates;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;

/**
 * A seeded generator of conversations in the shape each template expects: with and without tools,
 * tool calls (arguments as objects, or as JSON text where the template concatenates them), tool
 * results, several turns, reasoning, thinking on and off, unicode, add_generation_prompt on and
 * off.
 */
final class Corpus {
    static final String[] TEXTS = {
        "What's the weather in Paris?",
        "héllo — 日本語のテキスト 😀 and a tab\there",
        "  leading and trailing spaces  ",
        "line one\nline two\n\nline four",
        "Quote \"this\" and back\\slash, <tags> & ampersands",
        "Ünïcödé: ñ ß ø å 中文 한국어 العربية emoji 🎉🚀",
        "Short.",
        "a\u00a0non-breaking space and a zero\u200bwidth one",
        "Compute 2+2 please?",
        "{\"looks\": \"like json\"}",
    };

    private Corpus() {}

    static String text(Random r) {
        return TEXTS[r.nextInt(TEXTS.length)];
    }

    static Map<String, Object> tool(String name, String description) {
        Map<String, Object> props = new LinkedHashMap<>();
        props.put("city", Map.of("type", "string", "description", "the city, e.g. Zürich"));
        Map<String, Object> unit = new LinkedHashMap<>();
        unit.put("type", "string");
        unit.put("enum", List.of("celsius", "fahrenheit"));
        props.put("unit", unit);
        Map<String, Object> params = new LinkedHashMap<>();
        params.put("type", "object");
        params.put("properties", props);
        params.put("required", List.of("city"));
        Map<String, Object> f = new LinkedHashMap<>();
        f.put("name", name);
        f.put("description", description);
        f.put("parameters", params);
        Map<String, Object> t = new LinkedHashMap<>();
        t.put("type", "function");
        t.put("function", f);
        return t;
    }

    static List<Map<String, Object>> tools(Random r) {
        List<Map<String, Object>> tools = new ArrayList<>();
        tools.add(tool("get_weather", "Get the weather. Ünïcödé ok."));
        if (r.nextBoolean()) {
            tools.add(tool("search_web", "  Search the web for a query  "));
        }
        return tools;
    }

    static Map<String, Object> arguments(Random r) {
        Map<String, Object> a = new LinkedHashMap<>();
        a.put("city", r.nextBoolean() ? "Paris" : "São Paulo 🌞");
        if (r.nextBoolean()) {
            a.put("unit", "celsius");
        }
        if (r.nextInt(3) == 0) {
            a.put("days", r.nextInt(10));
            a.put("ratio", 0.25 + r.nextInt(4));
            a.put("flags", List.of(true, false));
            a.put("nothing", null);
            a.put("nested", Map.of("q", "x \"y\" \\ z\n"));
        }
        return a;
    }

    static Map<String, Object> msg(String role, Object content) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("role", role);
        m.put("content", content);
        return m;
    }

    static Map<String, Object> call(int id, Object arguments, String name) {
        Map<String, Object> f = new LinkedHashMap<>();
        f.put("name", name);
        f.put("arguments", arguments);
        Map<String, Object> c = new LinkedHashMap<>();
        c.put("id", "call_" + id);
        c.put("type", "function");
        c.put("function", f);
        return c;
    }

    static String json(Object v) {
        return ChatTemplateCorpusTest.GSON.toJson(v);
    }

    static Map<String, Object> conversation(String template, Random r, int i) {
        List<Map<String, Object>> messages = new ArrayList<>();
        boolean withTools = i % 2 == 0;
        boolean stringArguments = template.equals("deepseek_v3") ? i % 10 != 9 : i % 7 == 3;
        boolean alternating = template.equals("gemma3") || template.equals("llama3_1");
        String reasoning = template.equals("gpt-oss") ? "thinking" : "reasoning_content";
        if (r.nextInt(3) > 0) {
            messages.add(
                    msg(
                            "system",
                            template.equals("gemma3") && r.nextBoolean()
                                    ? List.of(Map.of("type", "text", "text", text(r)))
                                    : "You are helpful. " + text(r)));
        }
        int turns = 1 + r.nextInt(3);
        for (int t = 0; t < turns; t++) {
            Object userContent = text(r);
            if (template.equals("gemma3") || template.equals("features")) {
                if (r.nextInt(4) == 0) {
                    List<Object> parts = new ArrayList<>();
                    parts.add(Map.of("type", "text", "text", text(r)));
                    if (r.nextBoolean()) {
                        parts.add(Map.of("type", "image"));
                    }
                    userContent = parts;
                }
            }
            messages.add(msg("user", userContent));
            boolean last = t == turns - 1;
            if (last && r.nextBoolean()) {
                break;
            }
            if (!alternating && withTools && r.nextBoolean()) {
                int calls = 1 + r.nextInt(2);
                List<Object> tc = new ArrayList<>();
                for (int k = 0; k < calls; k++) {
                    Map<String, Object> args = arguments(r);
                    tc.add(
                            call(
                                    k,
                                    stringArguments ? json(args) : args,
                                    k == 0 ? "get_weather" : "search_web"));
                }
                Map<String, Object> a =
                        msg(
                                "assistant",
                                template.equals("deepseek_v3") || r.nextBoolean()
                                        ? null
                                        : (r.nextBoolean() ? "" : "Let me check."));
                if (a.get("content") == null
                        && !template.equals("deepseek_v3")
                        && !template.equals("features")) {
                    a.put("content", "");
                }
                if (r.nextInt(3) == 0) {
                    a.put(reasoning, "I should call a tool. " + text(r));
                }
                a.put("tool_calls", tc);
                messages.add(a);
                for (int k = 0; k < calls; k++) {
                    Map<String, Object> res =
                            msg("tool", json(Map.of("temperature", 21 + k, "sky", "clear ☀")));
                    res.put("tool_call_id", "call_" + k);
                    messages.add(res);
                }
                if (r.nextBoolean()) {
                    messages.add(msg("assistant", "It is sunny. " + text(r)));
                }
            } else {
                String content = text(r);
                if (template.equals("qwen3") && r.nextInt(3) == 0) {
                    content = "<think>\nreasoning " + text(r) + "\n</think>\n\n" + content;
                }
                Map<String, Object> a = msg("assistant", content);
                if (!alternating && r.nextInt(4) == 0) {
                    String thought = r.nextBoolean() ? null : "thought: " + text(r);
                    if (thought != null || !reasoning.equals("thinking")) {
                        a.put(reasoning, thought); // gpt-oss's template takes no null thinking
                    }
                }
                messages.add(a);
            }
        }
        Map<String, Object> body = new LinkedHashMap<>();
        body.put("messages", messages);
        body.put("tools", withTools ? tools(r) : null);
        body.put("add_generation_prompt", i % 3 != 1);
        Map<String, Object> kwargs = new LinkedHashMap<>();
        int thinking = r.nextInt(3);
        if (thinking > 0) {
            kwargs.put("enable_thinking", thinking == 1);
        }
        if (template.equals("gpt-oss")) {
            int effort = r.nextInt(4);
            if (effort > 0) {
                kwargs.put("reasoning_effort", List.of("low", "medium", "high").get(effort - 1));
            }
            if (r.nextInt(4) == 0) {
                kwargs.put(
                        "builtin_tools",
                        r.nextBoolean() ? List.of("browser", "python") : List.of("python"));
            }
            if (r.nextInt(5) == 0) {
                kwargs.put("model_identity", "You are a careful assistant. " + text(r));
            }
        }
        body.put("chat_template_kwargs", kwargs);
        return body;
    }
}
