package org.zstack.aio.agent.support;

import org.libvirt.LibvirtException;
import org.zstack.aio.agent.libvirt.LibvirtHost;

import java.nio.file.Files;
import java.nio.file.Path;

import static org.junit.jupiter.api.Assertions.fail;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * The system libvirtd for the real tests: a connection, or the test skipped without one, except under CI=true,
 * where a skip would hide that nothing was proven, so it fails.
 */
public final class SystemLibvirt {

    public static final String URI = "qemu:///system";

    private SystemLibvirt() {
    }

    /** @param socket where the daemon's socket should be (a test of the skip rule itself may move it) */
    public static LibvirtHost connectOrSkip(Path socket, String what) {
        String why;
        if (!Files.exists(socket)) {
            why = "no libvirtd socket at " + socket;
        } else {
            try {
                return new LibvirtHost(URI);
            } catch (LibvirtException | LinkageError e) {
                why = "cannot connect to " + URI + ": " + e.getMessage();
            }
        }
        String msg = why + " (run: sudo bash bin/lib/setup-libvirt.sh)";
        if ("true".equalsIgnoreCase(System.getenv("CI"))) fail("CI=true: " + what + " must run, but " + msg);
        assumeTrue(false, msg);
        throw new IllegalStateException("unreachable");
    }

    public static LibvirtHost connectOrSkip(String what) {
        return connectOrSkip(Path.of(System.getProperty("aio.libvirt.socket", "/run/libvirt/libvirt-sock")), what);
    }
}
