package org.zstack.aio.agent.api;

import java.util.List;

/** The started domain: its QEMU pid (when known) and each disk's applied driver settings. */
public record VmStartRsp(String vmUuid, Integer qemuPid, List<DiskResult> disks) {
}
