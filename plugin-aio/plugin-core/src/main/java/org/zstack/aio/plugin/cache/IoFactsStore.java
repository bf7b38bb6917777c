package org.zstack.aio.plugin.cache;

import org.zstack.aio.decision.WorkloadProfile;
import org.zstack.aio.plugin.HostIoFacts;
import org.zstack.aio.plugin.bench.StorageBenchmark;

import java.util.Collection;
import java.util.List;
import java.util.Map;

/**
 * The platform's store of the facts {@link IoFactsCache} keeps in memory (port). Each method is one statement; the
 * cache asks only on a miss, with every missing key of an operation at once.
 */
public interface IoFactsStore {

    /** The host's facts; a host never probed answered with every fact unknown ({@link HostIoFacts#unknown}). */
    HostIoFacts hostFacts(String hostUuid);

    /** The newest benchmark of each storage × image kind of the host (empty: never measured). */
    List<StorageBenchmark> benchmarks(String hostUuid);

    /** The profiles of these volumes; a volume never sampled, or that has seen no request, is absent. */
    Map<String, WorkloadProfile> workloads(Collection<String> volumeUuids);

    /**
     * The config rows of these resources (volumes and storages: every row the decision reads) and the types of these
     * storages, in one statement.
     */
    ConfigRows configRows(Collection<String> resourceUuids, Collection<String> storageUuids);
}
