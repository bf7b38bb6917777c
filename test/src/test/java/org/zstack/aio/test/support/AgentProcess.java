package org.zstack.aio.test.support;

import org.zstack.aio.agent.AgentMain;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;

/**
 * The real KVM agent (bin/aio-agent's main class) as its own OS process on loopback, so a test can SIGKILL it, or
 * SIGSTOP and SIGCONT it, as a crashed or hung agent; restarted with the same data dir it is the same enrolled agent.
 */
public final class AgentProcess implements AutoCloseable {

    private final int port;
    private final Path dataDir;
    private final Path log;
    private Process process;

    private AgentProcess(int port, Path dataDir, Path log) {
        this.port = port;
        this.dataDir = dataDir;
        this.log = log;
    }

    public static AgentProcess start(String name, String libvirtUri) throws Exception {
        int port;
        try (ServerSocket s = new ServerSocket(0, 1, java.net.InetAddress.getLoopbackAddress())) {
            port = s.getLocalPort();
        }
        AgentProcess a = new AgentProcess(port, Path.of(Storage.dir(name + "-agent-data")),
                Path.of("target", name + "-agent-" + System.currentTimeMillis() + ".log").toAbsolutePath());
        a.start(libvirtUri);
        return a;
    }

    /** Starts (or starts again) the agent and waits until its port takes connections. */
    public void start(String libvirtUri) throws Exception {
        Files.createDirectories(log.getParent());
        process = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "java").toString(), "-Xmx192m",
                "-XX:TieredStopAtLevel=1", "-cp", System.getProperty("java.class.path"), AgentMain.class.getName(),
                "--port", String.valueOf(port), "--bind", "127.0.0.1", "--libvirt-uri", libvirtUri,
                "--data-dir", dataDir.toString())
                .redirectErrorStream(true).redirectOutput(ProcessBuilder.Redirect.appendTo(log.toFile())).start();
        long deadline = System.nanoTime() + Duration.ofSeconds(60).toNanos();
        while (true) {
            if (!process.isAlive()) throw new IllegalStateException("the agent exited " + process.exitValue() + "; see " + log);
            try (Socket s = new Socket()) {
                s.connect(new InetSocketAddress("127.0.0.1", port), 200);
                return;
            } catch (IOException notYet) {
                if (System.nanoTime() > deadline) throw new IllegalStateException("the agent did not listen; see " + log);
                Thread.sleep(100);
            }
        }
    }

    public int port() {
        return port;
    }

    /** The enrollment token, as an operator copies it from the agent's data dir. */
    public String enrollmentToken() throws IOException {
        return Files.readString(dataDir.resolve("agent-enrollment")).trim();
    }

    public void signal(String signal) throws Exception {
        Process k = new ProcessBuilder("kill", "-" + signal, String.valueOf(process.pid())).start();
        if (k.waitFor() != 0) throw new IllegalStateException("kill -" + signal + " " + process.pid() + " failed");
        if ("KILL".equals(signal)) process.waitFor();
    }

    @Override
    public void close() throws Exception {
        if (process != null && process.isAlive()) {
            signal("CONT");
            process.destroy();
            if (!process.waitFor(20, java.util.concurrent.TimeUnit.SECONDS)) process.destroyForcibly().waitFor();
        }
    }

}
