package org.zstack.aio.agent.domain;

import org.zstack.aio.agent.api.GuestBoot;

import java.util.List;

/**
 * A minimal domain: what the agent needs to run a VM's disks, nothing else (no network, no graphics).
 *
 * @param type        kvm, qemu or (libvirt's test driver) test
 * @param memoryBytes guest memory in bytes (ZStack's memorySize unit)
 * @param boot        a direct kernel boot with its serial console file, or null (boot from the first disk)
 */
public record DomainSpec(String name, String title, String type, long memoryBytes, int cpus, List<DiskSpec> disks,
                         GuestBoot boot) {

    public DomainSpec {
        disks = List.copyOf(disks);
    }

    public DomainSpec(String name, String title, String type, long memoryBytes, int cpus, List<DiskSpec> disks) {
        this(name, title, type, memoryBytes, cpus, disks, null);
    }
}
