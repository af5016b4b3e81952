package dev.toolcalls.server;

import dev.toolcalls.Formats;
import dev.toolcalls.templates.ChatTemplate;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadInfo;
import java.lang.management.ThreadMXBean;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.IntFunction;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The gateway's added cost, measured against the stand-in engine alone: N concurrent streams
 * straight to the engine's {@code /v1/completions}, then the same N through the gateway's {@code
 * /v1/chat/completions}, everything in one JVM.
 *
 * <pre>
 * mvn -B -q -o -pl src/tests -am test-compile dependency:build-classpath \
 *   -Dmdep.outputFile=/tmp/cp.txt -Dmdep.includeScope=test
 * java -cp "src/tests/target/test-classes:$(cat /tmp/cp.txt)" \
 *   dev.toolcalls.server.GatewayLoad [streams] [chunks] [delayMs] [rounds]
 * </pre>
 *
 * Defaults: 200 streams of 100 chunks, 20 ms apart (an engine at 50 tokens per second per stream),
 * 1 round. The output is a hermes answer with text then a tool call, cut into chunks of 1 to 6 code
 * points, each event flushed in one to three pieces ({@code -Dload.wholeEvents=true}: each in one
 * write, as vLLM's and llama.cpp's servers write them). Two arrival patterns ({@code
 * -Dload.arrivals=steady}: only one): <b>burst</b>, all N streams sent at once (the figure is
 * mostly queueing for the cores), and <b>steady</b>, arrivals spread evenly over one stream's
 * duration, so that about N streams are open when each arrives.
 *
 * <p>Reported per run:
 *
 * <ul>
 *   <li>the time to the first byte and to the first text, p50 and p99, as the client sees them;
 *   <li><b>added to the first byte</b>: the time to the first byte through the gateway minus
 *       straight to the engine, at p50 and at p99 (the engine writes its head and first event at
 *       once, so its own time is the same on both paths);
 *   <li><b>added to the first text</b>, per request: the client's time to its first text minus the
 *       engine's own time for that request (its first event flushed minus its request received),
 *       that is the time spent outside the engine; the gateway's figure minus the engine-alone
 *       figure (the loopback and the client, which the direct path pays too) at p50 and p99;
 *   <li>its two legs through the gateway: the request leg (client sent to engine received: the
 *       gateway's request parsing, template rendering and upstream request) and the response leg
 *       (engine flushed its first event to the client's first text);
 *   <li><b>gateway CPU per upstream chunk</b>: the CPU time of the gateway's threads (server,
 *       client and timers, all named {@code toolcalls-gateway*}) over the engine's events relayed.
 * </ul>
 */
public final class GatewayLoad {
    private static final Pattern ID = Pattern.compile("hi (\\d+)");

    /**
     * One client per URL for all runs, as a real client keeps its pool: the warm-up opens the
     * connections, and no run leaves idle connections behind that count against the gateway's
     * connection limit.
     */
    private static final Map<String, HttpClient> CLIENTS = new ConcurrentHashMap<>();

    private GatewayLoad() {}

    /** Per request nanoTimes: sent, engine received, engine first event, first byte, first text. */
    record Run(
            long[] sent, long[] received, long[] engineFirst, long[] firstByte, long[] firstText) {
        long[] ttfb() {
            return minus(firstByte, sent);
        }

        long[] ttft() {
            return minus(firstText, sent);
        }

        /** Time to the first text spent outside the engine. */
        long[] outside() {
            long[] v = new long[sent.length];
            for (int i = 0; i < v.length; i++)
                v[i] = (firstText[i] - sent[i]) - (engineFirst[i] - received[i]);
            return v;
        }
    }

    public static void main(String[] args) throws Exception {
        int streams = args.length > 0 ? Integer.parseInt(args[0]) : 200;
        int chunks = args.length > 1 ? Integer.parseInt(args[1]) : 100;
        long delay = args.length > 2 ? Long.parseLong(args[2]) : 20;
        int rounds = args.length > 3 ? Integer.parseInt(args[3]) : 1;
        String call =
                "<tool_call>\n{\"name\": \"get_weather\", \"arguments\": {\"city\": \"Paris\"}}\n</tool_call>";
        StringBuilder text = new StringBuilder();
        while (text.length() < chunks * 3.5 - call.length()) text.append("The weather is fine. ");
        String output = text + "\n" + call;
        int events = Chunker.split(output, 6, 1).size() + 2; // text chunks, usage, [DONE]
        // the JDK's HTTP server (the stand-in engine) closes idle keep-alive connections beyond 200
        // at once, racing the gateway's reuse of them; an engine that keeps them is measured
        System.setProperty("sun.net.httpserver.maxIdleConnections", "100000");
        long[] received = new long[streams];
        long[] engineFirst = new long[streams];
        try (StandInEngine engine = new StandInEngine()) {
            engine.wholeEvents = Boolean.getBoolean("load.wholeEvents");
            engine.script =
                    r -> {
                        int k = id(r.get("prompt").getAsString());
                        if (k >= 0 && k < streams) received[k] = System.nanoTime();
                        return StandInEngine.Script.of(output).delay(delay);
                    };
            engine.firstByte =
                    (r, t) -> {
                        int k = id(r.get("prompt").getAsString());
                        if (k >= 0 && k < streams) engineFirst[k] = t;
                    };
            GatewayServer gateway =
                    new GatewayServer(
                            List.of(
                                    new Upstream(
                                            "hermes",
                                            URI.create(engine.baseUrl()),
                                            null,
                                            Formats.get("hermes"),
                                            ChatTemplate.of(
                                                    "{% for m in messages %}<|{{ m.role }}|>{{ m.content }}\n{% endfor %}<|assistant|>",
                                                    Map.of()),
                                            Upstream.Kind.OPENAI,
                                            Map.of(),
                                            null)),
                            "127.0.0.1",
                            0,
                            ReplayServer.Limits.defaults(),
                            GatewayServer.Options.defaults(),
                            System.err);
            gateway.start();
            try {
                String direct = engine.baseUrl() + "/completions";
                String via = "http://127.0.0.1:" + gateway.port() + "/v1/chat/completions";
                IntFunction<String> engineBody =
                        k ->
                                "{\"prompt\": \"<|user|>hi "
                                        + k
                                        + "\\n<|assistant|>\", \"stream\": true}";
                IntFunction<String> chatBody =
                        k ->
                                "{\"model\": \"hermes\", \"stream\": true, \"messages\": [{\"role\": \"user\", \"content\": \"hi "
                                        + k
                                        + "\"}]}";
                System.out.printf(
                        "streams %d, %d engine events each (%d ms apart, %s), %d cores%n",
                        streams,
                        events,
                        delay,
                        engine.wholeEvents ? "each in one write" : "each in 1 to 3 writes",
                        Runtime.getRuntime().availableProcessors());
                // warm up both paths: the same number of streams, all at once
                run(direct, engineBody, streams, 0, "\"text\":\"", received, engineFirst);
                run(via, chatBody, streams, 0, "\"content\":\"", received, engineFirst);
                long streamNanos = TimeUnit.MILLISECONDS.toNanos(delay * events);
                ThreadMXBean mx = ManagementFactory.getThreadMXBean();
                for (int round = 1; round <= rounds; round++) {
                    for (String arrival :
                            System.getProperty("load.arrivals", "burst,steady").split(",")) {
                        long gap = arrival.equals("burst") ? 0 : streamNanos / streams;
                        Run d =
                                run(
                                        direct,
                                        engineBody,
                                        streams,
                                        gap,
                                        "\"text\":\"",
                                        received,
                                        engineFirst);
                        int before = engine.completed.get();
                        long cpu0 = cpu(mx, "toolcalls-gateway");
                        long[] os0 = osThreads("toolcalls-gatew");
                        Run g =
                                run(
                                        via,
                                        chatBody,
                                        streams,
                                        gap,
                                        "\"content\":\"",
                                        received,
                                        engineFirst);
                        long cpu = cpu(mx, "toolcalls-gateway") - cpu0;
                        long[] os1 = osThreads("toolcalls-gatew");
                        long relayed = (long) (engine.completed.get() - before) * events;
                        System.out.printf("-- round %d, %s arrivals%n", round, arrival);
                        if (Boolean.getBoolean("load.legs")) {
                            long[] legs = minus(g.received, g.sent);
                            StringBuilder b = new StringBuilder("  request legs (ms) in order:");
                            for (long l : legs) b.append(' ').append(l / 1_000_000);
                            System.out.println(b);
                        }
                        report("engine alone", d);
                        report("via gateway ", g);
                        System.out.printf(
                                "  added to the first byte (the goal's figure; gateway minus engine alone): p50 %.2f ms, p99 %.2f ms%n",
                                ms(pct(g.ttfb(), 50) - pct(d.ttfb(), 50)),
                                ms(pct(g.ttfb(), 99) - pct(d.ttfb(), 99)));
                        System.out.printf(
                                "  added to the first text (time outside the engine, gateway minus engine alone): p50 %.2f ms, p99 %.2f ms%n",
                                ms(pct(g.outside(), 50) - pct(d.outside(), 50)),
                                ms(pct(g.outside(), 99) - pct(d.outside(), 99)));
                        System.out.printf(
                                "  through the gateway: request leg p50 %.2f ms p99 %.2f ms | response leg p50 %.2f ms p99 %.2f ms%n",
                                ms(pct(minus(g.received, g.sent), 50)),
                                ms(pct(minus(g.received, g.sent), 99)),
                                ms(pct(minus(g.firstText, g.engineFirst), 50)),
                                ms(pct(minus(g.firstText, g.engineFirst), 99)));
                        System.out.printf(
                                "  gateway CPU per upstream chunk: %.1f us (%d chunks, %.0f ms CPU)%n",
                                cpu / 1000.0 / relayed, relayed, cpu / 1e6);
                        if (os0 != null && os1 != null)
                            System.out.printf(
                                    "    of which user %.1f us, system %.1f us; context switches per chunk: %.2f voluntary, %.2f involuntary; read and write calls per chunk: %.2f, %.2f%n",
                                    (os1[0] - os0[0]) * 10_000.0 / relayed,
                                    (os1[1] - os0[1]) * 10_000.0 / relayed,
                                    (double) (os1[2] - os0[2]) / relayed,
                                    (double) (os1[3] - os0[3]) / relayed,
                                    (double) (os1[4] - os0[4]) / relayed,
                                    (double) (os1[5] - os0[5]) / relayed);
                    }
                }
            } finally {
                gateway.close();
            }
        }
        System.exit(0);
    }

    static int id(String prompt) {
        Matcher m = ID.matcher(prompt);
        return m.find() ? Integer.parseInt(m.group(1)) : -1;
    }

    static void report(String name, Run r) {
        System.out.printf(
                "  %s: first byte p50 %.2f ms p99 %.2f ms | first text p50 %.2f ms p99 %.2f ms | outside the engine p50 %.2f ms p99 %.2f ms%n",
                name,
                ms(pct(r.ttfb(), 50)),
                ms(pct(r.ttfb(), 99)),
                ms(pct(r.ttft(), 50)),
                ms(pct(r.ttft(), 99)),
                ms(pct(r.outside(), 50)),
                ms(pct(r.outside(), 99)));
    }

    static long[] minus(long[] a, long[] b) {
        long[] v = new long[a.length];
        for (int i = 0; i < v.length; i++) v[i] = a[i] - b[i];
        return v;
    }

    static double ms(long nanos) {
        return nanos / 1e6;
    }

    static long pct(long[] v, int p) {
        long[] s = v.clone();
        Arrays.sort(s);
        return s[Math.min(s.length - 1, (int) Math.ceil(p / 100.0 * s.length) - 1)];
    }

    /**
     * N streams, each read line by line on a thread of its own; stream k is sent {@code k * gap}
     * nanoseconds after the first.
     */
    static Run run(
            String url,
            IntFunction<String> body,
            int n,
            long gap,
            String textMarker,
            long[] received,
            long[] engineFirst)
            throws Exception {
        HttpClient http =
                CLIENTS.computeIfAbsent(
                        url,
                        u ->
                                HttpClient.newBuilder()
                                        .executor(Executors.newFixedThreadPool(4))
                                        .build());
        ExecutorService readers = Executors.newFixedThreadPool(n);
        Arrays.fill(received, 0);
        Arrays.fill(engineFirst, 0);
        long[] sent = new long[n];
        long[] firstByte = new long[n];
        long[] firstText = new long[n];
        AtomicInteger failed = new AtomicInteger();
        CountDownLatch done = new CountDownLatch(n);
        long start = System.nanoTime();
        for (int i = 0; i < n; i++) {
            int k = i;
            readers.submit(
                    () -> {
                        try {
                            long wait = start + k * gap - System.nanoTime();
                            if (wait > 0) TimeUnit.NANOSECONDS.sleep(wait);
                            HttpRequest request =
                                    HttpRequest.newBuilder(URI.create(url))
                                            .POST(
                                                    HttpRequest.BodyPublishers.ofString(
                                                            body.apply(k)))
                                            .build();
                            sent[k] = System.nanoTime();
                            HttpResponse<InputStream> r =
                                    http.send(request, HttpResponse.BodyHandlers.ofInputStream());
                            BufferedReader in =
                                    new BufferedReader(
                                            new InputStreamReader(
                                                    r.body(), StandardCharsets.UTF_8));
                            String line;
                            while ((line = in.readLine()) != null) {
                                long t = System.nanoTime();
                                if (firstByte[k] == 0) firstByte[k] = t;
                                if (firstText[k] == 0 && line.contains(textMarker))
                                    firstText[k] = t;
                            }
                        } catch (Exception e) {
                            failed.incrementAndGet();
                            e.printStackTrace();
                        } finally {
                            done.countDown();
                        }
                    });
        }
        done.await(10, TimeUnit.MINUTES);
        readers.shutdownNow();
        if (failed.get() > 0) throw new IllegalStateException(failed + " streams failed");
        return new Run(sent, received.clone(), engineFirst.clone(), firstByte, firstText);
    }

    /**
     * Linux only: user and system time (clock ticks of 10 ms), voluntary and involuntary context
     * switches, and read and write system calls (of any kind: {@code read}, {@code writev}...) of
     * this process's live threads whose name (as the kernel keeps it: 15 characters) starts with
     * the prefix; null elsewhere.
     */
    static long[] osThreads(String prefix) {
        Path tasks = Path.of("/proc/self/task");
        if (!Files.isDirectory(tasks)) return null;
        long[] sum = new long[6];
        try (var list = Files.list(tasks)) {
            for (Path t : (Iterable<Path>) list::iterator) {
                try {
                    if (!Files.readString(t.resolve("comm")).startsWith(prefix)) continue;
                    String stat = Files.readString(t.resolve("stat"));
                    String[] f = stat.substring(stat.lastIndexOf(')') + 2).split(" ");
                    sum[0] += Long.parseLong(f[11]); // utime
                    sum[1] += Long.parseLong(f[12]); // stime
                    for (String line : Files.readAllLines(t.resolve("status"))) {
                        if (line.startsWith("voluntary_ctxt_switches:"))
                            sum[2] += Long.parseLong(line.substring(24).trim());
                        else if (line.startsWith("nonvoluntary_ctxt_switches:"))
                            sum[3] += Long.parseLong(line.substring(27).trim());
                    }
                    for (String line : Files.readAllLines(t.resolve("io"))) {
                        if (line.startsWith("syscr:"))
                            sum[4] += Long.parseLong(line.substring(6).trim());
                        else if (line.startsWith("syscw:"))
                            sum[5] += Long.parseLong(line.substring(6).trim());
                    }
                } catch (IOException | RuntimeException gone) {
                    // the thread ended meanwhile
                }
            }
        } catch (IOException e) {
            return null;
        }
        return sum;
    }

    /** CPU time of the live threads whose name starts with the prefix. */
    static long cpu(ThreadMXBean mx, String prefix) {
        long sum = 0;
        for (ThreadInfo t : mx.getThreadInfo(mx.getAllThreadIds())) {
            if (t == null || !t.getThreadName().startsWith(prefix)) continue;
            long c = mx.getThreadCpuTime(t.getThreadId());
            if (c > 0) sum += c;
        }
        return sum;
    }
}
