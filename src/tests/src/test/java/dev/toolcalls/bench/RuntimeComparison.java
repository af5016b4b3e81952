package dev.toolcalls.bench;

import com.google.gson.Gson;

import dev.toolcalls.Format;
import dev.toolcalls.Formats;

import org.antlr.v4.runtime.Lexer;
import org.openjdk.jmh.annotations.Param;

import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.lang.reflect.Method;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.function.Supplier;

/**
 * Two builds of the core runtime side by side in one JVM, for a machine too loaded for JMH's error
 * bars: each build's classes in a class loader of its own (with the same ANTLR and Gson jars),
 * parsing the same output of {@link Corpora#shape} (or {@link Corpora#corpus}: {@code --shape
 * corpus}) in batch, or streamed in chunks of {@code --chunk N} code points ({@code feed} of each
 * chunk, then {@code finish}), five parses at a time in turn, with {@link Corpora#quoteScan} of the
 * same text beside them. Each parse is timed by the thread's processor time ({@code
 * ThreadMXBean.getCurrentThreadCpuTime}, which leaves out the time the thread waits for a core); of
 * each format's parses, the first quarter is warm-up and the figure is the tenth percentile of the
 * rest (the best tenth: the parses least disturbed by other work). Both builds' results are
 * compared first: a build that parses the output differently stops the run.
 *
 * <p>The other build is a core module's {@code target/classes} (for example of {@code main}, built
 * offline in a copy: {@code git archive main | tar -x -C /tmp/old} and {@code mvn -B -q -o -pl
 * src/core -am compile} there); "new" is this build's. Arguments: {@code --old DIR}, {@code
 * --formats a,b} (those {@link ShapeBenchmark} measures by default), {@code --shape longcall},
 * {@code --size 1000000}, {@code --chunk 0} (0: batch), {@code --seconds 14} (per format), {@code
 * --warmup 20} (seconds of untimed parses of the first format, for the compiler's first work),
 * {@code --prime longcall_cjk} (another shape of 2,000 characters that each build streams once
 * first, as a server's pooled parser parts have parsed other outputs before).
 *
 * <pre>
 * mvn -B -q -Pbench -DskipTests test-compile exec:exec -Dbench.main=dev.toolcalls.bench.RuntimeComparison -Dbench.args="--old /tmp/old/src/core/target/classes --formats hermes,glm45"
 * </pre>
 */
public final class RuntimeComparison {
    /** Parses of one side in a row before the other side's turn. */
    private static final int TURN = 5;

    private RuntimeComparison() {}

