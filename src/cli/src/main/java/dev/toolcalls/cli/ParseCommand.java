package dev.toolcalls.cli;

import com.google.gson.JsonArray;
import com.google.gson.JsonObject;

import dev.toolcalls.Format;
import dev.toolcalls.IdGenerator;
import dev.toolcalls.ParseEvent;
import dev.toolcalls.ParseOptions;
import dev.toolcalls.StreamParser;
import dev.toolcalls.ToolCallParseException;
import dev.toolcalls.Tools;
import dev.toolcalls.Vocabulary;
import dev.toolcalls.internal.json.Json;
import dev.toolcalls.server.Chunker;
import dev.toolcalls.server.JsonChecks;

import java.io.FilterInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.InvalidPathException;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Random;
import java.util.concurrent.Callable;
import java.util.function.Consumer;
import java.util.function.Supplier;

/**
 * {@code parse --format NAME [--tools FILE] [--lenient] [--stream [--chunk-seed S] [--chunk-max K]]
 * [--jsonl] [FILE | -]}. Ids come from a fixed seed, so the same input always prints the same
 * output.
 *
 * <p>Its options are a {@link CommandOptions} table rather than picocli annotations: a short run of
 * {@code parse} reads an ordinary command line without picocli, whose reflection over annotated
 * options would be most of the run's start-up; picocli reads the rest (help, usage errors).
 */
final class ParseCommand implements Callable<Integer>, Main.IoAware {
    String formatName;
    Path toolsFile;
    boolean lenient;
    String unknownTool = "keep";
    boolean stream;
    long chunkSeed = 0;
    int chunkMax = 8;
    String thinking;
    String output = "chat";
    boolean jsonl;
    Path tokenizer;
    String file;
    final FormatDirs formatDirs = new FormatDirs();

    /** The command line, in the order the usage lists it. */
    final CommandOptions options =
            new CommandOptions(
                            "parse",
                            "Parses one model output (or, with --jsonl, one per line) and prints the message, or with --stream the deltas.")
                    .required(
                            "--format",
                            "NAME",
                            "format name or alias (see: formats)",
                            new Into("--format"))
                    .option(
                            "--tools",
                            "FILE",
                            "OpenAI tools array (JSON) handed to the parser",
                            Path.class,
                            new Into("--tools"))
                    .flag(
                            "--lenient",
                            "a malformed call comes back as content (its raw text); with --stream only while nothing of it was printed",
                            new Into("--lenient"))
                    .option(
                            "--unknown-tool",
                            "keep|text|error",
                            "a call to a function not among --tools: keep it (default), give it back as text, or fail (unknown_tool)",
                            String.class,
                            new Into("--unknown-tool"))
                    .flag(
                            "--stream",
                            "feed the input in random chunks and print one delta per line",
                            new Into("--stream"))
                    .option(
                            "--chunk-seed",
                            "S",
                            "seed of java.util.Random choosing chunk lengths (default 0)",
                            long.class,
                            new Into("--chunk-seed"))
                    .option(
                            "--chunk-max",
                            "K",
                            "chunks are 1..K code points long (default 8)",
                            int.class,
                            new Into("--chunk-max"))
                    .option(
                            "--thinking",
                            "on|off",
                            "whether the request had thinking on (formats whose prompt opens the think block start inside reasoning); default: the format's",
                            String.class,
                            new Into("--thinking"))
                    .option(
                            "--output",
                            "chat|responses|messages|events",
                            "what to print: chat (default; Chat Completions message / deltas), responses (OpenAI Responses API), "
                                    + "messages (Anthropic Messages API) or events (the neutral parse events)",
                            String.class,
                            new Into("--output"))
                    .flag(
                            "--jsonl",
                            "each input line is {\"input\": \"...\", \"tools\": [...]?, \"thinking\": true|false?}; one answer line each",
                            new Into("--jsonl"))
                    .option(
                            "--tokenizer",
                            "PATH",
                            "the model's vocabulary (a folder holding tokenizer.json, or the file): --jsonl lines may carry "
                                    + "\"ids\": [...] instead of \"input\", fed as token ids (with --stream: 1..K ids at a time)",
                            Path.class,
                            new Into("--tokenizer"))
                    .positional(
                            "FILE | -",
                            "input file, or - (default) for standard input",
                            new Into("FILE"))
                    .repeatable(
                            FormatDirs.OPTION,
                            FormatDirs.LABEL,
                            FormatDirs.DESCRIPTION,
                            Path.class,
                            new Into(FormatDirs.OPTION));

