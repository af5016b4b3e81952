package dev.toolcalls.internal.constraint;

import dev.toolcalls.Formats;
import dev.toolcalls.bench.ConstraintBuildCompare;
import dev.toolcalls.internal.format.FormatDefinition;
import dev.toolcalls.internal.lex.LexerModel;
import dev.toolcalls.internal.lex.Role;

import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.lang.reflect.Method;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Locale;

/**
 * The time to make the other-key matchers (a key token's spellings less a tool's parameter names)
 * of tool sets the library has not seen, alone: per set, 20 tools of five parameters each (the
 * names of {@code ConstraintBenchmark}'s tools, every set its own), for each key token of the
 * format that is not read as another (a build reads some key tokens through another's matcher,
 * adding a rule or two: this makes every token's own), into a fresh rule set; the thread's
 * processor time per matcher. With a second library's class folder, both are loaded by class
 * loaders of their own and run in turn, half a second each, in one JVM; both must write the same
 * rules. Arguments: {@code FORMAT [SECONDS] [OTHER_CLASSES]} (default 30 seconds; the first third
 * is warm-up).
 *
 * <pre>
 * java -cp "src/tests/target/test-classes:src/core/target/classes:$(cat bench.cp)" \
 *     dev.toolcalls.internal.constraint.KeyMatcherTimes dots 60 /tmp/old-core-classes
 * </pre>
 */
public final class KeyMatcherTimes {
    private static final int TOOLS = 20;

    private final LexerModel model;
    private final ModePlan plan;
    private final List<Integer> keyRules = new ArrayList<>();
    private int round;

    private KeyMatcherTimes(String format) {
        model = ((FormatDefinition) Formats.get(format)).compiled().model();
        plan = ModePlan.of(model);
        TokenDifference d = TokenDifference.forOneThread(model.atn);
        // a key token read as one met before takes that one's rules, as in a build
        for (int r = 0; r < plan.roles.length; r++) {
            if (plan.roles[r] != Role.ARG_KEY) continue;
            boolean same = false;
            for (int k : keyRules)
                same |= d.sameTokens(k, plan.earlier.get(k), r, plan.earlier.get(r));
            if (!same) keyRules.add(r);
        }
        if (keyRules.isEmpty())
            throw new IllegalArgumentException(format + " has no key token of its own rules");
    }

    /** The matchers of the next tool set, as the rules they define. */
    private String next() {
        int set = round++;
        TokenDifference d = TokenDifference.forOneThread(model.atn);
        Gbnf out = new Gbnf(1024);
        // the blanks a build lets a model write around a parameter's name
        String stripped = " \t\n\r";
        for (int t = 0; t < TOOLS; t++) {
            String s = "_" + t + "r" + set;
            List<String> names =
                    List.of("query" + s, "limit" + s, "unit" + s, "exact" + s, "filter" + s);
            for (int r : keyRules) {
                String base = "xk_" + TokenLanguages.sanitize(model.ruleNames[r]);
                d.lessWords(
                        out,
                        base + "_" + t,
                        base + "_f",
                        r,
                        plan.earlier.get(r),
                        new TokenDifference.Words(names, stripped));
            }
        }
        return out.text();
    }

    /** Makes matchers for {@code ms} of this thread's processor time; nanoseconds per matcher. */
    private double run(long ms) {
        ThreadMXBean threads = ManagementFactory.getThreadMXBean();
        long start = threads.getCurrentThreadCpuTime();
        long end = start + ms * 1_000_000L;
        int sets = 0;
        while (threads.getCurrentThreadCpuTime() < end) {
            next();
            sets++;
        }
        return (threads.getCurrentThreadCpuTime() - start)
                / (double) (sets * TOOLS * keyRules.size());
    }

    public static void main(String[] args) throws Exception {
        String format = args[0];
        long seconds = args.length > 1 ? Long.parseLong(args[1]) : 30;
        List<Object> sides = new ArrayList<>();
        List<Method> runs = new ArrayList<>();
        List<Method> nexts = new ArrayList<>();
        List<String> libraries = new ArrayList<>();
        // this library's classes: where the public API's are
        libraries.add(
                Path.of(Formats.class.getProtectionDomain().getCodeSource().getLocation().toURI())
                        .toString());
        if (args.length > 2) libraries.add(args[2]);
        for (String library : libraries) {
            Class<?> c = args.length > 2 ? load(library) : KeyMatcherTimes.class;
            var make = c.getDeclaredConstructor(String.class);
            make.setAccessible(true);
            sides.add(make.newInstance(format));
            Method run = c.getDeclaredMethod("run", long.class);
            Method next = c.getDeclaredMethod("next");
            run.setAccessible(true);
            next.setAccessible(true);
            runs.add(run);
            nexts.add(next);
        }
        if (sides.size() == 2
                && !nexts.get(0).invoke(sides.get(0)).equals(nexts.get(1).invoke(sides.get(1))))
            throw new IllegalStateException("the two libraries write different rules");
        List<List<Double>> times = new ArrayList<>();
        for (int i = 0; i < sides.size(); i++) times.add(new ArrayList<>());
        long began = System.nanoTime();
        long end = began + seconds * 1_000_000_000L;
        for (int turn = 0; System.nanoTime() < end; turn++) {
            int s = turn % sides.size();
            double ns = (double) runs.get(s).invoke(sides.get(s), 500L);
            if (System.nanoTime() - began > seconds * 1_000_000_000L / 3) times.get(s).add(ns);
        }
        StringBuilder line = new StringBuilder(format);
        for (int s = 0; s < sides.size(); s++) {
            List<Double> t = times.get(s);
            Collections.sort(t);
            line.append(
                    String.format(
                            Locale.ROOT,
                            " %s: median %.1f µs, tenth percentile %.1f µs per matcher;",
                            s == 0 ? "this library" : "the other",
                            t.get(t.size() / 2) / 1e3,
                            t.get(t.size() / 10) / 1e3));
        }
        if (sides.size() == 2)
            line.append(
                    String.format(
                            Locale.ROOT,
                            " this ÷ other: median %.2f",
                            times.get(0).get(times.get(0).size() / 2)
                                    / times.get(1).get(times.get(1).size() / 2)));
        System.out.println(line);
    }

    /**
     * This class in a class loader of its own, with {@code library}'s classes (the same ANTLR and
     * Gson jars).
     */
    private static Class<?> load(String library) throws Exception {
        return ConstraintBuildCompare.loader(
                        KeyMatcherTimes.class.getProtectionDomain().getCodeSource().getLocation(),
                        Path.of(library).toUri().toURL())
                .loadClass(KeyMatcherTimes.class.getName());
    }
}
