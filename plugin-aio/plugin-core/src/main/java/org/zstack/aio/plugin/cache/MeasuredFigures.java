package org.zstack.aio.plugin.cache;

import org.zstack.aio.decision.ModePerformance;
import org.zstack.aio.decision.WorkloadProfile;
import org.zstack.aio.plugin.Figures;
import org.zstack.aio.plugin.VolumeIoFacts;
import org.zstack.aio.plugin.bench.ImageKind;
import org.zstack.aio.plugin.bench.StorageBenchmark;

import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * One host's stored benchmarks and some volumes' profiles as the use case's {@link Figures}: a volume gets the
 * benchmark of its own storage for its own image kind (a sparse image's writes allocate, a full one's do not, so
 * one never stands for the other), and its profile. Folded once when built ({@link StorageBenchmark#performance()}),
 * so a start that reads it from memory folds nothing.
 */
public final class MeasuredFigures implements Figures {

    private final Map<String, ModePerformance> byStorageAndKind;
    private final Map<String, WorkloadProfile> profiles;

    /** Already folded ({@link #fold}). */
    MeasuredFigures(Map<String, ModePerformance> byStorageAndKind, Map<String, WorkloadProfile> profiles) {
        this.byStorageAndKind = byStorageAndKind;
        this.profiles = profiles;
    }

    /** The host's benchmarks (of any outcome: one that keeps no figures weighs nothing) and the volumes' profiles. */
    public static MeasuredFigures of(List<StorageBenchmark> benchmarks, Map<String, WorkloadProfile> profiles) {
        return new MeasuredFigures(fold(benchmarks), profiles == null ? Collections.<String, WorkloadProfile>emptyMap()
                : new HashMap<String, WorkloadProfile>(profiles));
    }

    /** Each storage × kind's performance; of two benchmarks of one storage × kind, the later taken stands. */
    static Map<String, ModePerformance> fold(List<StorageBenchmark> benchmarks) {
        Map<String, StorageBenchmark> newest = new HashMap<String, StorageBenchmark>();
        for (StorageBenchmark b : benchmarks) {
            String key = key(b.primaryStorageUuid(), b.kind());
            StorageBenchmark had = newest.get(key);
            if (had == null || later(b.takenAt(), had.takenAt())) newest.put(key, b);
        }
        Map<String, ModePerformance> out = new HashMap<String, ModePerformance>();
        for (Map.Entry<String, StorageBenchmark> e : newest.entrySet()) {
            ModePerformance p = e.getValue().performance();
            if (p != null) out.put(e.getKey(), p);
        }
        return Collections.unmodifiableMap(out);
    }

    /** ISO-8601 UTC dates in the core's one form (IsoDates) compare as text; a date-less one is the oldest. */
    private static boolean later(String a, String b) {
        return b == null || (a != null && a.compareTo(b) > 0);
    }

    static String key(String primaryStorageUuid, ImageKind kind) {
        return primaryStorageUuid + "/" + kind.name();
    }

    @Override
    public ModePerformance benchmark(VolumeIoFacts volume) {
        ImageKind kind = ImageKind.ofVolumeOrNull(volume.format(), volume.preallocation());
        if (kind == null || volume.primaryStorageUuid() == null) return null;
        return byStorageAndKind.get(key(volume.primaryStorageUuid(), kind));
    }

    @Override
    public WorkloadProfile workload(String volumeUuid) {
        return profiles.get(volumeUuid);
    }
}
