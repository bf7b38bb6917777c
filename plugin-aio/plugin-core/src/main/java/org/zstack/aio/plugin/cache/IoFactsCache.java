package org.zstack.aio.plugin.cache;

import org.zstack.aio.decision.ModePerformance;
import org.zstack.aio.decision.WorkloadProfile;
import org.zstack.aio.plugin.Figures;
import org.zstack.aio.plugin.HostIoFacts;
import org.zstack.aio.plugin.VolumeIoFacts;

import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.atomic.AtomicLong;

/**
 * What a VM start reads of a host and its disks, kept in memory on one management node: the host's probed facts, its
 * benchmarks (folded), each volume's workload profile (a volume never sampled is remembered as such too), and the
 * config rows of the volumes and their storages with the storages' types. So a start whose host and volumes were seen
 * before reads none of them from the store: what is left per start is the decisions' write.
 * <p>Kept true by {@link #apply}: every write of a probe, benchmark or sample publishes an {@link IoFactsChange}
 * ({@link IoFactsChanges}) that reaches every node, and each node drops what it names; the next start reads it again,
 * once. A load that raced with a change is not kept (each kind has an epoch a change moves; a load keeps its result
 * only when the epoch is the one it started at), so a node never keeps facts older than a change it heard. Bounded:
 * past {@code maxEntries} of a kind, the least recently used entries go. Thread-safe; the store is asked outside any
 * lock.
 */
public final class IoFactsCache {

    private final IoFactsStore store;
    private final KeptEntries<HostIoFacts> hosts;
    private final KeptEntries<Map<String, ModePerformance>> benchmarks;
    private final KeptEntries<WorkloadProfile> workloads;
    private final KeptEntries<Map<String, String>> configRows;
    private final KeptEntries<String> storageTypes;
    private final AtomicLong reads = new AtomicLong();

    public IoFactsCache(IoFactsStore store, int maxEntries) {
        if (maxEntries < 1) throw new IllegalArgumentException("maxEntries must be >= 1: " + maxEntries);
        this.store = store;
        this.hosts = new KeptEntries<HostIoFacts>(maxEntries);
        this.benchmarks = new KeptEntries<Map<String, ModePerformance>>(maxEntries);
        this.workloads = new KeptEntries<WorkloadProfile>(maxEntries);
        this.configRows = new KeptEntries<Map<String, String>>(maxEntries);
        this.storageTypes = new KeptEntries<String>(maxEntries);
    }

    /** The host's facts (one statement when not kept). */
    public HostIoFacts host(String hostUuid) {
        KeptEntries.Hit<HostIoFacts> hit = hosts.get(hostUuid);
        if (hit.found) return hit.value;
        long epoch = hosts.epoch();
        reads.incrementAndGet();
        HostIoFacts f = store.hostFacts(hostUuid);
        hosts.putIfStill(epoch, hostUuid, f);
        return f;
    }

    /**
     * The host's benchmarks and these volumes' profiles (at most two statements when not kept: the benchmarks, and
     * the profiles of every volume not kept, at once).
     */
    public Figures figures(String hostUuid, Collection<VolumeIoFacts> volumes) {
        KeptEntries.Hit<Map<String, ModePerformance>> hit = benchmarks.get(hostUuid);
        Map<String, ModePerformance> perf = hit.value;
        if (!hit.found) {
            long epoch = benchmarks.epoch();
            reads.incrementAndGet();
            perf = MeasuredFigures.fold(store.benchmarks(hostUuid));
            benchmarks.putIfStill(epoch, hostUuid, perf);
        }
        Map<String, WorkloadProfile> profiles = new HashMap<String, WorkloadProfile>();
        List<String> missing = new ArrayList<String>();
        for (VolumeIoFacts v : volumes) {
            KeptEntries.Hit<WorkloadProfile> w = workloads.get(v.volumeUuid());
            if (!w.found) missing.add(v.volumeUuid());
            else if (w.value != null) profiles.put(v.volumeUuid(), w.value);
        }
        if (!missing.isEmpty()) {
            long epoch = workloads.epoch();
            reads.incrementAndGet();
            Map<String, WorkloadProfile> loaded = store.workloads(missing);
            for (String u : missing) {
                WorkloadProfile p = loaded.get(u);
                workloads.putIfStill(epoch, u, p); // null kept too: "never sampled" is a fact worth keeping
                if (p != null) profiles.put(u, p);
            }
        }
        return new MeasuredFigures(perf, profiles);
    }

    /**
     * The config rows of these volumes and storages and the storages' types (one statement when any is not kept: every
     * missing one at once). A storage's type never changes; a resource's rows are dropped by a {@code CONFIGS} change
     * naming it, which the platform applies on every node when a config is set or deleted there.
     */
    public ConfigRows configRows(Collection<String> volumeUuids, Collection<String> storageUuids) {
        Map<String, String> types = new HashMap<String, String>();
        Map<String, Map<String, String>> rows = new HashMap<String, Map<String, String>>();
        Set<String> missingOwners = new LinkedHashSet<String>();
        Set<String> missingStorages = new LinkedHashSet<String>();
        Set<String> owners = new LinkedHashSet<String>(volumeUuids);
        owners.addAll(storageUuids);
        for (String u : owners) {
            KeptEntries.Hit<Map<String, String>> hit = configRows.get(u);
            if (hit.found) rows.put(u, hit.value);
            else missingOwners.add(u);
        }
        for (String ps : storageUuids) {
            KeptEntries.Hit<String> hit = storageTypes.get(ps);
            if (hit.found) types.put(ps, hit.value);
            else missingStorages.add(ps);
        }
        if (missingOwners.isEmpty() && missingStorages.isEmpty()) return new ConfigRows(types, rows);
        long rowsEpoch = configRows.epoch();
        long typesEpoch = storageTypes.epoch();
        reads.incrementAndGet();
        ConfigRows loaded = store.configRows(missingOwners, missingStorages);
        for (String u : missingOwners) {
            Map<String, String> own = loaded.rowsOf(u);
            configRows.putIfStill(rowsEpoch, u, own); // none kept too: "nothing set on it" is a fact worth keeping
            rows.put(u, own);
        }
        for (String ps : missingStorages) {
            String type = loaded.storageType(ps);
            if (type != null) storageTypes.putIfStill(typesEpoch, ps, type); // an unknown storage is asked again
            types.put(ps, type);
        }
        return new ConfigRows(types, rows);
    }

    /** What a change heard from any node (this one included) drops. */
    public void apply(IoFactsChange change) {
        switch (change.kind()) {
            case HOST_FACTS: hosts.drop(change.keys()); break;
            case BENCHMARK: benchmarks.drop(change.keys()); break;
            case WORKLOAD: workloads.drop(change.keys()); break;
            case CONFIGS: configRows.drop(change.keys()); break;
            default:
                hosts.dropAll();
                benchmarks.dropAll();
                workloads.dropAll();
                configRows.dropAll();
                storageTypes.dropAll();
        }
    }

    /** Whether the config rows of a resource are kept in memory (for tests and metrics). */
    public boolean keepsConfigRows(String resourceUuid) { return configRows.get(resourceUuid).found; }

    /** Statements asked of the store so far (for tests and metrics: each is one round trip). */
    public long reads() { return reads.get(); }
}
