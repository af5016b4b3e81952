import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * Build step (package, after the shade): writes the class-data archive of the CLI, {@code
 * target/toolcalls.jsa}, and the launcher {@code target/toolcalls} that uses it. The archive holds
 * the classes a training run loaded (see {@code dev.toolcalls.cli.ClassArchiveTraining}), already
 * parsed and verified, so that {@code java -XX:SharedArchiveFile=target/toolcalls.jsa -jar
 * target/toolcalls.jar parse ...} starts without loading them from the jar.
 *
 * <p>Usage: {@code java src/build/WriteClassArchive.java JAR ARCHIVE LAUNCHER CASES}
 *
 * <p>An archive that cannot be written (a JDK that cannot dump one, a training run that fails or
 * takes more than two minutes) is a warning, never a failed build: the jar runs the same without
 * it, and the launcher only uses an archive that is there.
 */
public final class WriteClassArchive {
    public static void main(String[] args) throws IOException, InterruptedException {
        Path jar = Path.of(args[0]).toAbsolutePath().normalize();
        Path archive = Path.of(args[1]).toAbsolutePath().normalize();
        Path launcher = Path.of(args[2]).toAbsolutePath().normalize();
        Path cases = Path.of(args[3]).toAbsolutePath().normalize();
        writeLauncher(launcher);
        Files.deleteIfExists(archive);
        Path java = Path.of(System.getProperty("java.home"), "bin", "java");
        Path log = Files.createTempFile("toolcalls-cds", ".log");
        List<String> command =
                List.of(
                        java.toString(),
                        "-XX:ArchiveClassesAtExit=" + archive,
                        "-Xlog:cds=warning,cds+dynamic=warning",
                        "-cp",
                        jar.toString(),
                        "dev.toolcalls.cli.ClassArchiveTraining",
                        cases.toString());
        String why = null;
        try {
            Process p =
                    new ProcessBuilder(command)
                            .redirectErrorStream(true)
                            .redirectOutput(log.toFile())
                            .start();
            if (!p.waitFor(120, TimeUnit.SECONDS)) {
                p.destroyForcibly();
                why = "the training run took more than 120 s";
            } else if (p.exitValue() != 0) {
                why = "the training run exited with " + p.exitValue();
            } else if (!Files.isRegularFile(archive) || Files.size(archive) == 0) {
                why = "this JDK wrote no archive";
            }
        } catch (IOException e) {
            why = "cannot run " + java + ": " + e.getMessage();
        }
        if (why != null) {
            Files.deleteIfExists(archive);
            System.out.println(
                    "[WARNING] no class-data archive "
                            + archive
                            + ": "
                            + why
                            + "; the jar runs without it (slower start). Training output:");
            for (String line : Files.readAllLines(log, StandardCharsets.UTF_8))
                System.out.println("[WARNING]   " + line);
        } else {
            System.out.println(
                    "[INFO] class-data archive "
                            + archive
                            + " ("
                            + Files.size(archive) / 1024
                            + " KiB)");
        }
        Files.deleteIfExists(log);
    }

    /**
     * {@code target/toolcalls}: runs the jar beside it with the archive beside it when there is one
     * ({@code $JAVA_HOME/bin/java}, else {@code java}; {@code JAVA_OPTS} are passed on). The JVM's
     * own warnings (an archive that does not match the jar is not used) go to stderr, never into
     * the output.
     */
    static void writeLauncher(Path launcher) throws IOException {
        String script =
                "#!/bin/sh\n"
                        + "# Runs toolcalls.jar with the class-data archive the build wrote beside it (faster start);\n"
                        + "# without the archive, the jar alone. Written by src/build/WriteClassArchive.java.\n"
                        + "dir=$(CDPATH= cd -- \"$(dirname -- \"$0\")\" && pwd)\n"
                        + "java=java\n"
                        + "[ -n \"$JAVA_HOME\" ] && [ -x \"$JAVA_HOME/bin/java\" ] && java=\"$JAVA_HOME/bin/java\"\n"
                        + "if [ -f \"$dir/toolcalls.jsa\" ]; then\n"
                        + "    exec \"$java\" -XX:SharedArchiveFile=\"$dir/toolcalls.jsa\" -Xshare:auto"
                        + " -Xlog:disable -Xlog:all=warning:stderr $JAVA_OPTS -jar \"$dir/toolcalls.jar\" \"$@\"\n"
                        + "fi\n"
                        + "exec \"$java\" $JAVA_OPTS -jar \"$dir/toolcalls.jar\" \"$@\"\n";
        Files.createDirectories(launcher.getParent());
        Files.writeString(launcher, script, StandardCharsets.UTF_8);
        try {
            Files.setPosixFilePermissions(launcher, PosixFilePermissions.fromString("rwxr-xr-x"));
        } catch (UnsupportedOperationException e) {
            // not a POSIX file system: run it with sh
        }
    }
}
