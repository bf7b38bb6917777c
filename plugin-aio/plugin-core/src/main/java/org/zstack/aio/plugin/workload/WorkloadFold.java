package org.zstack.aio.plugin.workload;

import org.zstack.aio.decision.WorkloadProfile;

/**
 * A disk's observed workload from its cumulative block counters, as pure arithmetic: the one fold of both platforms
 * (the standalone server's WorkloadSampler and the ZStack module's sampling), so a profile means the same on both.
 * <p>Each sample adds the counters' delta since the previous sample to time-decayed sums: every sum is first
 * multiplied by {@code 2^(-elapsed / halfLife)}, then the delta (and the elapsed seconds) added. Ratios of the sums
 * (read share, bytes per request, requests per second, Little's law in-flight = summed request time / wall time)
 * are then averages in which a sample counts half as much one half-life later. Idle time keeps the shape (both
 * sides of a ratio decay alike) while the rates fall.
 * <p>Counters count from the QEMU process's start: a new process (a new libvirt domain id, another host after a
 * migration) or any counter going backwards is a reset, and that sample only becomes the new baseline.
 */
public final class WorkloadFold {

    private WorkloadFold() {
    }

    /** Cumulative counters as libvirt reports them (times in ns). */
    public static final class Counters {
        private final long rdReqs;
        private final long rdBytes;
        private final long rdTimesNs;
        private final long wrReqs;
        private final long wrBytes;
        private final long wrTimesNs;

        public Counters(long rdReqs, long rdBytes, long rdTimesNs, long wrReqs, long wrBytes, long wrTimesNs) {
            this.rdReqs = rdReqs;
            this.rdBytes = rdBytes;
            this.rdTimesNs = rdTimesNs;
            this.wrReqs = wrReqs;
            this.wrBytes = wrBytes;
            this.wrTimesNs = wrTimesNs;
        }

        public long rdReqs() { return rdReqs; }
        public long rdBytes() { return rdBytes; }
        public long rdTimesNs() { return rdTimesNs; }
        public long wrReqs() { return wrReqs; }
        public long wrBytes() { return wrBytes; }
        public long wrTimesNs() { return wrTimesNs; }

        boolean anyBelow(Counters prev) {
            return rdReqs < prev.rdReqs || rdBytes < prev.rdBytes || rdTimesNs < prev.rdTimesNs || wrReqs < prev.wrReqs
                   || wrBytes < prev.wrBytes || wrTimesNs < prev.wrTimesNs;
        }

        Counters minus(Counters p) {
            return new Counters(rdReqs - p.rdReqs, rdBytes - p.rdBytes, rdTimesNs - p.rdTimesNs, wrReqs - p.wrReqs,
                    wrBytes - p.wrBytes, wrTimesNs - p.wrTimesNs);
        }

        @Override
        public boolean equals(Object o) {
            if (!(o instanceof Counters)) return false;
            Counters c = (Counters) o;
            return rdReqs == c.rdReqs && rdBytes == c.rdBytes && rdTimesNs == c.rdTimesNs && wrReqs == c.wrReqs
                   && wrBytes == c.wrBytes && wrTimesNs == c.wrTimesNs;
        }

        @Override
        public int hashCode() {
            return java.util.Arrays.hashCode(new long[]{rdReqs, rdBytes, rdTimesNs, wrReqs, wrBytes, wrTimesNs});
        }

        @Override
        public String toString() {
            return "Counters[rd " + rdReqs + "/" + rdBytes + "B/" + rdTimesNs + "ns, wr " + wrReqs + "/" + wrBytes + "B/" + wrTimesNs + "ns]";
        }
    }

    /** Where the counters come from: a new QEMU (host or libvirt id) restarts them. */
    public static final class Origin {
        private final String hostUuid;
        private final long domainId;

        public Origin(String hostUuid, long domainId) {
            this.hostUuid = hostUuid;
            this.domainId = domainId;
        }

        public String hostUuid() { return hostUuid; }
        public long domainId() { return domainId; }

        @Override
        public boolean equals(Object o) {
            if (!(o instanceof Origin)) return false;
            Origin x = (Origin) o;
            return domainId == x.domainId && (hostUuid == null ? x.hostUuid == null : hostUuid.equals(x.hostUuid));
        }

        @Override
        public int hashCode() { return 31 * (hostUuid == null ? 0 : hostUuid.hashCode()) + (int) (domainId ^ (domainId >>> 32)); }

        @Override
        public String toString() { return "Origin[" + hostUuid + ", domain " + domainId + "]"; }
    }

    /**
     * The decayed sums of one disk (requests, bytes, request time in seconds, wall seconds) and the plain total of
     * seconds sampled.
     */
    public static final class Sums {
        public static final Sums EMPTY = new Sums(0, 0, 0, 0, 0, 0, 0, 0);

        private final double rdReqs;
        private final double rdBytes;
        private final double rdSeconds;
        private final double wrReqs;
        private final double wrBytes;
        private final double wrSeconds;
        private final double seconds;
        private final double sampledSeconds;

