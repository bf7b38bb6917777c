package org.zstack.aio.plugin.workload;

import org.zstack.aio.decision.WorkloadProfile;
import org.zstack.aio.plugin.workload.WorkloadFold.Counters;
import org.zstack.aio.plugin.workload.WorkloadFold.Origin;
import org.zstack.aio.plugin.workload.WorkloadFold.State;
import org.zstack.aio.plugin.workload.WorkloadFold.Sums;

import java.util.LinkedHashMap;
import java.util.Map;

/**
 * A volume's workload as a platform keeps it in two text columns (the ZStack module's AioVolumeWorkloadVO): the fold's
 * {@link State} (the last raw counters, where they came from, when, and the decayed sums: what the next sample
 * continues from) and the {@link WorkloadProfile} it describes (what a decision reads). One line of
 * {@code key=value} words each; doubles as Java prints them, so a state read back is equal to the one written. Pure.
 */
public final class WorkloadText {

    private WorkloadText() {
    }

    /** {@code host=h domain=4 at=1795772681000 last=rdReqs,rdBytes,rdNs,wrReqs,wrBytes,wrNs sums=8 doubles}. */
    public static String state(State s) {
        Counters c = s.last();
        Sums m = s.sums();
        return "host=" + s.origin().hostUuid() + " domain=" + s.origin().domainId() + " at=" + s.atMillis()
               + " last=" + c.rdReqs() + "," + c.rdBytes() + "," + c.rdTimesNs() + "," + c.wrReqs() + "," + c.wrBytes()
               + "," + c.wrTimesNs()
               + " sums=" + m.rdReqs() + "," + m.rdBytes() + "," + m.rdSeconds() + "," + m.wrReqs() + "," + m.wrBytes()
               + "," + m.wrSeconds() + "," + m.seconds() + "," + m.sampledSeconds();
    }

    /** The state written by {@link #state}; null for null or a line it cannot read (the next sample is then a baseline). */
    public static State parseState(String line) {
        Map<String, String> w = words(line);
        try {
            String[] c = w.get("last").split(",");
            String[] m = w.get("sums").split(",");
            if (c.length != 6 || m.length != 8 || !w.containsKey("host")) return null;
            return new State(new Counters(l(c[0]), l(c[1]), l(c[2]), l(c[3]), l(c[4]), l(c[5])),
                    new Origin(w.get("host"), l(w.get("domain"))), l(w.get("at")),
                    new Sums(d(m[0]), d(m[1]), d(m[2]), d(m[3]), d(m[4]), d(m[5]), d(m[6]), d(m[7])));
        } catch (RuntimeException e) {
            return null;
        }
    }

    /** {@code readFraction=… avgReadBytes=… avgWriteBytes=… readIops=… writeIops=… avgQueueDepth=… sampledSeconds=… sampledAt=…}. */
    public static String profile(WorkloadProfile p) {
        return "readFraction=" + p.readFraction() + " avgReadBytes=" + p.avgReadBytes() + " avgWriteBytes=" + p.avgWriteBytes()
               + " readIops=" + p.readIops() + " writeIops=" + p.writeIops() + " avgQueueDepth=" + p.avgQueueDepth()
               + " sampledSeconds=" + p.sampledSeconds() + " sampledAt=" + p.sampledAt();
    }

    /** The profile written by {@link #profile}; null for null or a line it cannot read (the volume counts as never sampled). */
    public static WorkloadProfile parseProfile(String line) {
        Map<String, String> w = words(line);
        try {
            return new WorkloadProfile(d(w.get("readFraction")), d(w.get("avgReadBytes")), d(w.get("avgWriteBytes")),
                    d(w.get("readIops")), d(w.get("writeIops")), d(w.get("avgQueueDepth")), d(w.get("sampledSeconds")),
                    w.get("sampledAt"));
        } catch (RuntimeException e) {
            return null;
        }
    }

    private static Map<String, String> words(String line) {
        Map<String, String> out = new LinkedHashMap<String, String>();
        if (line == null) return out;
        for (String word : line.trim().split(" +")) {
            int eq = word.indexOf('=');
            if (eq > 0) out.put(word.substring(0, eq), word.substring(eq + 1));
        }
        return out;
    }

    private static long l(String s) { return Long.parseLong(s); }

    private static double d(String s) { return Double.parseDouble(s); }
}
