package org.zstack.aio.decision;

import org.zstack.aio.decision.rules.IoModeRulesLoader;

import java.util.List;
import java.util.regex.Pattern;

import static org.assertj.core.api.Assertions.assertThat;

/** Test fixtures: the real rules from conf/, a host where io_uring works, and short ways to build inputs. */
final class Facts {

    static final IoModeRules RULES = IoModeRulesLoader.fromClasspath();
    static final IoModeDecider DECIDER = new IoModeDecider(RULES);

    /** The shipped rules with other workload weights. */
    static IoModeRules rulesWith(WorkloadMatch m) {
        return new IoModeRules(RULES.storageTypes(), RULES.nativeCacheModes(), RULES.nonSparsePreallocations(), RULES.minKernel(),
                RULES.minQemu(), RULES.minLibvirt(), RULES.preference(), RULES.knownBad(), RULES.measuredTieMargin(), m,
                RULES.kindDefaults());
    }

    static final String VOL = "0f1e2d3c4b5a69788796a5b4c3d2e1f0";
    static final String HOST = "9a8b7c6d5e4f30211203f4e5d6c7b8a9";
    static final long GIB = 1L << 30;

    static final DecisionPolicy FALLBACK = new DecisionPolicy(OnUnsatisfied.FALLBACK, false);
    static final DecisionPolicy FAIL = new DecisionPolicy(OnUnsatisfied.FAIL, false);

    private Facts() {
    }

    /** A host where every io_uring check passes and no host-only known-bad rule matches (QEMU 8.2: not 7.1, not before 6.1). */
    static HostFacts goodHost() {
        return new HostFacts(HOST, Version.parse("6.1.0"), 0, Version.parse("8.2.0"), true, Version.parse("9.0.0"));
    }

    static HostFacts host(String kernel, Integer ioUringDisabled, String qemu, Boolean qemuIoUring, String libvirt) {
        return new HostFacts(HOST, Version.parseOrNull(kernel), ioUringDisabled, Version.parseOrNull(qemu), qemuIoUring,
                Version.parseOrNull(libvirt));
    }

    static VolumeFacts volume(String storageType, String format, String preallocation, String cacheMode) {
        return new VolumeFacts(VOL, storageType, format, preallocation, 10 * GIB, null, cacheMode);
    }

    static VolumeFacts measured(String storageType, String format, String preallocation, long virtual, long actual) {
        return new VolumeFacts(VOL, storageType, format, preallocation, virtual, actual, "none");
    }

    /** A volume on which native passes: a block LV with cache=none. */
    /** A volume on which both native and io_uring pass: a fully preallocated image on NFS (io_uring is known-bad on LVs). */
    static VolumeFacts bothOk() {
        return volume("NFS", "raw", "full", "none");
    }

    static VolumeFacts nativeOk() {
        return volume("SharedBlock", "raw", "none", "none");
    }

    /** A volume on which native fails (sparse qcow2 on NFS, cache=none). */
    static VolumeFacts nativeSparse() {
        return volume("NFS", "qcow2", "none", "none");
    }

    static DecisionInput in(RequestedIoMode requested, VolumeFacts v, HostFacts h, DecisionPolicy p) {
        return new DecisionInput(requested, ConfigSource.GLOBAL, v, h, p);
    }

    static IoModeDecision decide(RequestedIoMode requested, VolumeFacts v, HostFacts h, DecisionPolicy p) {
        return DECIDER.decide(in(requested, v, h, p));
    }

    static List<Check> checksOf(IoModeDecision d, String mode) {
        return d.checks().stream().filter(c -> c.mode().equals(mode)).toList();
    }

    static Check check(IoModeDecision d, String mode, String name) {
        List<Check> found = d.checks().stream().filter(c -> c.mode().equals(mode) && c.check().equals(name)).toList();
        assertThat(found).as("check %s/%s in %s", mode, name, d.checks()).hasSize(1);
        return found.get(0);
    }

    static List<String> failedNames(IoModeDecision d, String mode) {
        return checksOf(d, mode).stream().filter(c -> !c.passed()).map(Check::check).toList();
    }

    /** A sentence end (. ! ?) followed by more text: a second sentence. Dots inside names and versions don't count. */
    private static final Pattern SECOND_SENTENCE = Pattern.compile("[.!?]\\s+\\S");

    static boolean isOneSentence(String s) {
        return s != null && !s.isBlank() && s.endsWith(".") && !s.endsWith("..") && !s.contains("\n")
               && !SECOND_SENTENCE.matcher(s).find();
    }
}
