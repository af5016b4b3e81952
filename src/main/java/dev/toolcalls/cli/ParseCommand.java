package dev.toolcalls.cli;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.Callable;

import com.google.gson.JsonArray;
import com.google.gson.JsonElement;
import com.google.gson.JsonObject;
import com.google.gson.JsonParser;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

import dev.toolcalls.Format;
import dev.toolcalls.IdGenerator;
import dev.toolcalls.ParseEvent;
import dev.toolcalls.ParseOptions;
import dev.toolcalls.StreamParser;
import dev.toolcalls.ToolCallParseException;
import dev.toolcalls.Tools;
import dev.toolcalls.internal.json.Json;
import dev.toolcalls.internal.json.WireJson;
import dev.toolcalls.server.Chunker;

/**
 * {@code parse --format NAME [--tools FILE] [--lenient] [--stream [--chunk-seed S] [--chunk-max K]] [--jsonl] [FILE | -]}.
 * Ids come from a fixed seed, so the same input always prints the same output.
 */
@Command(name = "parse", sortOptions = false,
        description = "Parses one model output (or, with --jsonl, one per line) and prints the message, or with --stream the deltas.")
final class ParseCommand implements Callable<Integer>, Main.IoAware {
    @Option(names = "--format", required = true, paramLabel = "NAME", description = "format name or alias (see: formats)")
    String formatName;

    @Option(names = "--tools", paramLabel = "FILE", description = "OpenAI tools array (JSON) handed to the parser")
    Path toolsFile;

    @Option(names = "--lenient", description = "a malformed call of which nothing was emitted comes back as content")
    boolean lenient;

    @Option(names = "--unknown-tool", paramLabel = "keep|text|error",
            description = "a call to a function not among --tools: keep it (default), give it back as text, or fail (unknown_tool)")
    String unknownTool = "keep";

    @Option(names = "--stream", description = "feed the input in random chunks and print one delta per line")
    boolean stream;

    @Option(names = "--chunk-seed", paramLabel = "S", description = "seed of java.util.Random choosing chunk lengths (default 0)")
    long chunkSeed = 0;

    @Option(names = "--chunk-max", paramLabel = "K", description = "chunks are 1..K code points long (default 8)")
    int chunkMax = 8;

    @Option(names = "--thinking", paramLabel = "on|off",
            description = "whether the request had thinking on (formats whose prompt opens the think block start inside reasoning); default: the format's")
    String thinking;

    @Option(names = "--output", paramLabel = "chat|responses|messages|events",
            description = "what to print: chat (default; Chat Completions message / deltas), responses (OpenAI Responses API), "
                    + "messages (Anthropic Messages API) or events (the neutral parse events)")
    String output = "chat";

    @Option(names = "--jsonl", description = "each input line is {\"input\": \"...\", \"tools\": [...]?, \"thinking\": true|false?}; one answer line each")
    boolean jsonl;

    @Parameters(index = "0", arity = "0..1", paramLabel = "FILE | -", description = "input file, or - (default) for standard input")
    String file;

    private ParseOptions.UnknownTool unknownPolicy = ParseOptions.UnknownTool.KEEP;
    @Mixin FormatDirs formatDirs = new FormatDirs();

    private PrintStream out, err;
    private InputStream in;

    @Override public void io(PrintStream out, PrintStream err, InputStream in) {
        this.out = out;
        this.err = err;
        this.in = in;
    }