    /**
     * Where an option's value goes, by the option's name: one class for every option rather than a
     * lambda each (a fresh JVM pays a bootstrap for every lambda it links).
     */
    private final class Into implements Consumer<Object> {
        private final String option;

        Into(String option) {
            this.option = option;
        }

        @Override
        public void accept(Object v) {
            switch (option) {
                case "--format" -> formatName = (String) v;
                case "--tools" -> toolsFile = (Path) v;
                case "--lenient" -> lenient = (Boolean) v;
                case "--unknown-tool" -> unknownTool = (String) v;
                case "--stream" -> stream = (Boolean) v;
                case "--chunk-seed" -> chunkSeed = (Long) v;
                case "--chunk-max" -> chunkMax = (Integer) v;
                case "--thinking" -> thinking = (String) v;
                case "--output" -> output = (String) v;
                case "--jsonl" -> jsonl = (Boolean) v;
                case "--tokenizer" -> tokenizer = (Path) v;
                case "FILE" -> file = (String) v;
                default -> formatDirs.dirs.add((Path) v); // FormatDirs.OPTION
            }
        }
    }

    private ParseOptions.UnknownTool unknownPolicy = ParseOptions.UnknownTool.KEEP;
    private Vocabulary vocabulary;

    private PrintStream out;
    private PrintStream err;
    private InputStream in;

    @Override
    public void io(PrintStream out, PrintStream err, InputStream in) {
        this.out = out;
        this.err = err;
        this.in = in;
    }

    @Override
    public Integer call() {
        options.takeParsed();
        if (chunkMax < 1) throw new Main.UsageException("--chunk-max must be at least 1");
        if (thinking != null && !thinking.equals("on") && !thinking.equals("off"))
            throw new Main.UsageException("--thinking takes on or off");
        ParseOptions.UnknownTool unknown;
        try {
            unknown = ParseOptions.UnknownTool.valueOf(unknownTool.toUpperCase(Locale.ROOT));
        } catch (IllegalArgumentException e) {
            throw new Main.UsageException("--unknown-tool takes keep, text or error");
        }
        unknownPolicy = unknown;
        Output protocol = Output.byName(output);
        if (protocol == null)
            throw new Main.UsageException("--output takes chat, responses, messages or events");
        if (tokenizer != null) {
            if (!jsonl)
                throw new Main.UsageException(
                        "--tokenizer reads token ids from --jsonl lines ({\"ids\": [...]})");
            try {
                vocabulary = Vocabulary.load(tokenizer);
            } catch (IOException e) {
                throw new Main.UsageException("--tokenizer: " + e.getMessage());
            }
        }
        Format format = formatDirs.format(err, formatName);
        Tools tools = Tools.none();
        if (toolsFile != null) tools = readTools();
        try (InputStream input = openInput()) {
            int code =
                    jsonl
                            ? jsonl(protocol, format, tools, input)
                            : stream
                                    ? stream(protocol, format, tools, input)
                                    : batch(protocol, format, tools, input);
            out.flush();
            return code;
        } catch (Utf8Input.Invalid e) {
            out.flush();
            JsonObject error =
                    ErrorJson.of(
                            "invalid_utf8",
                            "input is " + e.getMessage(),
                            (int) Math.min(Integer.MAX_VALUE, e.codePointOffset),
                            format.name());
            error.addProperty("byte_offset", e.byteOffset);
            err.println(ErrorJson.wrap(error));
            return Main.USAGE;
        } catch (IOException e) {
            throw new Main.UsageException(
                    "cannot read input " + inputName() + ": " + e.getMessage());
        }
    }

