package org.zstack.aio.agent.api;

import java.util.List;

/**
 * Answer of /vm/migrate: the disks' drivers as the DESTINATION libvirtd reports them once the domain runs there
 * (read back, not echoed), and how long libvirt took.
 */
public record VmMigrateRsp(String vmUuid, List<VmMigrateCmd.DiskDriverTO> disks, long millis) {

    public VmMigrateRsp {
        disks = List.copyOf(disks);
    }
}
