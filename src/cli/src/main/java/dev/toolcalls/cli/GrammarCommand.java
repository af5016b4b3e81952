package dev.toolcalls.cli;

import dev.toolcalls.ConstraintException;
import dev.toolcalls.ConstraintOptions;
import dev.toolcalls.Format;
import dev.toolcalls.Tools;
import dev.toolcalls.internal.json.Json;
import dev.toolcalls.server.JsonChecks;

import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

import java.io.IOException;
import java.io.InputStream;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;
import java.util.concurrent.Callable;

/**
 * {@code grammar --format NAME [--tools FILE] [--tool-choice C] [--parallel-tool-calls B]
 * [--thinking on|off] [--closed-objects B] --target T}: the format's decoding constraint, derived
 * from its grammar and the tools' schemas, on stdout.
 */
@Command(
        name = "grammar",
        sortOptions = false,
        description =
                "Prints the format's decoding constraint for these tools, derived from its grammar: a GBNF grammar of the whole output, "
                        + "llama.cpp's chat parameters, an xgrammar structural tag or a Lark grammar.")
final class GrammarCommand implements Callable<Integer>, Main.IoAware {
    @Option(
            names = "--format",
            required = true,
            paramLabel = "NAME",
            description = "format name or alias")
    String formatName;

    @Option(
            names = "--tools",
            paramLabel = "FILE",
            description = "OpenAI tools array (JSON); without it any name and any JSON object")
    Path toolsFile;

    @Option(
            names = "--tool-choice",
            paramLabel = "CHOICE",
            description = "auto (default), required, none, or the name of the one function to call")
    String toolChoice = "auto";

    @Option(
            names = "--parallel-tool-calls",
            paramLabel = "BOOL",
            arity = "1",
            description = "true (default): several calls; false: at most one")
    String parallel = "true";

    @Option(
            names = "--thinking",
            paramLabel = "on|off",
            description =
                    "whether the output begins inside the reasoning block (default: the format's)")
    String thinking;

    @Option(
            names = "--closed-objects",
            paramLabel = "BOOL",
            arity = "1",
            description =
                    "false (default): an object whose schema does not say additionalProperties takes any further key, as the parser does; "
                            + "true: it takes none (xgrammar's strict mode; a smaller grammar that engines compile faster)")
    String closed = "false";

    @Option(
            names = "--target",
            required = true,
            paramLabel = "TARGET",
            description = "gbnf, llama-cpp, structural-tag, structural-tag-legacy or lark")
    String target;

    @Mixin FormatDirs formatDirs = new FormatDirs();

    private PrintStream out;
    private PrintStream err;

    @Override
    public void io(PrintStream out, PrintStream err, InputStream in) {
        this.out = out;
        this.err = err;
    }

    @Override
    public Integer call() {
        ConstraintOptions.Target t;
        try {
            t = ConstraintOptions.Target.of(target);
        } catch (IllegalArgumentException e) {
            throw new Main.UsageException("--target: " + e.getMessage());
        }
        String p = parallel.toLowerCase(Locale.ROOT);
        if (!p.equals("true") && !p.equals("false"))
            throw new Main.UsageException("--parallel-tool-calls must be true or false");
        String closedObjects = closed.toLowerCase(Locale.ROOT);
        if (!closedObjects.equals("true") && !closedObjects.equals("false"))
            throw new Main.UsageException("--closed-objects must be true or false");
        Boolean think = null;
        if (thinking != null) {
            String th = thinking.toLowerCase(Locale.ROOT);
            if (!th.equals("on") && !th.equals("off"))
                throw new Main.UsageException("--thinking must be on or off");
            think = th.equals("on");
        }
        Format format = formatDirs.format(err, formatName);
        Tools tools = toolsFile == null ? Tools.none() : readTools();
        ConstraintOptions options =
                ConstraintOptions.defaults()
                        .withToolChoice(toolChoice)
                        .withParallelToolCalls(p.equals("true"))
                        .withThinking(think)
                        .withClosedObjects(closedObjects.equals("true"))
                        .withTarget(t);
        String text;
        try {
            text = format.constraint(tools, options);
        } catch (ConstraintException e) {
            err.println(
                    ErrorJson.wrap(
                            ErrorJson.of("constraint_error", e.getMessage(), null, format.name())));
            return Main.FAILED;
        }
        out.print(text);
        if (!text.endsWith("\n")) out.println();
        out.flush();
        return 0;
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
}