    @Override public Integer call() {
        if (chunkMax < 1) throw new Main.UsageException("--chunk-max must be at least 1");
        if (thinking != null && !thinking.equals("on") && !thinking.equals("off"))
            throw new Main.UsageException("--thinking takes on or off");
        ParseOptions.UnknownTool unknown;
        try {
            unknown = ParseOptions.UnknownTool.valueOf(unknownTool.toUpperCase(java.util.Locale.ROOT));
        } catch (IllegalArgumentException e) {
            throw new Main.UsageException("--unknown-tool takes keep, text or error");
        }
        unknownPolicy = unknown;
        Output protocol;
        try {
            protocol = Output.valueOf(output.toUpperCase(java.util.Locale.ROOT));
        } catch (IllegalArgumentException e) {
            throw new Main.UsageException("--output takes chat, responses, messages or events");
        }
        Format format = formatDirs.registry(err, formatName).find(formatName).orElseThrow(() -> new Main.UsageException(
                "unknown format '" + formatName + "'; run 'formats' to list them"));
        Tools tools = Tools.none();
        if (toolsFile != null) {
            try {
                tools = Tools.parse(Files.readString(toolsFile, StandardCharsets.UTF_8));
            } catch (IOException e) {
                throw new Main.UsageException("cannot read --tools " + toolsFile + ": " + e.getMessage());
            } catch (IllegalArgumentException e) {
                throw new Main.UsageException("--tools " + toolsFile + ": " + e.getMessage());
            }
        }
        String input = readInput();
        int code = jsonl ? jsonl(protocol, format, tools, input) : single(protocol, format, tools, input);
        out.flush();
        return code;
    }

