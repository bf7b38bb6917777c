package org.zstack.aio.server.iomode;

import org.springframework.boot.autoconfigure.condition.ConditionalOnProperty;
import org.springframework.stereotype.Component;
import org.zstack.aio.agent.api.DiskResult;
import org.zstack.aio.agent.api.DiskTO;
import org.zstack.aio.decision.IoMode;
import org.zstack.aio.plugin.DiskIoModes;
import org.zstack.aio.decision.StorageKind;
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

    private final DiskIoModes core;
    private final IoModeRecords records;

    LegacyDiskIo(DiskIoModes core, IoModeRecords records) {
        this.core = core;
        this.records = records;
    }

    @Override
    public void refuseIfRefused(String vmUuid, Operation operation, IoModeDecisions.Planned planned) {
        // the previous platform had no policy to refuse by
    }

    @Override
    public boolean enforcesRefusals() {
        return false;
    }

    @Override
    public DiskTO disk(Decided d, int deviceId) {
        StorageKind kind = core.kindOf(d.volume().storage().getType());
        return kind == StorageKind.BLOCK
                ? DiskTOs.of(d, deviceId, kind, BLOCK_CACHE, List.of(IoMode.NATIVE.wire()))
                : DiskTOs.of(d, deviceId, kind, d.cacheMode(), List.of());
    }

    @Override
    public List<DecisionRecord> record(String vmUuid, Operation operation, List<Decided> decided, Map<String, DiskResult> applied) {
        return records.storedInOrder(decided.stream().map(Decided::volumeUuid).toList());
    }
}