    private Tools readTools() {
        String json;
        try (InputStream in = Files.newInputStream(toolsFile)) {
            json = new Utf8Input(in).readAll();
        } catch (Utf8Input.Invalid e) {
            throw new Main.UsageException("--tools " + toolsFile + " is " + e.getMessage());
        } catch (IOException e) {
            throw new Main.UsageException(
                    "cannot read --tools " + toolsFile + ": " + e.getMessage());
        }
        try {
            String lone = JsonChecks.loneSurrogate(Json.parseStrict(json), "$");
            if (lone != null) throw new Main.UsageException("--tools " + toolsFile + ": " + lone);
            return Tools.parse(json);
        } catch (Json.NotJson | IllegalArgumentException e) {
            throw new Main.UsageException(
                    "--tools " + toolsFile + ": " + JsonChecks.plain(e.getMessage()));
        }
    }

    private String inputName() {
        return file == null ? "-" : file;
    }

    private InputStream openInput() {
        if (file == null || file.equals("-"))
            return new FilterInputStream(in) {
                @Override
                public void close() {} // standard input stays open
            };
        try {
            return Files.newInputStream(Path.of(file));
        } catch (IOException | InvalidPathException e) {
            throw new Main.UsageException(
                    "cannot read input "
                            + file
                            + ": "
                            + (e instanceof NoSuchFileException ? "no such file" : e.getMessage()));
        }
    }

    private ParseOptions options() {
        return ParseOptions.defaults()
                .withLenient(lenient)
                .withIds(new SeededIds())
                .withUnknownTool(unknownPolicy)
                .withThinking(thinking == null ? null : thinking.equals("on"));
    }

    /** Ids from a fixed seed, the same for every parse (a class: see {@link Into}). */
    private static final class SeededIds implements Supplier<IdGenerator> {
        @Override
        public IdGenerator get() {
            return IdGenerator.seeded(0);
        }
    }

    /** Batch: the whole input is one output, parsed once. */
    private int batch(Output protocol, Format format, Tools tools, InputStream input)
            throws IOException {
        String text = new Utf8Input(input).readAll();
        try {
            out.println(protocol.batch(format, text, tools, options()));
            return 0;
        } catch (ToolCallParseException e) {
            out.flush();
            err.println(ErrorJson.wrap(ErrorJson.of(e)));
            return Main.FAILED;
        }
    }

    /**
     * Streaming: the input is read, cut and fed as it arrives; memory is the chunk being cut and
     * what the parser holds, whatever the input's size. Bad UTF-8 ends the stream where it is (the
     * protocol's failure event, for those that have one) and is reported by the caller.
     */
    private int stream(Output protocol, Format format, Tools tools, InputStream input)
            throws IOException {
        Output.Run run =
                protocol.stream(format, tools, options(), null, ArgumentBudget.ofThisJvm());
        Utf8Input text = new Utf8Input(input);
        Chunker.Cutter cutter = new Chunker.Cutter(chunkMax, chunkSeed);
        try {
            try {
                for (String piece; (piece = text.next()) != null; )
                    for (String chunk : cutter.push(piece)) print(run.feed(chunk));
            } catch (Utf8Input.Invalid e) {
                print(run.abort("input is " + e.getMessage()));
                throw e;
            }
            for (String chunk : cutter.finish()) print(run.feed(chunk));
            print(run.finish());
            return 0;
        } catch (ToolCallParseException e) {
            print(run.fail(e));
            out.flush();
            err.println(ErrorJson.wrap(ErrorJson.of(e)));
            return Main.FAILED;
        } catch (ArgumentBudget.TooLarge e) {
            print(run.abort(e.getMessage()));
            out.flush();
            err.println(
                    ErrorJson.wrap(ErrorJson.of("too_large", e.getMessage(), null, format.name())));
            return Main.INTERNAL;
        }
    }

