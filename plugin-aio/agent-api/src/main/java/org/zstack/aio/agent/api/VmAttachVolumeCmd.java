package org.zstack.aio.agent.api;

/** /vm/attach-volume: hot-plug a disk into a running domain (answer: a {@link DiskResult}). */
public record VmAttachVolumeCmd(String vmUuid, DiskTO disk) {
}
