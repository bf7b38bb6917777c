package org.zstack.aio.zstack;

import org.springframework.jdbc.BadSqlGrammarException;
import org.springframework.jdbc.core.JdbcTemplate;
import org.zstack.aio.decision.WorkloadProfile;
import org.zstack.aio.plugin.HostIoFacts;
import org.zstack.aio.plugin.bench.StorageBenchmark;
import org.zstack.aio.plugin.cache.ConfigRows;
import org.zstack.aio.plugin.cache.IoFactsStore;
import org.zstack.core.db.DatabaseFacade;
import org.zstack.utils.Utils;
import org.zstack.utils.logging.CLogger;

import java.util.ArrayList;
import java.util.Collection;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * The module's tables as the core's {@link IoFactsStore}, asked by the node's {@link org.zstack.aio.plugin.cache.IoFactsCache}
 * only on a miss, one statement each: a host's facts ({@link HostFactsReader}: its probe row with ZStack's versions),
 * its benchmarks (AioStorageBenchmarkVO, one SELECT by hostUuid, a row being exactly the core's
 * {@link StorageBenchmark#restore}), the workload profiles of some volumes (AioVolumeWorkloadVO, written by
 * {@link AioWorkloadSampler}), and the config rows of some volumes and storages ({@link ConfigRowsReader}).
 */
public final class AioIoFactsStore implements IoFactsStore {
    private static final CLogger logger = Utils.getLogger(AioIoFactsStore.class);

    static final String BENCHMARK_TABLE = "AioStorageBenchmarkVO";

    private final DatabaseFacade dbf;
    private final HostFactsReader hosts;
    private final WorkloadStore workloads;
    private final ConfigRowsReader configs;
    private final AtomicBoolean noBenchmarkTableSaid = new AtomicBoolean();

    public AioIoFactsStore(DatabaseFacade dbf, HostFactsReader hosts, WorkloadStore workloads, ConfigRowsReader configs) {
        this.dbf = dbf;
        this.hosts = hosts;
        this.workloads = workloads;
        this.configs = configs;
    }

    @Override
    public HostIoFacts hostFacts(String hostUuid) {
        return hosts.facts(hostUuid);
    }

    @Override
    public List<StorageBenchmark> benchmarks(String hostUuid) {
        final List<StorageBenchmark> out = new ArrayList<>();
        try {
            // the facade's data source as it is now, as IoModeDecisionStore says why
            new JdbcTemplate(dbf.getDataSource()).query("SELECT hostUuid, primaryStorageUuid, imageKind, takenAt, outcome,"
                    + " note, benchLines FROM " + BENCHMARK_TABLE + " WHERE hostUuid = ?", rs -> {
                try {
                    out.add(StorageBenchmark.restore(rs.getString(1), rs.getString(2), rs.getString(3), rs.getString(4),
                            rs.getString(5), rs.getString(6), rs.getString(7)));
                } catch (IllegalArgumentException e) {
                    // a row of a later version (an image kind or outcome this one does not know) weighs nothing
                    logger.warn(String.format("plugin-aio: a benchmark of host[uuid:%s] cannot be read and is left out: %s",
                            hostUuid, e.getMessage()));
                }
            }, hostUuid);
        } catch (BadSqlGrammarException e) {
            // the benchmark's table comes with its own upgrade script (V5.2.1.112): until it is there, nothing is measured
            if (noBenchmarkTableSaid.compareAndSet(false, true)) {
                logger.warn("plugin-aio: no storage benchmarks can be read (" + e.getMostSpecificCause().getMessage()
                        + "); auto keeps its fixed order until `zstack-ctl upgrade_db` has created " + BENCHMARK_TABLE);
            }
            return Collections.emptyList();
        }
        return out;
    }

    @Override
    public Map<String, WorkloadProfile> workloads(Collection<String> volumeUuids) {
        return workloads.profiles(volumeUuids);
    }

    @Override
    public ConfigRows configRows(Collection<String> resourceUuids, Collection<String> storageUuids) {
        return configs.read(resourceUuids, storageUuids);
    }
}
