import com.google.gson.JsonElement;
import com.google.gson.JsonParseException;
import com.google.gson.JsonParser;
import com.google.gson.JsonPrimitive;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.stream.Stream;

/**
 * Build step (generate-sources): writes the page {@code docs/formats.md} from {@code grammars/}:
 * every format with its aliases, whether it has reasoning and its thinking default, its description
 * and a link to its card, then the parser names that peer servers register for each convention (the
 * format files' {@code "registries"}, each of which must be the format's name or one of its
 * aliases, so that the page never lists a name {@code --format} would not find). The build writes
 * it to {@code target/generated-docs/formats.md}; {@code DocsTest} fails when the committed page
 * differs, and this regenerates it:
 *
 * <p>Usage: {@code java -cp GSON_JAR src/build/GenerateFormatDocs.java GRAMMARS OUT_FILE}, e.g.
 * {@code java -cp target/toolcalls.jar src/build/GenerateFormatDocs.java grammars docs/formats.md}
 * (the command line's jar carries Gson).
 */
public final class GenerateFormatDocs {
    /**
     * The servers a format file's "registries" may name, and their column titles, in column order.
     */
    static final Map<String, String> SERVERS = new LinkedHashMap<>();

    static {
        SERVERS.put("vllm", "vLLM");
        SERVERS.put("sglang", "SGLang");
        SERVERS.put("llama.cpp", "llama.cpp");
        SERVERS.put("ollama", "Ollama");
        SERVERS.put("lmdeploy", "LMDeploy");
    }

    static final String COMMAND =
            "java -cp target/toolcalls.jar src/build/GenerateFormatDocs.java grammars docs/formats.md";

    public static void main(String[] args) throws IOException {
        if (args.length != 2) {
            System.err.println(
                    "usage: java -cp GSON_JAR src/build/GenerateFormatDocs.java GRAMMARS OUT_FILE");
            System.exit(2);
        }
        String page;
        try {
            page = page(Path.of(args[0]));
        } catch (IllegalArgumentException e) {
            System.err.println("format docs: " + e.getMessage());
            System.exit(1);
            return;
        }
        Path out = Path.of(args[1]);
        if (out.getParent() != null) Files.createDirectories(out.getParent());
        if (!Files.exists(out) || !Files.readString(out, StandardCharsets.UTF_8).equals(page))
            Files.writeString(out, page, StandardCharsets.UTF_8);
    }

    /** One format as the page shows it. */
    record Entry(
            String name,
            List<String> aliases,
            String description,
            boolean reasoning,
            String thinkingDefault,
            Map<String, List<String>> registries,
            boolean card) {}

