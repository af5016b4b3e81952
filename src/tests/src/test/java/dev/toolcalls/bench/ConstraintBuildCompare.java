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
import java.util.function.LongSupplier;

/**
 * The constraint build time of two builds of the library, side by side in one JVM: each loaded by
 * its own class loader, builds alternating one for one, the median CPU time of this thread per
 * build for each and their ratio, and the same for the bytes the thread allocates per build (which
 * the load does not change). On a machine loaded by other work the absolute times vary with the
 * load; alternating builds in one thread keeps their ratio. Arguments: the first and second
 * library's class folders (or jars, absolute paths), the seconds of CPU to warm up (then twice that
 * measured), and the formats; tools: {@link ConstraintBenchmark#tools}{@code (20)}; gson and
 * antlr4-runtime are taken from this JVM's class path. Each format's two outputs are compared too.
 * With {@code -Dfresh=N} the builds take N sets of tools in turn, no two sharing a schema ({@link
 * ConstraintBenchmark#tools(int, int)}), so that a cache kept across builds cannot help. With
 * {@code -Dclock=wall} the times are the builds' elapsed times instead of this thread's CPU time (a
 * build that hands work to other threads is measured by what its caller waits).
 *
 * <pre>
 * mvn -B -q -o -Pbench -DskipTests test-compile exec:exec -Dbench.main=dev.toolcalls.bench.ConstraintBuildCompare \
 *     -Dbench.args="/tmp/main-classes $PWD/src/core/target/classes 3 glm47 functiongemma"
 * </pre>
 */
public final class ConstraintBuildCompare {
    private ConstraintBuildCompare() {}

    /** A build of one library for one format: the method and its arguments. */
    private record Build(Method constraint, Object format, Object[] tools, Object options) {
        String run() throws ReflectiveOperationException {
            return run(0);
        }

        /** Builds for the {@code i}-th tool set, in turn. */
        String run(int i) throws ReflectiveOperationException {
            return (String) constraint.invoke(format, tools[i % tools.length], options);
        }
    }

    /**
     * A class loader of its own for {@code classes} (folders or jars, in order), with the gson and
     * antlr4-runtime jars of this JVM's class path, below the platform class loader: one build of
     * the library beside another in one JVM.
     */
    public static ClassLoader loader(URL... classes) throws IOException {
        List<URL> urls = new ArrayList<>(List.of(classes));
        for (String j : System.getProperty("java.class.path").split(File.pathSeparator)) {
            String file = Path.of(j).getFileName().toString();
            if (file.startsWith("gson-") || file.startsWith("antlr4-runtime-"))
                urls.add(Path.of(j).toUri().toURL());
        }
        return new URLClassLoader(urls.toArray(new URL[0]), ClassLoader.getPlatformClassLoader());
    }

    private static Build load(String library, String format)
            throws ReflectiveOperationException, IOException {
        ClassLoader l = loader(Path.of(library).toUri().toURL());
        Class<?> formats = l.loadClass("dev.toolcalls.Formats");
        Class<?> tools = l.loadClass("dev.toolcalls.Tools");
        Class<?> options = l.loadClass("dev.toolcalls.ConstraintOptions");
        int fresh = Integer.getInteger("fresh", 0);
        Object[] sets = new Object[Math.max(1, fresh)];
        for (int r = 0; r < sets.length; r++)
            sets[r] =
                    tools.getMethod("parse", String.class)
                            .invoke(null, ConstraintBenchmark.tools(20, fresh > 0 ? r : -1));
        return new Build(
                l.loadClass("dev.toolcalls.Format").getMethod("constraint", tools, options),
                formats.getMethod("get", String.class).invoke(null, format),
                sets,
                options.getMethod("defaults").invoke(null));
    }

    private static long median(List<Long> values) {
        List<Long> sorted = new ArrayList<>(values);
        Collections.sort(sorted);
        return sorted.get(sorted.size() / 2);
    }

    /**
     * The JVM's count of the bytes this thread has allocated (com.sun.management, reached by
     * reflection: the tests compile as the module); 0 where the JVM keeps no such count.
     */
    private static LongSupplier allocatedBytes() {
        Object bean = ManagementFactory.getThreadMXBean();
        long thread = Thread.currentThread().getId();
        try {
            Method count =
                    Class.forName("com.sun.management.ThreadMXBean")
                            .getMethod("getThreadAllocatedBytes", long.class);
            return () -> {
                try {
                    return (long) count.invoke(bean, thread);
                } catch (ReflectiveOperationException e) {
                    throw new IllegalStateException(e);
                }
            };
        } catch (ReflectiveOperationException e) {
            return () -> 0;
        }
    }

    /**
     * Prints, per format, each library's median CPU milliseconds and allocated bytes per build and
     * their ratios.
     */
    public static void main(String[] args) throws Exception {
        double warm = Double.parseDouble(args[2]);
        ThreadMXBean threads = ManagementFactory.getThreadMXBean();
        LongSupplier clock =
                "wall".equals(System.getProperty("clock"))
                        ? System::nanoTime
                        : threads::getCurrentThreadCpuTime;
        LongSupplier allocated = allocatedBytes();
        for (int i = 3; i < args.length; i++) {
            Build first = load(args[0], args[i]);
            Build second = load(args[1], args[i]);
            String same = first.run().equals(second.run()) ? "same output" : "OUTPUTS DIFFER";
            long end = clock.getAsLong() + (long) (warm * 1e9);
            int built = 0;
            while (clock.getAsLong() < end) {
                first.run(built);
                second.run(built++);
            }
            List<Long> a = new ArrayList<>();
            List<Long> b = new ArrayList<>();
            List<Long> aBytes = new ArrayList<>();
            List<Long> bBytes = new ArrayList<>();
            end = clock.getAsLong() + (long) (2 * warm * 1e9);
            while (clock.getAsLong() < end) {
                long m0 = allocated.getAsLong();
                long t0 = clock.getAsLong();
                first.run(built);
                a.add(clock.getAsLong() - t0);
                long m1 = allocated.getAsLong();
                aBytes.add(m1 - m0);
                long t1 = clock.getAsLong();
                second.run(built++);
                b.add(clock.getAsLong() - t1);
                bBytes.add(allocated.getAsLong() - m1);
            }
            double ma = median(a) / 1e6;
            double mb = median(b) / 1e6;
            double ka = median(aBytes) / 1024.0;
            double kb = median(bBytes) / 1024.0;
            System.out.printf(
                    Locale.ROOT,
                    "%s: %.3f ms, %.3f ms, ratio %.2f; %.0f KiB, %.0f KiB allocated, ratio %.2f"
                            + " (%d pairs, %s)%n",
                    args[i],
                    ma,
                    mb,
                    ma / mb,
                    ka,
                    kb,
                    ka / kb,
                    a.size(),
                    same);
        }
    }
}
