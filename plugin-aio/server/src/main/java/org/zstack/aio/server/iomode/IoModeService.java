package org.zstack.aio.server.iomode;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.type.TypeReference;
import com.fasterxml.jackson.databind.ObjectMapper;
import org.springframework.stereotype.Service;
import org.springframework.transaction.annotation.Transactional;
import org.zstack.aio.agent.api.DiskResult;
import org.zstack.aio.server.iomode.IoModeDecisionInventory.IoModeCheckInventory;
import org.zstack.aio.decision.DecisionInput;
import org.zstack.aio.decision.HostFacts;
import org.zstack.aio.decision.IoModeDecider;
import org.zstack.aio.decision.IoModeDecision;
import org.zstack.aio.server.account.Caller;
import org.zstack.aio.server.api.ApiException;
import org.zstack.aio.server.api.Uuids;
import org.zstack.aio.server.config.ConfigSnapshot;
import org.zstack.aio.server.inventory.VmInstanceRepository;
import org.zstack.aio.server.inventory.VmInstanceVO;

import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/** Decides io modes for volumes from stored facts, and records the applied decisions. */
@Service
public class IoModeService {

    private final IoModeFactsLoader facts;
    private final IoModeDecider decider;
    private final VolumeIoModeDecisionRepository stored;
    private final VmInstanceRepository vms;
    private final ObjectMapper json;
    private final jakarta.persistence.EntityManager em;

    public IoModeService(IoModeFactsLoader facts, IoModeDecider decider, VolumeIoModeDecisionRepository stored,
                         VmInstanceRepository vms, ObjectMapper json,
                         jakarta.persistence.EntityManager em) {
        this.facts = facts;
        this.decider = decider;
        this.stored = stored;
        this.vms = vms;
        this.json = json;
        this.em = em;
    }

    /** A decided volume: its context, resolved cache mode and the decision. */
    public record Decided(VolumeContext volume, String cacheMode, DecisionInput input, IoModeDecision decision) {

        /** The same volume with the decision as it stands after the start. */
        public Decided withDecision(IoModeDecision d) {
            return new Decided(volume, cacheMode, input, d);
        }
    }

    /** Decisions for these volumes on this host, in a constant number of queries (the measurements in one). */
    @Transactional(readOnly = true)
    public List<Decided> decide(List<VolumeContext> volumes, String hostUuid) {
        ConfigSnapshot snap = facts.configs(volumes);
        IoModeFactsLoader.HostWithPerformance hp = facts.hostWithPerformance(hostUuid, volumes);
        HostFacts host = hp.host();
        var measured = hp.measured();
        List<Decided> out = new ArrayList<>(volumes.size());
        for (VolumeContext v : volumes) {
            DecisionInput in = facts.input(v, snap, host, null, measured);
            out.add(new Decided(v, in.volume().cacheMode(), in, decider.decide(in)));
        }
        return out;
    }

    /** GET /v1/volumes/{uuid}/io-mode: the decision the next start or attach would make. */
    @Transactional(readOnly = true)
    public IoModeDecision preview(Caller caller, String volumeUuid, String hostUuid) {
        Uuids.require(volumeUuid, "volume");
        if (hostUuid != null) Uuids.require(hostUuid, "host");
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

    /** Stores each volume's decision with what the agent applied (null result: refused or not sent). */
    @Transactional
    public void record(String vmUuid, List<Decided> decided, Map<String, DiskResult> applied) {
        // one read for all rows, then persist the new ones: save() on an assigned id would merge, a SELECT per volume
        Map<String, VolumeIoModeDecisionVO> existing = new HashMap<>();
        stored.findAllById(decided.stream().map(d -> d.decision().volumeUuid()).toList())
                .forEach(row -> existing.put(row.getVolumeUuid(), row));
        for (Decided d : decided) {
            IoModeDecision dec = d.decision();
            DiskResult r = applied.get(dec.volumeUuid());
            VolumeIoModeDecisionVO row = existing.get(dec.volumeUuid());
            boolean isNew = row == null;
            if (isNew) row = new VolumeIoModeDecisionVO(dec.volumeUuid());
            row.set(vmUuid, dec.hostUuid(), dec.requested().wire(), dec.source().wire(), dec.effectiveWire(), dec.refused(),
                    write(IoModeCheckInventory.of(dec.checks())), dec.reason(), r == null ? null : r.io(), r == null ? null : r.cache(),
                    r == null ? null : write(r.attempts()));
            if (isNew) em.persist(row);
        }
    }


    /** The stored decisions of these volumes, in one query, by volume uuid. */
    @Transactional(readOnly = true)
    public Map<String, StoredDecision> stored(Collection<String> volumeUuids) {
        Map<String, StoredDecision> out = new HashMap<>();
        for (VolumeIoModeDecisionVO row : stored.findAllById(volumeUuids)) out.put(row.getVolumeUuid(), view(row));
        return out;
    }

    /** A stored decision as the API shows it: the contract's fields plus what libvirt/QEMU accepted. */
    public record StoredDecision(String volumeUuid, String hostUuid, String vmInstanceUuid, String requested, String source,
                                 String effective, boolean refused, List<IoModeCheckInventory> checks, String reason,
                                 String appliedIo, String appliedCache, List<DiskResult.Attempt> attempts,
                                 String decidedAt) {
    }

    private StoredDecision view(VolumeIoModeDecisionVO r) {
        return new StoredDecision(r.getVolumeUuid(), r.getHostUuid(), r.getVmInstanceUuid(), r.getRequested(), r.getSource(),
                r.getEffective(), r.isRefused(), read(r.getChecks(), new TypeReference<List<IoModeCheckInventory>>() { }), r.getReason(),
                r.getAppliedIo(), r.getAppliedCache(),
                r.getAttempts() == null ? List.of() : read(r.getAttempts(), new TypeReference<List<DiskResult.Attempt>>() { }),
                r.getCreateDate() == null ? null : r.getCreateDate().toString());
    }

    private String write(Object o) {
        try {
            return json.writeValueAsString(o);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException(e);
        }
    }

    private <T> T read(String s, TypeReference<T> type) {
        try {
            return json.readValue(s, type);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("stored decision is not valid JSON", e);
        }
    }
}
