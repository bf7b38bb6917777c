package org.zstack.aio.server.tracker;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.context.event.EventListener;
import org.springframework.stereotype.Component;
import org.zstack.aio.agent.api.AgentPaths;
import org.zstack.aio.agent.api.VmListCmd;
import org.zstack.aio.agent.api.VmListRsp;
import org.zstack.aio.server.agent.AgentClient;
import org.zstack.aio.server.inventory.HostVO;
import org.zstack.aio.server.inventory.VmInstanceVO;
import org.zstack.aio.server.inventory.VmInstanceVO.State;
import org.zstack.aio.server.inventory.VolumeRepository;
import org.zstack.aio.server.inventory.VolumeVO;
import org.zstack.aio.server.vm.OperationLeases;
import org.zstack.aio.server.agent.DiskTargetNames;
import org.zstack.aio.server.vm.VmOperationDone;
import org.zstack.aio.server.vm.VmStateRepository;
import org.zstack.aio.server.volume.VolumeRunningRepository;
import org.zstack.aio.server.volume.VolumeRunningVO;
import org.zstack.aio.server.workload.WorkloadSampler;

import java.time.Duration;
import java.time.LocalDateTime;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Reads a host's domains from its agent and makes the database agree: VM states (see {@link Reconciler}), the
 * disks as they run (io/cache of the live XML), and disks live in a domain but recorded detached (a hot-plug whose
 * transaction failed after the agent attached). Every write is a compare-and-set, so two nodes may run it at once.
 */
@Component
public class VmTracker {

    private static final Logger log = LoggerFactory.getLogger(VmTracker.class);
    static final Duration LIST_TIMEOUT = Duration.ofSeconds(10);

    private final AgentClient agent;
    private final VmStateRepository states;
    private final VolumeRepository volumes;
    private final VolumeRunningRepository running;
    private final OperationLeases leases;
    private final ObjectProvider<HostTracker> hostTracker;
    private final WorkloadSampler workloads;
    private final HostTrackingRepository hosts;

    public VmTracker(AgentClient agent, VmStateRepository states, VolumeRepository volumes, VolumeRunningRepository running,
                     OperationLeases leases, ObjectProvider<HostTracker> hostTracker, HostTrackingRepository hosts,
                     WorkloadSampler workloads) {
        this.workloads = workloads;
        this.hosts = hosts;
        this.agent = agent;
        this.states = states;
        this.volumes = volumes;
        this.running = running;
        this.leases = leases;
        this.hostTracker = hostTracker;
    }

    /** One full sync of a host that answered its ping. */
    public void sync(HostVO host) {
        List<VmInstanceVO> vms = states.findByHostUuid(host.getUuid()); // read BEFORE asking libvirt
        if (vms.isEmpty()) return;
        boolean sample = workloads.due(host.getUuid());
        VmListRsp list = agent.call(host.getManagementIp(), host.getAgentPort(), AgentPaths.VM_LIST,
                new VmListCmd(sample ? Boolean.TRUE : null), VmListRsp.class, LIST_TIMEOUT);
        Map<String, VmListRsp.Domain> domains = byVm(list);
        apply(Reconciler.reconcile(host.getUuid(), rows(vms), domains, destinations(vms), LocalDateTime.now(),
                leases::inFlight));
        List<WorkloadSampler.DiskSample> samples = new ArrayList<>();
        syncDisks(host, vms, domains, samples);
        if (list.statsAtMillis() != null) workloads.record(host.getUuid(), list.statsAtMillis(), samples);
    }

    private static Map<String, VmListRsp.Domain> byVm(VmListRsp list) {
        Map<String, VmListRsp.Domain> domains = new HashMap<>();
        list.domains().forEach(d -> domains.put(d.vmUuid(), d));
        return domains;
    }

    /**
     * The domains of the destinations of interrupted migrations (rows naming one, with no lease), asked of each such
     * host once; a destination that does not answer is left out. Normally there is none, and nothing is asked.
     */
    private Map<String, Map<String, VmListRsp.Domain>> destinations(List<VmInstanceVO> vms) {
        LocalDateTime now = LocalDateTime.now();
        Map<String, Map<String, VmListRsp.Domain>> out = new HashMap<>();
        for (VmInstanceVO vm : vms) {
            String dest = vm.getMigrateHostUuid();
            boolean leased = vm.getOpLeaseUntil() != null && vm.getOpLeaseUntil().isAfter(now);
            if (dest == null || leased || out.containsKey(dest)) continue;
            hosts.findById(dest).ifPresent(h -> {
                try {
                    out.put(dest, byVm(agent.call(h.getManagementIp(), h.getAgentPort(), AgentPaths.VM_LIST, Map.of(),
                            VmListRsp.class, LIST_TIMEOUT)));
                } catch (RuntimeException e) {
                    log.info("destination host {} of an interrupted migration does not answer: {}", dest, e.getMessage());
                }
            });
        }
        return out;
    }

