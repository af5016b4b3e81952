package dev.toolcalls.cli;

import com.google.gson.JsonObject;

import dev.toolcalls.Format;
import dev.toolcalls.internal.format.CompiledFormat;
import dev.toolcalls.internal.format.FormatDefinition;
import dev.toolcalls.tools.OutputGenerator;

import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

import java.io.InputStream;
import java.io.PrintStream;
import java.util.Random;
import java.util.concurrent.Callable;

@Command(
        name = "generate",
        sortOptions = false,
        description =
                "Prints N model outputs written from the format's grammar alone (random walks through its lexer's modes and rules: "
                        + "calls, content, look-alike markers, outputs cut short), one {\"input\": \"...\"} per line, for parse --jsonl.")
final class GenerateCommand implements Callable<Integer>, Main.IoAware {
    @Option(
            names = "--format",
            required = true,
            paramLabel = "NAME",
            description = "format name or alias")
    String formatName;

    @Option(names = "--count", required = true, paramLabel = "N", description = "how many outputs")
    int count;

    @Option(
            names = "--seed",
            paramLabel = "S",
            description = "seed of the walks (default 0): the same seed prints the same outputs")
    long seed = 0;

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
        if (count < 0) throw new Main.UsageException("--count must not be negative");
        Format format = formatDirs.format(err, formatName);
        CompiledFormat c = FormatDefinition.of(format).compiled();
        OutputGenerator generator =
                new OutputGenerator(
                        c.model(),
                        c.rules().thinkingDefault() ? c.rules().thinkingMode() : -1,
                        c.rules().implicitCallEnd());
        Random random = new Random(seed);
        for (int i = 0; i < count; i++) {
            JsonObject line = new JsonObject();
            line.addProperty("input", generator.next(random).text());
            out.println(ErrorJson.GSON.toJson(line));
        }
        out.flush();
        return 0;
    }
}
