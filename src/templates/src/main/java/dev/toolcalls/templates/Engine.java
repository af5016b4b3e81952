package dev.toolcalls.templates;

import com.hubspot.jinjava.Jinjava;
import com.hubspot.jinjava.JinjavaConfig;
import com.hubspot.jinjava.LegacyOverrides;
import com.hubspot.jinjava.el.JinjavaInterpreterResolver;
import com.hubspot.jinjava.el.TruthyTypeConverter;
import com.hubspot.jinjava.interpret.Context;
import com.hubspot.jinjava.interpret.JinjavaInterpreter;
import com.hubspot.jinjava.lib.expression.ExpressionStrategy;
import com.hubspot.jinjava.lib.exptest.ExpTest;
import com.hubspot.jinjava.lib.filter.Filter;
import com.hubspot.jinjava.lib.fn.ELFunctionDefinition;
import com.hubspot.jinjava.lib.tag.Tag;
import com.hubspot.jinjava.mode.ExecutionMode;
import com.hubspot.jinjava.tree.output.RenderedOutputNode;
import com.hubspot.jinjava.tree.parse.ExpressionToken;

import jinjava.de.odysseus.el.ExpressionFactoryImpl;
import jinjava.de.odysseus.el.tree.TreeStore;
import jinjava.de.odysseus.el.tree.impl.Cache;
import jinjava.javax.el.CompositeELResolver;
import jinjava.javax.el.ExpressionFactory;

import java.time.LocalDateTime;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** The jinjava engine configured to render as Hugging Face's Jinja does. */
final class Engine {
    /** The function that slices take: {@code hf_slice(value, start, stop, step)}. */
    static final String SLICE = "hf_slice";

    /** The tags Hugging Face's Jinja has ({@code generation} is removed before parsing). */
    private static final Set<String> TAGS =
            Set.of(
                    "if",
                    "elif",
                    "else",
                    "for",
                    "set",
                    "macro",
                    "call",
                    "filter",
                    "break",
                    "continue",
                    "raw");

    /** The functions Hugging Face's Jinja has. */
    private static final Set<String> FUNCTIONS =
            Set.of("raise_exception", "strftime_now", "namespace", "range", SLICE);

    static final Jinjava JINJAVA = create();

    private static final Pattern FOR_TAG =
            Pattern.compile("\\{%-?\\s*for\\b(.*?)-?%\\}", Pattern.DOTALL);
    private static final Pattern QUOTED =
            Pattern.compile("'(?:[^'\\\\]|\\\\.)*'|\"(?:[^\"\\\\]|\\\\.)*\"");
    private static final Pattern IF_WORD = Pattern.compile("\\bif\\b");

    private static final Pattern LSTRIP = Pattern.compile("(?m)^[ \\t]*(\\{[#%-])");
    private static final Pattern TRIM = Pattern.compile("([#%-]\\})\n");
    private static final String JS_SPACE =
            "[\\t\\n\\x0B\\f\\r \\u00a0\\u1680\\u2000-\\u200a\\u2028\\u2029\\u202f\\u205f\\u3000\\ufeff]";
    private static final Pattern GENERATION =
            Pattern.compile(
                    "(?s)("
                            + JS_SPACE
                            + "*)\\{%(-?)"
                            + JS_SPACE
                            + "*(?:end)?generation"
                            + JS_SPACE
                            + "*(-?)%\\}("
                            + JS_SPACE
                            + "*)");

    private Engine() {}

    /**
     * The source as Hugging Face's Jinja prepares it before parsing: one final newline dropped,
     * lstrip_blocks and trim_blocks applied as text substitutions, {@code generation} tags removed.
     * Every newline it removes is kept inside an empty comment, so that line numbers stay the
     * template's.
     */
    static String preprocess(String source) {
        String s = source.endsWith("\n") ? source.substring(0, source.length() - 1) : source;
        s = LSTRIP.matcher(s).replaceAll("$1");
        // a removed newline moves into a comment, so that jinjava counts the template's own lines
        s = TRIM.matcher(s).replaceAll("$1{#\n#}");
        Matcher m = GENERATION.matcher(s);
        StringBuilder b = new StringBuilder();
        while (m.find()) {
            String keep =
                    (m.group(2).isEmpty() ? m.group(1) : "")
                            + (m.group(3).isEmpty() ? m.group(4) : "");
            m.appendReplacement(b, Matcher.quoteReplacement(keep));
        }
        m.appendTail(b);
        return b.toString();
    }

