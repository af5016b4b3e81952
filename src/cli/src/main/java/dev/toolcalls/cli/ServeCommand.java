package dev.toolcalls.cli;

import dev.toolcalls.Format;
import dev.toolcalls.server.ReplayServer;

import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

import java.io.IOException;
import java.io.InputStream;
import java.io.PrintStream;
import java.nio.file.Path;
import java.util.List;
import java.util.OptionalLong;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;

@Command(
        name = "serve",
        sortOptions = false,
        description =
                "Mock OpenAI endpoint replaying recorded model outputs through a format's parser "
                        + "(POST /v1/chat/completions, /v1/responses, /v1/messages; GET /v1/models). "
                        + "On SIGTERM or Ctrl-C it stops accepting, lets in-flight requests finish until --shutdown-timeout-ms, then ends what still runs.")
final class ServeCommand implements Callable<Integer>, Main.IoAware {
    @Option(
            names = "--format",
            required = true,
            paramLabel = "NAME",
            description = "format name or alias")
    String formatName;

    @Option(
            names = "--replay",
            required = true,
            paramLabel = "FILE_OR_DIR",
            description =
                    "a raw model output, or a directory of them (model = file name without extension)")
    Path replay;

    @Option(
            names = "--port",
            paramLabel = "P",
            description = "port (default 8000; 0 picks a free one)")
    int port = 8000;

    @Option(
            names = "--host",
            paramLabel = "HOST",
            description = "address to bind (default 127.0.0.1)")
    String host = "127.0.0.1";

    @Option(
            names = "--chunk-max",
            paramLabel = "K",
            description = "streamed chunks are 1..K code points (default 8)")
    int chunkMax = 8;

    @Option(
            names = "--chunk-seed",
            paramLabel = "S",
            description = "seed of the chunk lengths (default 0)")
    long chunkSeed = 0;

    @Option(
            names = "--delay-ms",
            paramLabel = "D",
            description = "pause between streamed chunks (default 0)")
    long delayMs = 0;

    @Option(
            names = "--seed",
            paramLabel = "N",
            description =
                    "reproducible ids: each response draws its ids from a generator seeded from N and the response's number, "
                            + "so a run answered in the same order gives the same ids (default: random ids, different in every response)")
    Long seed;

    @Mixin FormatDirs formatDirs = new FormatDirs();

    @Option(
            names = "--max-body",
            paramLabel = "BYTES",
            description =
                    "largest request body; larger ones are answered 413 (default 4194304, 4 MiB)")
    long maxBody = ReplayServer.Limits.defaults().maxBodyBytes();

    @Option(
            names = "--idle-timeout-ms",
            paramLabel = "MS",
            description =
                    "a connection without any traffic this long (a stalled client) is closed (default 30000)")
    long idleTimeoutMs = ReplayServer.Limits.defaults().idleTimeoutMs();

    @Option(
            names = "--request-timeout-ms",
            paramLabel = "MS",
            description =
                    "a request's headers and body must arrive within this time; else the connection is closed or answered 408 (default 30000)")
    long requestTimeoutMs = ReplayServer.Limits.defaults().requestTimeoutMs();

    @Option(
            names = "--shutdown-timeout-ms",
            paramLabel = "MS",
            description =
                    "on SIGTERM, how long in-flight requests may take to finish; streams still running then end with a failure event (default 10000)")
    long shutdownTimeoutMs = ReplayServer.Limits.defaults().shutdownTimeoutMs();

    @Option(
            names = "--max-connections",
            paramLabel = "N",
            description = "connections open at once; more wait to be accepted (default 512)")
    int maxConnections = ReplayServer.Limits.defaults().maxConnections();

    private PrintStream out;
    private PrintStream err;

    @Override
    public void io(PrintStream out, PrintStream err, InputStream in) {
        this.out = out;
        this.err = err;
    }

    @Override
    public Integer call() throws InterruptedException {
        if (port < 0 || port > 65535)
            throw new Main.UsageException("--port must be 0..65535 (0 picks a free port)");
        if (chunkMax < 1) throw new Main.UsageException("--chunk-max must be at least 1");
        if (delayMs < 0) throw new Main.UsageException("--delay-ms must not be negative");
        if (maxBody < 1 || maxBody > 1L << 30)
            throw new Main.UsageException("--max-body must be 1..1073741824 bytes");
        if (idleTimeoutMs < 1)
            throw new Main.UsageException("--idle-timeout-ms must be at least 1");
        if (requestTimeoutMs < 1)
            throw new Main.UsageException("--request-timeout-ms must be at least 1");
        if (shutdownTimeoutMs < 0)
            throw new Main.UsageException("--shutdown-timeout-ms must not be negative");
        if (maxConnections < 1)
            throw new Main.UsageException("--max-connections must be at least 1");
        if (delayMs >= idleTimeoutMs)
            throw new Main.UsageException(
                    "--delay-ms must be shorter than --idle-timeout-ms (" + idleTimeoutMs + ")");
        ReplayServer.Limits limits =
                new ReplayServer.Limits(
                        maxBody,
                        idleTimeoutMs,
                        requestTimeoutMs,
                        shutdownTimeoutMs,
                        maxConnections);
        Format format = formatDirs.format(err, formatName);
        ReplayServer server;
        try {
            server =
                    new ReplayServer(
                            format,
                            replay,
                            host,
                            port,
                            chunkMax,
                            chunkSeed,
                            delayMs,
                            limits,
                            err,
                            seed == null ? OptionalLong.empty() : OptionalLong.of(seed));
        } catch (IOException e) {
            throw new Main.UsageException("cannot serve: " + e.getMessage());
        }
        CountDownLatch stopped = new CountDownLatch(1);
        Runtime.getRuntime()
                .addShutdownHook(
                        new Thread(
                                () -> {
                                    server.close();
                                    stopped.countDown();
                                },
                                "toolcalls-serve-shutdown"));
        server.start();
        List<String> models = server.models();
        String root =
                "http://" + (host.contains(":") ? "[" + host + "]" : host) + ":" + server.port();
        out.println(
                "toolcalls replay server: "
                        + root
                        + "/v1 (format "
                        + format.name()
                        + ", "
                        + models.size()
                        + " replayable model"
                        + (models.size() == 1 ? "" : "s")
                        + (models.size() <= 8
                                ? ": " + String.join(", ", models)
                                : "; GET /v1/models lists them")
                        + ")");
        // each SDK's base URL: the OpenAI SDKs append /chat/completions or /responses, the
        // Anthropic SDK /v1/messages
        out.println(
                "  base URL for the OpenAI SDKs (chat completions, responses): " + root + "/v1");
        out.println("  base URL for the Anthropic SDK (messages):                  " + root);
        out.flush();
        stopped.await();
        return 0;
    }
}
