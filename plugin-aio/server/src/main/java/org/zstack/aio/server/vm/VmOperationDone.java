package org.zstack.aio.server.vm;

/** Published after a start, stop or attach changed a host's domains: the tracker reads that host's live disks at once. */
public record VmOperationDone(String hostUuid) {
}
