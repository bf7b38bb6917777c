package org.zstack.aio.server.iomode;

import org.springframework.boot.autoconfigure.condition.ConditionalOnProperty;
import org.springframework.stereotype.Component;
import org.zstack.aio.agent.api.DiskResult;
import org.zstack.aio.agent.api.DiskTO;
import org.zstack.aio.decision.IoMode;
import org.zstack.aio.decision.IoModeDecider;
import org.zstack.aio.decision.StorageKind;
import org.zstack.aio.server.iomode.IoModeService.Decided;
import org.zstack.aio.plugin.DecisionRecord;
import org.zstack.aio.plugin.Operation;

import java.util.List;
import java.util.Map;

/**
 * The plugin switched off (aio.plugin.enabled=false): disks exactly as the previous platform started them (block
 * volumes io='native' cache='none', everything else no io attribute), nothing refused, nothing stored. The API still
 * shows whatever decisions were stored before.
 */
@Component
@ConditionalOnProperty(name = "aio.plugin.enabled", havingValue = "false")
class LegacyDiskIo implements DiskIoPolicy {

    /** The previous agent's hard-coded cache mode of block volumes. */
    private static final String BLOCK_CACHE = "none";

    private final IoModeDecider decider;
    private final IoModeService ioModes;

    LegacyDiskIo(IoModeDecider decider, IoModeService ioModes) {
        this.decider = decider;
        this.ioModes = ioModes;
    }

    @Override
    public void refuseIfAnyRefused(String vmUuid, Operation operation, List<Decided> decided) {
        // the previous platform had no policy to refuse by
    }

    @Override
    public boolean enforcesRefusals() {
        return false;
    }

    @Override
    public DiskTO disk(Decided d, int deviceId) {
        StorageKind kind = decider.rules().kindOf(d.volume().storage().getType());
        return kind == StorageKind.BLOCK
                ? DiskTOs.of(d, deviceId, kind, BLOCK_CACHE, List.of(IoMode.NATIVE.wire()))
                : DiskTOs.of(d, deviceId, kind, d.cacheMode(), List.of());
    }

    @Override
    public List<DecisionRecord> record(String vmUuid, Operation operation, List<Decided> decided, Map<String, DiskResult> applied) {
        return ioModes.storedInOrder(decided.stream().map(Decided::volumeUuid).toList());
    }
}
