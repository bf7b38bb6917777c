package org.zstack.aio.zstack;

import org.zstack.aio.plugin.HostIoFacts;
import org.zstack.aio.plugin.RefusedIoMode;
import org.zstack.utils.Utils;
import org.zstack.utils.logging.CLogger;

import java.util.ArrayList;
import java.util.List;

/**
 * After a host probe, the refusals it clears go: those of the build ({@code clearedBy} versionChange in the rules'
 * startRefusals) when the host now runs another QEMU or libvirt than the one that refused (the core's
 * {@link RefusedIoMode#clearedByProbe}). A refusal QEMU's sandbox or the host's limits made (io_uring ring init,
 * Linux AIO context) is never cleared by the probe: its qemu-img runs outside the sandbox libvirt starts QEMU in, so
 * it cannot see what refused QEMU; a read-back or an admin clears those.
 */
public final class ProbeRefusalClearing {
    private static final CLogger logger = Utils.getLogger(ProbeRefusalClearing.class);

    private final HostFactsReader hosts;
    private final RefusedIoModeStore refusals;

    public ProbeRefusalClearing(HostFactsReader hosts, RefusedIoModeStore refusals) {
        this.hosts = hosts;
        this.refusals = refusals;
    }

    /** Clears what the host's facts as just probed clear; the refusals that went. */
    List<RefusedIoMode> afterProbe(String hostUuid) {
        HostIoFacts probed = hosts.facts(hostUuid);
        List<RefusedIoMode> cleared = new ArrayList<>();
        for (RefusedIoMode r : probed.refused()) {
            if (r.clearedByProbe(probed)) cleared.add(r);
        }
        if (cleared.isEmpty()) return cleared;
        refusals.delete(cleared);
        for (RefusedIoMode r : cleared) logger.info("plugin-aio: " + r.clearedByProbeSentence(probed));
        return cleared;
    }
}
