package org.zstack.aio.agent.api;

import java.util.List;

/** /vm/start: define and start a domain named by the VM uuid. */
public record VmStartCmd(String vmUuid, String vmName, long memorySize, int cpuNum, List<DiskTO> disks) {

    public VmStartCmd {
        disks = List.copyOf(disks);
    }
}
