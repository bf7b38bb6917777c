package org.zstack.aio.decision;

import java.util.Collections;
import java.util.EnumSet;
import java.util.Objects;
import java.util.Set;

/**
 * A combination known to misbehave: the mode is refused when every given condition matches
 * (null or empty conditions match anything). Kept as data in conf/aio/io-mode-rules.yaml.
 */
public final class KnownBadRule {

    private final String id;
    private final IoMode mode;
    private final Set<StorageKind> storageKinds;
    private final VersionRange kernel;
    private final VersionRange qemu;
    private final VersionRange libvirt;
    private final String message;

    public KnownBadRule(String id, IoMode mode, Set<StorageKind> storageKinds, VersionRange kernel,
                        VersionRange qemu, VersionRange libvirt, String message) {
        this.id = id;
        this.mode = mode;
        this.storageKinds = storageKinds == null || storageKinds.isEmpty() ? Collections.<StorageKind>emptySet()
                : Collections.unmodifiableSet(EnumSet.copyOf(storageKinds));
        this.kernel = kernel;
        this.qemu = qemu;
        this.libvirt = libvirt;
        this.message = message;
    }

    public String id() { return id; }

    public IoMode mode() { return mode; }

    public Set<StorageKind> storageKinds() { return storageKinds; }

    public VersionRange kernel() { return kernel; }

    public VersionRange qemu() { return qemu; }

    public VersionRange libvirt() { return libvirt; }

    public String message() { return message; }

    /** Whether the rule refuses mode {@code m} on storage of {@code kind} (null: judged without a volume). */
    boolean matches(IoMode m, StorageKind kind, HostFacts host) {
        if (m != mode) return false;
        if (!storageKinds.isEmpty() && !storageKinds.contains(kind)) return false;
        if (kernel != null && (host == null || !kernel.contains(host.kernel()))) return false;
        if (qemu != null && (host == null || !qemu.contains(host.qemu()))) return false;
        return libvirt == null || (host != null && libvirt.contains(host.libvirt()));
    }

    @Override
    public boolean equals(Object o) {
        if (!(o instanceof KnownBadRule)) return false;
        KnownBadRule r = (KnownBadRule) o;
        return Objects.equals(id, r.id) && mode == r.mode && storageKinds.equals(r.storageKinds)
               && Objects.equals(kernel, r.kernel) && Objects.equals(qemu, r.qemu) && Objects.equals(libvirt, r.libvirt)
               && Objects.equals(message, r.message);
    }

    @Override
    public int hashCode() { return Objects.hash(id, mode, storageKinds, kernel, qemu, libvirt, message); }

    @Override
    public String toString() { return "KnownBadRule[id=" + id + ", mode=" + mode + "]"; }
}