        public Sums(double rdReqs, double rdBytes, double rdSeconds, double wrReqs, double wrBytes, double wrSeconds,
                    double seconds, double sampledSeconds) {
            this.rdReqs = rdReqs;
            this.rdBytes = rdBytes;
            this.rdSeconds = rdSeconds;
            this.wrReqs = wrReqs;
            this.wrBytes = wrBytes;
            this.wrSeconds = wrSeconds;
            this.seconds = seconds;
            this.sampledSeconds = sampledSeconds;
        }

        public double rdReqs() { return rdReqs; }
        public double rdBytes() { return rdBytes; }
        public double rdSeconds() { return rdSeconds; }
        public double wrReqs() { return wrReqs; }
        public double wrBytes() { return wrBytes; }
        public double wrSeconds() { return wrSeconds; }
        public double seconds() { return seconds; }
        public double sampledSeconds() { return sampledSeconds; }

        Sums decayedThenAdd(double factor, Counters d, double elapsed) {
            return new Sums(rdReqs * factor + d.rdReqs, rdBytes * factor + d.rdBytes, rdSeconds * factor + d.rdTimesNs / 1e9,
                    wrReqs * factor + d.wrReqs, wrBytes * factor + d.wrBytes, wrSeconds * factor + d.wrTimesNs / 1e9,
                    seconds * factor + elapsed, sampledSeconds + elapsed);
        }

        @Override
        public boolean equals(Object o) {
            if (!(o instanceof Sums)) return false;
            Sums s = (Sums) o;
            return rdReqs == s.rdReqs && rdBytes == s.rdBytes && rdSeconds == s.rdSeconds && wrReqs == s.wrReqs
                   && wrBytes == s.wrBytes && wrSeconds == s.wrSeconds && seconds == s.seconds && sampledSeconds == s.sampledSeconds;
        }

        @Override
        public int hashCode() {
            return java.util.Arrays.hashCode(new double[]{rdReqs, rdBytes, rdSeconds, wrReqs, wrBytes, wrSeconds, seconds, sampledSeconds});
        }

        @Override
        public String toString() {
            return "Sums[rd " + rdReqs + "/" + rdBytes + "B/" + rdSeconds + "s, wr " + wrReqs + "/" + wrBytes + "B/" + wrSeconds
                   + "s, over " + seconds + "s, sampled " + sampledSeconds + "s]";
        }
    }

    /** What the previous sample left: its counters, their origin, when (the host's clock, epoch ms), and the sums. */
    public static final class State {
        private final Counters last;
        private final Origin origin;
        private final long atMillis;
        private final Sums sums;

        public State(Counters last, Origin origin, long atMillis, Sums sums) {
            this.last = last;
            this.origin = origin;
            this.atMillis = atMillis;
            this.sums = sums;
        }

        public Counters last() { return last; }
        public Origin origin() { return origin; }
        public long atMillis() { return atMillis; }
        public Sums sums() { return sums; }

        @Override
        public boolean equals(Object o) {
            if (!(o instanceof State)) return false;
            State s = (State) o;
            return atMillis == s.atMillis && last.equals(s.last) && origin.equals(s.origin) && sums.equals(s.sums);
        }

        @Override
        public int hashCode() { return java.util.Arrays.hashCode(new Object[]{last, origin, atMillis, sums}); }

        @Override
        public String toString() { return "State[" + last + ", " + origin + ", at " + atMillis + ", " + sums + "]"; }
    }

    /** Why a sample added nothing, or null when it added its delta. */
    public enum Baseline { FIRST, NEW_QEMU, COUNTERS_WENT_BACK, CLOCK_WENT_BACK }

    /** The state after one sample, and why it only became a baseline (null: it added its delta). */
    public static final class Step {
        private final State state;
        private final Baseline baseline;

        public Step(State state, Baseline baseline) {
            this.state = state;
            this.baseline = baseline;
        }

        public State state() { return state; }
        public Baseline baseline() { return baseline; }
    }

    /** The state after one more sample; {@code prev} null for a disk never sampled. */
    public static Step advance(State prev, Counters now, Origin origin, long atMillis, double halfLifeSeconds) {
        if (prev == null) return new Step(new State(now, origin, atMillis, Sums.EMPTY), Baseline.FIRST);
        Baseline reset = !prev.origin().equals(origin) ? Baseline.NEW_QEMU
                : now.anyBelow(prev.last()) ? Baseline.COUNTERS_WENT_BACK
                : atMillis <= prev.atMillis() ? Baseline.CLOCK_WENT_BACK : null;
        if (reset != null) return new Step(new State(now, origin, atMillis, prev.sums()), reset);
        double elapsed = (atMillis - prev.atMillis()) / 1000.0;
        double factor = Math.pow(2, -elapsed / halfLifeSeconds);
        return new Step(new State(now, origin, atMillis, prev.sums().decayedThenAdd(factor, now.minus(prev.last()), elapsed)), null);
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
