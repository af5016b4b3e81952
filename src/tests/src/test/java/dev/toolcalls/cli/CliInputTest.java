package dev.toolcalls.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.google.gson.Gson;
import com.google.gson.JsonObject;
import com.google.gson.JsonParser;

import dev.toolcalls.Format;
import dev.toolcalls.Formats;
import dev.toolcalls.IdGenerator;
import dev.toolcalls.ParseOptions;
import dev.toolcalls.Tools;
import dev.toolcalls.server.Chunker;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.BufferedOutputStream;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.File;
import java.io.IOException;
import java.io.OutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;

/**
 * The command line's input policy: strict UTF-8 from any source, strict JSONL lines, incremental
 * reading in {@code --stream}, range-checked options, and no stack trace whatever fails.
 */
class CliInputTest {
    /**
     * A bundled format here: the fixture format compiles its grammar at run time, which takes more
     * heap than the test allows.
     */
    static final String HERMES_UNIT =
            "Some text 😀 <tool_call>{\"name\": \"f\", \"arguments\": {\"city\": \"Paris\"}}</tool_call> and more.\n";

    @TempDir Path dir;

    static CliTest.Run run(byte[] stdin, String... args) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        int code =
                Main.run(
                        args,
                        new PrintStream(out, true, StandardCharsets.UTF_8),
                        new PrintStream(err, true, StandardCharsets.UTF_8),
                        new ByteArrayInputStream(stdin));
        return new CliTest.Run(
                code, out.toString(StandardCharsets.UTF_8), err.toString(StandardCharsets.UTF_8));
    }

    static byte[] bytes(Object... parts) {
        ByteArrayOutputStream b = new ByteArrayOutputStream();
        for (Object p : parts) {
            if (p instanceof String s) b.writeBytes(s.getBytes(StandardCharsets.UTF_8));
            else for (int x : (int[]) p) b.write(x);
        }
        return b.toByteArray();
    }

    static JsonObject error(String json) {
        return JsonParser.parseString(json).getAsJsonObject().getAsJsonObject("error");
    }

    Path file(String name, byte[] content) throws IOException {
        Path p = dir.resolve(name);
        Files.write(p, content);
        return p;
    }

    @Test
    void invalidUtf8IsTheSameErrorFromAFileAndFromStandardInputInBatchAndStream()
            throws IOException {
        // "é" is 2 bytes, so the bad byte is at byte 3 and after 2 code points
        byte[] input = bytes("aé", new int[] {0xFF}, "b <call f>{}</call>");
        Path f = file("bad.txt", input);
        for (String[] mode : new String[][] {{}, {"--stream"}, {"--stream", "--chunk-max", "1"}}) {
            List<CliTest.Run> runs = new ArrayList<>();
            List<String> fromFile = new ArrayList<>(List.of("parse", "--format", "toy"));
            fromFile.addAll(List.of(mode));
            List<String> fromStdin = new ArrayList<>(fromFile);
            fromFile.add(f.toString());
            runs.add(run(new byte[0], fromFile.toArray(String[]::new)));
            runs.add(run(input, fromStdin.toArray(String[]::new)));
            for (CliTest.Run r : runs) {
                assertEquals(2, r.code(), String.join(" ", mode) + ": " + r.err());
                JsonObject e = error(r.err());
                assertEquals("invalid_utf8", e.get("type").getAsString());
                assertEquals(3, e.get("byte_offset").getAsLong());
                assertEquals(2, e.get("offset").getAsInt());
                assertEquals("toy", e.get("format").getAsString());
                assertTrue(
                        e.get("message").getAsString().contains("byte 0xFF at byte offset 3"),
                        e.toString());
                assertFalse(r.out().contains("\uFFFD") || r.out().contains("call"), r.out());
                assertFalse(r.err().contains("\tat "), r.err());
            }
            assertEquals(runs.get(0), runs.get(1), "the same answer whatever the source");
        }
    }

    @Test
    void everyKindOfMalformedUtf8IsRefused() {
        Object[][] cases = {
            {bytes("ab", new int[] {0xC3, 0x28}), 2L}, // a lead byte without its continuation
            {bytes("ab", new int[] {0xED, 0xA0, 0x80}), 2L}, // an encoded surrogate (CESU-8)
            {bytes("ab", new int[] {0xC0, 0xAF}), 2L}, // an overlong form
            {bytes("ab", new int[] {0x80}), 2L}, // a stray continuation byte
            {bytes("abc", new int[] {0xE2, 0x82}), 3L}, // a sequence cut off by the end
        };
        for (Object[] c : cases) {
            CliTest.Run r = run((byte[]) c[0], "parse", "--format", "toy");
            assertEquals(2, r.code(), r.err());
            assertEquals(c[1], error(r.err()).get("byte_offset").getAsLong(), r.err());
        }
    }

    @Test
    void streamPrintsWhatWasCertainBeforeTheBadBytesAndEndsTheProtocolsStream() {
        byte[] input = bytes("hello world, this is fine ", new int[] {0xFE}, " more");
        CliTest.Run chat = run(input, "parse", "--format", "toy", "--stream", "--chunk-max", "2");
        assertEquals(2, chat.code());
        assertTrue(
                CliTest.reassemble(chat.lines())
                        .get("content")
                        .getAsString()
                        .startsWith("hello world, this is"),
                chat.out());
        CliTest.Run responses =
                run(input, "parse", "--format", "toy", "--stream", "--output", "responses");
        assertEquals(2, responses.code());
        List<String> lines = responses.lines();
        assertTrue(
                lines.get(lines.size() - 1).contains("\"response.failed\"")
                        && lines.get(lines.size() - 1).contains("not valid UTF-8"),
                responses.out());
        CliTest.Run messages =
                run(input, "parse", "--format", "toy", "--stream", "--output", "messages");
        assertTrue(
                messages.lines().get(messages.lines().size() - 1).contains("\"type\":\"error\""),
                messages.out());
    }

    @Test
    void jsonlAnswersABadUtf8LineWithItsByteOffsetAndGoesOn() {
        byte[] input =
                bytes(
                        "{\"input\": \"ok\"}\n{\"input\": \"x",
                        new int[] {0xFF},
                        "\"}\r\n{\"input\": \"after\"}");
        CliTest.Run r = run(input, "parse", "--format", "toy", "--jsonl");
        assertEquals(0, r.code(), r.err());
        List<String> lines = r.lines();
        assertEquals(3, lines.size(), r.out());
        assertEquals(
                "ok",
                JsonParser.parseString(lines.get(0))
                        .getAsJsonObject()
                        .getAsJsonObject("message")
                        .get("content")
                        .getAsString());
        JsonObject e = error(lines.get(1));
        assertEquals("invalid_utf8", e.get("type").getAsString());
        assertEquals(28, e.get("byte_offset").getAsLong());
        assertTrue(e.get("message").getAsString().startsWith("line 2 "), e.toString());
        assertEquals(
                "after",
                JsonParser.parseString(lines.get(2))
                        .getAsJsonObject()
                        .getAsJsonObject("message")
                        .get("content")
                        .getAsString());
    }

    /**
     * A lone surrogate in a key, known or not, at any depth: the message names it by its escape,
     * never as '?' or U+FFFD.
     */
    @Test
    void jsonlNamesALoneSurrogateInAKeyByItsEscape() {
        String[][] cases = {
            {"{\"in\\ud800put\": \"x\"}", "lone surrogate \\ud800 at character 2 of a key in $"},
            {
                "{\"input\": \"x\", \"k\\udc00\": 1}",
                "lone surrogate \\udc00 at character 1 of a key in $"
            },
            {
                "{\"input\": \"x\", \"tools\": [{\"type\": \"function\", \"function\": {\"name\": \"f\", \"p\\ud83d\": 1}}]}",
                "lone surrogate \\ud83d at character 1 of a key in $.tools[0].function"
            },
        };
        StringBuilder in = new StringBuilder();
        for (String[] c : cases) in.append(c[0]).append('\n');
        for (String mode : new String[] {"batch", "--stream"}) {
            CliTest.Run r =
                    mode.equals("batch")
                            ? run(bytes(in.toString()), "parse", "--format", "toy", "--jsonl")
                            : run(
                                    bytes(in.toString()),
                                    "parse",
                                    "--format",
                                    "toy",
                                    "--jsonl",
                                    mode);
            assertEquals(0, r.code(), r.err());
            List<String> lines = r.lines();
            assertEquals(cases.length, lines.size(), r.out());
            for (int i = 0; i < cases.length; i++) {
                JsonObject e = error(lines.get(i));
                assertEquals("invalid_input", e.get("type").getAsString(), cases[i][0]);
                assertTrue(
                        e.get("message").getAsString().contains(cases[i][1]),
                        cases[i][0] + " -> " + e.get("message").getAsString());
            }
            assertFalse(r.out().contains("?") || r.out().contains("\ufffd"), r.out());
        }
        // whatever a message quotes: pairs stay, halves are escaped
        assertEquals(
                "a\\ud800b\ud83d\ude00c\\udc00",
                ErrorJson.escapeLoneSurrogates("a\ud800b\ud83d\ude00c\udc00"));
    }

    @Test
    void jsonlParseErrorsNameTheirInputLine() {
        String in =
                "{\"input\": \"ok\"}\n\n{\"input\": \"x <call g>{\\\"a\\\":\"}\r\n"
                        + "{\"input\": \"<call f #!>{}</call>\", \"chunks\": [\"<call f #!>\", \"{}</call>\"]}\n{\"input\": \"fine\"}\n";
        for (String mode : new String[] {"batch", "--stream"}) {
            CliTest.Run r =
                    mode.equals("batch")
                            ? run(bytes(in), "parse", "--format", "toy", "--jsonl")
                            : run(bytes(in), "parse", "--format", "toy", "--jsonl", mode);
            assertEquals(0, r.code(), r.err());
            List<String> lines = r.lines();
            assertEquals(5, lines.size(), r.out());
            assertEquals(
                    2,
                    error(lines.get(1)).get("line").getAsLong(),
                    "an empty line is a line: " + lines.get(1));
            for (int i : new int[] {2, 3}) {
                JsonObject e = error(lines.get(i));
                String message = e.get("message").getAsString();
                assertTrue(
                        message.startsWith("line " + (i + 1) + ": toy: "), mode + ": " + message);
                assertEquals(i + 1, e.get("line").getAsLong(), mode + ": " + e);
                assertEquals("toy", e.get("format").getAsString());
                assertTrue(e.get("offset").isJsonPrimitive(), e.toString());
            }
            assertEquals("unterminated_call", error(lines.get(2)).get("type").getAsString());
            assertFalse(lines.get(4).contains("error"), lines.get(4));
        }
    }

    @Test
    void jsonlRefusesLoneSurrogatesWrongTypesAndUnknownFieldsLineByLine() {
        String[][] cases = {
            {"{\"input\": \"a\\ud800b\"}", "lone surrogate \\ud800 at character 1 of $.input"},
            {"{\"input\": \"a\\udc00\"}", "lone surrogate \\udc00"},
            {
                "{\"input\": \"ok\", \"tools\": [{\"type\": \"function\", \"function\": {\"name\": \"f\\ud83d\"}}]}",
                "$.tools[0].function.name"
            },
            {
                "{\"input\": \"ok\", \"thinking\": \"maybe\"}",
                "\"thinking\" must be true, false or null, not a string \"maybe\""
            },
            {"{\"input\": 5}", "\"input\" must be a string, not a number"},
            {"{\"input\": null}", "\"input\" must be a string, not null"},
            {"{\"tools\": []}", "\"input\" is missing"},
            {"{\"input\": \"ok\", \"tools\": 3}", "\"tools\" must be an array, not a number"},
            {"{\"input\": \"ok\", \"tools\": {}}", "\"tools\" must be an array, not an object"},
            {"{\"input\": \"ok\", \"tools\": [1]}", "tools[0] has no function.name"},
            {"{\"input\": \"ok\", \"thinkng\": true}", "unknown field \"thinkng\""},
            {"{\"input\": 'single'}", "not JSON"},
            {"{\"input\": \"ok\",}", "not JSON"},
            {"[\"input\"]", "expected {\"input\""},
            {"", "not JSON"},
        };
        StringBuilder in = new StringBuilder();
        for (String[] c : cases) in.append(c[0]).append('\n');
        in.append(
                "{\"input\": \"pair \\ud83d\\ude00 fine\", \"thinking\": null, \"tools\": null}\n");
        for (String mode : new String[] {"batch", "--stream"}) {
            CliTest.Run r =
                    mode.equals("batch")
                            ? run(bytes(in.toString()), "parse", "--format", "toy", "--jsonl")
                            : run(
                                    bytes(in.toString()),
                                    "parse",
                                    "--format",
                                    "toy",
                                    "--jsonl",
                                    mode);
            assertEquals(0, r.code(), r.err());
            List<String> lines = r.lines();
            assertEquals(cases.length + 1, lines.size(), r.out());
            for (int i = 0; i < cases.length; i++) {
                JsonObject answer = JsonParser.parseString(lines.get(i)).getAsJsonObject();
                assertEquals(1, answer.size(), "a refused line has only an error: " + lines.get(i));
                JsonObject e = answer.getAsJsonObject("error");
                assertEquals("invalid_input", e.get("type").getAsString(), cases[i][0]);
                String message = e.get("message").getAsString();
                assertTrue(message.startsWith("line " + (i + 1) + " "), message);
                assertEquals(i + 1, e.get("line").getAsLong(), "the error names its line: " + e);
                assertTrue(message.contains(cases[i][1]), cases[i][0] + " -> " + message);
            }
            assertTrue(
                    lines.get(cases.length)
                            .replace("\"},{\"content\":\"", "")
                            .contains("pair 😀 fine"),
                    lines.get(cases.length));
            assertFalse(lines.get(cases.length).contains("?"), "nothing replaced: " + r.out());
            assertFalse(
                    r.out().contains("JsonReader")
                            || r.out().contains("Strictness")
                            || r.out().contains("https://"),
                    "no library internals: " + r.out());
        }
    }

    @Test
    void toolsFileMustBeUtf8WithoutLoneSurrogates() throws IOException {
        Path bad =
                file(
                        "bad-tools.json",
                        bytes(
                                "[{\"type\": \"function\", \"function\": {\"name\": \"",
                                new int[] {0xFF},
                                "\"}}]"));
        CliTest.Run r = run(new byte[0], "parse", "--format", "toy", "--tools", bad.toString());
        assertEquals(2, r.code());
        assertTrue(r.err().contains("not valid UTF-8: byte 0xFF at byte offset 44"), r.err());
        Path lone =
                file(
                        "lone-tools.json",
                        bytes(
                                "[{\"type\": \"function\", \"function\": {\"name\": \"f\\ud800\"}}]"));
        CliTest.Run l = run(new byte[0], "parse", "--format", "toy", "--tools", lone.toString());
        assertEquals(2, l.code());
        assertTrue(l.err().contains("lone surrogate \\ud800"), l.err());
    }

    @Test
    void outOfRangeOptionsAreUsageErrors() {
        String[][] all = {
            {"parse", "--format", "toy", "--chunk-max", "0"},
            {"parse", "--format", "toy", "--chunk-max", "-3"},
            {"parse", "--format", "toy", "--chunk-max", "99999999999"},
            {
                "serve",
                "--format",
                "toy",
                "--replay",
                "src/tests/src/test/resources/suite/toy",
                "--port",
                "99999"
            },
            {
                "serve",
                "--format",
                "toy",
                "--replay",
                "src/tests/src/test/resources/suite/toy",
                "--port",
                "-1"
            },
            {
                "serve",
                "--format",
                "toy",
                "--replay",
                "src/tests/src/test/resources/suite/toy",
                "--delay-ms",
                "-5"
            },
            {
                "serve",
                "--format",
                "toy",
                "--replay",
                "src/tests/src/test/resources/suite/toy",
                "--chunk-max",
                "0"
            },
            {
                "serve",
                "--format",
                "toy",
                "--replay",
                "src/tests/src/test/resources/suite/toy",
                "--max-body",
                "0"
            },
            {
                "serve",
                "--format",
                "toy",
                "--replay",
                "src/tests/src/test/resources/suite/toy",
                "--idle-timeout-ms",
                "0"
            },
            {
                "serve",
                "--format",
                "toy",
                "--replay",
                "src/tests/src/test/resources/suite/toy",
                "--shutdown-timeout-ms",
                "-1"
            },
            {
                "serve",
                "--format",
                "toy",
                "--replay",
                "src/tests/src/test/resources/suite/toy",
                "--max-connections",
                "0"
            },
            {
                "serve",
                "--format",
                "toy",
                "--replay",
                "src/tests/src/test/resources/suite/toy",
                "--delay-ms",
                "30000"
            },
            {
                "serve",
                "--format",
                "toy",
                "--replay",
                "src/tests/src/test/resources/suite/toy",
                "--request-timeout-ms",
                "0"
            },
            {"serve", "--format", "toy", "--replay", "/no/such/dir"},
        };
        for (String[] args : all) {
            CliTest.Run r = run(new byte[0], args);
            assertEquals(2, r.code(), String.join(" ", args) + "\n" + r.err());
            assertTrue(r.err().startsWith("error: "), r.err());
            assertFalse(r.err().contains("\tat "), r.err());
        }
    }

    /** The reference cutting, as {@code parse --stream} always did it on the whole text. */
    static List<String> referenceSplit(String text, int max, long seed) {
        Random random = new Random(seed);
        List<String> out = new ArrayList<>();
        int i = 0;
        while (i < text.length()) {
            int n = 1 + random.nextInt(max);
            int end = i;
            for (int k = 0; k < n && end < text.length(); k++)
                end += Character.charCount(text.codePointAt(end));
            out.add(text.substring(i, end));
            i = end;
        }
        return out;
    }

    @Test
    void incrementalCuttingGivesExactlyTheChunksOfTheWholeText() {
        Random r = new Random(42);
        String alphabet = "ab<>{}\"é東😀\n";
        for (int t = 0; t < 300; t++) {
            StringBuilder sb = new StringBuilder();
            int len = r.nextInt(200);
            for (int i = 0; i < len; i++)
                sb.appendCodePoint(
                        alphabet.codePointAt(
                                alphabet.offsetByCodePoints(
                                        0,
                                        r.nextInt(alphabet.codePointCount(0, alphabet.length())))));
            String text = sb.toString();
            int max = 1 + r.nextInt(12);
            long seed = r.nextLong();
            List<String> want = referenceSplit(text, max, seed);
            assertEquals(want, Chunker.split(text, max, seed));
            // the same text pushed in random pieces, split anywhere, even inside a surrogate pair
            Chunker.Cutter cutter = new Chunker.Cutter(max, seed);
            List<String> got = new ArrayList<>();
            int i = 0;
            while (i < text.length()) {
                int end = Math.min(text.length(), i + r.nextInt(9));
                got.addAll(cutter.push(text.substring(i, end)));
                i = end;
            }
            got.addAll(cutter.finish());
            assertEquals(want, got, "max " + max + " seed " + seed);
        }
    }

    @Test
    void streamOfAnInputLargerThanOneReadIsByteIdenticalToCuttingTheWholeText() throws IOException {
        StringBuilder sb = new StringBuilder();
        for (int i = 0; sb.length() < 100_000; i++)
            sb.append("text é東😀 ")
                    .append(i)
                    .append(" <call f")
                    .append("abcdefg".charAt(i % 7))
                    .append(">{\"k\": \"v😀\\\"")
                    .append(i)
                    .append("\"}</call>\n");
        String text = sb.toString();
        Path f = file("big.txt", text.getBytes(StandardCharsets.UTF_8));
        Format toy = Formats.get("toy");
        for (Output protocol : Output.values()) {
            ByteArrayOutputStream want = new ByteArrayOutputStream();
            PrintStream p = new PrintStream(want, false, StandardCharsets.UTF_8);
            Output.Run run =
                    protocol.stream(
                            toy,
                            Tools.none(),
                            ParseOptions.defaults().withIds(() -> IdGenerator.seeded(0)));
            for (String chunk : referenceSplit(text, 5, 11))
                for (String line : run.feed(chunk)) p.println(line);
            for (String line : run.finish()) p.println(line);
            p.flush();
            CliTest.Run got =
                    run(
                            new byte[0],
                            "parse",
                            "--format",
                            "toy",
                            "--stream",
                            "--chunk-max",
                            "5",
                            "--chunk-seed",
                            "11",
                            "--output",
                            protocol.name().toLowerCase(Locale.ROOT),
                            f.toString());
            assertEquals(0, got.code(), got.err());
            assertEquals(want.toString(StandardCharsets.UTF_8), got.out(), protocol.name());
        }
    }

    static Process cli(String heap, Path input, String... args) throws IOException {
        // the CLI's own class path (the test class path with its SDKs would take a small heap
        // before the CLI runs)
        String classPath =
                Arrays.stream(System.getProperty("java.class.path").split(File.pathSeparator))
                        .filter(
                                e ->
                                        e.endsWith("classes") && !e.endsWith("test-classes")
                                                || Path.of(e)
                                                        .getFileName()
                                                        .toString()
                                                        .startsWith("toolcalls-")
                                                || e.contains("picocli")
                                                || e.contains("antlr4-runtime")
                                                || e.contains("gson"))
                        .collect(Collectors.joining(File.pathSeparator));
        List<String> command =
                new ArrayList<>(
                        List.of(
                                Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                                heap,
                                "-cp",
                                classPath,
                                "dev.toolcalls.cli.Main"));
        command.addAll(List.of(args));
        return new ProcessBuilder(command)
                .redirectInput(input.toFile())
                .redirectOutput(ProcessBuilder.Redirect.DISCARD)
                .start();
    }

    static Path generate(Path p, long bytes, String unit) throws IOException {
        byte[] u = unit.getBytes(StandardCharsets.UTF_8);
        try (OutputStream out = new BufferedOutputStream(Files.newOutputStream(p), 1 << 16)) {
            for (long n = 0; n < bytes; n += u.length) out.write(u);
        }
        return p;
    }

    @Test
    void streamReadsIncrementallySoTheHeapNeedNotHoldTheInput() throws Exception {
        // 6 MB of content and calls (12 MB as a Java string) through a 12 MB heap: only streaming
        // can do it
        Path big = generate(dir.resolve("big.txt"), 6L << 20, HERMES_UNIT);
        Process stream =
                cli(
                        "-Xmx12m",
                        big,
                        "parse",
                        "--format",
                        "hermes",
                        "--stream",
                        "--chunk-max",
                        "64",
                        "-");
        String err = new String(stream.getErrorStream().readAllBytes(), StandardCharsets.UTF_8);
        assertTrue(stream.waitFor(120, TimeUnit.SECONDS));
        assertEquals(0, stream.exitValue(), err);
        // the same for --jsonl: one line at a time
        Path lines =
                generate(
                        dir.resolve("big.jsonl"),
                        6L << 20,
                        "{\"input\": " + new Gson().toJson(HERMES_UNIT) + "}\n");
        Process jsonl =
                cli("-Xmx12m", lines, "parse", "--format", "hermes", "--jsonl", "--stream", "-");
        String jerr = new String(jsonl.getErrorStream().readAllBytes(), StandardCharsets.UTF_8);
        assertTrue(jsonl.waitFor(120, TimeUnit.SECONDS));
        assertEquals(0, jsonl.exitValue(), jerr);
    }

    @Test
    void outOfMemoryIsTheJsonErrorObjectWithExit3AndNoStackTrace() throws Exception {
        Path big = generate(dir.resolve("big.txt"), 6L << 20, HERMES_UNIT);
        Process batch = cli("-Xmx12m", big, "parse", "--format", "hermes", "-");
        String err = new String(batch.getErrorStream().readAllBytes(), StandardCharsets.UTF_8);
        assertTrue(batch.waitFor(120, TimeUnit.SECONDS));
        assertEquals(3, batch.exitValue(), err);
        assertEquals(1, err.lines().count(), err);
        JsonObject e = error(err);
        assertEquals("internal_error", e.get("type").getAsString());
        assertTrue(e.get("message").getAsString().startsWith("out of memory"), err);
        assertFalse(err.contains("\tat ") || err.contains("Exception in thread"), err);
    }

    /** One call whose single string argument is {@code bytes} long. */
    static Path oneHugeArgument(Path p, long bytes) throws IOException {
        byte[] filler = "abcdefghij klmnopqrst \\n ".getBytes(StandardCharsets.UTF_8);
        try (OutputStream out = new BufferedOutputStream(Files.newOutputStream(p), 1 << 16)) {
            out.write(
                    "<tool_call>\n{\"name\": \"write\", \"arguments\": {\"text\": \""
                            .getBytes(StandardCharsets.UTF_8));
            for (long n = 0; n < bytes; n += filler.length) out.write(filler);
            out.write("\"}}\n</tool_call>".getBytes(StandardCharsets.UTF_8));
        }
        return p;
    }

    @Test
    void aStreamedArgumentLargerThanTheHeapCanHoldStopsWithTooLargeNotOutOfMemory()
            throws Exception {
        // 12 MB of heap: a call's arguments may reach 768 Ki characters; this one is 8 MB
        Path big = oneHugeArgument(dir.resolve("huge-argument.txt"), 8L << 20);
        Process stream = cli("-Xmx12m", big, "parse", "--format", "hermes", "--stream", "-");
        String err = new String(stream.getErrorStream().readAllBytes(), StandardCharsets.UTF_8);
        assertTrue(stream.waitFor(120, TimeUnit.SECONDS));
        assertEquals(3, stream.exitValue(), err);
        assertEquals(1, err.lines().count(), err);
        JsonObject e = error(err);
        assertEquals("too_large", e.get("type").getAsString(), err);
        assertTrue(e.get("message").getAsString().contains("the arguments of call 0 passed"), err);
        assertFalse(err.contains("\tat ") || err.contains("Exception in thread"), err);
        // under the limit, the same shape streams through the same heap
        Path fits = oneHugeArgument(dir.resolve("argument.txt"), 256L << 10);
        Process ok = cli("-Xmx12m", fits, "parse", "--format", "hermes", "--stream", "-");
        String okErr = new String(ok.getErrorStream().readAllBytes(), StandardCharsets.UTF_8);
        assertTrue(ok.waitFor(120, TimeUnit.SECONDS));
        assertEquals(0, ok.exitValue(), okErr);
    }
}
