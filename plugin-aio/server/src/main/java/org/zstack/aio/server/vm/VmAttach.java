package org.zstack.aio.server.vm;

import org.springframework.stereotype.Service;
import org.zstack.aio.agent.api.AgentPaths;
import org.zstack.aio.agent.api.DiskResult;
import org.zstack.aio.agent.api.VmAttachVolumeCmd;
import org.zstack.aio.server.account.Caller;
import org.zstack.aio.server.agent.AgentClient;
import org.zstack.aio.server.api.ApiException;
import org.zstack.aio.server.host.HostService;
import org.zstack.aio.server.inventory.HostVO;
import org.zstack.aio.server.inventory.VmInstanceVO;
import org.zstack.aio.server.inventory.VmInstanceVO.State;
import org.zstack.aio.server.inventory.VolumeRepository;
import org.zstack.aio.server.inventory.VolumeVO;
import org.zstack.aio.server.iomode.DiskPlan;
import org.zstack.aio.server.iomode.DiskPlanner;
import org.zstack.aio.plugin.DecisionRecord;
import org.zstack.aio.server.volume.VolumeInventory;
import org.zstack.aio.server.volume.VolumeService;

import java.time.LocalDateTime;
import java.util.List;

/**
 * Attach a volume: hot-plug with a decision when the VM runs (a {@link VmOperation} under the volume's own claim, not
 * the VM's: the VM stays Running); a stopped VM gets it at its next start.
 */
@Service
public class VmAttach {

    /** The attached volume, and its decision when it was hot-plugged (null: the VM was stopped). */
    public record AttachResult(VolumeInventory inventory, DecisionRecord ioModeDecision) {
    }

    private final VmService vms;
    private final VolumeService volumeService;
    private final VolumeRepository volumes;
    private final HostService hosts;
    private final DiskPlanner disks;
    private final AgentClient agent;
    private final VmOperationRunner runner;

    public VmAttach(VmService vms, VolumeService volumeService, VolumeRepository volumes, HostService hosts,
                    DiskPlanner disks, AgentClient agent, VmOperationRunner runner) {
        this.vms = vms;
        this.volumeService = volumeService;
        this.volumes = volumes;
        this.hosts = hosts;
        this.disks = disks;
        this.agent = agent;
        this.runner = runner;
    }

    public AttachResult attach(Caller caller, String volumeUuid, String vmUuid) {
        VolumeVO vol = volumeService.owned(caller, volumeUuid);
        VmInstanceVO vm = vms.owned(caller, vmUuid);
        if (vol.getVmInstanceUuid() != null) {
            throw ApiException.conflict("volume " + volumeUuid + " is already attached to VM " + vol.getVmInstanceUuid() + ".",
                    "Detach it first, or attach another volume.");
        }
        int deviceId = volumes.findByVmInstanceUuidOrderByDeviceId(vmUuid).stream()
                .mapToInt(v -> v.getDeviceId() == null ? 0 : v.getDeviceId()).max().orElse(-1) + 1;
        if (vm.getState() == State.Stopped) {
            runner.inTransaction(() -> volumes.findById(volumeUuid).orElseThrow().attachTo(vmUuid, deviceId));
            return new AttachResult(inventory(volumeUuid), null);
        }
        if (vm.getState() != State.Running) {
            throw ApiException.conflict("VM " + vmUuid + " is " + vm.getState() + ".", "Wait until it is Running or Stopped.");
        }
        HostVO host = hosts.find(vm.getHostUuid());
        // one attach per volume at a time, across management nodes: a claim in the volume's row
        if (volumes.claimAttach(volumeUuid, LocalDateTime.now(), LocalDateTime.now().plus(agent.timeout()).plusSeconds(30)) == 0) {
            throw ApiException.conflict("volume " + volumeUuid + " is being attached by another request, or is attached.",
                    "Wait for that attach to finish, then read the volume.");
        }
        try {
            DecisionRecord stored = runner.run(new HotPlug(vmUuid, volumeUuid, deviceId, host));
            return new AttachResult(inventory(volumeUuid), stored);
        } finally {
            volumes.releaseAttach(volumeUuid);
        }
    }

    private VolumeInventory inventory(String volumeUuid) {
        return volumeService.inventories(List.of(volumes.findById(volumeUuid).orElseThrow())).get(0);
    }

    /**
     * The plugged disk decided and sent; its outcome and the attach stored as a whole. If storing still fails, the disk
     * is live in the guest anyway: the tracker finds it in the domain and records it attached (VmTracker).
     */
    private final class HotPlug implements VmOperation<DiskResult, DecisionRecord> {

        private final String vmUuid;
        private final String volumeUuid;
        private final int deviceId;
        private final HostVO host;
        private DiskPlan plan;
        private DecisionRecord stored;

        HotPlug(String vmUuid, String volumeUuid, int deviceId, HostVO host) {
            this.vmUuid = vmUuid;
            this.volumeUuid = volumeUuid;
            this.deviceId = deviceId;
            this.host = host;
        }

        @Override
        public DiskResult send() {
            plan = disks.forAttach(vmUuid, host, volumeUuid, deviceId);
            return agent.call(host.getManagementIp(), host.getAgentPort(), AgentPaths.VM_ATTACH_VOLUME,
                    new VmAttachVolumeCmd(vmUuid, plan.disks().get(0)), DiskResult.class);
        }

        @Override
        public void store(DiskResult answer) {
            volumes.findById(volumeUuid).orElseThrow().attachTo(vmUuid, deviceId);
            stored = plan.recordPlugged(answer);
        }

        @Override
        public DecisionRecord answer(DiskResult answer) {
            return stored;
        }

        @Override
        public List<String> hosts() {
            return List.of(host.getUuid());
        }
    }
}
