package dev.toolcalls.cli;

import java.io.InputStream;
import java.io.PrintStream;

import picocli.CommandLine.Command;

import dev.toolcalls.Format;
import dev.toolcalls.Formats;

@Command(name = "formats", description = "Lists every registered format with its aliases.")
final class FormatsCommand implements Runnable, Main.IoAware {
    private PrintStream out;

    @Override public void io(PrintStream out, PrintStream err, InputStream in) { this.out = out; }

    @Override public void run() {
        for (Format f : Formats.all()) {
            out.println(f.name() + (f.aliases().isEmpty() ? "" : "  (aliases: " + String.join(", ", f.aliases()) + ")")
                    + (f.description().isEmpty() ? "" : "  " + f.description()));
        }
        out.flush();
    }
}
