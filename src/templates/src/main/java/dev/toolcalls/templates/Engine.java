package dev.toolcalls.templates;

import com.hubspot.jinjava.Jinjava;
import com.hubspot.jinjava.JinjavaConfig;
import com.hubspot.jinjava.LegacyOverrides;
import com.hubspot.jinjava.el.JinjavaInterpreterResolver;
import com.hubspot.jinjava.interpret.Context;
import com.hubspot.jinjava.interpret.JinjavaInterpreter;
import com.hubspot.jinjava.lib.expression.ExpressionStrategy;
import com.hubspot.jinjava.lib.exptest.ExpTest;
import com.hubspot.jinjava.lib.filter.Filter;
import com.hubspot.jinjava.lib.fn.ELFunctionDefinition;
import com.hubspot.jinjava.mode.ExecutionMode;
import com.hubspot.jinjava.tree.output.RenderedOutputNode;
import com.hubspot.jinjava.tree.parse.ExpressionToken;

import jinjava.javax.el.CompositeELResolver;

import java.time.LocalDateTime;

/** The jinjava engine configured to render as Hugging Face's Jinja does. */
final class Engine {
    static final Jinjava JINJAVA = create();

    private Engine() {}

    private static Jinjava create() {
        CompositeELResolver resolver = new CompositeELResolver();
        resolver.add(new PythonMethods());
        resolver.add(JinjavaInterpreterResolver.DEFAULT_RESOLVER_READ_WRITE);
        JinjavaConfig config =
                JinjavaConfig.newBuilder()
                        .withTrimBlocks(true)
                        .withLstripBlocks(true)
                        .withElResolver(resolver)
                        .withExecutionMode(new HfMode())
                        .withMaxOutputSize(64L << 20)
                        .withLegacyOverrides(
                                LegacyOverrides.newBuilder()
                                        .withUsePyishObjectMapper(true)
                                        .withParseWhitespaceControlStrictly(true)
                                        .withUseNaturalOperatorPrecedence(true)
                                        .withKeepNullableLoopValues(true)
                                        .withEvaluateMapKeys(true)
                                        .build())
                        .build();
        Jinjava j = new Jinjava(config);
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
        return j;
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
