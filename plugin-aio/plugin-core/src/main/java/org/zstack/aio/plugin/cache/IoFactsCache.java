package org.zstack.aio.plugin.cache;

import org.zstack.aio.decision.ModePerformance;
import org.zstack.aio.decision.WorkloadProfile;
import org.zstack.aio.plugin.Figures;
import org.zstack.aio.plugin.HostIoFacts;
import org.zstack.aio.plugin.VolumeIoFacts;

import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;

/**
 * What a VM start reads of a host and its disks' measurements, kept in memory on one management node: the host's
 * probed facts, its benchmarks (folded), and each volume's workload profile (a volume never sampled is remembered as
 * such too). So a start whose host and volumes were seen before reads none of them from the store: what is left per
 * start is the volumes, their configs (one query) and the decisions' write.
 * <p>Kept true by {@link #apply}: every write of a probe, benchmark or sample publishes an {@link IoFactsChange}
 * ({@link IoFactsChanges}) that reaches every node, and each node drops what it names; the next start reads it again,
 * once. A load that raced with a change is not kept (each kind has an epoch a change moves; a load keeps its result
 * only when the epoch is the one it started at), so a node never keeps facts older than a change it heard. Bounded:
 * past {@code maxEntries} of a kind, the least recently used entries go. Thread-safe; the store is asked outside any
 * lock.
 */
public final class IoFactsCache {

    private final IoFactsStore store;
    private final Kept<HostIoFacts> hosts;
    private final Kept<Map<String, ModePerformance>> benchmarks;
    private final Kept<WorkloadProfile> workloads;
    private final AtomicLong reads = new AtomicLong();

    public IoFactsCache(IoFactsStore store, int maxEntries) {
        if (maxEntries < 1) throw new IllegalArgumentException("maxEntries must be >= 1: " + maxEntries);
        this.store = store;
        this.hosts = new Kept<HostIoFacts>(maxEntries);
        this.benchmarks = new Kept<Map<String, ModePerformance>>(maxEntries);
        this.workloads = new Kept<WorkloadProfile>(maxEntries);
    }

    /** The host's facts (one statement when not kept). */
    public HostIoFacts host(String hostUuid) {
        Kept.Hit<HostIoFacts> hit = hosts.get(hostUuid);
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
        Kept.Hit<Map<String, ModePerformance>> hit = benchmarks.get(hostUuid);
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
            Kept.Hit<WorkloadProfile> w = workloads.get(v.volumeUuid());
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

    /** What a change heard from any node (this one included) drops. */
    public void apply(IoFactsChange change) {
        switch (change.kind()) {
            case HOST_FACTS: hosts.drop(change.keys()); break;
            case BENCHMARK: benchmarks.drop(change.keys()); break;
            case WORKLOAD: workloads.drop(change.keys()); break;
            default:
                hosts.dropAll();
                benchmarks.dropAll();
                workloads.dropAll();
        }
    }

    /** Statements asked of the store so far (for tests and metrics: each is one round trip). */
    public long reads() { return reads.get(); }

    /** One kind's entries, by key, with its epoch. */
    private static final class Kept<V> {
        private final Object lock = new Object();
        private final Map<String, V> values;
        private long epoch;

        Kept(final int max) {
            this.values = new LinkedHashMap<String, V>(16, 0.75f, true) {
                @Override
                protected boolean removeEldestEntry(Map.Entry<String, V> eldest) { return size() > max; }
            };
        }

        static final class Hit<V> {
            final boolean found;
            final V value;

            Hit(boolean found, V value) {
                this.found = found;
                this.value = value;
            }
        }

        Hit<V> get(String key) {
            synchronized (lock) {
                boolean found = values.containsKey(key);
                return new Hit<V>(found, found ? values.get(key) : null);
            }
        }

        long epoch() {
            synchronized (lock) {
                return epoch;
            }
        }

        void putIfStill(long startedAt, String key, V value) {
            synchronized (lock) {
                if (epoch == startedAt) values.put(key, value);
            }
        }

        void drop(Collection<String> keys) {
            synchronized (lock) {
                epoch++;
                for (String k : keys) values.remove(k);
            }
        }

        void dropAll() {
            synchronized (lock) {
                epoch++;
                values.clear();
            }
        }
    }
}
