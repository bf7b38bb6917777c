package org.zstack.aio.agent.domain;

import java.util.List;

/**
 * A minimal domain: what the agent needs to run a VM's disks, nothing else (no network, no graphics).
 *
 * @param type        kvm, qemu or (libvirt's test driver) test
 * @param memoryBytes guest memory in bytes (ZStack's memorySize unit)
 */
public record DomainSpec(String name, String title, String type, long memoryBytes, int cpus, List<DiskSpec> disks) {

    public DomainSpec {
        disks = List.copyOf(disks);
    }
}
