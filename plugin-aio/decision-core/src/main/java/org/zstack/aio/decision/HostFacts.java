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
     *               {@link #PROBE_NAMES}); a name that is absent was not probed
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

    /** Names of the probed facts known-bad rules may test (see conf/aio/io-mode-rules.yaml). */
    public static final String QEMU_LIBURING = "qemu.liburing";
    public static final String QEMU_LINUX_AIO = "qemu.linux-aio";
    public static final String AIO_FREE = "aio.free";

    /** A probed fact by name, or null when it was not probed. */
    public String probe(String name) { return probes.get(name); }

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
