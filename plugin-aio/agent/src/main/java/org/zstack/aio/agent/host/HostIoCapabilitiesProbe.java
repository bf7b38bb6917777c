package org.zstack.aio.agent.host;

import org.libvirt.LibvirtException;
import org.zstack.aio.agent.api.HostConnectCmd;
import org.zstack.aio.agent.api.HostFactsRsp;
import org.zstack.aio.agent.api.StoragePathFacts;
import org.zstack.aio.agent.libvirt.LibvirtHost;
import org.zstack.aio.agent.process.ProcessResult;
import org.zstack.aio.agent.process.ProcessRunner;
import org.zstack.aio.agent.qemu.QemuImg;
import org.zstack.aio.decision.IoMode;

import java.io.IOException;
import java.io.RandomAccessFile;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The host's io facts, each probed on this host at call time (so a reconnect refreshes them): files under
 * /proc/sys, the QEMU binary, a real qemu-img open with each aio mode, libvirt's own version, and per storage path
 * O_DIRECT, its filesystem and loop backing ({@link StoragePathProbe}). A missing tool or file gives a null/false fact with the reason, never an exception.
 */
public final class HostIoCapabilitiesProbe {

    private static final Pattern QEMU_VERSION = Pattern.compile("version\\s+(\\d+\\.\\d+(?:\\.\\d+)?)");

    private final ProcessRunner runner;
    private final QemuImg qemuImg;
    private final LibvirtHost libvirt;
    private final Path procSys;
    private final StoragePathProbe storagePaths;
    private final KnownBadFactsProbe knownBad;

    /** This host's: /proc/sys, /proc/mounts and the block devices' sysfs. */
    public HostIoCapabilitiesProbe(ProcessRunner runner, LibvirtHost libvirt) {
        this(runner, libvirt, Path.of("/proc/sys"), StoragePathProbe.ofThisHost());
    }

    /** @param procSys normally /proc/sys, @param storagePaths normally this host's: tests point them at recorded ones */
    public HostIoCapabilitiesProbe(ProcessRunner runner, LibvirtHost libvirt, Path procSys, StoragePathProbe storagePaths) {
        this.runner = runner;
        this.qemuImg = new QemuImg(runner);
        this.libvirt = libvirt;
        this.procSys = procSys;
        this.storagePaths = storagePaths;
        this.knownBad = new KnownBadFactsProbe(runner, procSys);
    }

    public HostFactsRsp probe(HostConnectCmd cmd) {
        List<String> paths = cmd == null || cmd.storagePaths() == null ? List.of() : cmd.storagePaths();
        List<StoragePathFacts> storage = new ArrayList<>();
        List<Path> benchDirs = new ArrayList<>();
        for (String p : paths) {
            if (p == null || p.isBlank()) {
                continue;
            }
            Path dir = Path.of(p);
            storage.add(storagePaths.probe(dir));
            if (Files.isDirectory(dir)) {
                benchDirs.add(dir);
            }
        }
        if (benchDirs.isEmpty()) {
            // No file storage to try on (none given, Ceph, block): the system temp dir still tells us whether
            // this QEMU and kernel accept the mode at all.
            benchDirs.add(Path.of(System.getProperty("java.io.tmpdir")));
        }
        ModeProbe uring = probeMode(IoMode.IO_URING.wire(), benchDirs);
        ModeProbe nativeAio = probeMode(IoMode.NATIVE.wire(), benchDirs);
        return new HostFactsRsp(hostname(), readProc("kernel/osrelease"), ioUringDisabled(), qemuVersion(),
                uring.accepted(), uring.error(), nativeAio.accepted(), nativeAio.error(), libvirtVersion(),
                libvirt.uri(), storage, knownBad.probe(nativeAio.accepted(), nativeAio.error()));
    }

    record ModeProbe(boolean accepted, String error) {
    }

    /** Accepted only when qemu-img opened a test image with the mode on every probed directory. */
    ModeProbe probeMode(String mode, List<Path> dirs) {
        List<String> errors = new ArrayList<>();
        for (Path dir : dirs) {
            Path image = null;
            try {
                image = Files.createTempFile(dir, ".aio-" + mode + "-", ".img");
                try (RandomAccessFile f = new RandomAccessFile(image.toFile(), "rw")) {
                    f.setLength(1024 * 1024);
                }
                ProcessResult r = qemuImg.benchOneRead(image, mode);
                String refusal = refusal(r);
                if (refusal != null) {
                    errors.add("on " + dir + ": " + refusal);
                }
            } catch (IOException e) {
                errors.add("on " + dir + ": cannot create a probe image: " + e.getMessage());
            } finally {
                ODirectProbe.deleteQuietly(image);
            }
        }
        return errors.isEmpty() ? new ModeProbe(true, null)
                : new ModeProbe(false, "qemu-img refused aio=" + mode + " " + String.join("; ", errors));
    }

    /**
     * Why qemu-img did not really use the mode, or null when it did. QEMU 8.2 to 10.1 open an image with aio=io_uring
     * even when the ring cannot be set up, warn "Unable to use linux io_uring, falling back to thread pool" and run on
     * threads: a success that proves nothing, so it counts as a refusal in QEMU's own words.
     */
    static String refusal(ProcessResult r) {
        if (!r.ok()) return r.errorText();
        for (String out : new String[] {r.stderr(), r.stdout()}) {
            if (out != null && out.contains(FALLBACK_WARNING)) return out.strip();
        }
        return null;
    }

    private static final String FALLBACK_WARNING = "falling back to thread pool";

    /** Null when the kernel has no such knob (before 6.6): io_uring is then governed by nothing but the build. */
    Integer ioUringDisabled() {
        String v = readProc("kernel/io_uring_disabled");
        if (v == null) {
            return null;
        }
        try {
            return Integer.valueOf(v);
        } catch (NumberFormatException e) {
            return null;
        }
    }

    String qemuVersion() {
        ProcessResult r = runner.run(List.of("qemu-system-x86_64", "--version"));
        if (r.ok()) {
            Matcher m = QEMU_VERSION.matcher(r.stdout());
            if (m.find()) {
                return m.group(1);
            }
        }
        // No binary on PATH (or an odd banner): the qemu driver of libvirt knows the hypervisor it runs.
        if (libvirt.isQemuDriver()) {
            try {
                return dotted(libvirt.connect().getVersion());
            } catch (LibvirtException e) {
                return null;
            }
        }
        return null;
    }

    String libvirtVersion() {
        try {
            return dotted(libvirt.connect().getLibVirVersion());
        } catch (LibvirtException e) {
            return null;
        }
    }

    /** libvirt encodes versions as major * 1,000,000 + minor * 1,000 + micro. */
    static String dotted(long v) {
        return (v / 1_000_000) + "." + (v / 1_000 % 1_000) + "." + (v % 1_000);
    }

    private String hostname() {
        String h = readProc("kernel/hostname");
        if (h != null) {
            return h;
        }
        try {
            return libvirt.connect().getHostName();
        } catch (LibvirtException e) {
            return null;
        }
    }

    private String readProc(String rel) {
        try {
            return Files.readString(procSys.resolve(rel)).strip();
        } catch (IOException e) {
            return null;
        }
    }
}
