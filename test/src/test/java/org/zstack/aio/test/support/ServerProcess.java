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
        int port;
        try (ServerSocket s = new ServerSocket(0)) {
            port = s.getLocalPort();
        }
        List<String> cmd = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-Xmx384m", "-XX:TieredStopAtLevel=1", "-cp", System.getProperty("java.class.path"), AioLauncher.class.getName(),
                "--server.port=" + port, "--AIO_DB_URL=" + db.url(), "--AIO_DB_USER=" + db.user(),
                "--AIO_DB_PASSWORD=" + db.password(), "--AIO_DATA_DIR=" + db.dataDir(),
                "--AIO_ADMIN_PASSWORD=" + RunningServer.ADMIN_PASSWORD, "--aio.embedded-agent=false", "--aio.demo=false"));
        extra.forEach((k, v) -> cmd.add("--" + k + "=" + v));
        Files.createDirectories(log.getParent());
        Process p = new ProcessBuilder(cmd).redirectErrorStream(true).redirectOutput(ProcessBuilder.Redirect.appendTo(log.toFile())).start();
        ServerProcess server = new ServerProcess(p, port);
        Http http = new Http(server.baseUrl());
        long deadline = System.nanoTime() + healthyWithin.toNanos();
        while (true) {
            if (!p.isAlive()) throw new IllegalStateException("the server process exited " + p.exitValue() + "; see " + log);
            try {
                if (http.get("/health", null).status() == 200) return server;
            } catch (RuntimeException notYet) {
                // not listening yet
            }
            if (System.nanoTime() > deadline) {
                server.kill();
                throw new IllegalStateException("the server was not healthy within " + healthyWithin + "; see " + log);
            }
            Thread.sleep(200);
        }
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
