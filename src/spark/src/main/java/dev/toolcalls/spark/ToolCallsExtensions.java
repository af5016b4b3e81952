package dev.toolcalls.spark;

import org.apache.spark.sql.SparkSessionExtensions;

import scala.Function1;
import scala.runtime.BoxedUnit;

/**
 * Registers the toolcalls SQL functions in every session Spark builds:
 *
 * <pre>
 * spark-submit --conf spark.sql.extensions=dev.toolcalls.spark.ToolCallsExtensions ...
 * SELECT parse_tool_calls(model_format, output) AS parsed FROM completions
 * </pre>
 *
 * Then {@link ToolCallsFunctions} works from the DataFrame API as well. A session that is already
 * running can get them with {@link ToolCallsFunctions#register}.
 */
public final class ToolCallsExtensions implements Function1<SparkSessionExtensions, BoxedUnit> {
    @Override
    public BoxedUnit apply(SparkSessionExtensions extensions) {
        extensions.injectFunction(ToolCallsFunctions.definition());
        return BoxedUnit.UNIT;
    }
}
