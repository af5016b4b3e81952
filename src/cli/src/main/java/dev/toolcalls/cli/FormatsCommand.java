package dev.toolcalls.cli;

import dev.toolcalls.Format;
import dev.toolcalls.FormatException;
import dev.toolcalls.FormatRegistry;

import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;

import java.io.InputStream;
import java.io.PrintStream;
import java.util.Collections;
import java.util.IdentityHashMap;
import java.util.Optional;
import java.util.Set;

@Command(name = "formats", description = "Lists every registered format with its aliases.")
final class FormatsCommand implements Runnable, Main.IoAware {
    @Mixin FormatDirs formatDirs = new FormatDirs();

    private PrintStream out;

    @Override
    public void io(PrintStream out, PrintStream err, InputStream in) {
        this.out = out;
    }

    @Override
    public void run() {
        FormatRegistry formats = formatDirs.registry();
        Set<FormatException> shown = Collections.newSetFromMap(new IdentityHashMap<>());
        Set<Format> standard = Collections.newSetFromMap(new IdentityHashMap<>());
        standard.addAll(FormatRegistry.standard().all());
        for (Format f : formats.all()) {
            // bundled formats are listed without being built; a format read at run time is built
            // already
            boolean runtime = !standard.contains(f);
            Optional<FormatException> problem = runtime ? f.problem() : Optional.empty();
            problem.ifPresent(shown::add);
            String broken = problem.map(p -> "  DISABLED: " + p.getMessage()).orElse("");
            out.println(
                    f.name()
                            + (f.aliases().isEmpty()
                                    ? ""
                                    : "  (aliases: " + String.join(", ", f.aliases()) + ")")
                            + (f.description().isEmpty() ? "" : "  " + f.description())
                            + (runtime ? "  [" + f.origin() + "]" : "")
                            + broken);
        }
        for (FormatException p : formats.problems())
            if (!shown.contains(p)) out.println("problem: " + p.getMessage());
        out.flush();
    }
}
