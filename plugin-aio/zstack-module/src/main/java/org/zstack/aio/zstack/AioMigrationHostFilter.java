package org.zstack.aio.zstack;

import org.zstack.aio.decision.HostFacts;
import org.zstack.aio.decision.IoMode;
import org.zstack.aio.plugin.AgentProfile;
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
 * Live migration: ZStack's agent migrates with the source's domain XML (migrateToURI2), so each disk keeps the io
 * mode it runs now. A candidate host that cannot run one of the VM's disks as it runs is dropped, for both
 * GetVmMigrationCandidateHosts and MigrateVm (both allocate through ZStack's host allocator with operation Migrate),
 * with the core's sentence ({@link AgentProfile#migrationBlocker}) naming the disk and the missing capability.
 */
public class AioMigrationHostFilter implements HostAllocatorFilterExtensionPoint {
    /** VM states whose disks are open in QEMU, so a migration carries them as they run */
    private static final List<String> RUNS = Arrays.asList(VmInstanceState.Running.toString(), VmInstanceState.Paused.toString());
    /** What ZStack's unmodified agent does at a live migration. */
    private static final AgentProfile AGENT = AgentProfile.ZSTACK_STOCK;

    private final AioIoModeComponent module;
    /** why the last filtering on this thread dropped hosts (FilterFlow asks right after, when none is left) */
    private final ThreadLocal<String> lastReason = new ThreadLocal<>();

    public AioMigrationHostFilter(AioIoModeComponent module) {
        this.module = module;
    }

    @Override
    public List<HostVO> filterHostCandidates(List<HostVO> candidates, HostAllocatorSpec spec) {
        lastReason.remove();
        if (!VmInstanceConstant.VmOperation.Migrate.toString().equals(spec.getVmOperation()) || spec.getVmInstance() == null
                || !RUNS.contains(spec.getVmInstance().getState())) {
            // a stopped VM's disks run nothing now: its next start decides them for the host it starts on
            return candidates;
        }
        if (!module.schema().readyFor("the migration host filter of vm[uuid:" + spec.getVmInstance().getUuid() + "]")) {
            return candidates; // no stored decisions to keep: ZStack's own choice
        }
        List<VolumeInventory> volumes = spec.getVmInstance().getAllVolumes();
        List<String> uuids = new ArrayList<>();
        for (VolumeInventory v : volumes) uuids.add(v.getUuid());
        Map<String, String> runs = module.store().effectiveModes(uuids);
        List<HostVO> out = new ArrayList<>();
        List<String> reasons = new ArrayList<>();
        for (HostVO h : candidates) {
            String blocker = blocker(volumes, runs, h);
            if (blocker == null) out.add(h); else reasons.add(blocker);
        }
        if (!reasons.isEmpty()) lastReason.set(String.join("; ", reasons));
        return out;
    }

    private String blocker(List<VolumeInventory> volumes, Map<String, String> runs, HostVO host) {
        HostFacts facts = null;
        for (VolumeInventory v : volumes) {
            IoMode now = IoMode.fromWireOrNull(runs.get(v.getUuid()));
            if (now == null || now == IoMode.THREADS) continue;
            if (facts == null) facts = module.facts().host(host.getUuid());
            String b = AGENT.migrationBlocker(module.decider(), null, now, facts, v.getName() + " (" + v.getUuid() + ")",
                    "host " + host.getName() + " (" + host.getUuid() + ")");
            if (b != null) return b;
        }
        return null;
    }

    @Override
    public String filterErrorReason() {
        String r = lastReason.get();
        return r == null ? "no host can run the VM's disks as they run now" : r;
    }
}