    private String readInput() {
        try {
            if (file == null || file.equals("-")) return new String(in.readAllBytes(), StandardCharsets.UTF_8);
            return Files.readString(Path.of(file), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new Main.UsageException("cannot read input " + (file == null ? "-" : file) + ": " + e.getMessage());
        }
    }

    private ParseOptions options() {
        return ParseOptions.defaults().withLenient(lenient).withIds(() -> IdGenerator.seeded(0)).withUnknownTool(unknownPolicy)
                .withThinking(thinking == null ? null : thinking.equals("on"));
    }

    private int single(Output protocol, Format format, Tools tools, String input) {
        Output.Run run = stream ? protocol.stream(format, tools, options()) : null;
        try {
            if (!stream) {
                out.println(protocol.batch(format, input, tools, options()));
            } else {
                for (String chunk : chunks(input)) for (String line : run.feed(chunk)) out.println(line);
                for (String line : run.finish()) out.println(line);
            }
            return 0;
        } catch (ToolCallParseException e) {
            if (stream) for (String line : run.fail(e)) out.println(line);
            out.flush();
            err.println(ErrorJson.wrap(ErrorJson.of(e)));
            return Main.FAILED;
        }
    }

    private int jsonl(Output protocol, Format format, Tools tools, String input) {
        try (BufferedReader lines = new BufferedReader(new java.io.StringReader(input))) {
            String line;
            while ((line = lines.readLine()) != null) out.println(ErrorJson.GSON.toJson(answer(protocol, format, tools, line)));
        } catch (IOException e) {
            throw new Main.UsageException("cannot read input: " + e.getMessage());
        }
        return 0;
    }

    private JsonObject answer(Output protocol, Format format, Tools defaultTools, String line) {
        JsonObject answer = new JsonObject();
        Boolean lineThinking = null;
        String text;
        List<Chunk> given;
        Tools tools = defaultTools;
        try {
            JsonElement e = JsonParser.parseString(line);
            if (!e.isJsonObject() || !e.getAsJsonObject().has("input") || !e.getAsJsonObject().get("input").isJsonPrimitive())
                throw new IllegalArgumentException("expected {\"input\": \"...\", \"tools\": [...]?}");
            text = e.getAsJsonObject().get("input").getAsString();
            if (e.getAsJsonObject().has("tools")) tools = WireJson.tools(e.getAsJsonObject().get("tools"));
            JsonElement think = e.getAsJsonObject().get("thinking");
            if (think != null && !think.isJsonNull()) lineThinking = think.getAsBoolean();
            given = chunks(e.getAsJsonObject().get("chunks"), text);
        } catch (RuntimeException ex) {
            answer.add("error", ErrorJson.of("invalid_input", "line is not a valid input object: " + ex.getMessage(), null, format.name()));
            return answer;
        }
        ParseOptions lineOptions = lineThinking == null ? options() : options().withThinking(lineThinking);
        if (given != null) return answer(protocol, format, tools, lineOptions, given, answer);
        if (!stream) {
            try {
                answer.add("message", Json.parse(protocol.batch(format, text, tools, lineOptions)));
            } catch (ToolCallParseException ex) {
                answer.add("error", ErrorJson.of(ex));
            }
            return answer;
        }
        JsonArray deltas = new JsonArray();
        answer.add("deltas", deltas);
        Output.Run run = protocol.stream(format, tools, lineOptions);
        try {
            for (String chunk : chunks(text)) for (String d : run.feed(chunk)) deltas.add(Json.parse(d));
            for (String d : run.finish()) deltas.add(Json.parse(d));
        } catch (ToolCallParseException ex) {
            for (String d : run.fail(ex)) deltas.add(Json.parse(d));
            answer.add("error", ErrorJson.of(ex));
        }
        return answer;
    }

    /** One piece of a line's {@code chunks}: its text and whether it is one special token. */
    record Chunk(String text, boolean special) { }

    /**
     * A line's {@code "chunks": ["text", {"text": "<tool_call>", "special": true}, ...]}, or null
     * without one; their concatenation must be the line's input.
     */
    private static List<Chunk> chunks(JsonElement chunks, String input) {
        if (chunks == null || chunks.isJsonNull()) return null;
        if (!chunks.isJsonArray()) throw new IllegalArgumentException("\"chunks\" must be an array of strings and {\"text\", \"special\"} objects");
        List<Chunk> out = new java.util.ArrayList<>();
        StringBuilder all = new StringBuilder();
        for (JsonElement c : chunks.getAsJsonArray()) {
            if (c.isJsonPrimitive() && c.getAsJsonPrimitive().isString()) out.add(new Chunk(c.getAsString(), false));
            else if (c.isJsonObject() && c.getAsJsonObject().has("text") && c.getAsJsonObject().get("text").isJsonPrimitive()
                    && c.getAsJsonObject().get("text").getAsJsonPrimitive().isString()) {
                JsonElement special = c.getAsJsonObject().get("special");
                if (special != null && !(special.isJsonPrimitive() && special.getAsJsonPrimitive().isBoolean()))
                    throw new IllegalArgumentException("\"special\" must be true or false");
                out.add(new Chunk(c.getAsJsonObject().get("text").getAsString(), special != null && special.getAsBoolean()));
            } else throw new IllegalArgumentException("each chunk is a string or {\"text\": \"...\", \"special\": true|false}");
            all.append(out.get(out.size() - 1).text());
        }
        if (!all.toString().equals(input)) throw new IllegalArgumentException("the chunks do not add up to \"input\"");
        return out;
    }

    /** A line parsed from its own chunks, each said to be a special token or not. */
    private JsonObject answer(Output protocol, Format format, Tools tools, ParseOptions options, List<Chunk> chunks, JsonObject answer) {
        if (!stream) {
            StreamParser s = format.newStream(tools, options);
            List<ParseEvent> events = new java.util.ArrayList<>();
            try {
                for (Chunk c : chunks) events.addAll(s.feedEvents(c.text(), c.special()));
                events.addAll(s.finishEvents());
                answer.add("message", Json.parse(protocol.batch(format, events)));
            } catch (ToolCallParseException ex) {
                answer.add("error", ErrorJson.of(ex));
            }
            return answer;
        }
        JsonArray deltas = new JsonArray();
        answer.add("deltas", deltas);
        Output.Run run = protocol.stream(format, tools, options);
        try {
            for (Chunk c : chunks) for (String d : run.feed(c.text(), c.special())) deltas.add(Json.parse(d));
            for (String d : run.finish()) deltas.add(Json.parse(d));
        } catch (ToolCallParseException ex) {
            for (String d : run.fail(ex)) deltas.add(Json.parse(d));
            answer.add("error", ErrorJson.of(ex));
        }
        return answer;
    }

    private List<String> chunks(String text) {
        return Chunker.split(text, chunkMax, chunkSeed);
    }
}
