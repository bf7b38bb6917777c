package org.zstack.aio.agent.trust;

import org.zstack.aio.agent.api.DiskTO;
import org.zstack.aio.agent.api.HostBenchCmd;
import org.zstack.aio.agent.api.HostConnectCmd;
import org.zstack.aio.agent.api.VmAttachVolumeCmd;
import org.zstack.aio.agent.api.VmStartCmd;
import org.zstack.aio.agent.api.VolumeCreateCmd;

import java.util.Locale;

/**
 * Confinement of authenticated commands to what the platform gave this agent (defence in depth: a stolen
 * server credential still cannot point a VM at /etc/shadow or create files outside the storage). Checked
 * before a command reaches the code that acts on it.
 */
public final class CommandGuard {

    private final StorageRoots roots;

    public CommandGuard(StorageRoots roots) {
        this.roots = roots;
    }

    /** Connect registers the server's storage paths as this agent's storage roots. */
    public HostConnectCmd connect(HostConnectCmd cmd) {
        if (cmd != null) {
            roots.register(cmd.storagePaths());
        }
        return cmd;
    }

    public VolumeCreateCmd volumeCreate(VolumeCreateCmd cmd) {
        if (cmd.storageType() != null && !"ceph".equals(cmd.storageType().toLowerCase(Locale.ROOT))) {
            roots.requireStorageDir(cmd.storagePath(), "storage path");
        }
        return cmd;
    }

    public VmStartCmd vmStart(VmStartCmd cmd) {
        cmd.disks().forEach(this::disk);
        return cmd;
    }

    public VmAttachVolumeCmd attach(VmAttachVolumeCmd cmd) {
        disk(cmd.disk());
        return cmd;
    }

    public HostBenchCmd bench(HostBenchCmd cmd) {
        roots.requireStorageDir(cmd.path(), "benchmark path");
        return cmd;
    }

    private void disk(DiskTO d) {
        if (d == null || d.installPath() == null) {
            return; // the command's own validation answers a missing disk or path
        }
        String path = d.installPath();
        boolean network = "network".equalsIgnoreCase(d.deviceType()) || path.startsWith("ceph://") || path.startsWith("rbd:");
        if (!network) {
            roots.requireInside(path, "disk " + d.volumeUuid());
        }
    }
}
