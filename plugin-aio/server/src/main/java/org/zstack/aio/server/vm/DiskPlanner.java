package org.zstack.aio.server.vm;

import org.springframework.beans.factory.annotation.Value;
import org.springframework.stereotype.Component;
import org.zstack.aio.agent.api.DiskTO;
import org.zstack.aio.decision.IoMode;
import org.zstack.aio.decision.IoModeDecider;
import org.zstack.aio.decision.StorageKind;
import org.zstack.aio.server.iomode.IoModeService.Decided;

import java.util.List;

/**
 * Turns a decision into the disk the agent receives, with the decision's candidate chain as the io modes to try, so a
 * refusal by libvirt/QEMU at start can step down.
 * With the plugin disabled it produces exactly the previous platform's disks.
 */
@Component
public class DiskPlanner {

    private final IoModeDecider decider;
    private final boolean pluginEnabled;

    public DiskPlanner(IoModeDecider decider, @Value("${aio.plugin.enabled:true}") boolean pluginEnabled) {
        this.decider = decider;
        this.pluginEnabled = pluginEnabled;
    }

    public boolean pluginEnabled() {
        return pluginEnabled;
    }

    public DiskTO plan(Decided d, int deviceId) {
        var vol = d.volume().volume();
        StorageKind kind = decider.rules().kindOf(d.volume().storage().getType());
        String deviceType = kind == StorageKind.NETWORK ? "network"
                : vol.getInstallPath() != null && vol.getInstallPath().startsWith("/dev/") ? "block" : "file";
        if (!pluginEnabled) {
            // the previous agent: block volumes hard-coded io='native' cache='none'; everything else no io attribute
            return kind == StorageKind.BLOCK
                    ? new DiskTO(vol.getUuid(), vol.getInstallPath(), vol.getFormat(), deviceType, deviceId, "none",
                            List.of(IoMode.NATIVE.wire()))
                    : new DiskTO(vol.getUuid(), vol.getInstallPath(), vol.getFormat(), deviceType, deviceId, d.cacheMode(), List.of());
        }
        return new DiskTO(vol.getUuid(), vol.getInstallPath(), vol.getFormat(), deviceType, deviceId, d.cacheMode(),
                d.decision().candidates().stream().map(IoMode::wire).toList());
    }
}
