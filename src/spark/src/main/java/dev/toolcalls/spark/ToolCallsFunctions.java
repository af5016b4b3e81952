package dev.toolcalls.spark;

import static org.apache.spark.sql.functions.call_function;
import static org.apache.spark.sql.functions.lit;

import org.apache.spark.sql.Column;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.catalyst.FunctionIdentifier;
import org.apache.spark.sql.catalyst.expressions.ApplyFunctionExpression;
import org.apache.spark.sql.catalyst.expressions.Expression;
import org.apache.spark.sql.catalyst.expressions.ExpressionInfo;
import org.apache.spark.sql.internal.SessionState;
import org.apache.spark.sql.types.IntegralType;

import scala.Function1;
import scala.Tuple3;
import scala.collection.immutable.Seq;

/**
 * The DataFrame API of {@code parse_tool_calls}, for sessions built with {@link
 * ToolCallsExtensions} (or given the function by {@link #register}):
 *
 * <pre>{@code
 * Dataset<Row> parsed = completions.select(
 *         col("id"),
 *         parse_tool_calls(col("format"), col("output"), col("tools"), lit("lenient"), col("id"))
 *                 .alias("parsed"));
 * }</pre>
 *
 * Arguments: the format's name or alias (a column, so one table may mix models), the model's output
 * text, the request's OpenAI {@code tools} array as JSON (or null), the options ({@code "lenient,
 * thinking=on, unknown_tool=text"}, or null) and the id key: a whole number or a string that seeds
 * the generated call ids, so that the same row gives the same ids in every run. The result is
 * {@link ParseToolCalls#RESULT_TYPE}.
 */
public final class ToolCallsFunctions {
    private static final String USAGE =
            "_FUNC_(format, text [, tools_json [, options [, id_key]]]) - Parses a model's output"
                    + " text into struct<content, reasoning, tool_calls: array<struct<id, name,"
                    + " arguments>>, error: struct<type, message, offset>>. A row that does not"
                    + " parse gives an error struct; a null text gives null.";

    private ToolCallsFunctions() {}

    public static Column parse_tool_calls(Column format, Column text) {
        return call_function(ParseToolCalls.NAME, format, text);
    }

    public static Column parse_tool_calls(String format, Column text) {
        return parse_tool_calls(lit(format), text);
    }

    public static Column parse_tool_calls(Column format, Column text, Column toolsJson) {
        return call_function(ParseToolCalls.NAME, format, text, toolsJson);
    }

    public static Column parse_tool_calls(
            Column format, Column text, Column toolsJson, Column options) {
        return call_function(ParseToolCalls.NAME, format, text, toolsJson, options);
    }

    public static Column parse_tool_calls(
            Column format, Column text, Column toolsJson, Column options, Column idKey) {
        return call_function(ParseToolCalls.NAME, format, text, toolsJson, options, idKey);
    }

    /**
     * Adds the functions to a session that was built without {@link ToolCallsExtensions} (a
     * notebook's, say). Only a classic (non-Connect) session can be given functions this way.
     */
    public static void register(SparkSession spark) {
        SessionState state;
        try {
            state = (SessionState) spark.getClass().getMethod("sessionState").invoke(spark);
        } catch (ReflectiveOperationException | ClassCastException e) {
            throw new IllegalArgumentException(
                    "register needs a classic SparkSession, not "
                            + spark.getClass().getName()
                            + "; a Spark Connect server gets the functions from"
                            + " spark.sql.extensions="
                            + ToolCallsExtensions.class.getName(),
                    e);
        }
        Tuple3<FunctionIdentifier, ExpressionInfo, Function1<Seq<Expression>, Expression>> d =
                definition();
        state.functionRegistry().registerFunction(d._1(), d._2(), d._3());
    }

    /** The name, description and builder that {@link ToolCallsExtensions} injects. */
    static Tuple3<FunctionIdentifier, ExpressionInfo, Function1<Seq<Expression>, Expression>>
            definition() {
        ExpressionInfo info =
                new ExpressionInfo(
                        ParseToolCalls.class.getName(), null, ParseToolCalls.NAME, USAGE, "");
        Function1<Seq<Expression>, Expression> builder = ToolCallsFunctions::build;
        return new Tuple3<>(FunctionIdentifier.apply(ParseToolCalls.NAME), info, builder);
    }

    private static Expression build(Seq<Expression> children) {
        int arity = children.size();
        boolean integralKey =
                arity == 5
                        && children.apply(4).resolved()
                        && children.apply(4).dataType() instanceof IntegralType;
        return new ApplyFunctionExpression(new ParseToolCalls(arity, integralKey), children);
    }
}
