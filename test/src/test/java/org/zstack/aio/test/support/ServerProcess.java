package org.zstack.aio.test.support;

import org.zstack.aio.launcher.AioLauncher;

import java.io.IOException;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * The management server as its own OS process (the launcher, on this JVM's class path), so a test can SIGKILL it
 * mid-operation and start it again on the same database.
 */
public final class ServerProcess implements AutoCloseable {

    private final Process process;
    private final int port;

    private ServerProcess(Process process, int port) {
        this.process = process;
        this.port = port;
    }

    /** Starts the server (no embedded agent, no demo) and waits until GET /health answers 200. */
    public static ServerProcess start(TestDatabase db, Path log, Map<String, String> extra, Duration healthyWithin) throws Exception {
        List<String> args = new ArrayList<>(List.of("--AIO_DB_URL=" + db.url(), "--AIO_DB_USER=" + db.user(),
                "--AIO_DB_PASSWORD=" + db.password(), "--AIO_DATA_DIR=" + db.dataDir(),
                "--AIO_ADMIN_PASSWORD=" + RunningServer.ADMIN_PASSWORD, "--aio.embedded-agent=false", "--aio.demo=false"));
        extra.forEach((k, v) -> args.add("--" + k + "=" + v));
        ServerProcess server = spawn(List.of("-cp", System.getProperty("java.class.path"), AioLauncher.class.getName()), args, log);
        server.awaitHealthy(healthyWithin, log);
        return server;
    }

    /**
     * {@code bin/aio-server} as a user runs it with no database configured: the launcher's executable jar (what
     * bin/aio-server execs, built by this reactor) with embedded H2 in {@code dataDir}, the in-process agent on a free
     * loopback port and the demo inventory. Returns at once, healthy or not. Not the class path: the jar orders the
     * boot's beans as users get them (on the class path the demo happened to run before the boot reconciliation).
     */
    public static ServerProcess launchDemo(Path dataDir, Path log) throws IOException {
        Path jar = Path.of("..", "plugin-aio", "launcher", "target", "aio-launcher-1.0.0-SNAPSHOT-exec.jar").toAbsolutePath().normalize();
        Path serverJar = Path.of("..", "plugin-aio", "server", "target", "aio-server-1.0.0-SNAPSHOT.jar");
        if (!Files.isRegularFile(jar) || Files.getLastModifiedTime(jar).compareTo(Files.getLastModifiedTime(serverJar)) < 0) {
            throw new IllegalStateException(jar + " is missing or older than the server's jar: build it in this reactor "
                    + "(mvn -pl test -am verify ...), as bin/aio-server would");
        }
        return spawn(List.of("-jar", jar.toString()), List.of("--AIO_DATA_DIR=" + dataDir,
                "--AIO_ADMIN_PASSWORD=" + RunningServer.ADMIN_PASSWORD, "--AIO_AGENT_PORT=0"), log);
    }

    /** {@code main} (a class path and main class, or -jar) on a free port of 127.0.0.1, without any AIO_DB_* of ours. */
    private static ServerProcess spawn(List<String> main, List<String> args, Path log) throws IOException {
        int port;
        try (ServerSocket s = new ServerSocket(0)) {
            port = s.getLocalPort();
        }
        List<String> cmd = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-Xmx384m", "-XX:TieredStopAtLevel=1"));
        cmd.addAll(main);
        cmd.addAll(List.of("--server.port=" + port, "--server.address=127.0.0.1"));
        cmd.addAll(args);
        Files.createDirectories(log.getParent());
        ProcessBuilder b = new ProcessBuilder(cmd).redirectErrorStream(true).redirectOutput(ProcessBuilder.Redirect.appendTo(log.toFile()));
        // the arguments say which database; an AIO_DB_URL in the test's environment would turn the demo off
        b.environment().keySet().removeIf(k -> k.startsWith("AIO_DB_"));
        return new ServerProcess(b.start(), port);
    }

    /** Waits until GET /health answers 200; fails when the process exits or the time is up. */
    public void awaitHealthy(Duration within, Path log) throws Exception {
        Http http = new Http(baseUrl());
        long deadline = System.nanoTime() + within.toNanos();
        while (true) {
            if (!process.isAlive()) throw new IllegalStateException("the server process exited " + process.exitValue() + "; see " + log);
            try {
                if (http.get("/health", null).status() == 200) return;
            } catch (RuntimeException notYet) {
                // not listening yet
            }
            if (System.nanoTime() > deadline) {
                kill();
                throw new IllegalStateException("the server was not healthy within " + within + "; see " + log);
            }
            Thread.sleep(200);
        }
    }

    public boolean alive() {
        return process.isAlive();
    }

    public String baseUrl() {
        return "http://127.0.0.1:" + port;
    }

    /** SIGKILL: no shutdown hook, no transaction finished. */
    public void kill() throws InterruptedException {
        process.destroyForcibly();
        process.waitFor();
    }

    @Override
    public void close() throws Exception {
        if (process.isAlive()) {
            process.destroy();
            if (!process.waitFor(20, java.util.concurrent.TimeUnit.SECONDS)) kill();
        }
    }

    /** How many QEMU processes run for a domain (the guest name is on QEMU's command line). */
    public static int qemuCount(String domainName) throws IOException {
        int n = 0;
        try (var procs = Files.list(Path.of("/proc"))) {
            for (Path p : (Iterable<Path>) procs::iterator) {
                if (!p.getFileName().toString().matches("[0-9]+")) continue;
                try {
                    String cmdline = new String(Files.readAllBytes(p.resolve("cmdline"))).replace('\0', ' ');
                    if (cmdline.contains("qemu") && cmdline.contains("guest=" + domainName + ",")) n++;
                } catch (IOException gone) {
                    // the process ended while we looked
                }
            }
        }
        return n;
    }
}
