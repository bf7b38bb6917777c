package org.zstack.aio.decision;

import java.util.Set;

/**
 * A combination known to misbehave: the mode is refused when every given condition matches
 * (null or empty conditions match anything). Kept as data in conf/aio/io-mode-rules.yaml.
 */
public record KnownBadRule(String id, IoMode mode, Set<StorageKind> storageKinds, VersionRange kernel,
                           VersionRange qemu, VersionRange libvirt, String message) {

    public KnownBadRule {
        storageKinds = storageKinds == null ? Set.of() : Set.copyOf(storageKinds);
    }

    boolean matches(IoMode m, StorageKind kind, HostFacts host) {
        if (m != mode) return false;
        if (!storageKinds.isEmpty() && !storageKinds.contains(kind)) return false;
        if (kernel != null && (host == null || !kernel.contains(host.kernel()))) return false;
        if (qemu != null && (host == null || !qemu.contains(host.qemu()))) return false;
        return libvirt == null || (host != null && libvirt.contains(host.libvirt()));
    }
}
