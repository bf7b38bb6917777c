package org.zstack.aio.server.iomode;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.type.TypeReference;
import com.fasterxml.jackson.databind.ObjectMapper;
import jakarta.persistence.EntityManager;
import org.springframework.stereotype.Service;
import org.springframework.retry.annotation.Retryable;
import org.springframework.transaction.annotation.Transactional;
import org.zstack.aio.server.db.UnitOfWork;
import org.zstack.aio.agent.api.DiskResult;
import org.zstack.aio.decision.DecisionInput;
import org.zstack.aio.decision.IoModeDecider;
import org.zstack.aio.decision.IoModeDecision;
import org.zstack.aio.server.account.Caller;
import org.zstack.aio.plugin.DecisionRecord;
import org.zstack.aio.plugin.Operation;
import org.zstack.aio.server.api.ApiDates;
import org.zstack.aio.server.api.ApiException;
import org.zstack.aio.server.api.Uuids;
import org.zstack.aio.server.config.ConfigSnapshot;
import org.zstack.aio.server.inventory.VmInstanceRepository;
import org.zstack.aio.server.inventory.VmInstanceVO;
import org.zstack.aio.server.iomode.IoModeDecisionInventory.IoModeCheckInventory;
import org.zstack.aio.server.iomode.IoModeFactsLoader.HostWithPerformance;
import org.zstack.aio.server.workload.WorkloadInventory;
import org.zstack.aio.server.benchmark.MeasuredPerformance;

import java.time.LocalDateTime;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/** Decides io modes for volumes from stored facts, and records the applied decisions. */
@Service
@Retryable(interceptor = UnitOfWork.IDEMPOTENT)
public class IoModeService {

    private static final TypeReference<List<IoModeCheckInventory>> CHECKS = new TypeReference<>() { };
    private static final TypeReference<List<DiskResult.Attempt>> ATTEMPTS = new TypeReference<>() { };
    private static final TypeReference<WorkloadInventory> WORKLOAD = new TypeReference<>() { };

    private final IoModeFactsLoader facts;
    private final DecisionInputs inputs;
    private final IoModeDecider decider;
    private final VolumeIoModeDecisionRepository stored;
    private final VmInstanceRepository vms;
    private final ObjectMapper json;
    private final EntityManager em;

    public IoModeService(IoModeFactsLoader facts, DecisionInputs inputs, IoModeDecider decider,
                         VolumeIoModeDecisionRepository stored, VmInstanceRepository vms, ObjectMapper json,
                         EntityManager em) {
        this.facts = facts;
        this.inputs = inputs;
        this.decider = decider;
        this.stored = stored;
        this.vms = vms;
        this.json = json;
        this.em = em;
    }

    /** A decided volume: its context, resolved cache mode and the decision. */
    public record Decided(VolumeContext volume, String cacheMode, IoModeDecision decision) {

        public String volumeUuid() {
            return volume.volume().getUuid();
        }

        /** The same volume with the decision as it stands after the start. */
        public Decided withDecision(IoModeDecision d) {
            return new Decided(volume, cacheMode, d);
        }
    }

    /**
     * The decisions for the disks of VM {@code vmUuid} on host {@code hostUuid}: the volumes attached to it, by device
     * id, then {@code plugging} (volumes being hot-plugged, not attached yet). VM start, hot-plug and a migration
     * preview (another host) all ask this, in a constant number of queries.
     */
    @Transactional(readOnly = true)
    public List<Decided> decideForVm(String vmUuid, String hostUuid, List<String> plugging) {
        return decide(facts.volumesOfVm(vmUuid, plugging), hostUuid);
    }

