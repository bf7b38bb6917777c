package org.zstack.aio.server.iomode;

import org.zstack.aio.agent.api.DiskTO;
import org.zstack.aio.decision.StorageKind;
import org.zstack.aio.server.inventory.VolumeVO;

import java.util.List;

/** The agent's disk for a decided volume, whichever policy chose its cache and io modes. */
final class DiskTOs {

    private DiskTOs() {
    }

    static DiskTO of(Decided d, int deviceId, StorageKind kind, String cache, List<String> ioCandidates) {
        VolumeVO vol = d.volume().volume();
        return new DiskTO(vol.getUuid(), vol.getInstallPath(), vol.getFormat(), deviceType(kind, vol.getInstallPath()),
                deviceId, cache, ioCandidates);
    }

    /** network for network storage, block for a device node, file otherwise. */
    static String deviceType(StorageKind kind, String installPath) {
        if (kind == StorageKind.NETWORK) return "network";
        return installPath != null && installPath.startsWith("/dev/") ? "block" : "file";
    }
}
