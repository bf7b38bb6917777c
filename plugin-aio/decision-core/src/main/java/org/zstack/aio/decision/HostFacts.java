package org.zstack.aio.decision;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;

/**
 * What the decision knows about the host that runs the VM, as probed by its agent. Any field may be null
 * when it could not be probed; a check that needs it then fails with a sentence saying so.
 */
public final class HostFacts {

    private final String hostUuid;
    private final Version kernel;
    private final Integer ioUringDisabled;
    private final Version qemu;
    private final Boolean qemuIoUring;
    private final Version libvirt;
    private final Map<String, String> probes;

    /**
     * @param ioUringDisabled kernel.io_uring_disabled (0, 1 or 2); null when the sysctl does not exist (kernel < 6.6)
     * @param qemuIoUring     whether this QEMU binary really opened an image with aio=io_uring in the probe
     */
    public HostFacts(String hostUuid, Version kernel, Integer ioUringDisabled, Version qemu, Boolean qemuIoUring,
                     Version libvirt) {
        this(hostUuid, kernel, ioUringDisabled, qemu, qemuIoUring, libvirt, null);
    }

    /**
     * @param probes further named facts the agent probed, matched by known-bad rules as data (names in
     *               {@link #QEMU_LIBURING} and the names after it); a name that is absent was not probed
     */
    public HostFacts(String hostUuid, Version kernel, Integer ioUringDisabled, Version qemu, Boolean qemuIoUring,
                     Version libvirt, Map<String, String> probes) {
        this.probes = probes == null || probes.isEmpty() ? Collections.<String, String>emptyMap()
                : Collections.unmodifiableMap(new LinkedHashMap<String, String>(probes));
        this.hostUuid = hostUuid;
        this.kernel = kernel;
        this.ioUringDisabled = ioUringDisabled;
        this.qemu = qemu;
        this.qemuIoUring = qemuIoUring;
        this.libvirt = libvirt;
    }

    public String hostUuid() { return hostUuid; }

    public Version kernel() { return kernel; }

    public Integer ioUringDisabled() { return ioUringDisabled; }

    public Version qemu() { return qemu; }

    public Boolean qemuIoUring() { return qemuIoUring; }

    public Version libvirt() { return libvirt; }

    /*
     * Names of the probed facts known-bad rules may test; values and how each is measured: docs/decision.md,
     * "Host probes", and the comment of knownBad in conf/aio/io-mode-rules.yaml.
     */
    /** The liburing soname QEMU links (ldd), "none" without. */
    public static final String QEMU_LIBURING = "qemu.liburing";
    /** "false" when QEMU says aio=native "is not supported in this build", "true" when it opened an image with it. */
    public static final String QEMU_LINUX_AIO = "qemu.linux-aio";
    /** fs.aio-max-nr - fs.aio-nr. */
    public static final String AIO_FREE = "aio.free";
    /** The kernel release as uname -r prints it (/proc/sys/kernel/osrelease), e.g. 5.14.0-427.13.1.el9_4.x86_64. */
    public static final String KERNEL_RELEASE = "kernel.release";
    /** io_uring_setup(2) called by the probing process: "ok", or the errno's name (EPERM, ENOSYS, ...; E<n> if unnamed). */
    public static final String IO_URING_SETUP = "io_uring.setup";
    /** The probing process's seccomp mode (/proc/self/status Seccomp): "disabled", "strict" or "filter". */
    public static final String PROCESS_SECCOMP = "process.seccomp";
    /** {@link #ioUringDisabled()} by name, so rows can test it as data; not a separate probe. */
    public static final String IO_URING_DISABLED = "kernel.io_uring_disabled";

    /** A probed fact by name, or null when it was not probed; {@link #IO_URING_DISABLED} reads the typed fact. */
    public String probe(String name) {
        if (IO_URING_DISABLED.equals(name)) return ioUringDisabled == null ? null : ioUringDisabled.toString();
        return probes.get(name);
    }

    public Map<String, String> probes() { return probes; }

    /** The same host with one more probed fact (null value removes it). */
    public HostFacts withProbe(String name, String value) {
        Map<String, String> m = new LinkedHashMap<String, String>(probes);
        if (value == null) m.remove(name); else m.put(name, value);
        return new HostFacts(hostUuid, kernel, ioUringDisabled, qemu, qemuIoUring, libvirt, m);
    }

    @Override
    public boolean equals(Object o) {
        if (!(o instanceof HostFacts)) return false;
        HostFacts h = (HostFacts) o;
        return Objects.equals(hostUuid, h.hostUuid) && Objects.equals(kernel, h.kernel)
               && Objects.equals(ioUringDisabled, h.ioUringDisabled) && Objects.equals(qemu, h.qemu)
               && Objects.equals(qemuIoUring, h.qemuIoUring) && Objects.equals(libvirt, h.libvirt)
               && probes.equals(h.probes);
    }

    @Override
    public int hashCode() { return Objects.hash(hostUuid, kernel, ioUringDisabled, qemu, qemuIoUring, libvirt, probes); }

    @Override
    public String toString() {
        return "HostFacts[hostUuid=" + hostUuid + ", kernel=" + kernel + ", ioUringDisabled=" + ioUringDisabled
               + ", qemu=" + qemu + ", qemuIoUring=" + qemuIoUring + ", libvirt=" + libvirt + ", probes=" + probes + "]";
    }
}
