package org.zstack.aio.server.vm;

import org.springframework.stereotype.Service;
import org.zstack.aio.decision.Check;
import org.zstack.aio.plugin.IoModeRefusal;
import org.zstack.aio.server.account.AccountService;
import org.zstack.aio.server.account.Caller;
import org.zstack.aio.server.host.HostService;
import org.zstack.aio.server.host.HostService.HostInventory;
import org.zstack.aio.server.inventory.HostVO;
import org.zstack.aio.server.inventory.VmInstanceVO;
import org.zstack.aio.server.inventory.VolumeVO;
import org.zstack.aio.server.iomode.DiskPlanner;
import org.zstack.aio.server.iomode.Decided;
import org.zstack.aio.server.iomode.MigrationPlan;
import org.zstack.aio.server.query.QueryExecutor;
import org.zstack.aio.server.query.QueryReply;
import org.zstack.aio.server.query.QueryRequest;
import org.zstack.aio.server.query.QuerySpec;

import java.time.LocalDateTime;
import java.util.List;
import java.util.Map;

/**
 * GET /v1/vm-instances/{uuid}/migration-target-hosts: every other connected host with what each of the VM's disks
 * would run there, decided by the same {@link DiskPlanner} a migration asks (one owner of the
 * decision), and what would stop a migration there. Also the check a migration makes before anything moves.
 */
@Service
public class MigrationTargets {

    /** Storage only its own host sees: a VM with such a volume cannot change hosts (no storage migration here). */
    static final String LOCAL_STORAGE = "LocalStorage";

    /** One disk on a candidate host: contract §6 {volumeUuid, effective, refused, reason}, plus what was asked. */
    public record DiskIoMode(String volumeUuid, String volumeName, String requested, String effective, boolean refused,
                             String failedCheck, String reason) {

        static DiskIoMode of(Decided d) {
            Check failed = d.decision().refused() || d.decision().fellBack() ? d.decision().firstFailure() : null;
            return new DiskIoMode(d.volumeUuid(), d.volume().volume().getName(), d.decision().requested().wire(),
                    d.decision().effectiveWire(), d.decision().refused(), failed == null ? null : failed.check(),
                    d.decision().reason());
        }
    }

    /** A host inventory with the VM's disks as they would run there; {@code migrationBlocker} null: it may move. */
    @org.zstack.aio.server.api.ZStackInventory("org.zstack.kvm.KVMHostInventory")
    public record TargetHost(String uuid, String name, String managementIp, int agentPort, String status,
                             HostService.IoCapabilities ioCapabilities, LocalDateTime createDate, LocalDateTime lastOpDate,
                             List<DiskIoMode> ioModes, String migrationBlocker) {
    }

    private final VmService vms;
    private final HostService hosts;
    private final DiskPlanner planner;
    private final QueryReply query;
    private static final QuerySpec<HostVO> QUERY = QuerySpec.of(HostVO.class, TargetHost.class, "createDate", "uuid");

    public MigrationTargets(VmService vms, HostService hosts, DiskPlanner planner, QueryReply query) {
        this.vms = vms;
        this.hosts = hosts;
        this.planner = planner;
        this.query = query;
    }

    /** The candidate hosts (every other Connected one) with ZStack's query parameters on the hosts' fields (admin). */
    public Map<String, Object> query(Caller caller, String vmUuid, QueryRequest q) {
        AccountService.requireAdmin(caller, "list a VM's migration target hosts");
        VmInstanceVO vm = vms.owned(caller, vmUuid);
        QueryExecutor.Scope<HostVO> candidates = (cb, cq, root) -> {
            var connected = cb.equal(root.get("status"), "Connected");
            return vm.getHostUuid() == null ? connected : cb.and(connected, cb.notEqual(root.get("uuid"), vm.getHostUuid()));
        };
        return query.answer(QUERY, q, candidates, page -> targets(vmUuid, page));
    }

    private List<TargetHost> targets(String vmUuid, List<HostVO> candidates) {
        Map<String, MigrationPlan> decided = planner.onHosts(vmUuid, candidates);
        List<HostInventory> inventories = hosts.inventories(candidates);
        return inventories.stream().map(h -> {
            MigrationPlan disks = decided.get(h.uuid());
            return new TargetHost(h.uuid(), h.name(), h.managementIp(), h.agentPort(), h.status(), h.ioCapabilities(),
                    h.createDate(), h.lastOpDate(), disks.decided().stream().map(DiskIoMode::of).toList(),
                    blocker(h.uuid(), h.name(), disks.decided(), disks.refusal(), planner.enforcesRefusals()));
        }).toList();
    }

    /**
     * Why the VM's disks cannot move to that host, naming the volume, the host and the check; null when they can.
     * Storage only the source sees comes first, then the core's refusal: this platform's agent applies the destination's
     * decision to each disk, so only a decision refused there (onUnsatisfied = fail) blocks, in the core's words.
     */
    static String blocker(String hostUuid, String hostName, List<Decided> disks, IoModeRefusal refusal,
                          boolean enforceRefusals) {
        String host = "host " + hostName + " (" + hostUuid + ")";
        for (Decided d : disks) {
            if (LOCAL_STORAGE.equals(d.volume().storage().getType())) {
                return "volume " + name(d) + " is on LocalStorage " + d.volume().storage().getName()
                       + ", which " + host + " cannot see";
            }
        }
        return enforceRefusals && refusal != null ? refusal.sentence() : null;
    }

    private static String name(Decided d) {
        VolumeVO v = d.volume().volume();
        return v.getName() + " (" + v.getUuid() + ")";
    }
}
