package org.zstack.aio.agent.api;

import java.util.List;

/**
 * The domains an agent manages (named by a VM uuid), as libvirt has them now.
 *
 * @param domains every managed domain, running or defined but shut off
 */
public record VmListRsp(List<Domain> domains) {

    public VmListRsp {
        domains = domains == null ? List.of() : List.copyOf(domains);
    }

    /**
     * @param state libvirt's state in lower case: running, paused, blocked, shutdown, shutoff, crashed, pmsuspended
     * @param disks read from the LIVE domain XML (empty when the domain does not run)
     */
    public record Domain(String vmUuid, String state, List<Disk> disks) {

        public Domain {
            disks = disks == null ? List.of() : List.copyOf(disks);
        }

        /** Whether a QEMU process exists for it (running, paused or blocked). */
        public boolean active() {
            return "running".equals(state) || "paused".equals(state) || "blocked".equals(state);
        }
    }

    /** One disk of a live domain: its target (vda…), source path, and driver io/cache (null = attribute absent). */
    public record Disk(String target, String source, String io, String cache) {
    }
}
