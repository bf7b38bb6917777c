package org.zstack.aio.zstack;

import org.zstack.aio.plugin.DiskIoModes;
import org.zstack.aio.plugin.DiskPlan;
import org.zstack.aio.plugin.DiskRequest;
import org.zstack.aio.plugin.HostRef;
import org.zstack.aio.plugin.ZStackAgent;
import org.zstack.header.allocator.HostAllocatorFilterExtensionPoint;
import org.zstack.header.allocator.HostAllocatorSpec;
import org.zstack.header.host.HostVO;
import org.zstack.header.vm.VmInstanceConstant;
import org.zstack.header.vm.VmInstanceState;
import org.zstack.header.volume.VolumeInventory;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;

/**
 * Live migration: ZStack's agent migrates with the source's domain XML, so each disk keeps the io mode it runs now
 * ({@link ZStackAgent}). The core's use case ({@link DiskIoModes#migrateTo}) says which candidate host cannot take one
 * of the VM's disks; that host is dropped, for both GetVmMigrationCandidateHosts and MigrateVm (both allocate through
 * ZStack's host allocator with operation Migrate), and the core's refusal is the allocation error's reason.
 */
public class AioMigrationHostFilter implements HostAllocatorFilterExtensionPoint {
    /** VM states whose disks are open in QEMU, so a migration carries them as they run */
    private static final List<String> RUNS = Arrays.asList(VmInstanceState.Running.toString(), VmInstanceState.Paused.toString());

    private final DiskIoModes ioModes;
    private final ZStackPortsFactory ports;
    private final AioSchema schema;
    /** why the last filtering on this thread dropped hosts (FilterFlow asks right after, when none is left) */
    private final ThreadLocal<String> lastReason = new ThreadLocal<>();

    public AioMigrationHostFilter(DiskIoModes ioModes, ZStackPortsFactory ports, AioSchema schema) {
        this.ioModes = ioModes;
        this.ports = ports;
        this.schema = schema;
    }

    @Override
    public List<HostVO> filterHostCandidates(List<HostVO> candidates, HostAllocatorSpec spec) {
        lastReason.remove();
        if (!VmInstanceConstant.VmOperation.Migrate.toString().equals(spec.getVmOperation()) || spec.getVmInstance() == null
                || !RUNS.contains(spec.getVmInstance().getState()) || candidates.isEmpty()) {
            // a stopped VM's disks run nothing now: its next start decides them for the host it starts on
            return candidates;
        }
        String vmUuid = spec.getVmInstance().getUuid();
        if (!schema.readyFor("the migration host filter of vm[uuid:" + vmUuid + "]")) {
            return candidates; // no stored decisions to keep: ZStack's own choice
        }
        List<VolumeInventory> volumes = spec.getVmInstance().getAllVolumes();
        List<String> uuids = new ArrayList<>();
        for (VolumeInventory v : volumes) uuids.add(v.getUuid());
        List<HostRef> hosts = new ArrayList<>();
        for (HostVO h : candidates) hosts.add(new HostRef(h.getUuid(), h.getName()));
        List<String> hostUuids = new ArrayList<>();
        for (HostRef h : hosts) hostUuids.add(h.uuid());

        Map<String, DiskPlan> plans = ioModes.migrateTo(DiskRequest.migrate(vmUuid, hosts.get(0), uuids), hosts,
                ports.forMigration(volumes, hostUuids));
        List<HostVO> out = new ArrayList<>();
        List<String> reasons = new ArrayList<>();
        for (HostVO h : candidates) {
            DiskPlan p = plans.get(h.getUuid());
            if (p.refused()) reasons.add(p.refusal().text()); else out.add(h);
        }
        if (!reasons.isEmpty()) lastReason.set(String.join(" ", reasons));
        return out;
    }

    @Override
    public String filterErrorReason() {
        String r = lastReason.get();
        return r == null ? "no host can run the VM's disks as they run now" : r;
    }
}
