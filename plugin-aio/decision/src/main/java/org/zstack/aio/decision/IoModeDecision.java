package org.zstack.aio.decision;

import java.util.List;

/**
 * The decision for one volume (CONTRACT §3.4).
 *
 * @param requested the resolved kvm/vm.ioMode (threads, native, io_uring, auto)
 * @param source    VolumeVO, PrimaryStorageVO or global
 * @param effective threads, native, io_uring or not-applicable; null when refused
 * @param refused   true when onUnsatisfied=fail and the requested mode's checks failed: the VM must not start
 * @param checks    every check evaluated, in the order evaluated
 * @param reason    one sentence
 */
public record IoModeDecision(String volumeUuid, String hostUuid, String requested, String source,
                             String effective, boolean refused, List<Check> checks, String reason) {

    public static final String NOT_APPLICABLE = "not-applicable";

    public IoModeDecision {
        checks = List.copyOf(checks);
    }

    /** The io mode to put in {@code <driver io=...>}, or null when none applies (network storage) or refused. */
    public IoMode effectiveMode() {
        return effective == null || NOT_APPLICABLE.equals(effective) ? null : IoMode.fromWire(effective);
    }

    /** The first failed check of the given mode, or null. */
    public Check firstFailure(String mode) {
        for (Check c : checks) if (!c.passed() && c.mode().equals(mode)) return c;
        return null;
    }
}