    static String page(Path grammars) throws IOException {
        List<Entry> formats = read(grammars);
        StringBuilder p = new StringBuilder();
        p.append(
                        "<!-- Generated from grammars/*/ by src/build/GenerateFormatDocs.java; do not edit. To regenerate: ")
                .append(COMMAND)
                .append(" -->\n\n");
        p.append("# Formats\n\n");
        p.append(formats.size())
                .append(
                        " formats. Each is a folder `grammars/<format>/`: a lexer grammar, a format file and a card\n")
                .append(
                        "(`README.md`: the models, the exact wire syntax with an example from its cases, reasoning and the\n")
                .append(
                        "thinking default, where the aliases come from, what lenient mode recovers, what peer servers accept or\n")
                .append(
                        "get wrong, and the sources checked). The shared grammars are described in\n")
                .append("[grammars/imports/README.md](../grammars/imports/README.md).\n\n")
                .append(
                        "Pick the name of the **model family**: it covers both the family's reasoning and its tool calls. Every\n")
                .append(
                        "name a peer server registers for one of these conventions is an alias, case-insensitive\n")
                .append(
                        "([Registry names](#registry-names) lists them server by server). `java -jar target/toolcalls.jar formats`\n")
                .append("lists the formats with their aliases.\n\n");
        p.append("| format | aliases | reasoning | thinking default | models and wire syntax |\n");
        p.append("|---|---|---|---|---|\n");
        for (Entry f : formats) {
            p.append("| ")
                    .append(
                            f.card()
                                    ? "[`" + f.name() + "`](../grammars/" + f.name() + "/README.md)"
                                    : "`" + f.name() + "`")
                    .append(" | ")
                    .append(codes(f.aliases()))
                    .append(" | ")
                    .append(f.reasoning() ? "yes" : "—")
                    .append(" | ")
                    .append(f.thinkingDefault() == null ? "—" : f.thinkingDefault())
                    .append(" | ")
                    .append(text(f.description()))
                    .append(" |\n");
        }
        p.append(
                """

                ## Thinking

                Where the chat template opens the think block in the prompt, the output begins inside reasoning and
                holds only the end tag. Such a format names the lexer mode that is "inside reasoning" and whether
                thinking is on by default (the column above); a request can say otherwise:
                `ParseOptions.withThinking(Boolean)` in the library, `--thinking on|off` on the command line,
                `"thinking"` in a `--jsonl` line or a case file, `chat_template_kwargs.enable_thinking` or Anthropic's
                `thinking` in a `serve` request. A missing end tag means reasoning until the end of the output.

                The default belongs to the format, not to the alias: where a server's name for the same convention
                starts with the other setting (Ollama's `cogito`, off; `olmo3-think`, `cohere` and llama.cpp's
                `cohere2moe`, on; Ollama's `qwen3`, whose parser has no thinking, off), pass the thinking setting.
                A tool-call opener written inside reasoning is reasoning text, except in the formats whose
                description says a call (or a calls section, or a DSML block) ends reasoning, and in `trinity`, where
                calls inside reasoning count. Reasoning streams as `reasoning_content` (the field vLLM and SGLang
                use) with the same hold-back guarantees as content.

                ## Registry names

                The parser names of vLLM and SGLang (tool parsers), llama.cpp, Ollama and LMDeploy, server by server,
                from each format file's `"registries"`. Each is the format's name or one of its aliases, so
                `Formats.get`, `--format` and `formats` resolve it. The lists were read from: vLLM
                `vllm/tool_parsers/__init__.py` and `vllm/frontend/processing/tool_parsers/__init__.py`, plus
                `deepseek_v41` (`vllm/tool_parsers/deepseekv41_engine_tool_parser.py`); SGLang
                `python/sglang/srt/function_call/function_call_parser.py` (`ToolCallParserEnum`) plus `deepseekv41`
                (its detector, which SGLang's tests construct by that name); llama.cpp's hand-written handlers
                (`common/parsers/parsers.h`) and its `common_chat_format` enum (`common/chat.h`), lower-cased; Ollama
                `model/parsers/parsers.go` (`ParserForName`); LMDeploy's `register_module` names under
                `lmdeploy/serve/parsers/`. Where a name starts with another thinking setting than the format, pass
                the setting (see [Thinking](#thinking)).

                """);
        p.append("| format |");
        for (String title : SERVERS.values()) p.append(' ').append(title).append(" |");
        p.append("\n|---|");
        p.append("---|".repeat(SERVERS.size())).append('\n');
        List<String> unregistered = new ArrayList<>();
        for (Entry f : formats) {
            if (f.registries().isEmpty()) {
                unregistered.add(f.name());
                continue;
            }
            p.append("| `").append(f.name()).append("` |");
            for (String server : SERVERS.keySet()) {
                List<String> names = f.registries().getOrDefault(server, List.of());
                p.append(names.isEmpty() ? "  |" : " " + codes(names) + " |");
            }
            p.append('\n');
        }
        p.append("\nFormats no registry read names: ")
                .append(unregistered.isEmpty() ? "none" : codes(unregistered))
                .append(" (their cards say where the convention was read).\n");
        p.append(
                """

                Names no format answers to, on purpose or for want of a source:
                - Ollama `passthrough`: it parses nothing (the whole output is content); no format is needed for that.
                - llama.cpp `llm_jp_harmony` (LLM-jp-4.1): Harmony with a space after every special token
                  (`<|channel|> analysis<|message|> …`), which `gpt_oss` rejects; it needs a grammar of its own.
                - llama.cpp `llama_3_x_with_builtin_tools`: the built-in tool syntax after `<|python_tag|>`
                  (`brave_search`, `wolfram_alpha`, `code_interpreter`) was not read from source; JSON calls are
                  `llama3_json`.
                - llama.cpp `exaone_moe` (EXAONE): the handler's body was not available, so the syntax was not read.
                - llama.cpp `translate_gemma`: a translation template without tool calls; `content_only` and
                  `peg_simple` / `peg_native` / `peg_constructed` are not conventions (no parser, or the
                  template-generated parser).
                - In no registry file read: SGLang `nanbeige` and vLLM `plamo3` and `hf` (a response-template
                  parser), which only a third-party coverage list names; TensorRT-LLM, whose factory keys could not
                  be confirmed (its parser files name `telechat4` and `xing4_0`, formats here; `xingchen4` was not
                  read).
                """);
        return p.toString();
    }

