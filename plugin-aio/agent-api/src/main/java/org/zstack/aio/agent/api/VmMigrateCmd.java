package org.zstack.aio.agent.api;

import java.util.List;

/**
 * /vm/migrate, sent to the SOURCE host's agent: live-migrate the running domain to the destination host's libvirtd,
 * with every disk's driver set to what the server decided for the DESTINATION host (the same XML patcher as a start
 * uses, applied to the domain's migratable XML).
 *
 * @param vmUuid             the domain to move (it must run here and be the agent's own)
 * @param destinationLibvirt the destination libvirtd's URI, as the destination's agent reported it to the server;
 *                           only authenticated transports are accepted (docs/security.md, "Live migration")
 * @param migrationUri       where QEMU sends the memory stream, {@code tcp://address[:port]} of the destination
 * @param disks              the destination's io and cache per disk (target dev or source path)
 * @param timeoutSeconds     the agent aborts the migration job when it has not finished by then (the VM keeps
 *                           running here); the server waits this long plus a margin, so it never gives up on a
 *                           migration that is still moving. 0: no limit (an older server)
 */
public record VmMigrateCmd(String vmUuid, String destinationLibvirt, String migrationUri, List<DiskDriverTO> disks,
                           long timeoutSeconds) {

    public VmMigrateCmd {
        disks = disks == null ? List.of() : List.copyOf(disks);
        if (timeoutSeconds < 0) timeoutSeconds = 0;
    }

    public VmMigrateCmd(String vmUuid, String destinationLibvirt, String migrationUri, List<DiskDriverTO> disks) {
        this(vmUuid, destinationLibvirt, migrationUri, disks, 0);
    }

    /** One disk's driver on the destination: {@code disk} is its target dev (vda) or source path. */
    public record DiskDriverTO(String disk, String io, String cache) {
    }
}
