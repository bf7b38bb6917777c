package org.zstack.aio.server.workload;

import org.zstack.aio.decision.WorkloadProfile;

/**
 * A disk's observed workload from its cumulative block counters, as pure arithmetic (table-tested without Spring).
 * <p>Each sample adds the counters' delta since the previous sample to time-decayed sums: every sum is first
 * multiplied by {@code 2^(-elapsed / halfLife)}, then the delta (and the elapsed seconds) added. Ratios of the sums
 * (read share, bytes per request, requests per second, Little's law in-flight = summed request time / wall time)
 * are then averages in which a sample counts half as much one half-life later. Idle time keeps the shape (both
 * sides of a ratio decay alike) while the rates fall.
 * <p>Counters count from the QEMU process's start: a new process (a new libvirt domain id, another host after a
 * migration) or any counter going backwards is a reset, and that sample only becomes the new baseline.
 */
public final class WorkloadMath {

    private WorkloadMath() {
    }

    /** Cumulative counters as libvirt reports them (times in ns). */
    public record Counters(long rdReqs, long rdBytes, long rdTimesNs, long wrReqs, long wrBytes, long wrTimesNs) {

        boolean anyBelow(Counters prev) {
            return rdReqs < prev.rdReqs || rdBytes < prev.rdBytes || rdTimesNs < prev.rdTimesNs || wrReqs < prev.wrReqs
                   || wrBytes < prev.wrBytes || wrTimesNs < prev.wrTimesNs;
        }
    }

    /** Where the counters come from: a new QEMU (host or libvirt id) restarts them. */
    public record Origin(String hostUuid, long domainId) {
    }

    /**
     * The decayed sums of one disk (requests, bytes, request time in seconds, wall seconds) and the plain total of
     * seconds sampled.
     */
    public record Sums(double rdReqs, double rdBytes, double rdSeconds, double wrReqs, double wrBytes, double wrSeconds,
                       double seconds, double sampledSeconds) {

        public static final Sums EMPTY = new Sums(0, 0, 0, 0, 0, 0, 0, 0);

        Sums decayedThenAdd(double factor, Counters d, double elapsed) {
            return new Sums(rdReqs * factor + d.rdReqs, rdBytes * factor + d.rdBytes, rdSeconds * factor + d.rdTimesNs / 1e9,
                    wrReqs * factor + d.wrReqs, wrBytes * factor + d.wrBytes, wrSeconds * factor + d.wrTimesNs / 1e9,
                    seconds * factor + elapsed, sampledSeconds + elapsed);
        }
    }

    /** What the previous sample left: its counters, their origin, when (agent clock, epoch ms), and the sums. */
    public record State(Counters last, Origin origin, long atMillis, Sums sums) {
    }

    /** Why a sample added nothing, or null when it added its delta. */
    public enum Baseline { FIRST, NEW_QEMU, COUNTERS_WENT_BACK, CLOCK_WENT_BACK }

    public record Step(State state, Baseline baseline) {
    }

    /** The state after one more sample; {@code prev} null for a disk never sampled. */
    public static Step advance(State prev, Counters now, Origin origin, long atMillis, double halfLifeSeconds) {
        if (prev == null) return new Step(new State(now, origin, atMillis, Sums.EMPTY), Baseline.FIRST);
        Baseline reset = !prev.origin().equals(origin) ? Baseline.NEW_QEMU
                : now.anyBelow(prev.last()) ? Baseline.COUNTERS_WENT_BACK
                : atMillis <= prev.atMillis() ? Baseline.CLOCK_WENT_BACK : null;
        if (reset != null) return new Step(new State(now, origin, atMillis, prev.sums()), reset);
        Counters p = prev.last();
        Counters delta = new Counters(now.rdReqs - p.rdReqs, now.rdBytes - p.rdBytes, now.rdTimesNs - p.rdTimesNs,
                now.wrReqs - p.wrReqs, now.wrBytes - p.wrBytes, now.wrTimesNs - p.wrTimesNs);
        double elapsed = (atMillis - prev.atMillis()) / 1000.0;
        double factor = Math.pow(2, -elapsed / halfLifeSeconds);
        return new Step(new State(now, origin, atMillis, prev.sums().decayedThenAdd(factor, delta, elapsed)), null);
    }

    /** The profile the sums describe; null before any request was seen (nothing to say about the disk's work). */
    public static WorkloadProfile profile(Sums s, String sampledAt) {
        double reqs = s.rdReqs() + s.wrReqs();
        if (reqs <= 0 || s.seconds() <= 0) return null;
        return new WorkloadProfile(s.rdReqs() / reqs, s.rdReqs() > 0 ? s.rdBytes() / s.rdReqs() : 0,
                s.wrReqs() > 0 ? s.wrBytes() / s.wrReqs() : 0, s.rdReqs() / s.seconds(), s.wrReqs() / s.seconds(),
                (s.rdSeconds() + s.wrSeconds()) / s.seconds(), s.sampledSeconds(), sampledAt);
    }
}
