package org.zstack.aio.agent.support;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;

/**
 * The second libvirtd of this machine (bin/lib/setup-libvirt-b.sh: own mount namespace, own host UUID), the
 * destination "host" of live-migration tests. Found by its socket; started once through the script when absent and
 * the tests run as root (bin/aio-test starts it before the tests, so normally it is just found). Never stopped here:
 * the run that started it tears it down.
 */
public final class SecondLibvirt {

    public static final Path DIR = Path.of(System.getenv().getOrDefault("AIO_LIBVIRT_B_DIR", "/var/tmp/aio-libvirt-b"));
    public static final Path SOCKET = DIR.resolve("run/libvirt-sock");
    public static final String URI = "qemu+unix:///system?socket=" + SOCKET;

    private SecondLibvirt() {
    }

    /** @return why it is not available, or empty when its socket is there (started here if needed) */
    public static synchronized Optional<String> ensure() {
        if (Files.exists(SOCKET)) {
            return Optional.empty();
        }
        Path script = findScript();
        if (script == null) {
            return Optional.of("no " + SOCKET + " and no bin/lib/setup-libvirt-b.sh above " + Path.of("").toAbsolutePath());
        }
        try {
            Process p = new ProcessBuilder("bash", script.toString()).inheritIO().start();
            int rc = p.waitFor();
            return Files.exists(SOCKET) ? Optional.empty()
                    : Optional.of("bash " + script + " exited " + rc + " and left no " + SOCKET + " (run it as root)");
        } catch (IOException e) {
            return Optional.of("cannot run " + script + ": " + e.getMessage());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return Optional.of("interrupted while starting the second libvirtd");
        }
    }

    /** The destination QEMU's pid: its pid file lives in the second daemon's private /run/libvirt. */
    public static Optional<Integer> qemuPid(String domain) throws IOException {
        Path f = DIR.resolve("run/qemu/" + domain + ".pid");
        return Files.exists(f) ? Optional.of(Integer.parseInt(Files.readString(f).strip())) : Optional.empty();
    }

    private static Path findScript() {
        for (Path d = Path.of("").toAbsolutePath(); d != null; d = d.getParent()) {
            Path s = d.resolve("bin/lib/setup-libvirt-b.sh");
            if (Files.exists(s)) {
                return s;
            }
        }
        return null;
    }
}
