package org.zstack.aio.agent.trust;

import org.zstack.aio.agent.api.GuestBoot;
import org.zstack.aio.agent.api.DiskTO;
import org.zstack.aio.agent.api.HostBenchCmd;
import org.zstack.aio.agent.api.HostConnectCmd;
import org.zstack.aio.agent.api.VmAttachVolumeCmd;
import org.zstack.aio.agent.api.VmStartCmd;
import org.zstack.aio.agent.api.VolumeCreateCmd;

import org.zstack.aio.agent.api.HostFactsRsp;
import org.zstack.aio.agent.api.StoragePathFacts;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.Function;

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

    /**
     * Connect registers the server's storage paths as this agent's storage roots and probes them; a path refused
     * as a root (a system directory) is not probed (the probe writes a test file there) and its fact says why.
     */
    public HostFactsRsp connect(HostConnectCmd cmd, Function<HostConnectCmd, HostFactsRsp> probe) {
        List<String> paths = cmd == null || cmd.storagePaths() == null ? List.of() : cmd.storagePaths();
        Map<String, String> refused = roots.register(paths);
        HostFactsRsp r = probe.apply(new HostConnectCmd(cmd == null ? null : cmd.hostUuid(),
                paths.stream().filter(p -> !refused.containsKey(p)).toList()));
        if (refused.isEmpty()) {
            return r;
        }
        List<StoragePathFacts> facts = new ArrayList<>(r.storagePaths());
        refused.forEach((p, why) -> facts.add(new StoragePathFacts(p, false, why)));
        return new HostFactsRsp(r.hostname(), r.kernelVersion(), r.ioUringDisabled(), r.qemuVersion(), r.qemuIoUring(),
                r.qemuIoUringError(), r.qemuNative(), r.qemuNativeError(), r.libvirtVersion(), r.libvirtUri(), facts, r.probes());
    }

    public VolumeCreateCmd volumeCreate(VolumeCreateCmd cmd) {
        if (cmd.storageType() != null && !"ceph".equals(cmd.storageType().toLowerCase(Locale.ROOT))) {
            roots.requireStorageDir(cmd.storagePath(), "storage path");
        }
        return cmd;
    }

    public VmStartCmd vmStart(VmStartCmd cmd) {
        cmd.disks().forEach(this::disk);
        GuestBoot boot = cmd.boot();
        if (boot != null) {
            // QEMU reads the kernel and initrd and writes the console file as root: confined like a disk
            if (boot.kernel() != null) roots.requireInside(boot.kernel(), "boot kernel");
            if (boot.initrd() != null) roots.requireInside(boot.initrd(), "boot initrd");
            if (boot.consoleLog() != null) roots.requireInside(boot.consoleLog(), "boot consoleLog");
        }
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