    /** One build's {@code Format.parse}, reached by reflection. */
    private record Runtime(
            Object format,
            Object tools,
            Object options,
            Method parse,
            Method newStream,
            Method feed,
            MethodHandle feedHandle,
            Method finish) {
        static Runtime of(ClassLoader loader, Corpora.Output o) throws Exception {
            Class<?> formats = loader.loadClass("dev.toolcalls.Formats");
            Class<?> toolsClass = loader.loadClass("dev.toolcalls.Tools");
            Class<?> optionsClass = loader.loadClass("dev.toolcalls.ParseOptions");
            Class<?> ids = loader.loadClass("dev.toolcalls.IdGenerator");
            Object format = formats.getMethod("get", String.class).invoke(null, o.format().name());
            Object tools = toolsClass.getMethod("parse", String.class).invoke(null, toolsJson(o));
            Method seeded = ids.getMethod("seeded", long.class);
            Supplier<Object> seededIds =
                    () -> {
                        try {
                            return seeded.invoke(null, 0L);
                        } catch (ReflectiveOperationException e) {
                            throw new IllegalStateException(e);
                        }
                    };
            Object options = optionsClass.getMethod("defaults").invoke(null);
            options =
                    optionsClass
                            .getMethod("withLenient", boolean.class)
                            .invoke(options, o.options().lenient());
            options =
                    optionsClass
                            .getMethod("withThinking", Boolean.class)
                            .invoke(options, o.options().thinking());
            options = optionsClass.getMethod("withIds", Supplier.class).invoke(options, seededIds);
            Method parse =
                    loader.loadClass("dev.toolcalls.Format")
                            .getMethod("parse", String.class, toolsClass, optionsClass);
            Method newStream =
                    loader.loadClass("dev.toolcalls.Format")
                            .getMethod("newStream", toolsClass, optionsClass);
            Class<?> stream = newStream.getReturnType();
            Method feed = stream.getMethod("feed", String.class);
            return new Runtime(
                    format,
                    tools,
                    options,
                    parse,
                    newStream,
                    feed,
                    MethodHandles.publicLookup()
                            .unreflect(feed)
                            .asType(MethodType.methodType(List.class, Object.class, String.class)),
                    stream.getMethod("finish"));
        }

        Object parse(String text) throws Exception {
            return parse.invoke(format, text, tools, options);
        }

        /** The events of {@code chunks} fed one by one, then of the end, as strings. */
        List<String> stream(List<String> chunks) throws Exception {
            Object s = newStream.invoke(format, tools, options);
            List<String> events = new ArrayList<>();
            for (String c : chunks)
                for (Object e : (List<?>) feed.invoke(s, c)) events.add(e.toString());
            for (Object e : (List<?>) finish.invoke(s)) events.add(e.toString());
            return events;
        }

        /**
         * Streams {@code chunks}; the number of events. Each chunk goes through a method handle of
         * the exact type: no argument array and no reflective accessor per chunk, which would weigh
         * on both builds alike and narrow their ratio.
         */
        int streamCount(List<String> chunks) throws Exception {
            Object s = newStream.invoke(format, tools, options);
            int n = 0;
            try {
                for (String c : chunks) n += ((List<?>) feedHandle.invokeExact(s, c)).size();
            } catch (Exception | Error e) {
                throw e;
            } catch (Throwable e) {
                throw new IllegalStateException(e);
            }
            return n + ((List<?>) finish.invoke(s)).size();
        }

        /** The message's fields as the record writes them (content, reasoning, calls). */
        String result(String text) throws Exception {
            return parse(text).toString();
        }
    }

    private static String toolsJson(Corpora.Output o) {
        StringBuilder b = new StringBuilder("[");
        for (String name : o.tools().names()) {
            if (b.length() > 1) b.append(',');
            b.append("{\"type\":\"function\",\"function\":")
                    .append(o.tools().functionJson(name).orElseThrow())
                    .append('}');
        }
        return b.append(']').toString();
    }

