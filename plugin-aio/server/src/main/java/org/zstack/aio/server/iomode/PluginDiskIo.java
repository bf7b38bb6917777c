package org.zstack.aio.server.iomode;

import org.springframework.boot.autoconfigure.condition.ConditionalOnProperty;
import org.springframework.stereotype.Component;
import org.zstack.aio.agent.api.DiskResult;
import org.zstack.aio.agent.api.DiskTO;
import org.zstack.aio.decision.Check;
import org.zstack.aio.decision.IoMode;
import org.zstack.aio.decision.IoModeDecider;
import org.zstack.aio.plugin.DecisionRecord;
import org.zstack.aio.plugin.Operation;
import org.zstack.aio.server.api.ApiException;
import org.zstack.aio.server.api.ErrorCode;
import org.zstack.aio.server.inventory.VolumeVO;
import org.zstack.aio.server.metrics.IoModeMetrics;
import org.zstack.aio.server.iomode.IoModeService.Decided;

import java.util.List;
import java.util.Map;

/**
 * The aio plugin's disks: each gets the decision's candidate chain as the io modes to try, so a refusal by
 * libvirt/QEMU at start can step down; a refusal by policy (onUnsatisfied = fail) stops the start; what was applied
 * is stored per volume.
 */
@Component
@ConditionalOnProperty(name = "aio.plugin.enabled", havingValue = "true", matchIfMissing = true)
class PluginDiskIo implements DiskIoPolicy {

    private final IoModeDecider decider;
    private final IoModeService ioModes;
    private final IoModeMetrics metrics;

    PluginDiskIo(IoModeDecider decider, IoModeService ioModes, IoModeMetrics metrics) {
        this.metrics = metrics;
        this.decider = decider;
        this.ioModes = ioModes;
    }

    @Override
    public void refuseIfAnyRefused(String vmUuid, Operation operation, List<Decided> decided) {
        List<Decided> refused = decided.stream().filter(d -> d.decision().refused()).toList();
        if (refused.isEmpty()) return;
        ioModes.record(vmUuid, operation, refused, Map.of());
        metrics.refused(refused.stream().map(Decided::decision).toList());
        Decided first = refused.get(0);
        VolumeVO v = first.volume().volume();
        Check failed = first.decision().firstFailure();
        throw new ApiException(ErrorCode.IO_MODE_REFUSED,
                "volume " + v.getName() + " (" + v.getUuid() + ") cannot run " + first.decision().requested().wire()
                + ": check " + failed.check() + " failed: " + failed.message(),
                "Fix what the check names, choose another kvm/vm.ioMode for the volume or its primary storage, or set"
                + " kvm/vm.ioMode.onUnsatisfied to fallback.");
    }

    @Override
    public DiskTO disk(Decided d, int deviceId) {
        return DiskTOs.of(d, deviceId, decider.rules().kindOf(d.volume().storage().getType()), d.cacheMode(),
                d.decision().candidates().stream().map(IoMode::wire).toList());
    }

    @Override
    public List<DecisionRecord> record(String vmUuid, Operation operation, List<Decided> decided, Map<String, DiskResult> applied) {
        List<DecisionRecord> stored = ioModes.record(vmUuid, operation, decided, applied);
        metrics.applied(decided.stream().map(Decided::decision).toList());
        return stored;
    }
}
