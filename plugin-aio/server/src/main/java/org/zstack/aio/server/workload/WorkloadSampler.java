package org.zstack.aio.server.workload;

import jakarta.persistence.EntityManager;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.stereotype.Component;
import org.springframework.transaction.support.TransactionTemplate;
import org.zstack.aio.agent.api.VmListRsp.BlockStats;
import org.zstack.aio.plugin.workload.WorkloadFold;
import org.zstack.aio.plugin.workload.WorkloadFold.Counters;
import org.zstack.aio.plugin.workload.WorkloadFold.Origin;
import org.zstack.aio.server.config.GlobalConfigRepository;
import org.zstack.aio.server.metrics.IoModeMetrics;

import java.time.Duration;
import java.time.Instant;
import java.time.LocalDateTime;
import java.time.ZoneId;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Turns the block counters a host's VM sync brought back into each volume's observed workload (one row per
 * volume, with plugin-core's {@link WorkloadFold}, the fold the ZStack module uses too). The sample rides the tracker's round (one node per host per round), so it costs no
 * extra agent call: the tracker asks for counters when {@link #due} says the host's interval has passed.
 */
@Component
public class WorkloadSampler {

    private static final Logger log = LoggerFactory.getLogger(WorkloadSampler.class);
    static final int DEFAULT_INTERVAL = 60;
    static final int DEFAULT_HALF_LIFE = 3600;

    private final VolumeWorkloadRepository rows;
    private final GlobalConfigRepository configs;
    private final TransactionTemplate tx;
    private final IoModeMetrics metrics;
    private final EntityManager em;
    /** When this node last sampled each host (agent clock): a round on another node just samples a bit earlier. */
    private final Map<String, Long> lastSampled = new ConcurrentHashMap<>();

    public WorkloadSampler(VolumeWorkloadRepository rows, GlobalConfigRepository configs, TransactionTemplate tx,
                           IoModeMetrics metrics, EntityManager em) {
        this.em = em;
        this.rows = rows;
        this.configs = configs;
        this.tx = tx;
        this.metrics = metrics;
    }

    /** One disk's counters as the agent read them, matched to its volume. */
    public record DiskSample(String volumeUuid, long domainId, BlockStats stats) {
    }

    /** Whether this round should ask the host's agent for block counters (kvm/vm.workload.sampleInterval; 0: never). */
    public boolean due(String hostUuid) {
        int interval = seconds("vm.workload.sampleInterval", DEFAULT_INTERVAL, true);
        if (interval == 0) return false;
        Long last = lastSampled.get(hostUuid);
        // a round is ~ping.interval apart: half a second early still counts, or 10 s rounds would sample every 20 s
        return last == null || System.currentTimeMillis() - last >= interval * 1000L - 500;
    }

    /** Records one host's samples (read at {@code atMillis} on the agent's clock) in one transaction. */
    public void record(String hostUuid, long atMillis, List<DiskSample> samples) {
        lastSampled.put(hostUuid, System.currentTimeMillis());
        if (samples.isEmpty()) return;
        long t0 = System.nanoTime();
        double halfLife = seconds("vm.workload.halfLife", DEFAULT_HALF_LIFE, false);
        LocalDateTime at = LocalDateTime.ofInstant(Instant.ofEpochMilli(atMillis), ZoneId.systemDefault());
        tx.executeWithoutResult(s -> {
            Map<String, VolumeWorkloadVO> existing = new HashMap<>();
            rows.findAllById(samples.stream().map(DiskSample::volumeUuid).toList())
                    .forEach(r -> existing.put(r.getVolumeUuid(), r));
            for (DiskSample d : samples) {
                VolumeWorkloadVO row = existing.get(d.volumeUuid());
                if (row == null) { // persist, not save: save() on an assigned id would SELECT it first
                    row = new VolumeWorkloadVO(d.volumeUuid());
                    em.persist(row);
                    existing.put(d.volumeUuid(), row);
                }
                BlockStats b = d.stats();
                WorkloadFold.Step step = WorkloadFold.advance(row.state(),
                        new Counters(b.rdReqs(), b.rdBytes(), b.rdTimesNs(), b.wrReqs(), b.wrBytes(), b.wrTimesNs()),
                        new Origin(hostUuid, d.domainId()), atMillis, halfLife);
                if (step.baseline() != null && step.baseline() != WorkloadFold.Baseline.FIRST) {
                    log.debug("volume {}: counters taken as a new baseline ({})", d.volumeUuid(), step.baseline());
                }
                row.set(step.state(), at);
            }
        });
        metrics.workloadSample(samples.size(), Duration.ofNanos(System.nanoTime() - t0));
    }

    private int seconds(String name, int fallback, boolean zeroAllowed) {
        return configs.seconds("kvm", name, fallback, zeroAllowed);
    }
}
