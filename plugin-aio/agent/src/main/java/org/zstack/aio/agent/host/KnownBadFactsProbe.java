package org.zstack.aio.agent.host;

import org.zstack.aio.agent.process.ProcessResult;
import org.zstack.aio.agent.process.ProcessRunner;
import org.zstack.aio.decision.HostFacts;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The facts the known-bad rows of conf/aio/io-mode-rules.yaml test that no other probe gathers: the liburing QEMU
 * links, the Linux AIO events left under fs.aio-max-nr, whether this QEMU was built with linux-aio, the kernel
 * release, and whether this process may set up an io_uring and under which seccomp mode (each storage path's
 * filesystem and loop backing: {@link StoragePathProbe}). A fact that cannot be probed is left out (never guessed): a
 * rule on a missing fact does not fire.
 */
public final class KnownBadFactsProbe {

    private static final Pattern LIBURING = Pattern.compile("\\b(liburing\\.so\\.\\d+)\\b");
    /** /proc/PID/status Seccomp: 0, 1, 2 (SECCOMP_MODE_DISABLED, _STRICT, _FILTER). */
    private static final String[] SECCOMP_MODES = {"disabled", "strict", "filter"};

    private final ProcessRunner runner;
    private final Path procSys;
    private final Path procSelfStatus;

    public KnownBadFactsProbe(ProcessRunner runner, Path procSys) {
        this(runner, procSys, Path.of("/proc/self/status"));
    }

    /** @param procSys normally /proc/sys; @param procSelfStatus normally /proc/self/status (tests point them elsewhere) */
    KnownBadFactsProbe(ProcessRunner runner, Path procSys, Path procSelfStatus) {
        this.runner = runner;
        this.procSys = procSys;
        this.procSelfStatus = procSelfStatus;
    }

    /**
     * @param nativeError why qemu-img refused aio=native, null when it accepted it
     * @return named probes as {@link HostFacts#probe} reads them
     */
    public Map<String, String> probe(Boolean nativeAccepted, String nativeError) {
        Map<String, String> out = new LinkedHashMap<>();
        String uring = qemuLiburing();
        if (uring != null) out.put(HostFacts.QEMU_LIBURING, uring);
        Long free = aioFree();
        if (free != null) out.put(HostFacts.AIO_FREE, Long.toString(free));
        String linuxAio = linuxAioBuilt(nativeAccepted, nativeError);
        if (linuxAio != null) out.put(HostFacts.QEMU_LINUX_AIO, linuxAio);
        putIfKnown(out, HostFacts.KERNEL_RELEASE, kernelRelease());
        putIfKnown(out, HostFacts.PROCESS_SECCOMP, seccomp());
        putIfKnown(out, HostFacts.IO_URING_SETUP, IoUringSetup.probe());
        return out;
    }

    private static void putIfKnown(Map<String, String> out, String name, String value) {
        if (value != null) out.put(name, value);
    }

    /** uname -r, from /proc/sys/kernel/osrelease: the distribution's suffix (".el9_4") is what the el9 row reads. */
    String kernelRelease() {
        List<String> lines = lines(procSys.resolve("kernel/osrelease"));
        return lines.isEmpty() || lines.get(0).isBlank() ? null : lines.get(0).strip();
    }

    /** This process's seccomp mode, which the qemu-img it starts inherits; null when /proc says nothing readable. */
    String seccomp() {
        for (String line : lines(procSelfStatus)) {
            if (!line.startsWith("Seccomp:")) continue;
            String v = line.substring("Seccomp:".length()).strip();
            return v.matches("[012]") ? SECCOMP_MODES[Integer.parseInt(v)] : null;
        }
        return null;
    }

    private static List<String> lines(Path file) {
        try {
            return Files.readAllLines(file);
        } catch (IOException e) {
            return List.of();
        }
    }

    /** fs.aio-max-nr - fs.aio-nr: the AIO events a new io_setup may still take (a native VM needs ~1024). */
    Long aioFree() {
        Long max = readLong("fs/aio-max-nr");
        Long nr = readLong("fs/aio-nr");
        return max == null || nr == null ? null : max - nr;
    }

    /**
     * The liburing soname the dynamic loader resolves for QEMU (ldd follows NEEDED transitively, so a liburing
     * pulled in through another library counts too); "none" when QEMU links no liburing; null when QEMU or ldd is missing.
     */
    String qemuLiburing() {
        ProcessResult which = runner.run(List.of("sh", "-c", "command -v qemu-system-x86_64"));
        if (!which.ok() || which.stdout().isBlank()) return null;
        ProcessResult ldd = runner.run(List.of("ldd", which.stdout().strip()));
        if (!ldd.ok()) return null;
        Matcher m = LIBURING.matcher(ldd.stdout());
        return m.find() ? m.group(1) : "none";
    }

    /** "false" only on QEMU's own words for a build without linux-aio; any other refusal is no evidence. */
    static String linuxAioBuilt(Boolean nativeAccepted, String nativeError) {
        if (Boolean.TRUE.equals(nativeAccepted)) return "true";
        if (nativeError != null && nativeError.contains("not supported in this build")) return "false";
        return null;
    }

    private Long readLong(String rel) {
        try {
            // read line-wise to EOF: Files.readString sized its read from a stale length after the knob changed and
            // returned "6" for 65536 (seen in KnownBadFactsProbeTest)
            List<String> lines = Files.readAllLines(procSys.resolve(rel));
            return lines.isEmpty() ? null : Long.valueOf(lines.get(0).strip());
        } catch (IOException | NumberFormatException e) {
            return null;
        }
    }
}
