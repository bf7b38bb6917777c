package org.zstack.aio.server.iomode;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.type.TypeReference;
import com.fasterxml.jackson.databind.ObjectMapper;
import jakarta.persistence.EntityManager;
import org.springframework.retry.annotation.Retryable;
import org.springframework.stereotype.Service;
import org.springframework.transaction.annotation.Transactional;
import org.zstack.aio.agent.api.DiskResult;
import org.zstack.aio.plugin.DecisionRecord;
import org.zstack.aio.plugin.Operation;
import org.zstack.aio.server.api.ApiDates;
import org.zstack.aio.server.db.UnitOfWork;
import org.zstack.aio.server.iomode.IoModeDecisionInventory.IoModeCheckInventory;
import org.zstack.aio.server.workload.WorkloadInventory;

import java.time.LocalDateTime;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The stored decisions: recording the applied ones (one read and batched writes, an unchanged decision neither read
 * nor written) and reading them back as the core's {@link DecisionRecord}. Deciding is {@link IoModeDecisions}'.
 */
@Service
@Retryable(interceptor = UnitOfWork.IDEMPOTENT)
public class IoModeRecords {

    private static final TypeReference<List<IoModeCheckInventory>> CHECKS = new TypeReference<>() { };
    private static final TypeReference<List<DiskResult.Attempt>> ATTEMPTS = new TypeReference<>() { };
    private static final TypeReference<WorkloadInventory> WORKLOAD = new TypeReference<>() { };

    private final VolumeIoModeDecisionRepository stored;
    private final ObjectMapper json;
    private final EntityManager em;

    public IoModeRecords(VolumeIoModeDecisionRepository stored, ObjectMapper json, EntityManager em) {
        this.stored = stored;
        this.json = json;
        this.em = em;
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
