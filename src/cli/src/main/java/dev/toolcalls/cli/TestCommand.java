package dev.toolcalls.cli;

import dev.toolcalls.FormatRegistry;
import dev.toolcalls.suite.CaseRunner;
import dev.toolcalls.suite.SuiteReport;

import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Parameters;

import java.io.InputStream;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.Callable;

@Command(
        name = "test",
        description =
                "Runs a regression suite (tests-data layout: DIR/<format>/<case>.txt + .json) "
                        + "in batch, 1-character chunks, every 2-way split and 50 random chunkings; prints a table per format; exits 1 on any failure "
                        + "(a format that cannot be loaded is one).")
final class TestCommand implements Callable<Integer>, Main.IoAware {
    @Parameters(
            index = "0",
            arity = "0..1",
            paramLabel = "DIR",
            description = "suite directory (default: tests-data)")
    Path dir = Path.of("tests-data");

    @Mixin FormatDirs formatDirs = new FormatDirs();

    private PrintStream out;

    @Override
    public void io(PrintStream out, PrintStream err, InputStream in) {
        this.out = out;
    }

    @Override
    public Integer call() {
        if (!Files.isDirectory(dir)) throw new Main.UsageException("no suite directory " + dir);
        FormatRegistry formats = formatDirs.registry();
        List<String> problems = formats.problems().stream().map(Throwable::getMessage).toList();
        SuiteReport report =
                SuiteReport.run(dir, CaseRunner.standard().withFormats(formats), problems);
        report.print(out);
        out.flush();
        return report.passed() ? 0 : Main.FAILED;
    }
}
