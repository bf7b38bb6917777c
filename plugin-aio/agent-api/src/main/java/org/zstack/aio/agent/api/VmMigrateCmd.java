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
 */
public record VmMigrateCmd(String vmUuid, String destinationLibvirt, String migrationUri, List<DiskDriverTO> disks) {

    public VmMigrateCmd {
        disks = disks == null ? List.of() : List.copyOf(disks);
    }

    /** One disk's driver on the destination: {@code disk} is its target dev (vda) or source path. */
    public record DiskDriverTO(String disk, String io, String cache) {
    }
}
