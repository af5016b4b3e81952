package dev.toolcalls.cli;

import java.io.IOException;
import java.io.InputStream;
import java.io.PrintStream;
import java.nio.file.Path;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;

import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

import dev.toolcalls.Format;
import dev.toolcalls.Formats;
import dev.toolcalls.server.ReplayServer;

@Command(name = "serve", sortOptions = false,
        description = "Mock OpenAI endpoint replaying recorded model outputs through a format's parser "
                + "(POST /v1/chat/completions, GET /v1/models). Stops cleanly on SIGTERM or Ctrl-C.")
final class ServeCommand implements Callable<Integer>, Main.IoAware {
    @Option(names = "--format", required = true, paramLabel = "NAME", description = "format name or alias")
    String formatName;

    @Option(names = "--replay", required = true, paramLabel = "FILE_OR_DIR",
            description = "a raw model output, or a directory of them (model = file name without extension)")
    Path replay;

    @Option(names = "--port", paramLabel = "P", description = "port (default 8000; 0 picks a free one)")
    int port = 8000;

    @Option(names = "--host", paramLabel = "HOST", description = "address to bind (default 127.0.0.1)")
    String host = "127.0.0.1";

    @Option(names = "--chunk-max", paramLabel = "K", description = "streamed chunks are 1..K code points (default 8)")
    int chunkMax = 8;

    @Option(names = "--chunk-seed", paramLabel = "S", description = "seed of the chunk lengths (default 0)")
    long chunkSeed = 0;

    @Option(names = "--delay-ms", paramLabel = "D", description = "pause between streamed chunks (default 0)")
    long delayMs = 0;

    private PrintStream out;

    @Override public void io(PrintStream out, PrintStream err, InputStream in) { this.out = out; }

    @Override public Integer call() throws InterruptedException {
        if (port < 0 || port > 65535) throw new Main.UsageException("--port must be 0..65535 (0 picks a free port)");
        if (chunkMax < 1) throw new Main.UsageException("--chunk-max must be at least 1");
        if (delayMs < 0) throw new Main.UsageException("--delay-ms must not be negative");
        Format format = Formats.find(formatName).orElseThrow(() -> new Main.UsageException(
                "unknown format '" + formatName + "'; run 'formats' to list them"));
        ReplayServer server;
        try {
            server = new ReplayServer(format, replay, host, port, chunkMax, chunkSeed, delayMs);
        } catch (IOException e) {
            throw new Main.UsageException("cannot serve: " + e.getMessage());
        }
        CountDownLatch stopped = new CountDownLatch(1);
        Runtime.getRuntime().addShutdownHook(new Thread(() -> {
            server.close();
            stopped.countDown();
        }, "toolcalls-serve-shutdown"));
        server.start();
        java.util.List<String> models = server.models();
        out.println("toolcalls replay server: http://" + host + ":" + server.port() + "/v1 (format " + format.name() + ", "
                + models.size() + " replayable model" + (models.size() == 1 ? "" : "s")
                + (models.size() <= 8 ? ": " + String.join(", ", models) : "; GET /v1/models lists them") + ")");
        out.flush();
        stopped.await();
        return 0;
    }
}
