package org.zstack.aio.test.support;

import com.fasterxml.jackson.databind.JsonNode;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * What a running QEMU process really does, read from /proc: each disk's aio mode from its -blockdev argument, the
 * io_uring file descriptor, the kernel AIO ring mapping. QEMU 7.2's query-block has no aio field, so this is the proof.
 */
public record QemuProcess(long pid, List<String> args) {

    public static QemuProcess of(String domainName) {
        return of(Path.of("/run/libvirt/qemu"), domainName);
    }

    /** The QEMU of a domain of another libvirtd, whose QEMU driver writes pid files to {@code runDir}. */
    public static QemuProcess of(Path runDir, String domainName) {
        try {
            Path pidFile = runDir.resolve(domainName + ".pid");
            long pid = Long.parseLong(Files.readString(pidFile).trim());
            byte[] raw = Files.readAllBytes(Path.of("/proc", Long.toString(pid), "cmdline"));
            List<String> args = new ArrayList<>();
            int start = 0;
            for (int i = 0; i < raw.length; i++) {
                if (raw[i] == 0) {
                    args.add(new String(raw, start, i - start));
                    start = i + 1;
                }
            }
            return new QemuProcess(pid, args);
        } catch (IOException e) {
            throw new IllegalStateException("no QEMU process for domain " + domainName + ": " + e, e);
        }
    }

    public static boolean running(String domainName) {
        return Files.exists(Path.of("/run/libvirt/qemu", domainName + ".pid"));
    }

    /** The -blockdev of the file at installPath, as JSON. */
    public JsonNode blockdev(String installPath) {
        for (String a : args) {
            if (a.startsWith("{") && a.contains("\"filename\":\"" + installPath + "\"")) {
                try {
                    return Http.JSON.readTree(a);
                } catch (IOException e) {
                    throw new IllegalStateException(e);
                }
            }
        }
        throw new AssertionError("no -blockdev for " + installPath + " in " + args);
    }

    /** The aio mode QEMU opened the image with; QEMU's default threads when the attribute is absent. */
    public String aio(String installPath) {
        return blockdev(installPath).path("aio").asText("threads");
    }

    public boolean hasAioAttribute(String installPath) {
        return blockdev(installPath).has("aio");
    }

    public boolean cacheDirect(String installPath) {
        return blockdev(installPath).path("cache").path("direct").asBoolean(false);
    }

    /** An io_uring instance exists only when some disk runs aio=io_uring. */
    public boolean hasIoUringFd() {
        try (var fds = Files.list(Path.of("/proc", Long.toString(pid), "fd"))) {
            return fds.anyMatch(fd -> {
                try {
                    return Files.readSymbolicLink(fd).toString().contains("io_uring");
                } catch (IOException e) {
                    return false;
                }
            });
        } catch (IOException e) {
            throw new IllegalStateException(e);
        }
    }

    /** The kernel AIO ring ([aio] mapping) exists only when some disk runs aio=native. */
    public boolean hasKernelAioRing() {
        try {
            return Files.readString(Path.of("/proc", Long.toString(pid), "maps")).contains("[aio]");
        } catch (IOException e) {
            throw new IllegalStateException(e);
        }
    }

    /** Whether libvirt still has a domain of that name (defined or running). */
    public static boolean defined(String domainName) {
        try {
            Process p = new ProcessBuilder("virsh", "-c", "qemu:///system", "domstate", domainName)
                    .redirectErrorStream(true).start();
            p.getInputStream().readAllBytes();
            return p.waitFor() == 0;
        } catch (IOException | InterruptedException e) {
            throw new IllegalStateException(e);
        }
    }

    public static boolean libvirtAnswers() {
        if (!Files.exists(Path.of("/run/libvirt/libvirt-sock"))) return false;
        try {
            Process p = new ProcessBuilder("virsh", "-c", "qemu:///system", "version").redirectErrorStream(true).start();
            p.getInputStream().readAllBytes();
            return p.waitFor() == 0;
        } catch (IOException | InterruptedException e) {
            return false;
        }
    }
}