    private static Jinjava create() {
        CompositeELResolver resolver = new CompositeELResolver();
        resolver.add(new PythonMethods());
        resolver.add(JinjavaInterpreterResolver.DEFAULT_RESOLVER_READ_WRITE);
        JinjavaConfig config =
                JinjavaConfig.newBuilder()
                        .withElResolver(resolver)
                        .withDisabled(disabled())
                        .withExecutionMode(new HfMode())
                        .withMaxOutputSize(64L << 20)
                        .withLegacyOverrides(
                                LegacyOverrides.newBuilder()
                                        .withUsePyishObjectMapper(true)
                                        .withParseWhitespaceControlStrictly(true)
                                        .withUseTrimmingForNotesAndExpressions(true)
                                        .withUseNaturalOperatorPrecedence(true)
                                        .withKeepNullableLoopValues(true)
                                        .withEvaluateMapKeys(true)
                                        .build())
                        .build();
        Jinjava j = new HfJinjava(config);
        Context g = j.getGlobalContext();
        g.registerFunction(
                new ELFunctionDefinition(
                        "", "raise_exception", Engine.class, "raiseException", Object.class));
        g.registerFunction(
                new ELFunctionDefinition(
                        "", "strftime_now", Engine.class, "strftimeNow", String.class));
        for (Filter f : Filters.all()) {
            g.registerFilter(f);
        }
        for (ExpTest t : Tests.all()) {
            g.registerExpTest(t);
        }
        g.registerFunction(
                new ELFunctionDefinition(
                        "",
                        SLICE,
                        Engine.class,
                        "slice",
                        Object.class,
                        Object.class,
                        Object.class,
                        Object.class));
        return j;
    }

    /** jinjava's tags, filters, tests and functions that Hugging Face's Jinja lacks: disabled. */
    private static Map<Context.Library, Set<String>> disabled() {
        Context plain = new Jinjava().getGlobalContext();
        Set<String> filters = new HashSet<>();
        for (Filter f : Filters.all()) {
            filters.add(f.getName());
        }
        Set<String> tests = new HashSet<>();
        for (ExpTest t : Tests.all()) {
            tests.add(t.getName());
        }
        Map<Context.Library, Set<String>> off = new EnumMap<>(Context.Library.class);
        off.put(Context.Library.FILTER, new HashSet<>());
        off.put(Context.Library.EXP_TEST, new HashSet<>());
        off.put(Context.Library.FUNCTION, new HashSet<>());
        off.put(Context.Library.TAG, new HashSet<>());
        for (Filter f : plain.getAllFilters()) {
            if (!filters.contains(f.getName())) {
                off.get(Context.Library.FILTER).add(f.getName());
            }
        }
        for (ExpTest t : plain.getAllExpTests()) {
            if (!tests.contains(t.getName())) {
                off.get(Context.Library.EXP_TEST).add(t.getName());
            }
        }
        for (ELFunctionDefinition f : plain.getAllFunctions()) {
            if (!FUNCTIONS.contains(f.getLocalName())) {
                off.get(Context.Library.FUNCTION).add(f.getName());
            }
        }
        for (Tag t : plain.getAllTags()) {
            String name = t.getName();
            String base = name.startsWith("end") ? name.substring(3) : name;
            if (!TAGS.contains(name) && !TAGS.contains(base)) {
                off.get(Context.Library.TAG).add(t.getName());
            }
        }
        return off;
    }

    /**
     * Refuses what jinjava parses but renders differently: a loop filter ({@code for x in xs if
     * c}), which jinjava ignores.
     */
    static void check(String source) {
        Matcher m = FOR_TAG.matcher(source);
        while (m.find()) {
            String body = QUOTED.matcher(m.group(1)).replaceAll("''");
            if (IF_WORD.matcher(body).find()) {
                int line = 1;
                for (int i = 0; i < m.start(); i++) {
                    if (source.charAt(i) == '\n') {
                        line++;
                    }
                }
                throw new TemplateException(
                        line, "a loop filter ('for ... in ... if ...') is not supported");
            }
        }
    }

