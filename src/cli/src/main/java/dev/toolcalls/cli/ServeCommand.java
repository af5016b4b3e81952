package dev.toolcalls.cli;

import dev.toolcalls.Format;
import dev.toolcalls.server.GatewayConfig;
import dev.toolcalls.server.GatewayServer;
import dev.toolcalls.server.ReplayServer;
import dev.toolcalls.server.Upstream;

import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

import java.io.IOException;
import java.io.InputStream;
import java.io.PrintStream;
import java.net.URI;
import java.net.URISyntaxException;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;

@Command(
        name = "serve",
        sortOptions = false,
        description =
                "Serves POST /v1/chat/completions, /v1/responses, /v1/messages and GET /v1/models: "
                        + "with --replay, recorded model outputs through a format's parser (a mock endpoint); "
                        + "with --upstream or --config, a tool-calling gateway in front of an engine's raw /v1/completions "
                        + "(the model's chat template renders the prompt, the format's parser reads the stream). "
                        + "On SIGTERM or Ctrl-C it stops accepting, lets in-flight requests finish until --shutdown-timeout-ms, then ends what still runs.")
final class ServeCommand implements Callable<Integer>, Main.IoAware {
    @Option(
            names = "--format",
            paramLabel = "NAME",
            description = "format name or alias (with --replay or --upstream)")
    String formatName;

    @Option(
            names = "--replay",
            paramLabel = "FILE_OR_DIR",
            description =
                    "a raw model output, or a directory of them (model = file name without extension)")
    Path replay;

    @Option(
            names = "--upstream",
            paramLabel = "URL",
            description =
                    "gateway: the engine's base URL as OpenAI clients take it (http://host:port/v1); requests go to URL/completions")
    String upstream;

    @Option(
            names = "--chat-template",
            paramLabel = "FILE",
            description = "gateway: the model's tokenizer_config.json or .jinja chat template")
    Path chatTemplate;

    @Option(
            names = "--upstream-model",
            paramLabel = "NAME",
            description = "gateway: the model name sent to the engine (default: none sent)")
    String upstreamModel;

    @Option(
            names = "--kind",
            paramLabel = "KIND",
            description =
                    "gateway: the engine's kind, openai, llama.cpp, vllm or sglang (default openai): which constraint fields it takes")
    String kind = "openai";

    @Option(
            names = "--api-key-env",
            paramLabel = "VAR",
            description = "gateway: the environment variable holding the engine's API key")
    String apiKeyEnv;

    @Option(
            names = "--config",
            paramLabel = "FILE",
            description =
                    "gateway: a JSON file mapping each model name to its upstream, format, chat template and defaults (see docs/gateway.md)")
    Path config;

    @Option(
            names = "--max-streams",
            paramLabel = "N",
            description = "gateway: requests relayed at once; more are answered 503 (default 512)")
    int maxStreams = GatewayServer.Options.defaults().maxStreams();

    @Option(
            names = "--upstream-timeout-ms",
            paramLabel = "MS",
            description =
                    "gateway: the engine must answer, then send each chunk, within this time; else 504 or the stream's error event (default 120000)")
    long upstreamTimeoutMs = GatewayServer.Options.defaults().upstreamTimeoutMs();

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
        int modes =
                (replay != null ? 1 : 0) + (upstream != null ? 1 : 0) + (config != null ? 1 : 0);
        if (modes != 1)
            throw new Main.UsageException(
                    "serve needs one of --replay FILE_OR_DIR, --upstream URL (with --chat-template) or --config FILE");
        if (replay == null) return gateway(limits);
        if (formatName == null) throw new Main.UsageException("--replay needs --format NAME");
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

    private Integer gateway(ReplayServer.Limits limits) throws InterruptedException {
        if (maxStreams < 1) throw new Main.UsageException("--max-streams must be at least 1");
        if (upstreamTimeoutMs < 1)
            throw new Main.UsageException("--upstream-timeout-ms must be at least 1");
        List<Upstream> upstreams;
        if (config != null) {
            if (formatName != null
                    || chatTemplate != null
                    || upstreamModel != null
                    || apiKeyEnv != null)
                throw new Main.UsageException(
                        "with --config, each model's format, template, upstream model and key are in the file");
            try {
                upstreams =
                        GatewayConfig.read(
                                config,
                                name -> {
                                    try {
                                        return formatDirs.format(err, name);
                                    } catch (Main.UsageException e) {
                                        throw new IllegalArgumentException(e.getMessage());
                                    }
                                });
            } catch (IOException e) {
                throw new Main.UsageException("cannot serve: " + e.getMessage());
            }
        } else {
            if (formatName == null) throw new Main.UsageException("--upstream needs --format NAME");
            if (chatTemplate == null)
                throw new Main.UsageException(
                        "--upstream needs --chat-template FILE (the model's tokenizer_config.json or a .jinja file)");
            Format format = formatDirs.format(err, formatName);
            Upstream.Kind k =
                    Upstream.Kind.byName(kind)
                            .orElseThrow(
                                    () ->
                                            new Main.UsageException(
                                                    "--kind must be openai, llama.cpp, vllm or sglang, got '"
                                                            + kind
                                                            + "'"));
            String key = null;
            if (apiKeyEnv != null) {
                key = System.getenv(apiKeyEnv);
                if (key == null || key.isEmpty())
                    throw new Main.UsageException(
                            "the environment variable "
                                    + apiKeyEnv
                                    + " (--api-key-env) is not set");
            }
            try {
                upstreams =
                        List.of(
                                new Upstream(
                                        upstreamModel != null ? upstreamModel : format.name(),
                                        new URI(upstream),
                                        upstreamModel,
                                        format,
                                        GatewayConfig.loadTemplate(chatTemplate),
                                        k,
                                        Map.of(),
                                        key));
            } catch (URISyntaxException | IllegalArgumentException e) {
                throw new Main.UsageException("--upstream: " + e.getMessage());
            } catch (IOException e) {
                throw new Main.UsageException("cannot serve: " + e.getMessage());
            }
        }
        GatewayServer server;
        try {
            server =
                    new GatewayServer(
                            upstreams,
                            host,
                            port,
                            limits,
                            new GatewayServer.Options(
                                    maxStreams,
                                    upstreamTimeoutMs,
                                    GatewayServer.Options.defaults().connectTimeoutMs()),
                            err);
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
        String root =
                "http://" + (host.contains(":") ? "[" + host + "]" : host) + ":" + server.port();
        StringBuilder line = new StringBuilder("toolcalls gateway: " + root + "/v1 (");
        for (int i = 0; i < upstreams.size(); i++) {
            Upstream u = upstreams.get(i);
            if (i > 0) line.append("; ");
            line.append("model ")
                    .append(u.name())
                    .append(" -> ")
                    .append(u.baseUrl())
                    .append(", format ")
                    .append(u.format().name());
        }
        out.println(line.append(")"));
        out.println(
                "  base URL for the OpenAI SDKs (chat completions, responses): " + root + "/v1");
        out.println("  base URL for the Anthropic SDK (messages):                  " + root);
        out.flush();
        stopped.await();
        return 0;
    }
}
