package org.zstack.aio.agent.api;

import java.util.List;

/**
 * The domains an agent manages (named by a VM uuid), as libvirt has them now.
 *
 * @param domains      every managed domain, running or defined but shut off
 * @param statsAtMillis when asked for block counters ({@link VmListCmd#blockStats()}): the agent's clock (epoch ms)
 *                     when it read them, so deltas between two samples use one clock; null otherwise
 */
public record VmListRsp(List<Domain> domains, Long statsAtMillis) {

    public VmListRsp {
        domains = domains == null ? List.of() : List.copyOf(domains);
    }

    public VmListRsp(List<Domain> domains) {
        this(domains, null);
    }

    /**
     * @param state    libvirt's state in lower case: running, paused, blocked, shutdown, shutoff, crashed, pmsuspended
     * @param disks    read from the LIVE domain XML (empty when the domain does not run)
     * @param domainId libvirt's id of the running domain (a new one for every QEMU start), with block counters only:
     *                 counters count from that QEMU's start, so a new id means they started again from 0
     */
    public record Domain(String vmUuid, String state, List<Disk> disks, Long domainId) {

        public Domain {
            disks = disks == null ? List.of() : List.copyOf(disks);
        }

        public Domain(String vmUuid, String state, List<Disk> disks) {
            this(vmUuid, state, disks, null);
        }

        /** Whether a QEMU process exists for it (running, paused or blocked). */
        public boolean active() {
            return "running".equals(state) || "paused".equals(state) || "blocked".equals(state);
        }
    }

    /**
     * One disk of a live domain: its target (vda…), source path, and driver io/cache (null = attribute absent).
     *
     * @param stats the disk's cumulative block counters when asked for (null otherwise, or when libvirt had none)
     */
    public record Disk(String target, String source, String io, String cache, BlockStats stats) {

        public Disk(String target, String source, String io, String cache) {
            this(target, source, io, cache, null);
        }
    }

    /**
     * A disk's counters since its QEMU started (libvirt's block stats: rd.reqs, rd.bytes, rd.times, wr.*; times in
     * nanoseconds, the sum over requests of each one's time from submission to completion).
     */
    public record BlockStats(long rdReqs, long rdBytes, long rdTimesNs, long wrReqs, long wrBytes, long wrTimesNs) {
    }
}