    /**
     * The template line of an error jinjava reports on its line {@code reported}: jinjava does not
     * count the newlines inside {@code {{ }}} and {@code {% %}}, so after a tag that spans lines
     * its numbers fall behind. Among the tags and expressions on that jinjava line, the first whose
     * text holds {@code expression} (when given) is taken.
     */
    static int templateLine(String prepared, int reported, String expression) {
        if (reported <= 0) {
            return reported;
        }
        int jline = 1;
        int line = 1;
        int first = -1;
        int i = 0;
        int n = prepared.length();
        while (i < n) {
            char c = prepared.charAt(i);
            if (c == '{'
                    && i + 1 < n
                    && (prepared.charAt(i + 1) == '{' || prepared.charAt(i + 1) == '%')) {
                String close = prepared.charAt(i + 1) == '{' ? "}}" : "%}";
                int start = i;
                int startLine = line;
                i += 2;
                char quote = 0;
                while (i < n && (quote != 0 || !prepared.startsWith(close, i))) {
                    char d = prepared.charAt(i);
                    if (d == '\n') {
                        line++;
                    }
                    if (quote != 0) {
                        if (d == '\\') {
                            i++;
                        } else if (d == quote) {
                            quote = 0;
                        }
                    } else if (d == '\'' || d == '"') {
                        quote = d;
                    }
                    i++;
                }
                i += 2;
                if (jline == reported) {
                    if (first < 0) {
                        first = startLine;
                    }
                    String text = prepared.substring(start, Math.min(i, n));
                    if (expression != null && !expression.isEmpty() && text.contains(expression)) {
                        return startLine;
                    }
                }
                continue;
            }
            if (c == '\n') {
                if (jline == reported
                        && first > 0
                        && (expression == null || expression.isEmpty())) {
                    return first;
                }
                jline++;
                line++;
            }
            i++;
        }
        return first > 0 ? first : reported;
    }

    /** Python's slice [start:stop:step] of a list or string, as Hugging Face's Jinja takes it. */
    public static Object slice(Object value, Object start, Object stop, Object step) {
        long st = bound(step, 1);
        if (st == 0) {
            throw new Values.Unrenderable("slice step cannot be zero");
        }
        int n;
        int[] codePoints = null;
        if (value instanceof List<?> l) {
            n = l.size();
        } else if (value instanceof CharSequence s) {
            // strings slice by code point, as Array.from(string) does
            codePoints = s.toString().codePoints().toArray();
            n = codePoints.length;
        } else {
            throw new Values.Unrenderable("cannot slice " + Tests.type(value));
        }
        long a;
        long z;
        if (st > 0) {
            a = bound(start, 0);
            a = a < 0 ? Math.max(n + a, 0) : Math.min(a, n);
            z = bound(stop, n);
            z = z < 0 ? Math.max(n + z, 0) : Math.min(z, n);
        } else {
            a = bound(start, n - 1);
            a = a < 0 ? Math.max(n + a, -1) : Math.min(a, n - 1);
            z = bound(stop, -1);
            z = z < -1 ? Math.max(n + z, -1) : Math.min(z, n - 1);
        }
        List<Object> out = new ArrayList<>();
        StringBuilder b = new StringBuilder();
        long dir = st > 0 ? 1 : -1;
        for (long i = a; dir * i < dir * z; i += st) {
            if (value instanceof List<?> l) {
                out.add(l.get((int) i));
            } else {
                b.appendCodePoint(codePoints[(int) i]);
            }
        }
        return value instanceof List ? out : b.toString();
    }

    private static long bound(Object v, long absent) {
        if (v == null || v instanceof None) {
            return absent;
        }
        if (!Tests.type(v).equals("IntegerValue")) {
            throw new Values.Unrenderable("slice indices must be integers, not " + Tests.type(v));
        }
        return ((Number) v).longValue();
    }

    /** jinjava whose expressions are parsed by {@link HfParser}. */
    static final class HfJinjava extends Jinjava {
        private final ExpressionFactory factory =
                new ExpressionFactoryImpl(
                        new TreeStore(new HfParser.SyntaxBuilder(), new Cache(1000)),
                        new TruthyTypeConverter());

        HfJinjava(JinjavaConfig config) {
            super(config);
        }

        @Override
        public ExpressionFactory getExpressionFactory() {
            return factory;
        }
    }

    /** raise_exception(message): the template's own error. */
    public static Object raiseException(Object message) {
        throw new Raised(Values.str(message));
    }

    /** strftime_now(format): the local time now, formatted with strftime's directives. */
    public static String strftimeNow(String format) {
        return Strftime.format(LocalDateTime.now(), format);
    }

    /** The template's raise_exception. */
    static final class Raised extends RuntimeException {
        private static final long serialVersionUID = 1L;

        Raised(String message) {
            super(message);
        }
    }

    /** Sets the output strategy on every render's context. */
    static final class HfMode implements ExecutionMode {
        @Override
        public void prepareContext(Context context) {
            context.setExpressionStrategy(new HfOutput());
        }
    }

    /** {{ expression }} printed as Hugging Face's Jinja prints values. */
    static final class HfOutput implements ExpressionStrategy {
        private static final long serialVersionUID = 1L;

        @Override
        public RenderedOutputNode interpretOutput(
                ExpressionToken master, JinjavaInterpreter interpreter) {
            Object var = interpreter.resolveELExpression(master.getExpr(), master.getLineNumber());
            return new RenderedOutputNode(Values.str(var));
        }
    }
}
