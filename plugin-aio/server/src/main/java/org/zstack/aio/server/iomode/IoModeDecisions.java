package org.zstack.aio.server.iomode;

import jakarta.persistence.EntityManager;
import org.springframework.retry.annotation.Retryable;
import org.springframework.stereotype.Service;
import org.springframework.transaction.annotation.Transactional;
import org.zstack.aio.decision.IoModeDecision;
import org.zstack.aio.plugin.DiskIoModes;
import org.zstack.aio.plugin.DiskPlan;
import org.zstack.aio.plugin.DiskRequest;
import org.zstack.aio.plugin.Figures;
import org.zstack.aio.plugin.HostRef;
import org.zstack.aio.plugin.IoModeRefusal;
import org.zstack.aio.plugin.PlannedDisk;
import org.zstack.aio.server.account.Caller;
import org.zstack.aio.server.api.ApiException;
import org.zstack.aio.server.api.Uuids;
import org.zstack.aio.server.db.UnitOfWork;
import org.zstack.aio.server.inventory.HostVO;
import org.zstack.aio.server.inventory.VmInstanceRepository;
import org.zstack.aio.server.inventory.VmInstanceVO;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Decides through the core ({@link DiskIoModes}): the server reads its facts ({@link ServerIoModePorts}), the core
 * decides every disk, applies what this platform's agent does, and words the one refusal. A VM start, hot-plug and
 * migration, a migration's candidate hosts and a volume's preview each cost a constant number of queries.
 */
@Service
@Retryable(interceptor = UnitOfWork.IDEMPOTENT)
public class IoModeDecisions {

    /** An operation's disks as the core planned them, each with the server's context of its volume. */
    public record Planned(List<Decided> decided, IoModeRefusal refusal) {

        /** The decided disks refused by policy (onUnsatisfied = fail). */
        public List<Decided> refusedByPolicy() {
            return decided.stream().filter(d -> d.decision().refused()).toList();
        }
    }

    private final IoModeFactsLoader facts;
    private final CoreFacts core;
    private final DiskIoModes ioModes;
    private final IoModeRecords records;
    private final VmInstanceRepository vms;
    private final EntityManager em;

    public IoModeDecisions(IoModeFactsLoader facts, CoreFacts core, DiskIoModes ioModes, IoModeRecords records,
                           VmInstanceRepository vms, EntityManager em) {
        this.facts = facts;
        this.core = core;
        this.ioModes = ioModes;
        this.records = records;
        this.vms = vms;
        this.em = em;
    }

    /** A start of VM {@code vmUuid} on {@code host}: its disks by device id. */
    @Transactional(readOnly = true)
    public Planned start(String vmUuid, HostRef host) {
        ServerIoModePorts ports = ports(facts.volumesOfVm(vmUuid), List.of(host.uuid()));
        return planned(ioModes.plan(DiskRequest.start(vmUuid, host, ports.volumeUuids()), ports), ports);
    }

    /** A hot-plug of {@code volumeUuid} into VM {@code vmUuid} running on {@code host}. */
    @Transactional(readOnly = true)
    public Planned attach(String vmUuid, HostRef host, String volumeUuid) {
        ServerIoModePorts ports = ports(facts.volumes(List.of(volumeUuid)), List.of(host.uuid()));
        return planned(ioModes.plan(DiskRequest.attach(vmUuid, host, volumeUuid), ports), ports);
    }

    /** The VM's disks for each of {@code hosts} (a migration's destination, or its candidates), by host uuid. */
    @Transactional(readOnly = true)
    public Map<String, Planned> migrate(String vmUuid, List<HostRef> hosts) {
        if (hosts.isEmpty()) return Map.of();
        ServerIoModePorts ports = ports(facts.volumesOfVm(vmUuid), hosts.stream().map(HostRef::uuid).toList());
        Map<String, Planned> out = new LinkedHashMap<>();
        ioModes.migrateTo(DiskRequest.migrate(vmUuid, hosts.get(0), ports.volumeUuids()), hosts, ports)
                .forEach((host, plan) -> out.put(host, planned(plan, ports)));
        return out;
    }

    /** GET /v1/volumes/{uuid}/io-mode: the decision the next start or attach would make on the host (default: its VM's). */
    @Transactional(readOnly = true)
    public IoModeDecision preview(Caller caller, String volumeUuid, String hostUuid) {
        Uuids.require(volumeUuid, "volume");
        if (hostUuid != null) {
            Uuids.require(hostUuid, "host");
            if (em.find(HostVO.class, hostUuid) == null) throw ApiException.notFound("host", hostUuid);
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
        ServerIoModePorts ports = ports(vols, host == null ? List.of() : List.of(host));
        var volume = ports.volumes(List.of(volumeUuid)).get(volumeUuid);
        var configs = ports.configs(List.of(volume));
        if (host == null) return ioModes.preview(volume, configs, null, Figures.NONE);
        return ioModes.preview(volume, configs, ports.host(host), ports.figures(host, List.of(volume)));
    }

    private ServerIoModePorts ports(List<VolumeContext> volumes, List<String> hostUuids) {
        return new ServerIoModePorts(facts, core, records, volumes, hostUuids);
    }

    private static Planned planned(DiskPlan plan, ServerIoModePorts ports) {
        List<Decided> decided = plan.disks().stream().map(d -> decided(d, ports)).toList();
        return new Planned(decided, plan.refusal());
    }

    private static Decided decided(PlannedDisk d, ServerIoModePorts ports) {
        return new Decided(ports.context(d.volumeUuid()), d.volume().cacheMode(), d.decision());
    }
}
