package dev.toolcalls.suite;

import com.google.gson.JsonElement;
import com.google.gson.JsonObject;
import com.google.gson.JsonParser;

import dev.toolcalls.IdGenerator;
import dev.toolcalls.ParseOptions;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Stream;

/**
 * One regression case: {@code tests-data/<format>/<case>.txt} (the raw model output, byte-exact)
 * and {@code <case>.json} (what parsing it must give).
 *
 * <pre>{@code
 * {"description": "...", "lenient": false, "thinking": true, "tools": [...],
 *  "content": "text or null", "reasoning_content": "optional, text or null",
 *  "tool_calls": [{"name": "f", "arguments": {...}, "id": "optional"}]}
 * {"description": "...", "error": {"type": "unterminated_call", "offset": 12}}
 * }</pre>
 *
 * A lenient case may add {@code "stream_error": {"type": ..., "offset": ...}}: batch gives a
 * malformed call back as its raw text, where a stream that has already sent the call's start fails
 * with this error (in every chunking).
 */
public record SuiteCase(
        String format, String name, Path rawFile, String input, JsonObject expected) {

    /** Cases of a suite directory, by format (the sub-directory name), in name order. */
    public static Map<String, List<SuiteCase>> load(Path suiteDir) {
        Map<String, List<SuiteCase>> out = new TreeMap<>();
        try (Stream<Path> dirs = Files.list(suiteDir)) {
            for (Path dir : dirs.filter(Files::isDirectory).sorted().toList()) {
                out.put(dir.getFileName().toString(), loadFormat(dir));
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read suite directory " + suiteDir, e);
        }
        return out;
    }

    static List<SuiteCase> loadFormat(Path dir) throws IOException {
        String format = dir.getFileName().toString();
        List<SuiteCase> cases = new ArrayList<>();
        try (Stream<Path> files = Files.list(dir)) {
            for (Path raw : files.filter(p -> p.toString().endsWith(".txt")).sorted().toList()) {
                String base = raw.getFileName().toString().replaceFirst("\\.txt$", "");
                Path expectation = raw.resolveSibling(base + ".json");
                JsonObject expected;
                if (!Files.exists(expectation)) {
                    expected = new JsonObject();
                    expected.addProperty(
                            "_problem", "missing expectation file " + expectation.getFileName());
                } else {
                    try {
                        JsonElement e =
                                JsonParser.parseString(
                                        Files.readString(expectation, StandardCharsets.UTF_8));
                        if (!e.isJsonObject()) throw new IllegalStateException("not a JSON object");
                        expected = e.getAsJsonObject();
                    } catch (RuntimeException ex) {
                        expected = new JsonObject();
                        expected.addProperty(
                                "_problem",
                                "unreadable expectation "
                                        + expectation.getFileName()
                                        + ": "
                                        + ex.getMessage());
                    }
                }
                cases.add(
                        new SuiteCase(
                                format,
                                base,
                                raw,
                                Files.readString(raw, StandardCharsets.UTF_8),
                                expected));
            }
        }
        return cases;
    }

    public boolean lenient() {
        return expected.has("lenient") && expected.get("lenient").getAsBoolean();
    }

    /**
     * The request's thinking setting ({@code "thinking": true|false}), or null for the format's
     * default.
     */
    public Boolean thinking() {
        return expected.has("thinking") && !expected.get("thinking").isJsonNull()
                ? expected.get("thinking").getAsBoolean()
                : null;
    }

    /**
     * The options every run of this case uses: its lenient and thinking settings, ids from seed 0.
     */
    public ParseOptions options() {
        return ParseOptions.defaults()
                .withLenient(lenient())
                .withThinking(thinking())
                .withIds(() -> IdGenerator.seeded(0));
    }

    @Override
    public String toString() {
        return format + "/" + name;
    }
}