    /**
     * The decisions for the disks of VM {@code vmUuid} on each of {@code hostUuids} (a migration's candidates), by
     * host, in the same constant number of queries as one host: volumes, configs, then all hosts' facts in one.
     */
    @Transactional(readOnly = true)
    public Map<String, List<Decided>> decideForVmOnHosts(String vmUuid, List<String> hostUuids) {
        List<VolumeContext> volumes = facts.volumesOfVm(vmUuid, List.of());
        ConfigSnapshot snap = facts.configs(volumes);
        Map<String, HostWithPerformance> hps = facts.hostsWithPerformance(hostUuids, volumes);
        Map<String, List<Decided>> out = new java.util.LinkedHashMap<>();
        for (String host : hostUuids) {
            out.put(host, decide(volumes, snap, hps.getOrDefault(host, new HostWithPerformance(null, MeasuredPerformance.NONE))));
        }
        return out;
    }

    /** GET /v1/volumes/{uuid}/io-mode: the decision the next start or attach would make. */
    @Transactional(readOnly = true)
    public IoModeDecision preview(Caller caller, String volumeUuid, String hostUuid) {
        Uuids.require(volumeUuid, "volume");
        if (hostUuid != null) {
            Uuids.require(hostUuid, "host");
            if (em.find(org.zstack.aio.server.inventory.HostVO.class, hostUuid) == null) {
                throw ApiException.notFound("host", hostUuid);
            }
        }
        List<VolumeContext> vols = facts.volumes(List.of(volumeUuid));
        if (vols.isEmpty()) throw ApiException.notFound("volume", volumeUuid);
        VolumeContext v = vols.get(0);
        if (!caller.owns(v.volume().getAccountUuid())) {
            throw ApiException.forbidden("you may only read the io mode of volumes your account owns.");
        }
        String host = hostUuid;
        if (host == null && v.volume().getVmInstanceUuid() != null) {
            host = vms.findById(v.volume().getVmInstanceUuid()).map(VmInstanceVO::getHostUuid).orElse(null);
        }
        return decide(vols, host).get(0).decision();
    }

    /** Decisions for these volumes on this host, in a constant number of queries (the measurements in one). */
    private List<Decided> decide(List<VolumeContext> volumes, String hostUuid) {
        return decide(volumes, facts.configs(volumes), facts.hostWithPerformance(hostUuid, volumes));
    }

    private List<Decided> decide(List<VolumeContext> volumes, ConfigSnapshot snap, HostWithPerformance hp) {
        List<Decided> out = new ArrayList<>(volumes.size());
        for (VolumeContext v : volumes) {
            DecisionInput in = inputs.input(v, snap, hp.host(), null, hp.measured());
            out.add(new Decided(v, in.volume().cacheMode(), decider.decide(in)));
        }
        return out;
    }

    /**
     * Stores each volume's decision with what the agent applied (null result: refused or not sent), and returns them as
     * the API shows them, in the order given (no re-read: the rows just written are the answer).
     * <p>A decision that did not change (its {@link DecisionDigest} equals the stored one: the usual VM start) is neither
     * loaded nor written; only the rows that changed, are new, or were stored before digests, are loaded, in one query,
     * and compared field by field (a row only missing its digest keeps its "decided since"). The stored digests come
     * with the volumes ({@link VolumeContext#storedDecision()}, read when the disks were decided): a start or migration
     * holds its VM's operation lease and a hot-plug its volume's claim from deciding to recording, so no other writer of
     * these rows runs in between.
     */
    @Transactional
    public List<DecisionRecord> record(String vmUuid, Operation operation, List<Decided> decided, Map<String, DiskResult> applied) {
        List<StoredDecisionRow> rows = new ArrayList<>(decided.size());
        List<String> changed = new ArrayList<>();
        for (Decided d : decided) {
            StoredDecisionRow row = new StoredDecisionRow(vmUuid, operation, d.decision(), applied.get(d.volumeUuid()));
            rows.add(row);
            StoredDigest was = d.volume().storedDecision();
            if (was != null && row.digestValue().equals(was.contentDigest())) row.unchangedSince(was.createDate());
            else changed.add(row.volumeUuid()); // also a volume with none read: a retried unit may have stored it
        }
        Map<String, VolumeIoModeDecisionVO> loaded = new HashMap<>();
        if (!changed.isEmpty()) stored.findByVolumeUuids(changed).forEach(r -> loaded.put(r.getVolumeUuid(), r));
        List<DecisionRecord> out = new ArrayList<>(rows.size());
        for (StoredDecisionRow row : rows) {
            if (!row.unchanged()) {
                VolumeIoModeDecisionVO vo = loaded.get(row.volumeUuid());
                boolean isNew = vo == null;
                if (isNew) vo = new VolumeIoModeDecisionVO(row.volumeUuid());
                row.storeIn(vo, json);
                if (isNew) em.persist(vo);
            }
            out.add(row.view());
        }
        return out;
    }

