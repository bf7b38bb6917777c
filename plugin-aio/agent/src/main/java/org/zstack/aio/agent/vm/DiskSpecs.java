package org.zstack.aio.agent.vm;

import org.zstack.aio.agent.api.BenchScores;
import org.zstack.aio.agent.api.DiskTO;
import org.zstack.aio.agent.domain.DiskSpec;
import org.zstack.aio.agent.domain.DiskTargets;
import org.zstack.aio.agent.http.AgentException;
import org.zstack.aio.decision.IoMode;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;
import java.util.Set;

/** Turns the server's DiskTO into what goes into the domain XML, checking what the server sent. */
final class DiskSpecs {

    private static final Set<String> CACHE_MODES = Set.of("none", "writethrough", "writeback", "directsync",
            "unsafe");

    private DiskSpecs() {
    }

    static void validate(DiskTO d) {
        if (d == null) {
            throw AgentException.badCommand("a disk is null", "send every disk as a DiskTO object");
        }
        if (d.installPath() == null || d.installPath().isBlank()) {
            throw AgentException.badCommand("disk " + d.volumeUuid() + " has no installPath", "set installPath");
        }
        if (d.deviceId() < 0) {
            throw AgentException.badCommand("disk " + d.volumeUuid() + " has deviceId " + d.deviceId(),
                    "deviceId is 0 for vda, 1 for vdb, ...");
        }
        if (d.cache() != null && !CACHE_MODES.contains(d.cache())) {
            throw AgentException.badCommand("disk " + d.volumeUuid() + " has unknown cache '" + d.cache() + "'",
                    "use one of " + CACHE_MODES);
        }
        for (String io : d.ioCandidates()) {
            if (IoMode.fromWireOrNull(io) == null) {
                throw AgentException.badCommand("disk " + d.volumeUuid() + " has unknown io candidate '" + io + "'",
                        "use one of " + BenchScores.MODES + " (or an empty list for no io attribute)");
            }
        }
        if (!isNetwork(d) && d.format() != null && !Set.of("qcow2", "raw").contains(d.format())) {
            throw AgentException.badCommand("disk " + d.volumeUuid() + " has unknown format '" + d.format() + "'",
                    "use qcow2 or raw");
        }
    }

    static DiskSpec toSpec(DiskTO d, String io) {
        String target = DiskTargets.virtio(d.deviceId());
        String format = d.format() == null ? "raw" : d.format();
        if (isNetwork(d)) {
            String name = d.installPath().replaceFirst("^(ceph|rbd)://", "");
            return new DiskSpec(target, DiskSpec.Kind.NETWORK, name, "raw", d.cache(), io);
        }
        // A SharedBlock volume of the demo is a file standing in for an LV (see VolumeCreator): libvirt must
        // see it as what it really is, or QEMU refuses to open a regular file as host_device.
        boolean reallyBlock = "block".equalsIgnoreCase(d.deviceType())
                && Files.exists(Path.of(d.installPath()))
                && !Files.isRegularFile(Path.of(d.installPath()))
                && !Files.isDirectory(Path.of(d.installPath()));
        return new DiskSpec(target, reallyBlock ? DiskSpec.Kind.BLOCK : DiskSpec.Kind.FILE, d.installPath(),
                format, d.cache(), io);
    }

    private static boolean isNetwork(DiskTO d) {
        return "network".equalsIgnoreCase(d.deviceType() == null ? "" : d.deviceType().toLowerCase(Locale.ROOT))
                || d.installPath().startsWith("ceph://") || d.installPath().startsWith("rbd:");
    }
}