    /** The host did not answer: operations whose node is gone cannot be settled from libvirt, so they are Unknown. */
    public void hostUnreachable(HostVO host) {
        LocalDateTime now = LocalDateTime.now();
        List<Reconciler.Change> changes = new ArrayList<>();
        for (Reconciler.Row r : rows(states.findByHostUuid(host.getUuid()))) {
            boolean transitional = r.state() == State.Starting || r.state() == State.Stopping || r.state() == State.Migrating;
            boolean leased = r.leaseUntil() != null && r.leaseUntil().isAfter(now);
            if (transitional && !leased && !leases.inFlight(r.uuid())) {
                changes.add(new Reconciler.Change(r.uuid(), r.version(), State.Unknown, "interrupted " + r.state()
                        + " and host " + host.getUuid() + " does not answer: unknown until its agent answers."));
            }
        }
        apply(changes);
    }

    private void apply(List<Reconciler.Change> changes) {
        for (Reconciler.Change c : changes) {
            int n = c.hostUuid() == null ? states.settle(c.uuid(), c.version(), c.to().name(), c.reason())
                    : states.settleOn(c.uuid(), c.version(), c.hostUuid(), c.to().name(), c.reason());
            if (n == 1) {
                log.info("VM {} is now {}: {}", c.uuid(), c.to(), c.reason());
            }
        }
    }

    /** Also collects, into {@code samples}, the block counters of every disk matched to a volume. */
    private void syncDisks(HostVO host, List<VmInstanceVO> vms, Map<String, VmListRsp.Domain> domains,
                           List<WorkloadSampler.DiskSample> samples) {
        Set<String> hostVms = new HashSet<>();
        vms.forEach(v -> hostVms.add(v.getUuid()));
        Map<String, VmListRsp.Domain> live = new HashMap<>();
        domains.forEach((uuid, d) -> {
            if (d.active() && hostVms.contains(uuid)) live.put(uuid, d);
        });
        Map<String, VolumeVO> byVmDevice = new HashMap<>();
        if (!live.isEmpty()) {
            volumes.findByVmInstanceUuidIn(live.keySet()).forEach(v -> byVmDevice.put(v.getVmInstanceUuid() + "/" + v.getDeviceId(), v));
        }
        record LiveDisk(String vmUuid, int deviceId, VmListRsp.Disk disk) {
        }
        List<LiveDisk> unmatched = new ArrayList<>();
        Map<String, VolumeRunningVO> want = new HashMap<>();
        LocalDateTime now = LocalDateTime.now();
        live.forEach((vmUuid, d) -> {
            for (VmListRsp.Disk disk : d.disks()) {
                int deviceId = DiskTargetNames.deviceId(disk.target());
                VolumeVO v = byVmDevice.get(vmUuid + "/" + deviceId);
                if (v != null) {
                    want.put(v.getUuid(), new VolumeRunningVO(v.getUuid(), vmUuid, host.getUuid(), disk.io(), disk.cache(), now));
                    if (disk.stats() != null && d.domainId() != null) {
                        samples.add(new WorkloadSampler.DiskSample(v.getUuid(), d.domainId(), disk.stats()));
                    }
                } else if (deviceId >= 0 && disk.source() != null) {
                    unmatched.add(new LiveDisk(vmUuid, deviceId, disk));
                }
            }
        });
        if (!unmatched.isEmpty()) {
            Map<String, VolumeVO> bySource = new HashMap<>();
            volumes.findByInstallPathIn(unmatched.stream().map(u -> u.disk().source()).toList())
                    .forEach(v -> bySource.put(v.getInstallPath(), v));
            for (LiveDisk u : unmatched) {
                VolumeVO v = bySource.get(u.disk().source());
                if (v == null || v.getVmInstanceUuid() != null) continue;
                if (volumes.adoptAttached(v.getUuid(), u.vmUuid(), u.deviceId(), now) == 1) {
                    log.info("volume {} is live in VM {} as {} but was recorded detached: recorded attached",
                            v.getUuid(), u.vmUuid(), u.disk().target());
                    want.put(v.getUuid(), new VolumeRunningVO(v.getUuid(), u.vmUuid(), host.getUuid(), u.disk().io(),
                            u.disk().cache(), now));
                }
            }
        }
        List<VolumeRunningVO> have = running.findByVmInstanceUuidIn(hostVms);
        Map<String, VolumeRunningVO> haveById = new HashMap<>();
        have.forEach(r -> haveById.put(r.getVolumeUuid(), r));
        List<VolumeRunningVO> gone = have.stream().filter(r -> !want.containsKey(r.getVolumeUuid())).toList();
        if (!gone.isEmpty()) running.deleteAllInBatch(gone);
        for (VolumeRunningVO w : want.values()) { // only what changed; "since" stays while the live values stay
            VolumeRunningVO h = haveById.get(w.getVolumeUuid());
            if (h == null || !h.sameAs(w.getVmInstanceUuid(), w.getHostUuid(), w.getIo(), w.getCache())) {
                running.upsert(w.getVolumeUuid(), w.getVmInstanceUuid(), w.getHostUuid(), w.getIo(), w.getCache(), w.getSince());
            }
        }
    }

    /** A start, stop or attach on this node changed a host's domains: read that host now. */
    @EventListener
    void onVmOperation(VmOperationDone done) {
        hostTracker.ifAvailable(h -> h.trackSoon(done.hostUuid()));
    }

    private static List<Reconciler.Row> rows(List<VmInstanceVO> vms) {
        return vms.stream().map(v -> new Reconciler.Row(v.getUuid(), v.getState(), v.getStateVersion(), v.getOpLeaseUntil(),
                v.getMigrateHostUuid())).toList();
    }
}
