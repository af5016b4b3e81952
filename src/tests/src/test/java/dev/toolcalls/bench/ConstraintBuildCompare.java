package dev.toolcalls.bench;

import java.io.File;
import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.lang.reflect.Method;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Locale;

/**
 * The constraint build time of two builds of the library, side by side in one JVM: each loaded by
 * its own class loader, builds alternating one for one, the median CPU time of this thread per
 * build for each and their ratio. On a machine loaded by other work the absolute times vary with
 * the load; alternating builds in one thread keeps their ratio. Arguments: the first and second
 * library's class folders (or jars, absolute paths), the seconds of CPU to warm up (then twice that
 * measured), and the formats; tools: {@link ConstraintBenchmark#tools}{@code (20)}; gson and
 * antlr4-runtime are taken from this JVM's class path. Each format's two outputs are compared too.
 *
 * <pre>
 * mvn -B -q -o -Pbench -DskipTests test-compile exec:exec -Dbench.main=dev.toolcalls.bench.ConstraintBuildCompare \
 *     -Dbench.args="/tmp/main-classes $PWD/src/core/target/classes 3 glm47 functiongemma"
 * </pre>
 */
public final class ConstraintBuildCompare {
    private ConstraintBuildCompare() {}

    /** A build of one library for one format: the method and its arguments. */
    private record Build(Method constraint, Object format, Object tools, Object options) {
        String run() throws ReflectiveOperationException {
            return (String) constraint.invoke(format, tools, options);
        }
    }

    private static Build load(String library, String format)
            throws ReflectiveOperationException, IOException {
        List<URL> urls = new ArrayList<>();
        urls.add(Path.of(library).toUri().toURL());
        for (String j : System.getProperty("java.class.path").split(File.pathSeparator)) {
            String file = Path.of(j).getFileName().toString();
            if (file.startsWith("gson-") || file.startsWith("antlr4-runtime-"))
                urls.add(Path.of(j).toUri().toURL());
        }
        ClassLoader l =
                new URLClassLoader(urls.toArray(new URL[0]), ClassLoader.getPlatformClassLoader());
        Class<?> formats = l.loadClass("dev.toolcalls.Formats");
        Class<?> tools = l.loadClass("dev.toolcalls.Tools");
        Class<?> options = l.loadClass("dev.toolcalls.ConstraintOptions");
        return new Build(
                l.loadClass("dev.toolcalls.Format").getMethod("constraint", tools, options),
                formats.getMethod("get", String.class).invoke(null, format),
                tools.getMethod("parse", String.class).invoke(null, ConstraintBenchmark.tools(20)),
                options.getMethod("defaults").invoke(null));
    }

    /** Prints, per format, each library's median CPU milliseconds per build and their ratio. */
    public static void main(String[] args) throws Exception {
        double warm = Double.parseDouble(args[2]);
        ThreadMXBean threads = ManagementFactory.getThreadMXBean();
        for (int i = 3; i < args.length; i++) {
            Build first = load(args[0], args[i]);
            Build second = load(args[1], args[i]);
            String same = first.run().equals(second.run()) ? "same output" : "OUTPUTS DIFFER";
            long end = threads.getCurrentThreadCpuTime() + (long) (warm * 1e9);
            while (threads.getCurrentThreadCpuTime() < end) {
                first.run();
                second.run();
            }
            List<Long> a = new ArrayList<>();
            List<Long> b = new ArrayList<>();
            end = threads.getCurrentThreadCpuTime() + (long) (2 * warm * 1e9);
            while (threads.getCurrentThreadCpuTime() < end) {
                long t0 = threads.getCurrentThreadCpuTime();
                first.run();
                long t1 = threads.getCurrentThreadCpuTime();
                second.run();
                a.add(t1 - t0);
                b.add(threads.getCurrentThreadCpuTime() - t1);
            }
            Collections.sort(a);
            Collections.sort(b);
            double ma = a.get(a.size() / 2) / 1e6;
            double mb = b.get(b.size() / 2) / 1e6;
            System.out.printf(
                    Locale.ROOT,
                    "%s: %.3f ms, %.3f ms, ratio %.2f (%d pairs, %s)%n",
                    args[i],
                    ma,
                    mb,
                    ma / mb,
                    a.size(),
                    same);
        }
    }
}
