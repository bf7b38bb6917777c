package org.zstack.aio.server.iomode;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import org.zstack.aio.agent.api.DiskResult;
import org.zstack.aio.decision.IoModeDecision;
import org.zstack.aio.server.iomode.IoModeDecisionInventory.IoModeCheckInventory;
import org.zstack.aio.plugin.DecisionRecord;
import org.zstack.aio.plugin.Operation;
import org.zstack.aio.server.workload.WorkloadInventory;

import java.time.LocalDateTime;
import java.util.List;

/**
 * One disk's applied decision as it is stored: its {@link DecisionDigest}, computed from the values themselves, and its
 * JSON columns, written only when the row has to be stored (new, changed, or stored before digests). The usual start
 * decides what is already stored: it computes the digest, finds it equal, and writes no JSON at all.
 */
final class StoredDecisionRow {

    private final String vmUuid;
    private final Operation operation;
    private final IoModeDecision dec;
    private final DiskResult result;
    private final List<IoModeCheckInventory> checks;
    private final WorkloadInventory optimizedFor;
    private final String digest;
    private LocalDateTime decidedAt;

    StoredDecisionRow(String vmUuid, Operation operation, IoModeDecision dec, DiskResult result) {
        this.vmUuid = vmUuid;
        this.operation = operation;
        this.dec = dec;
        this.result = result;
        this.checks = IoModeCheckInventory.of(dec.checks());
        this.optimizedFor = dec.optimizedFor() == null ? null : WorkloadInventory.of(dec.optimizedFor());
        this.digest = digest();
    }

    /**
     * Everything {@link #storeIn} stores, in the order of the columns: the JSON columns by their elements' values.
     * {@code StoredDecisionRowTest} fails when a record gains a component this does not feed.
     */
    private String digest() {
        DecisionDigest d = new DecisionDigest().add(vmUuid).add(operation.wire()).add(dec.hostUuid()).add(dec.requested().wire())
                .add(dec.source().wire()).add(dec.effectiveWire()).add(dec.refused());
        d.list(checks.size());
        for (IoModeCheckInventory c : checks) d.add(c.mode()).add(c.check()).add(c.passed()).add(c.message());
        d.add(dec.reason()).add(appliedIo()).add(appliedCache());
        if (result == null) {
            d.absent();
        } else {
            d.list(result.attempts().size());
            for (DiskResult.Attempt a : result.attempts()) d.add(a.io()).add(a.error());
        }
        if (optimizedFor == null) {
            d.absent();
        } else {
            WorkloadInventory w = optimizedFor;
            d.list(1).add(w.readFraction()).add(w.avgReadBytes()).add(w.avgWriteBytes()).add(w.readIops()).add(w.writeIops())
                    .add(w.avgQueueDepth()).add(w.sampledSeconds()).add(w.sampledAt() == null ? null : w.sampledAt().toString());
        }
        return d.digest();
    }

    String volumeUuid() {
        return dec.volumeUuid();
    }

    String digestValue() {
        return digest;
    }

    /** The stored row holds this very decision: the answer says since when. */
    void unchangedSince(LocalDateTime since) {
        decidedAt = since;
    }

    boolean unchanged() {
        return decidedAt != null;
    }

    private String appliedIo() {
        return result == null ? null : result.io();
    }

    private String appliedCache() {
        return result == null ? null : result.cache();
    }

    /** Writes this decision into {@code vo} (which keeps its date when the content is the same) and takes its date. */
    void storeIn(VolumeIoModeDecisionVO vo, ObjectMapper json) {
        vo.set(vmUuid, operation.wire(), dec.hostUuid(), dec.requested().wire(), dec.source().wire(), dec.effectiveWire(), dec.refused(),
                write(json, checks), dec.reason(), appliedIo(), appliedCache(), result == null ? null : write(json, result.attempts()),
                optimizedFor == null ? null : write(json, optimizedFor), digest);
        decidedAt = vo.getCreateDate();
    }

    /** The answer, from the objects in hand: reading back the JSON of every disk cost each start a parse. */
    DecisionRecord view() {
        return IoModeRecords.record(dec.volumeUuid(), dec.hostUuid(), vmUuid, operation.wire(), dec.requested().wire(),
                dec.source().wire(), dec.effectiveWire(), dec.refused(), checks, dec.reason(), appliedIo(), appliedCache(),
                result == null ? List.of() : result.attempts(), decidedAt, optimizedFor);
    }

    private static String write(ObjectMapper json, Object o) {
        try {
            return json.writeValueAsString(o);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException(e);
        }
    }
}
