package dev.toolcalls;

import java.util.Locale;
import java.util.Objects;

/**
 * What a decoding constraint allows and how it is written: the tool choice ({@code auto}, {@code
 * required}, {@code none} or a function's name), whether several calls may be made, whether the
 * reasoning block is open, whether objects take keys their schema does not name, and the target the
 * text is written for. Immutable.
 *
 * <pre>{@code
 * String gbnf = format.constraint(tools, ConstraintOptions.defaults().withToolChoice("required"));
 * }</pre>
 */
public final class ConstraintOptions {
    /** The text a constraint is written as. */
    public enum Target {
        /** A GBNF grammar for the whole output, start rule {@code root} (llama.cpp, xgrammar). */
        GBNF("gbnf"),
        /** llama.cpp's chat parameters: grammar, laziness, triggers, preserved tokens. */
        LLAMA_CPP("llama-cpp"),
        /** xgrammar's structural tag ({@code {"type": "structural_tag", "format": ...}}). */
        STRUCTURAL_TAG("structural-tag"),
        /** The {@code structures} / {@code triggers} structural tag of xgrammar 0.1 and SGLang. */
        STRUCTURAL_TAG_LEGACY("structural-tag-legacy"),
        /** llguidance's Lark dialect. */
        LARK("lark");

        private final String id;

        Target(String id) {
            this.id = id;
        }

        /** The name the command line and the docs use, e.g. {@code llama-cpp}. */
        public String id() {
            return id;
        }

        /**
         * @throws IllegalArgumentException naming the targets there are
         */
        public static Target of(String id) {
            for (Target t : values()) if (t.id.equalsIgnoreCase(id)) return t;
            throw new IllegalArgumentException(
                    "unknown target '"
                            + id
                            + "': gbnf, llama-cpp, structural-tag, structural-tag-legacy or lark");
        }
    }

    private static final ConstraintOptions DEFAULTS =
            new ConstraintOptions("auto", true, null, false, Target.GBNF);

    private final String toolChoice;
    private final boolean parallelToolCalls;
    private final Boolean thinking;
    private final boolean closedObjects;
    private final Target target;

    private ConstraintOptions(
            String toolChoice,
            boolean parallelToolCalls,
            Boolean thinking,
            boolean closedObjects,
            Target target) {
        this.toolChoice = Objects.requireNonNull(toolChoice, "toolChoice");
        this.parallelToolCalls = parallelToolCalls;
        this.thinking = thinking;
        this.closedObjects = closedObjects;
        this.target = Objects.requireNonNull(target, "target");
    }

    /**
     * Tool choice {@code auto}, parallel calls, the format's thinking default, objects as their
     * schemas say, target gbnf.
     */
    public static ConstraintOptions defaults() {
        return DEFAULTS;
    }

    /** {@code auto}, {@code required}, {@code none}, or the name of the one function to call. */
    public ConstraintOptions withToolChoice(String toolChoice) {
        return new ConstraintOptions(
                toolChoice, parallelToolCalls, thinking, closedObjects, target);
    }

    public ConstraintOptions withParallelToolCalls(boolean parallel) {
        return new ConstraintOptions(toolChoice, parallel, thinking, closedObjects, target);
    }

    /** Whether the output begins inside the reasoning block; null: the format's default. */
    public ConstraintOptions withThinking(Boolean thinking) {
        return new ConstraintOptions(
                toolChoice, parallelToolCalls, thinking, closedObjects, target);
    }

    /**
     * Whether an object schema that does not say {@code additionalProperties} takes no keys beyond
     * its {@code properties} (as xgrammar's strict mode reads it), rather than any further key (as
     * JSON Schema and the parser read it; the default). Closed objects write no rule for the other
     * keys: a smaller grammar, which an engine compiles several times faster, that accepts less
     * than the parser does.
     */
    public ConstraintOptions withClosedObjects(boolean closed) {
        return new ConstraintOptions(toolChoice, parallelToolCalls, thinking, closed, target);
    }

    public ConstraintOptions withTarget(Target target) {
        return new ConstraintOptions(
                toolChoice, parallelToolCalls, thinking, closedObjects, target);
    }

    public String toolChoice() {
        return toolChoice;
    }

    /** Whether the choice is one of the keywords rather than a function's name. */
    public boolean toolChoiceIsKeyword() {
        String c = toolChoice.toLowerCase(Locale.ROOT);
        return c.equals("auto") || c.equals("required") || c.equals("none");
    }

    public boolean parallelToolCalls() {
        return parallelToolCalls;
    }

    public Boolean thinking() {
        return thinking;
    }

    public boolean closedObjects() {
        return closedObjects;
    }

    public Target target() {
        return target;
    }
}
