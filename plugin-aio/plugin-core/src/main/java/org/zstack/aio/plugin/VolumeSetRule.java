package org.zstack.aio.plugin;

import org.zstack.aio.decision.Check;
import org.zstack.aio.decision.CheckResult;
import org.zstack.aio.decision.DecisionPolicy;
import org.zstack.aio.decision.IoMode;
import org.zstack.aio.decision.IoModeDecider;
import org.zstack.aio.decision.VolumeFacts;

/**
 * A volume's own {@code native} that the volume's own facts already rule out (its cache mode, a sparse image on file
 * storage) is refused when it is set, not discovered at the next start (docs/contract.md, "The decision" 5); and a
 * cache mode that would break a volume's own {@code native} is refused the same way. Host facts are not the volume's,
 * so they are left out: a host that cannot run native is the start's business.
 */
public final class VolumeSetRule {

    private final IoModeDecider decider;

    public VolumeSetRule(IoModeDecider decider) {
        this.decider = decider;
    }

    /**
     * kvm/vm.ioMode set to {@code value} on the volume.
     *
     * @param facts  the volume as it is (its resolved cache mode included)
     * @param policy its resolved policy (allowFalloc decides whether a falloc image is sparse)
     * @return null when allowed
     */
    public ConfigRefusal ioMode(String value, VolumeFacts facts, DecisionPolicy policy) {
        if (!IoMode.NATIVE.wire().equals(value)) return null;
        Check failed = nativeFailure(facts, policy);
        if (failed == null) return null;
        return new ConfigRefusal("native cannot be set on volume " + facts.volumeUuid() + ": " + failed.message(),
                "Fix what check " + failed.check() + " names, or choose auto or io_uring, which work with any cache mode"
                + " and image.");
    }

    /**
     * The volume's cache mode set to {@code cacheMode}.
     *
     * @param ownIoMode the volume's own kvm/vm.ioMode override, or null when it has none (its storage's or the global
     *                  native is a default for many volumes, not a promise about this one)
     * @return null when allowed
     */
    public ConfigRefusal cacheMode(String cacheMode, String ownIoMode, VolumeFacts facts, DecisionPolicy policy) {
        if (!IoMode.NATIVE.wire().equals(ownIoMode)) return null;
        Check failed = nativeFailure(facts.withCacheMode(cacheMode), policy);
        if (failed == null) return null;
        return new ConfigRefusal("cache mode " + cacheMode + " cannot be set on volume " + facts.volumeUuid()
                                 + " because the volume's own kvm/vm.ioMode is native: " + failed.message(),
                "Delete the volume's native override first, or keep cache mode none or directsync.");
    }

    private Check nativeFailure(VolumeFacts facts, DecisionPolicy policy) {
        CheckResult r = decider.check(IoMode.NATIVE, facts, null, policy);
        return r.passed() ? null : r.firstFailure();
    }
}