    /**
     * The formats under {@code grammars/}, by folder name; a format file that breaks the page's
     * rules stops the build.
     */
    static List<Entry> read(Path grammars) throws IOException {
        List<Path> folders;
        try (Stream<Path> s = Files.list(grammars)) {
            folders =
                    s.filter(Files::isDirectory)
                            .filter(p -> !p.getFileName().toString().equals("imports"))
                            .sorted()
                            .toList();
        }
        List<Entry> out = new ArrayList<>();
        for (Path folder : folders) {
            String dir = folder.getFileName().toString();
            Path file = folder.resolve(dir + ".json");
            if (!Files.isRegularFile(file))
                throw new IllegalArgumentException(
                        folder + ": no format file " + file.getFileName());
            Map<String, Object> o =
                    object(
                            parse(Files.readString(file, StandardCharsets.UTF_8), file.toString()),
                            file + ": the format file");
            List<String> aliases = strings(o.get("aliases"), file + ": \"aliases\"");
            Object description = o.get("description");
            boolean reasoning =
                    hasReasoning(o, file)
                            || includesReasoning(
                                    grammars, strings(o.get("include"), file + ": \"include\""));
            String thinking =
                    o.get("thinkingMode") == null
                            ? null
                            : Boolean.TRUE.equals(o.get("thinkingDefault")) ? "on" : "off";
            Map<String, List<String>> registries = new LinkedHashMap<>();
            if (o.get("registries") != null) {
                Map<String, Object> r = object(o.get("registries"), file + ": \"registries\"");
                for (String server : r.keySet())
                    if (!SERVERS.containsKey(server))
                        throw new IllegalArgumentException(
                                file
                                        + ": \"registries\": unknown server \""
                                        + server
                                        + "\" (known: "
                                        + String.join(", ", SERVERS.keySet())
                                        + ")");
                Set<String> answers = new HashSet<>();
                answers.add(dir.toLowerCase(Locale.ROOT));
                for (String a : aliases) answers.add(a.toLowerCase(Locale.ROOT));
                for (String server : SERVERS.keySet()) {
                    if (!r.containsKey(server)) continue;
                    List<String> names =
                            strings(r.get(server), file + ": \"registries\": " + server);
                    for (String n : names)
                        if (!answers.contains(n.toLowerCase(Locale.ROOT)))
                            throw new IllegalArgumentException(
                                    file
                                            + ": \"registries\": "
                                            + server
                                            + "'s \""
                                            + n
                                            + "\" is neither the format's name nor one of its aliases, so --format would not find it: add it to \"aliases\"");
                    registries.put(server, names);
                }
            }
            out.add(
                    new Entry(
                            dir,
                            aliases,
                            description instanceof String d ? d : "",
                            reasoning,
                            thinking,
                            registries,
                            Files.isRegularFile(folder.resolve("README.md"))));
        }
        return out;
    }

    static boolean hasReasoning(Map<String, Object> formatFile, Path file) {
        Object roles = formatFile.get("roles");
        return roles != null && object(roles, file + ": \"roles\"").containsValue("reasoning");
    }

    static boolean includesReasoning(Path grammars, List<String> includes) throws IOException {
        for (String include : includes) {
            Path roleFile = grammars.resolve("imports").resolve(include + ".json");
            if (!Files.isRegularFile(roleFile)) continue; // the format index reports it
            if (hasReasoning(
                    object(
                            parse(
                                    Files.readString(roleFile, StandardCharsets.UTF_8),
                                    roleFile.toString()),
                            roleFile.toString()),
                    roleFile)) return true;
        }
        return false;
    }

    static String codes(List<String> names) {
        if (names.isEmpty()) return "—";
        StringBuilder b = new StringBuilder();
        for (String n : names)
            b.append(b.length() == 0 ? "" : ", ")
                    .append('`')
                    .append(n.replace("|", "\\|"))
                    .append('`');
        return b.toString();
    }

    /** Plain text as one Markdown table cell: markup characters escaped, so it reads as written. */
    static String text(String s) {
        StringBuilder b = new StringBuilder();
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            switch (c) {
                case '<' -> b.append("&lt;");
                case '&' -> b.append("&amp;");
                case '\n' -> b.append(' ');
                case '\\', '`', '*', '_', '|', '[', ']' -> b.append('\\').append(c);
                default -> b.append(c);
            }
        }
        return b.toString();
    }

    @SuppressWarnings("unchecked")
    static Map<String, Object> object(Object value, String what) {
        if (!(value instanceof Map))
            throw new IllegalArgumentException(what + " must be a JSON object");
        return (Map<String, Object>) value;
    }

    static List<String> strings(Object value, String what) {
        if (value == null) return List.of();
        if (!(value instanceof List<?> list))
            throw new IllegalArgumentException(what + " must be an array of strings");
        List<String> out = new ArrayList<>();
        for (Object item : list) {
            if (!(item instanceof String s))
                throw new IllegalArgumentException(what + " must be an array of strings");
            out.add(s);
        }
        return out;
    }

    /** JSON text to maps (in key order), lists, strings, numbers (as text), booleans and null. */
    static Object parse(String json, String source) {
        try {
            return java(JsonParser.parseString(json));
        } catch (JsonParseException e) {
            throw new IllegalArgumentException(source + ": not valid JSON: " + e.getMessage(), e);
        }
    }

    private static Object java(JsonElement e) {
        if (e.isJsonNull()) return null;
        if (e.isJsonObject()) {
            Map<String, Object> o = new LinkedHashMap<>();
            for (Map.Entry<String, JsonElement> m : e.getAsJsonObject().entrySet())
                o.put(m.getKey(), java(m.getValue()));
            return o;
        }
        if (e.isJsonArray()) {
            List<Object> a = new ArrayList<>();
            for (JsonElement item : e.getAsJsonArray()) a.add(java(item));
            return a;
        }
        JsonPrimitive v = e.getAsJsonPrimitive();
        return v.isBoolean() ? (Object) v.getAsBoolean() : v.getAsString();
    }
}
