package org.zstack.aio.agent.api;

import java.util.List;

/**
 * /vm/start: define and start a domain named by the VM uuid.
 *
 * @param boot  a direct kernel boot, or null (boot from the first disk)
 * @param accel {@code tcg} (domain type qemu: the guest CPU is emulated), {@code kvm}, or null (the agent's
 *              default: kvm when libvirt offers it)
 */
public record VmStartCmd(String vmUuid, String vmName, long memorySize, int cpuNum, List<DiskTO> disks,
                         GuestBoot boot, String accel) {

    public static final List<String> ACCELS = List.of("kvm", "tcg");

    public VmStartCmd {
        disks = List.copyOf(disks);
    }

    /** A VM that boots from its first disk with the agent's default accelerator. */
    public VmStartCmd(String vmUuid, String vmName, long memorySize, int cpuNum, List<DiskTO> disks) {
        this(vmUuid, vmName, memorySize, cpuNum, disks, null, null);
    }
}
