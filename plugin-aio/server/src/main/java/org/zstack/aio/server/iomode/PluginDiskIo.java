package org.zstack.aio.server.iomode;

import org.springframework.boot.autoconfigure.condition.ConditionalOnProperty;
import org.springframework.stereotype.Component;
import org.zstack.aio.agent.api.DiskResult;
import org.zstack.aio.agent.api.DiskTO;
import org.zstack.aio.decision.IoMode;
import org.zstack.aio.plugin.DiskIoModes;
import org.zstack.aio.plugin.IoModeRefusal;
import org.zstack.aio.plugin.DecisionRecord;
import org.zstack.aio.plugin.Operation;
import org.zstack.aio.server.api.ApiException;
import org.zstack.aio.server.api.ErrorCode;
import org.zstack.aio.server.metrics.IoModeMetrics;

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

    private final DiskIoModes core;
    private final IoModeRecords records;
    private final IoModeMetrics metrics;

    PluginDiskIo(DiskIoModes core, IoModeRecords records, IoModeMetrics metrics) {
        this.metrics = metrics;
        this.core = core;
        this.records = records;
    }

    @Override
    public void refuseIfRefused(String vmUuid, Operation operation, IoModeDecisions.Planned planned) {
        IoModeRefusal refusal = planned.refusal();
        if (refusal == null) return;
        List<Decided> refused = planned.refusedByPolicy();
        records.record(vmUuid, operation, refused, Map.of());
        metrics.refused(refused.stream().map(Decided::decision).toList());
        throw new ApiException(ErrorCode.IO_MODE_REFUSED, refusal.sentence(), refusal.whatToDo());
    }

    @Override
    public DiskTO disk(Decided d, int deviceId) {
        return DiskTOs.of(d, deviceId, core.kindOf(d.volume().storage().getType()), d.cacheMode(),
                d.decision().candidates().stream().map(IoMode::wire).toList());
    }

    @Override
    public List<DecisionRecord> record(String vmUuid, Operation operation, List<Decided> decided, Map<String, DiskResult> applied) {
        List<DecisionRecord> stored = records.record(vmUuid, operation, decided, applied);
        metrics.applied(decided.stream().map(Decided::decision).toList());
        return stored;
    }
}