    private void print(List<String> lines) {
        for (String line : lines) out.println(line);
    }

    /**
     * One answer per line, in order, each line read, parsed and answered before the next is read.
     */
    private int jsonl(Output protocol, Format format, Tools tools, InputStream input)
            throws IOException {
        ByteLines lines = new ByteLines(input);
        while (lines.next())
            out.println(ErrorJson.GSON.toJson(answer(protocol, format, tools, lines)));
        return 0;
    }

    private JsonObject answer(Output protocol, Format format, Tools defaultTools, ByteLines lines) {
        JsonObject answer = new JsonObject();
        JsonLine line;
        try {
            line =
                    JsonLine.read(
                            Utf8Input.decode(lines.bytes(), lines.length(), lines.start()),
                            defaultTools);
        } catch (Utf8Input.Invalid e) {
            JsonObject error =
                    ErrorJson.of(
                            "invalid_utf8",
                            "line " + lines.number() + " is " + e.getMessage(),
                            null,
                            format.name());
            error.addProperty("byte_offset", e.byteOffset);
            error.addProperty("line", lines.number());
            answer.add("error", error);
            return answer;
        } catch (JsonLine.Bad e) {
            JsonObject error =
                    ErrorJson.of(
                            "invalid_input",
                            "line "
                                    + lines.number()
                                    + " is not a valid input object: "
                                    + e.getMessage(),
                            null,
                            format.name());
            error.addProperty("line", lines.number());
            answer.add("error", error);
            return answer;
        }
        ParseOptions lineOptions =
                line.thinking() == null ? options() : options().withThinking(line.thinking());
        if (line.ids() != null)
            return ids(
                    protocol,
                    format,
                    line.tools(),
                    lineOptions,
                    line.ids(),
                    answer,
                    lines.number());
        // chunks flagged as special tokens or not: a marker's letters in ordinary chunks are text
        if (line.chunks() != null)
            return answer(
                    protocol,
                    format,
                    line.tools(),
                    lineOptions.withSpecialTokensMarked(true),
                    line.chunks(),
                    answer,
                    lines.number());
        if (!stream) {
            try {
                answer.add(
                        "message",
                        Json.parse(
                                protocol.batch(format, line.input(), line.tools(), lineOptions)));
            } catch (ToolCallParseException ex) {
                answer.add("error", lineError(ex, lines.number()));
            }
            return answer;
        }
        JsonArray deltas = new JsonArray();
        answer.add("deltas", deltas);
        Output.Run run = protocol.stream(format, line.tools(), lineOptions);
        try {
            for (String chunk : Chunker.split(line.input(), chunkMax, chunkSeed))
                for (String d : run.feed(chunk)) deltas.add(Json.parse(d));
            for (String d : run.finish()) deltas.add(Json.parse(d));
        } catch (ToolCallParseException ex) {
            for (String d : run.fail(ex)) deltas.add(Json.parse(d));
            answer.add("error", lineError(ex, lines.number()));
        }
        return answer;
    }

    /**
     * The error of a JSONL line's output: its message begins with the line's number (from 1), which
     * {@code line} repeats.
     */
    private static JsonObject lineError(ToolCallParseException e, long line) {
        JsonObject error =
                ErrorJson.of(
                        e.kind().type(),
                        "line " + line + ": " + e.getMessage(),
                        e.offset(),
                        e.format());
        error.addProperty("line", line);
        return error;
    }

