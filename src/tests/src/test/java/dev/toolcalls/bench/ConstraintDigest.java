package dev.toolcalls.bench;

import dev.toolcalls.ConstraintOptions;
import dev.toolcalls.ConstraintOptions.Target;
import dev.toolcalls.Format;
import dev.toolcalls.Formats;
import dev.toolcalls.Tools;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A digest of every constraint the builder writes, for every format, a few tool sets, every tool
 * choice, parallel calls on and off, thinking on and off, and every target: one line per build (its
 * options, its length and the start of its SHA-256, or the error it raised). Two builds of the
 * library that write the same lines write the same constraints; a change meant to keep the output
 * (a faster builder) is checked by comparing the files written before and after it:
 *
 * <pre>
 * mvn -B -q -o -Pbench -DskipTests test-compile exec:exec -Dbench.main=dev.toolcalls.bench.ConstraintDigest -Dbench.args=/tmp/digest.txt
 * </pre>
 *
 * <p>With {@code -Dunordered=true} a constraint's lines (and the lines of a grammar a JSON string
 * holds) are digested in sorted order: two builds that write the same rules in another order write
 * the same digest.
 */
public final class ConstraintDigest {
    private ConstraintDigest() {}

    /** The tool sets built for, by name (OpenAI {@code tools} arrays). */
    static Map<String, String> toolSets() {
        Map<String, String> sets = new LinkedHashMap<>();
        sets.put("none", "[]");
        sets.put(
                "weather",
                "[{\"type\":\"function\",\"function\":{\"name\":\"get_weather\",\"parameters\":"
                        + "{\"type\":\"object\",\"properties\":{\"city\":{\"type\":\"string\"},"
                        + "\"unit\":{\"type\":\"string\",\"enum\":[\"c\",\"f\"]}},\"required\":[\"city\"]}}}]");
        sets.put("bench5", ConstraintBenchmark.tools(5));
        sets.put(
                "mixed",
                "[{\"type\":\"function\",\"function\":{\"name\":\"search\",\"parameters\":"
                        + "{\"type\":\"object\",\"properties\":{\"q\":{\"type\":\"string\"},"
                        + "\"tags\":{\"type\":\"array\",\"items\":{\"type\":\"string\"}},"
                        + "\"n\":{\"type\":[\"integer\",\"null\"]},"
                        + "\"mode\":{\"anyOf\":[{\"type\":\"number\"},{\"type\":\"boolean\"}]}},"
                        + "\"required\":[\"q\",\"n\"],\"additionalProperties\":false}}},"
                        + "{\"type\":\"function\",\"function\":{\"name\":\"tree\",\"parameters\":"
                        + "{\"type\":\"object\",\"properties\":{\"node\":{\"$ref\":\"#/$defs/node\"},"
                        + "\"id\":{\"type\":\"int64\"}},"
                        + "\"$defs\":{\"node\":{\"type\":\"object\",\"properties\":{\"kids\":"
                        + "{\"type\":\"array\",\"items\":{\"$ref\":\"#/$defs/node\"}}}}}}}},"
                        + "{\"type\":\"function\",\"function\":{\"name\":\"ping\"}},"
                        + "{\"type\":\"function\",\"function\":{\"name\":\"search_again\",\"parameters\":"
                        + "{\"type\":\"object\",\"properties\":{\"q\":{\"type\":\"string\"},"
                        + "\"tags\":{\"type\":\"array\",\"items\":{\"type\":\"string\"}},"
                        + "\"n\":{\"type\":[\"integer\",\"null\"]},"
                        + "\"mode\":{\"anyOf\":[{\"type\":\"number\"},{\"type\":\"boolean\"}]}},"
                        + "\"required\":[\"q\",\"n\"],\"additionalProperties\":false}}}]");
        return sets;
    }

    /** The text digested: the constraint, or its lines sorted where the order is ignored. */
    private static String lines(String constraint) {
        if (!Boolean.getBoolean("unordered")) return constraint;
        String[] parts = constraint.split("\n|\\\\n", -1);
        Arrays.sort(parts);
        return String.join("\n", parts);
    }

    /** Writes the digest lines to the file the first argument names (or prints them). */
    public static void main(String[] args) throws IOException, NoSuchAlgorithmException {
        MessageDigest sha = MessageDigest.getInstance("SHA-256");
        List<String> lines = new ArrayList<>();
        List<Format> formats = new ArrayList<>(Formats.all());
        formats.sort(Comparator.comparing(Format::name));
        for (Format f : formats)
            for (Map.Entry<String, String> set : toolSets().entrySet()) {
                Tools tools = Tools.parse(set.getValue());
                List<String> choices = new ArrayList<>(List.of("auto", "required", "none"));
                if (!tools.names().isEmpty()) choices.add(tools.names().iterator().next());
                for (String choice : choices)
                    for (boolean parallel : new boolean[] {true, false})
                        for (boolean thinking : new boolean[] {true, false})
                            for (Target target : Target.values()) {
                                ConstraintOptions o =
                                        ConstraintOptions.defaults()
                                                .withToolChoice(choice)
                                                .withParallelToolCalls(parallel)
                                                .withThinking(thinking)
                                                .withTarget(target);
                                String result;
                                try {
                                    byte[] text =
                                            lines(f.constraint(tools, o))
                                                    .getBytes(StandardCharsets.UTF_8);
                                    result =
                                            text.length
                                                    + " "
                                                    + HexFormat.of()
                                                            .formatHex(sha.digest(text))
                                                            .substring(0, 16);
                                } catch (RuntimeException e) {
                                    result = e.getClass().getSimpleName() + " " + e.getMessage();
                                }
                                lines.add(
                                        String.join(
                                                " ",
                                                f.name(),
                                                set.getKey(),
                                                choice,
                                                "parallel=" + parallel,
                                                "thinking=" + thinking,
                                                target.id(),
                                                result));
                            }
            }
        String text = String.join("\n", lines) + "\n";
        if (args.length == 0) System.out.print(text);
        else {
            Path out = Path.of(args[0]);
            if (out.getParent() != null) Files.createDirectories(out.getParent());
            Files.writeString(out, text, StandardCharsets.UTF_8);
            System.out.println(lines.size() + " constraints digested into " + out);
        }
    }
}
