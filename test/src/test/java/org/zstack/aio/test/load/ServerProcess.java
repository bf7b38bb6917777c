package org.zstack.aio.test.load;

import org.zstack.aio.test.support.RunningServer;
import org.zstack.aio.test.support.TestDatabase;

import java.io.File;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * The management server in a JVM of its own (as in production: one server per JVM), for A/B loads: two servers in
 * one JVM share its JIT, whose profiles of the common code then mix both configurations, and share its CPU account
 * with the client. {@link #cpu()} is this process's CPU alone. Its heap is fixed (-Xms = -Xmx = 512 MB).
 */
final class ServerProcess implements AutoCloseable {

    private final Process process;
    private final int port;

    private ServerProcess(Process process, int port) {
        this.process = process;
        this.port = port;
    }

    static ServerProcess start(TestDatabase db, Map<String, String> extra, Path log) throws Exception {
        int port;
        try (ServerSocket s = new ServerSocket(0, 1, java.net.InetAddress.getLoopbackAddress())) {
            port = s.getLocalPort();
        }
        List<String> cmd = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString()));
        // extra JVM options for the servers, e.g. a profiler: -Daio.load.serverJvmOpts="-XX:StartFlightRecording=..."
        // ("{name}" becomes the log's name, so each server writes its own recording)
        String opts = System.getProperty("aio.load.serverJvmOpts", "").replace("{name}", log.getFileName().toString());
        if (!opts.isBlank()) cmd.addAll(List.of(opts.trim().split("\\s+")));
        // a fixed heap, as a server is run: with -Xmx alone G1 sizes the heap from the JVM's own history, and one run
        // gave the two servers 127 and 194 MB committed (same live data), so one made twice the young collections
        cmd.addAll(List.of("-Xms512m", "-Xmx512m", "-cp", System.getProperty("java.class.path"), "org.zstack.aio.launcher.AioLauncher",
                "--server.port=" + port, "--server.address=127.0.0.1", "--AIO_DB_URL=" + db.url(), "--AIO_DB_USER=" + db.user(),
                "--AIO_DB_PASSWORD=" + db.password(), "--AIO_DATA_DIR=" + db.dataDir(),
                "--AIO_ADMIN_PASSWORD=" + RunningServer.ADMIN_PASSWORD, "--aio.demo=false"));
        extra.forEach((k, v) -> cmd.add("--" + k + "=" + v));
        Process p = new ProcessBuilder(cmd).redirectErrorStream(true).redirectOutput(log.toFile()).start();
        ServerProcess sp = new ServerProcess(p, port);
        HttpClient http = HttpClient.newHttpClient();
        long deadline = System.nanoTime() + Duration.ofSeconds(120).toNanos();
        while (System.nanoTime() < deadline) {
            if (!p.isAlive()) throw new IllegalStateException("the server exited with " + p.exitValue() + "; see " + log);
            try {
                HttpResponse<Void> r = http.send(HttpRequest.newBuilder(URI.create(sp.baseUrl() + "/health")).build(),
                        HttpResponse.BodyHandlers.discarding());
                if (r.statusCode() == 200) return sp;
            } catch (java.io.IOException notYet) {
                // not listening yet
            }
            Thread.sleep(200);
        }
        sp.close();
        throw new IllegalStateException("the server did not become ready within 120 s; see " + log);
    }

    String baseUrl() {
        return "http://127.0.0.1:" + port;
    }

    long pid() {
        return process.pid();
    }

    /** CPU time this server process has used so far (all its threads: requests, GC, JIT, background). */
    Duration cpu() {
        return process.toHandle().info().totalCpuDuration().orElseThrow();
    }

    @Override
    public void close() throws Exception {
        process.destroy();
        if (!process.waitFor(30, java.util.concurrent.TimeUnit.SECONDS)) process.destroyForcibly().waitFor();
    }

    static Path logFile(String name) {
        return new File(System.getProperty("java.io.tmpdir"), "aio-load-" + name + ".log").toPath();
    }
}