    public static void main(String[] args) throws Exception {
        String old = null;
        // the formats ShapeBenchmark measures by default
        List<String> names =
                List.of(ShapeBenchmark.class.getField("format").getAnnotation(Param.class).value());
        String shape = "longcall";
        int size = 1_000_000;
        double seconds = 14;
        double warmUp = 20;
        int chunk = 0;
        String prime = null;
        for (int i = 0; i + 1 < args.length; i += 2) {
            switch (args[i]) {
                case "--old" -> old = args[i + 1];
                case "--formats" -> names = Arrays.asList(args[i + 1].split(","));
                case "--shape" -> shape = args[i + 1];
                case "--size" -> size = Integer.parseInt(args[i + 1]);
                case "--seconds" -> seconds = Double.parseDouble(args[i + 1]);
                case "--warmup" -> warmUp = Double.parseDouble(args[i + 1]);
                case "--chunk" -> chunk = Integer.parseInt(args[i + 1]);
                case "--prime" -> prime = args[i + 1];
                default -> throw new IllegalArgumentException("unknown argument " + args[i]);
            }
        }
        if (old == null) throw new IllegalArgumentException("--old DIR (a core target/classes)");
        URL antlr = location(Lexer.class);
        URL gson = location(Gson.class);
        ClassLoader platform = ClassLoader.getPlatformClassLoader();
        ClassLoader oldLoader =
                new URLClassLoader(new URL[] {Path.of(old).toUri().toURL(), antlr, gson}, platform);
        ClassLoader newLoader =
                new URLClassLoader(new URL[] {location(Formats.class), antlr, gson}, platform);
        ThreadMXBean threads = ManagementFactory.getThreadMXBean();
        System.out.printf(
                "%-16s %10s %10s %8s %8s %8s %8s %8s %8s%n",
                "format",
                "old µs",
                "new µs",
                "new÷old",
                "old G/s",
                "new G/s",
                "old ns/c",
                "new ns/c",
                "new÷scan");
        boolean first = true;
        for (String name : names) {
            Format f = Formats.get(name);
            Corpora.Output o =
                    shape.equals("corpus")
                            ? Corpora.corpus(f, size)
                            : Corpora.shape(f, shape, size);
            String text = o.text();
            List<String> chunks = chunk > 0 ? Corpora.chunks(text, chunk) : null;
            Runtime a = Runtime.of(oldLoader, o);
            Runtime b = Runtime.of(newLoader, o);
            if (prime != null) { // each build's parser parts have parsed another output first
                Corpora.Output p = Corpora.shape(f, prime, 2_000);
                List<String> pc = Corpora.chunks(p.text(), Math.max(chunk, 1));
                Runtime.of(oldLoader, p).stream(pc);
                Runtime.of(newLoader, p).stream(pc);
            }
            if (!a.result(text).equals(b.result(text))
                    || chunks != null && !a.stream(chunks).equals(b.stream(chunks)))
                throw new IllegalStateException(name + ": the two builds parse differently");
            Parse parse =
                    chunks == null
                            ? r -> System.identityHashCode(r.parse(text))
                            : r -> r.streamCount(chunks);
            List<Long> ta = new ArrayList<>();
            List<Long> tb = new ArrayList<>();
            List<Long> ts = new ArrayList<>();
            int sink = 0;
            if (first) { // the compiler's first work, which a loaded machine makes slow: untimed
                long warm = System.nanoTime() + (long) (warmUp * 1e9);
                while (System.nanoTime() < warm)
                    for (Runtime r : List.of(a, b)) sink += parse.run(r);
                first = false;
            }
            long until = System.nanoTime() + (long) (seconds * 1e9);
            while (System.nanoTime() < until) {
                for (Runtime r : List.of(a, b)) {
                    List<Long> into = r == a ? ta : tb;
                    for (int k = 0; k < TURN; k++) {
                        long t0 = threads.getCurrentThreadCpuTime();
                        sink += parse.run(r); // not hashCode: it reads the arguments
                        into.add(threads.getCurrentThreadCpuTime() - t0);
                    }
                }
                for (int k = 0; k < TURN; k++) {
                    long t0 = threads.getCurrentThreadCpuTime();
                    sink += Corpora.quoteScan(text);
                    ts.add(threads.getCurrentThreadCpuTime() - t0);
                }
            }
            double pa = best(ta);
            double pb = best(tb);
            double ps = best(ts);
            System.out.printf(
                    Locale.ROOT,
                    "%-16s %10.0f %10.0f %8.2f %8.2f %8.2f %8.2f %8.2f %8.1f  (%d parses each%s)%n",
                    name,
                    pa / 1e3,
                    pb / 1e3,
                    pb / pa,
                    text.length() / pa,
                    text.length() / pb,
                    pa / text.length(),
                    pb / text.length(),
                    pb / ps,
                    ta.size(),
                    sink == 42 ? "" : "");
        }
    }

    /** One timed parse of a build (a batch parse, or a stream of every chunk). */
    private interface Parse {
        int run(Runtime r) throws Exception;
    }

    /** The tenth percentile after the first quarter (warm-up), in ns. */
    private static double best(List<Long> times) {
        long[] t =
                times.subList(times.size() / 4, times.size()).stream()
                        .mapToLong(Long::longValue)
                        .sorted()
                        .toArray();
        return t.length == 0 ? Double.NaN : t[t.length / 10];
    }

    private static URL location(Class<?> c) {
        return c.getProtectionDomain().getCodeSource().getLocation();
    }
}
