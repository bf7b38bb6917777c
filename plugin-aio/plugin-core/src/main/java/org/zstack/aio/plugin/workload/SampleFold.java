package org.zstack.aio.plugin.workload;

import org.zstack.aio.decision.WorkloadProfile;
import org.zstack.aio.plugin.workload.WorkloadFold.Baseline;
import org.zstack.aio.plugin.workload.WorkloadFold.Origin;
import org.zstack.aio.plugin.workload.WorkloadFold.State;
import org.zstack.aio.plugin.workload.WorkloadFold.Step;

import java.util.ArrayList;
import java.util.Collections;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * One host's sample folded into its volumes' states, all at once: what a platform writes back in one statement per
 * host per interval (the states) and what the decision reads (the profiles). Disks are matched to volumes by the
 * platform ({@link DiskMatcher}); a disk of no volume, of a domain {@code virsh list} did not list, or with unusable
 * counters is left out with a sentence. Pure.
 */
public final class SampleFold {

    /** Which volume a disk of a domain is; null: none the platform knows. */
    public interface DiskMatcher {
        String volumeUuid(String domainName, HostSample.Disk disk);
    }

    /**
     * Matches a disk by the image it opened: the volume whose path on the host is exactly that, else the volume whose
     * uuid the path holds (ZStack's install paths name the volume: {@code .../vol-UUID/UUID.qcow2}).
     */
    public static DiskMatcher byPathOrUuid(final Map<String, String> volumeByPath) {
        final Set<String> uuids = new HashSet<String>(volumeByPath.values());
        return new DiskMatcher() {
            @Override
            public String volumeUuid(String domainName, HostSample.Disk disk) {
                String p = disk.path();
                if (p == null) return null;
                String exact = volumeByPath.get(p);
                if (exact != null) return exact;
                for (String u : uuids) if (p.contains(u)) return u;
                return null;
            }
        };
    }

    private final Map<String, State> states;
    private final Map<String, Baseline> baselines;
    private final List<String> skipped;

    private SampleFold(Map<String, State> states, Map<String, Baseline> baselines, List<String> skipped) {
        this.states = Collections.unmodifiableMap(states);
        this.baselines = Collections.unmodifiableMap(baselines);
        this.skipped = Collections.unmodifiableList(skipped);
    }

    /**
     * @param previous each volume's state after the last sample (absent: never sampled)
     * @throws IllegalArgumentException when the sample is a failure (nothing to fold: its {@code failure()} says why)
     */
    public static SampleFold fold(String hostUuid, HostSample sample, DiskMatcher match, Map<String, State> previous,
                                  double halfLifeSeconds) {
        if (sample.failure() != null) throw new IllegalArgumentException("no sample to fold: " + sample.failure());
        Map<String, State> states = new LinkedHashMap<String, State>();
        Map<String, Baseline> baselines = new LinkedHashMap<String, Baseline>();
        List<String> skipped = new ArrayList<String>();
        for (HostSample.Domain d : sample.domains()) {
            for (HostSample.Disk disk : d.disks()) {
                String volume = match.volumeUuid(d.name(), disk);
                if (volume == null) continue; // a disk of no volume (a cdrom, another tool's domain): nothing to say
                if (disk.incomplete() != null) {
                    skipped.add("volume " + volume + " of domain " + d.name() + ": " + disk.incomplete());
                } else if (d.id() == null) {
                    skipped.add("volume " + volume + ": domain " + d.name() + " was not in virsh list, so which QEMU counted"
                                + " is unknown; the next sample takes it");
                } else if (states.containsKey(volume)) {
                    skipped.add("volume " + volume + " is opened twice on this host (domain " + d.name() + ", " + disk.name()
                                + "): only the first disk counts");
                } else {
                    Step s = WorkloadFold.advance(previous.get(volume), disk.counters(), new Origin(hostUuid, d.id()),
                            sample.atMillis(), halfLifeSeconds);
                    states.put(volume, s.state());
                    if (s.baseline() != null) baselines.put(volume, s.baseline());
                }
            }
        }
        return new SampleFold(states, baselines, skipped);
    }

    /** Each sampled volume's new state, to store (one statement for all). */
    public Map<String, State> states() { return states; }

    /** The volumes whose sample only became a baseline, and why. */
    public Map<String, Baseline> baselines() { return baselines; }

    /** Disks of known volumes that folded nothing, one sentence each. */
    public List<String> skipped() { return skipped; }

    /** Each sampled volume's profile after this sample (a volume that has seen no request yet has none). */
    public Map<String, WorkloadProfile> profiles(String sampledAt) {
        Map<String, WorkloadProfile> out = new LinkedHashMap<String, WorkloadProfile>();
        for (Map.Entry<String, State> e : states.entrySet()) {
            WorkloadProfile p = WorkloadFold.profile(e.getValue().sums(), sampledAt);
            if (p != null) out.put(e.getKey(), p);
        }
        return out;
    }
}
