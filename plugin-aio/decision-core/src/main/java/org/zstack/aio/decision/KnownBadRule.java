package org.zstack.aio.decision;

import java.util.Collections;
import java.util.EnumSet;
import java.util.HashSet;
import java.util.Map;
import java.util.Objects;
import java.util.Set;

/**
 * A combination known to misbehave: the mode is refused when every given condition matches
 * (null or empty conditions match anything). Kept as data in conf/aio/io-mode-rules.yaml, each row with the
 * public {@code source} it comes from. One generic matcher serves every row: a new field report becomes a new
 * row, not new code.
 *
 * <p>A condition on a fact that was not probed (unknown filesystem, a probe the agent did not report) does not
 * match: a rule refuses only on evidence, so an older agent keeps today's decisions.
 */
public final class KnownBadRule {

    private final String id;
    private final IoMode mode;
    private final Set<StorageKind> storageKinds;
    private final VersionRange kernel;
    private final VersionRange qemu;
    private final VersionRange libvirt;
    private final String message;
    private final String source;
    private final Set<String> cacheModes;
    private final Set<String> filesystems;
    private final Boolean loopBacked;
    private final ProbeConditions probes;

    public KnownBadRule(String id, IoMode mode, Set<StorageKind> storageKinds, VersionRange kernel,
                        VersionRange qemu, VersionRange libvirt, String message) {
        this(id, mode, storageKinds, kernel, qemu, libvirt, message, null, null, null, null, ProbeConditions.NONE);
    }

    /**
     * @param cacheModes  the volume's cache mode is one of these
     * @param filesystems the volume's storage path is on one of these filesystem types
     * @param probesIn    each named host probe ({@link HostFacts#probe}) has one of the given values
     * @param probesBelow each named host probe is a number below the given one
     */
    public KnownBadRule(String id, IoMode mode, Set<StorageKind> storageKinds, VersionRange kernel,
                        VersionRange qemu, VersionRange libvirt, String message, String source,
                        Set<String> cacheModes, Set<String> filesystems, Map<String, Set<String>> probesIn,
                        Map<String, Long> probesBelow) {
        this(id, mode, storageKinds, kernel, qemu, libvirt, message, source, cacheModes, filesystems, null,
                new ProbeConditions(probesIn, probesBelow, null, null));
    }

    /**
     * @param loopBacked whether the volume's storage path is on a loop device ({@link VolumeFacts#loopBacked}); null: any
     * @param probes     the conditions on named host probes
     */
    public KnownBadRule(String id, IoMode mode, Set<StorageKind> storageKinds, VersionRange kernel,
                        VersionRange qemu, VersionRange libvirt, String message, String source,
                        Set<String> cacheModes, Set<String> filesystems, Boolean loopBacked, ProbeConditions probes) {
        this.id = id;
        this.mode = mode;
        this.storageKinds = storageKinds == null || storageKinds.isEmpty() ? Collections.<StorageKind>emptySet()
                : Collections.unmodifiableSet(EnumSet.copyOf(storageKinds));
        this.kernel = kernel;
        this.qemu = qemu;
        this.libvirt = libvirt;
        this.message = message;
        this.source = source;
        this.cacheModes = copy(cacheModes);
        this.filesystems = copy(filesystems);
        this.loopBacked = loopBacked;
        this.probes = probes == null ? ProbeConditions.NONE : probes;
    }

    private static Set<String> copy(Set<String> s) {
        return s == null || s.isEmpty() ? Collections.<String>emptySet() : Collections.unmodifiableSet(new HashSet<String>(s));
    }

    public String id() { return id; }

    public IoMode mode() { return mode; }

    public Set<StorageKind> storageKinds() { return storageKinds; }

    public VersionRange kernel() { return kernel; }

    public VersionRange qemu() { return qemu; }

    public VersionRange libvirt() { return libvirt; }

    public String message() { return message; }

    /** Where the combination was reported (commit, issue, bug); null for rules written before sources were kept. */
    public String source() { return source; }

    public Set<String> cacheModes() { return cacheModes; }

    public Set<String> filesystems() { return filesystems; }

    public Boolean loopBacked() { return loopBacked; }

    public ProbeConditions probes() { return probes; }

    public Map<String, Set<String>> probesIn() { return probes.in(); }

    public Map<String, Long> probesBelow() { return probes.below(); }

    /** Whether the rule refuses mode {@code m} on storage of {@code kind} (null: judged without a volume). */
    boolean matches(IoMode m, StorageKind kind, HostFacts host) {
        return matches(m, null, kind, host);
    }

    /** As above, with the volume (null: judged on the host alone, so volume conditions do not match). */
    boolean matches(IoMode m, VolumeFacts v, StorageKind kind, HostFacts host) {
        if (m != mode) return false;
        if (!storageKinds.isEmpty() && !storageKinds.contains(kind)) return false;
        if (kernel != null && (host == null || !kernel.contains(host.kernel()))) return false;
        if (qemu != null && (host == null || !qemu.contains(host.qemu()))) return false;
        if (libvirt != null && (host == null || !libvirt.contains(host.libvirt()))) return false;
        if (!cacheModes.isEmpty() && (v == null || !cacheModes.contains(v.cacheMode()))) return false;
        if (!filesystems.isEmpty() && (v == null || !filesystems.contains(v.filesystem()))) return false;
        if (loopBacked != null && (v == null || !loopBacked.equals(v.loopBacked()))) return false;
        return probes.matches(host);
    }

    @Override
    public boolean equals(Object o) {
        if (!(o instanceof KnownBadRule)) return false;
        KnownBadRule r = (KnownBadRule) o;
        return Objects.equals(id, r.id) && mode == r.mode && storageKinds.equals(r.storageKinds)
               && Objects.equals(kernel, r.kernel) && Objects.equals(qemu, r.qemu) && Objects.equals(libvirt, r.libvirt)
               && Objects.equals(message, r.message) && Objects.equals(source, r.source)
               && cacheModes.equals(r.cacheModes) && filesystems.equals(r.filesystems)
               && Objects.equals(loopBacked, r.loopBacked) && probes.equals(r.probes);
    }

    @Override
    public int hashCode() {
        return Objects.hash(id, mode, storageKinds, kernel, qemu, libvirt, message, source, cacheModes, filesystems,
                loopBacked, probes);
    }

    @Override
    public String toString() { return "KnownBadRule[id=" + id + ", mode=" + mode + "]"; }
}