    /** A line parsed from its own chunks, each said to be a special token or not. */
    private JsonObject answer(
            Output protocol,
            Format format,
            Tools tools,
            ParseOptions options,
            List<JsonLine.Chunk> chunks,
            JsonObject answer,
            long line) {
        if (!stream) {
            StreamParser s = format.newStream(tools, options);
            List<ParseEvent> events = new ArrayList<>();
            try {
                for (JsonLine.Chunk c : chunks)
                    events.addAll(c.special() ? s.feedSpecial(c.text()) : s.feed(c.text()));
                events.addAll(s.finish());
                answer.add("message", Json.parse(protocol.batch(format, events)));
            } catch (ToolCallParseException ex) {
                answer.add("error", lineError(ex, line));
            }
            return answer;
        }
        JsonArray deltas = new JsonArray();
        answer.add("deltas", deltas);
        Output.Run run = protocol.stream(format, tools, options);
        try {
            for (JsonLine.Chunk c : chunks)
                for (String d : c.special() ? run.feedSpecial(c.text()) : run.feed(c.text()))
                    deltas.add(Json.parse(d));
            for (String d : run.finish()) deltas.add(Json.parse(d));
        } catch (ToolCallParseException ex) {
            for (String d : run.fail(ex)) deltas.add(Json.parse(d));
            answer.add("error", lineError(ex, line));
        }
        return answer;
    }

    /**
     * A line of token ids: fed at once, or with --stream in groups of 1..K ids (lengths from {@code
     * Random(--chunk-seed)}, as text chunks are cut).
     */
    private JsonObject ids(
            Output protocol,
            Format format,
            Tools tools,
            ParseOptions options,
            int[] ids,
            JsonObject answer,
            long line) {
        if (vocabulary == null) {
            JsonObject error =
                    ErrorJson.of(
                            "invalid_input",
                            "line " + line + " carries \"ids\": token ids need --tokenizer PATH",
                            null,
                            format.name());
            error.addProperty("line", line);
            answer.add("error", error);
            return answer;
        }
        for (int i = 0; i < ids.length; i++) {
            if (!vocabulary.contains(ids[i])) {
                JsonObject error =
                        ErrorJson.of(
                                "invalid_input",
                                "line "
                                        + line
                                        + ": \"ids\"["
                                        + i
                                        + "] = "
                                        + ids[i]
                                        + " is not a token of "
                                        + vocabulary,
                                null,
                                format.name());
                error.addProperty("line", line);
                answer.add("error", error);
                return answer;
            }
        }
        JsonArray deltas = new JsonArray();
        if (stream) answer.add("deltas", deltas);
        Output.Run run = stream ? protocol.stream(format, tools, options, vocabulary) : null;
        List<ParseEvent> events = new ArrayList<>();
        StreamParser batch = stream ? null : format.newStream(tools, options, vocabulary);
        try {
            if (stream) {
                Random random = new Random(chunkSeed);
                for (int i = 0; i < ids.length; ) {
                    int n = Math.min(ids.length - i, 1 + random.nextInt(chunkMax));
                    for (String d : run.feedTokens(ids, i, i + n)) deltas.add(Json.parse(d));
                    i += n;
                }
                for (String d : run.finish()) deltas.add(Json.parse(d));
            } else {
                events.addAll(batch.feedTokens(ids));
                events.addAll(batch.finish());
                answer.add("message", Json.parse(protocol.batch(format, events)));
            }
        } catch (ToolCallParseException ex) {
            if (stream) for (String d : run.fail(ex)) deltas.add(Json.parse(d));
            answer.add("error", lineError(ex, line));
        } catch (IllegalArgumentException ex) { // ids whose bytes are not UTF-8
            if (stream) for (String d : run.abort(ex.getMessage())) deltas.add(Json.parse(d));
            JsonObject error =
                    ErrorJson.of(
                            "invalid_utf8",
                            "line " + line + ": " + ex.getMessage(),
                            null,
                            format.name());
            error.addProperty("line", line);
            answer.add("error", error);
        }
        return answer;
    }

    private List<String> chunks(String text) {
        return Chunker.split(text, chunkMax, chunkSeed);
    }
}