    /** The stored decisions of these volumes, in one query, by volume uuid. */
    @Transactional(readOnly = true)
    public Map<String, DecisionRecord> stored(Collection<String> volumeUuids) {
        Map<String, DecisionRecord> out = new HashMap<>();
        for (VolumeIoModeDecisionVO row : stored.findByVolumeUuids(volumeUuids)) out.put(row.getVolumeUuid(), view(row));
        return out;
    }

    /** The stored decisions of these volumes in the order given, leaving out volumes with none. */
    @Transactional(readOnly = true)
    public List<DecisionRecord> storedInOrder(List<String> volumeUuids) {
        Map<String, DecisionRecord> byVolume = stored(volumeUuids);
        return volumeUuids.stream().map(byVolume::get).filter(d -> d != null).toList();
    }

    /**
     * A stored decision as both platforms' APIs show it: the core's {@link DecisionRecord} (the decision's fields plus
     * what libvirt/QEMU accepted), dates in the API's one form ({@link ApiDates}).
     */
    static DecisionRecord record(String volumeUuid, String hostUuid, String vmInstanceUuid, String operation,
                                 String requested, String source, String effective, boolean refused,
                                 List<IoModeCheckInventory> checks, String reason, String appliedIo, String appliedCache,
                                 List<DiskResult.Attempt> attempts, LocalDateTime decidedAt, WorkloadInventory optimizedFor) {
        return new DecisionRecord(volumeUuid, vmInstanceUuid, hostUuid, operation, requested, source, effective, refused,
                checks.stream().map(c -> new DecisionRecord.CheckRecord(c.mode(), c.check(), c.passed(), c.message())).toList(),
                reason, appliedIo, appliedCache,
                attempts.stream().map(a -> new DecisionRecord.AttemptRecord(a.io(), a.error())).toList(),
                optimizedFor == null ? null : new DecisionRecord.WorkloadRecord(optimizedFor.readFraction(),
                        optimizedFor.avgReadBytes(), optimizedFor.avgWriteBytes(), optimizedFor.readIops(),
                        optimizedFor.writeIops(), optimizedFor.avgQueueDepth(), optimizedFor.sampledSeconds(),
                        optimizedFor.sampledAt() == null ? null : ApiDates.format(optimizedFor.sampledAt())),
                decidedAt == null ? null : ApiDates.format(decidedAt));
    }

    private DecisionRecord view(VolumeIoModeDecisionVO r) {
        return record(r.getVolumeUuid(), r.getHostUuid(), r.getVmInstanceUuid(), r.getOperation(), r.getRequested(),
                r.getSource(), r.getEffective(), r.isRefused(), read(r.getChecks(), CHECKS), r.getReason(), r.getAppliedIo(),
                r.getAppliedCache(), r.getAttempts() == null ? List.of() : read(r.getAttempts(), ATTEMPTS), r.getCreateDate(),
                r.getOptimizedFor() == null ? null : read(r.getOptimizedFor(), WORKLOAD));
    }

    private <T> T read(String s, TypeReference<T> type) {
        try {
            return json.readValue(s, type);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("stored decision is not valid JSON", e);
        }
    }
}
