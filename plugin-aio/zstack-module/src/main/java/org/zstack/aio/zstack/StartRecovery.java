package org.zstack.aio.zstack;

import org.zstack.aio.plugin.DiskIoModes;
import org.zstack.aio.plugin.DiskPlan;
import org.zstack.aio.plugin.IoModePorts;
import org.zstack.aio.plugin.IsoDates;
import org.zstack.aio.plugin.StartRefusal;
import org.zstack.header.errorcode.ErrorCode;
import org.zstack.utils.Utils;
import org.zstack.utils.logging.CLogger;

import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * A VM start the host failed, recovered as far as ZStack 5.2.0 lets an extension: the core's
 * {@link DiskIoModes#startFailed} reads the agent's error for libvirt's and QEMU's refusal of an io mode; the refusals
 * it says to remember (onUnsatisfied = fallback) are stored as host × storage facts ({@link RefusedIoModeStore}), so
 * the next start steps down; and the start's error is given the core's one sentence (naming the disk, the refused mode
 * and the mode the next start uses), with the agent's error as its cause. ZStack's KVMStartVmExtensionPoint only
 * observes a failed start (VmStartOnHypervisorFlow fails the chain), so the start itself cannot be retried here; the
 * error object it hands over is the one ZStack answers the API with, which is why it is changed in place.
 */
final class StartRecovery {
    private static final CLogger logger = Utils.getLogger(StartRecovery.class);

    /** One start sent to the agent: its plan, the ports it was planned with and each disk's image path. */
    private static final class Started {
        final DiskPlan plan;
        final IoModePorts ports;
        final Map<String, String> imagePaths;

        Started(DiskPlan plan, IoModePorts ports, Map<String, String> imagePaths) {
            this.plan = plan;
            this.ports = ports;
            this.imagePaths = imagePaths;
        }
    }

    private final DiskIoModes ioModes;
    private final RefusedIoModeStore refusals;
    private final Map<String, Started> inFlight = new ConcurrentHashMap<>();

    StartRecovery(DiskIoModes ioModes, RefusedIoModeStore refusals) {
        this.ioModes = ioModes;
        this.refusals = refusals;
    }

    void hold(String vmUuid, DiskPlan plan, IoModePorts ports, Map<String, String> imagePaths) {
        inFlight.put(vmUuid, new Started(plan, ports, imagePaths));
    }

    void succeeded(String vmUuid) {
        inFlight.remove(vmUuid);
    }

    /** The start of {@code vmUuid} failed with {@code err}: an io mode's refusal is remembered and said in {@code err}. */
    void failed(String vmUuid, ErrorCode err) {
        Started s = inFlight.remove(vmUuid);
        if (s == null || err == null) return;
        StartRefusal r = ioModes.startFailed(s.plan, text(err), s.imagePaths, IsoDates.format(System.currentTimeMillis()),
                s.ports);
        if (!r.recognised()) return;
        logger.warn(String.format("plugin-aio: the start of vm[uuid:%s] failed on an io mode: %s", vmUuid, r.refusal().text()));
        try {
            refusals.save(r.remember());
        } catch (RuntimeException e) {
            // the start has failed anyway: the sentence still says what happened; the next failure is recognised again
            logger.warn(String.format("plugin-aio: cannot remember the refused io mode of vm[uuid:%s]", vmUuid), e);
        }
        ErrorCode agent = new ErrorCode(err);
        err.setDetails(r.refusal().text());
        err.setCause(agent);
    }

    /** Every details text along the error's causes: ZStack's sentence, the agent's traceback, libvirt's words. */
    private static String text(ErrorCode err) {
        StringBuilder s = new StringBuilder();
        for (ErrorCode e = err; e != null; e = e.getCause()) {
            if (e.getDetails() != null) s.append(e.getDetails()).append('\n');
        }
        return s.toString();
    }
}
