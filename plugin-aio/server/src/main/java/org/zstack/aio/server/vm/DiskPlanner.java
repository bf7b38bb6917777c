package org.zstack.aio.server.vm;

import org.springframework.beans.factory.annotation.Value;
import org.springframework.stereotype.Component;
import org.zstack.aio.agent.api.DiskTO;
import org.zstack.aio.decision.DecisionInput;
import org.zstack.aio.decision.IoMode;
import org.zstack.aio.decision.IoModeDecider;
import org.zstack.aio.decision.IoModeDecision;
import org.zstack.aio.decision.OnUnsatisfied;
import org.zstack.aio.decision.RequestedIoMode;
import org.zstack.aio.decision.StorageKind;
import org.zstack.aio.server.iomode.IoModeService.Decided;

import java.util.ArrayList;
import java.util.List;

/**
 * Turns a decision into the disk the agent receives: the effective mode first, then (with onUnsatisfied =
 * fallback) the later modes of the chain whose checks pass, so a refusal by libvirt/QEMU at start can step down.
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
                    ? new DiskTO(vol.getUuid(), vol.getInstallPath(), vol.getFormat(), deviceType, deviceId, "none", List.of("native"))
                    : new DiskTO(vol.getUuid(), vol.getInstallPath(), vol.getFormat(), deviceType, deviceId, d.cacheMode(), List.of());
        }
        return new DiskTO(vol.getUuid(), vol.getInstallPath(), vol.getFormat(), deviceType, deviceId, d.cacheMode(),
                candidates(d.input(), d.decision()));
    }

    List<String> candidates(DecisionInput in, IoModeDecision decision) {
        IoMode effective = decision.effectiveMode();
        if (effective == null) return List.of();
        List<String> out = new ArrayList<>(3);
        out.add(effective.wire());
        if (in.policy().onUnsatisfied() == OnUnsatisfied.FAIL) return out;
        List<IoMode> order = decider.rules().preference();
        int from = order.indexOf(effective); // a mode the chain leaves out steps straight down to threads, never up
        for (int i = from < 0 ? order.size() - 1 : from + 1; i < order.size(); i++) {
            IoMode next = order.get(i);
            if (next == IoMode.THREADS || passes(in, next)) out.add(next.wire());
        }
        return out;
    }

    private boolean passes(DecisionInput in, IoMode mode) {
        RequestedIoMode asked = RequestedIoMode.fromWire(mode.wire());
        return !decider.decide(new DecisionInput(asked, in.source(), in.volume(), in.host(),
                new org.zstack.aio.decision.DecisionPolicy(OnUnsatisfied.FAIL, in.policy().allowFalloc()))).refused();
    }
}
