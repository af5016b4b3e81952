package dev.toolcalls.server;

import dev.toolcalls.Formats;
import dev.toolcalls.templates.ChatTemplate;

import java.io.BufferedReader;
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
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;

/**
 * The gateway's added cost, measured against the stand-in engine alone: N concurrent streams
 * straight to the engine's {@code /v1/completions}, then the same N through the gateway's {@code
 * /v1/chat/completions}; for each, the time to the first byte and to the first text, and the
 * gateway's own CPU time (its threads') per upstream chunk.
 *
 * <pre>
 * mvn -B -q -o -pl src/tests -am test-compile -DskipTests
 * java -cp "$(cat classpath)" dev.toolcalls.server.GatewayLoad [streams] [chunks] [delayMs]
 * </pre>
 *
 * Defaults: 200 streams of 100 chunks, 20 ms apart (an engine at 50 tokens per second per stream).
 * The output is a hermes answer with text then a tool call, cut into chunks of 1 to 6 code points.
 */
public final class GatewayLoad {
    private GatewayLoad() {}

    record Run(long[] firstByte, long[] firstText, long[] total, long cpuNanos, long chunks) {}

    public static void main(String[] args) throws Exception {
        int streams = args.length > 0 ? Integer.parseInt(args[0]) : 200;
        int chunks = args.length > 1 ? Integer.parseInt(args[1]) : 100;
        long delay = args.length > 2 ? Long.parseLong(args[2]) : 20;
        String call =
                "<tool_call>\n{\"name\": \"get_weather\", \"arguments\": {\"city\": \"Paris\"}}\n</tool_call>";
        StringBuilder text = new StringBuilder();
        while (text.length() < chunks * 3.5 - call.length()) text.append("The weather is fine. ");
        String output = text + "\n" + call;
        try (StandInEngine engine = new StandInEngine()) {
            engine.script = r -> StandInEngine.Script.of(output).delay(delay);
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
                String engineBody =
                        "{\"prompt\": \"<|user|>hi\\n<|assistant|>\", \"stream\": true}";
                String chatBody =
                        "{\"model\": \"hermes\", \"stream\": true, \"messages\": [{\"role\": \"user\", \"content\": \"hi\"}]}";
                // warm up both paths
                run(direct, engineBody, 20, "\"text\":\"", null);
                run(via, chatBody, 20, "\"content\":\"", null);
                int before = engine.completed.get();
                Run d = run(direct, engineBody, streams, "\"text\":\"", null);
                int mid = engine.completed.get();
                Run g = run(via, chatBody, streams, "\"content\":\"", "toolcalls-gateway");
                long upstreamChunks =
                        (long) (engine.completed.get() - mid)
                                * (Chunker.split(output, 6, 1).size() + 2);
                System.out.printf(
                        "streams %d, chunks/stream ~%d, engine delay %d ms, cores %d%n",
                        streams,
                        Chunker.split(output, 6, 1).size(),
                        delay,
                        Runtime.getRuntime().availableProcessors());
                report("engine alone", d);
                report("via gateway ", g);
                System.out.printf(
                        "added time to first byte: p50 %.2f ms, p99 %.2f ms%n",
                        ms(pct(g.firstByte, 50) - pct(d.firstByte, 50)),
                        ms(pct(g.firstByte, 99) - pct(d.firstByte, 99)));
                System.out.printf(
                        "added time to first text: p50 %.2f ms, p99 %.2f ms%n",
                        ms(pct(g.firstText, 50) - pct(d.firstText, 50)),
                        ms(pct(g.firstText, 99) - pct(d.firstText, 99)));
                System.out.printf(
                        "gateway CPU per upstream chunk: %.1f us (%d chunks, %.0f ms CPU; streams completed %d+%d)%n",
                        g.cpuNanos / 1000.0 / upstreamChunks,
                        upstreamChunks,
                        g.cpuNanos / 1e6,
                        mid - before,
                        engine.completed.get() - mid);
            } finally {
                gateway.close();
            }
        }
        System.exit(0);
    }

    static void report(String name, Run r) {
        System.out.printf(
                "%s: first byte p50 %.2f ms p99 %.2f ms | first text p50 %.2f ms p99 %.2f ms | whole stream p50 %.0f ms%n",
                name,
                ms(pct(r.firstByte, 50)),
                ms(pct(r.firstByte, 99)),
                ms(pct(r.firstText, 50)),
                ms(pct(r.firstText, 99)),
                ms(pct(r.total, 50)));
    }

    static double ms(long nanos) {
        return nanos / 1e6;
    }

    static long pct(long[] v, int p) {
        long[] s = v.clone();
        Arrays.sort(s);
        return s[Math.min(s.length - 1, (int) Math.ceil(p / 100.0 * s.length) - 1)];
    }

    /** N concurrent streams, each read line by line on a thread of its own. */
    static Run run(String url, String body, int n, String textMarker, String cpuThreads)
            throws Exception {
        HttpClient http = HttpClient.newBuilder().executor(Executors.newFixedThreadPool(4)).build();
        ExecutorService readers = Executors.newFixedThreadPool(n);
        long[] firstByte = new long[n];
        long[] firstText = new long[n];
        long[] total = new long[n];
        CountDownLatch done = new CountDownLatch(n);
        ThreadMXBean mx = ManagementFactory.getThreadMXBean();
        long cpu0 = cpuThreads == null ? 0 : cpu(mx, cpuThreads);
        for (int i = 0; i < n; i++) {
            int k = i;
            readers.submit(
                    () -> {
                        try {
                            long t0 = System.nanoTime();
                            HttpResponse<InputStream> r =
                                    http.send(
                                            HttpRequest.newBuilder(URI.create(url))
                                                    .POST(HttpRequest.BodyPublishers.ofString(body))
                                                    .build(),
                                            HttpResponse.BodyHandlers.ofInputStream());
                            BufferedReader in =
                                    new BufferedReader(
                                            new InputStreamReader(
                                                    r.body(), StandardCharsets.UTF_8));
                            String line;
                            boolean first = true;
                            while ((line = in.readLine()) != null) {
                                long t = System.nanoTime() - t0;
                                if (first) {
                                    firstByte[k] = t;
                                    first = false;
                                }
                                if (firstText[k] == 0 && line.contains(textMarker))
                                    firstText[k] = t;
                            }
                            total[k] = System.nanoTime() - t0;
                        } catch (Exception e) {
                            e.printStackTrace();
                        } finally {
                            done.countDown();
                        }
                    });
        }
        done.await(10, TimeUnit.MINUTES);
        long cpu = cpuThreads == null ? 0 : cpu(mx, cpuThreads) - cpu0;
        readers.shutdownNow();
        return new Run(firstByte, firstText, total, cpu, 0);
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
