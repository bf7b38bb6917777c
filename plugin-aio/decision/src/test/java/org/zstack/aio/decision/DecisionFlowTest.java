package org.zstack.aio.decision;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.zstack.aio.decision.Facts.*;

/** docs/contract.md, "The decision", items 3 and 5: threads, not-applicable, the fallback chain, the fail policy, auto, and what the decision echoes. */
class DecisionFlowTest {

    private static final HostFacts BAD_HOST = host("4.19", 0, "8.2.0", true, "9.0.0"); // io_uring fails on kernel-version

    // ---- threads ------------------------------------------------------------------------------------------

    @ParameterizedTest
    @EnumSource(OnUnsatisfied.class)
    void threadsNeedsNoCheckAndWorksEverywhere(OnUnsatisfied policy) {
        // the worst facts there are: sparse image, page cache, no host
        IoModeDecision d = decide(RequestedIoMode.THREADS, volume("NFS", "qcow2", "none", "writeback"), null,
                new DecisionPolicy(policy, false));
        assertThat(d.effectiveWire()).isEqualTo("threads");
        assertThat(d.effectiveMode()).isEqualTo(IoMode.THREADS);
        assertThat(d.refused()).isFalse();
        assertThat(d.checks()).isEmpty();
        assertThat(d.reason()).contains("threads needs no check");
    }

    // ---- network storage ----------------------------------------------------------------------------------

    @ParameterizedTest
    @EnumSource(RequestedIoMode.class)
    void cephIsNotApplicableWhateverIsRequested(RequestedIoMode requested) {
        for (OnUnsatisfied policy : OnUnsatisfied.values()) {
            // facts under which native and io_uring would both fail on any other storage
            IoModeDecision d = decide(requested, volume("Ceph", "raw", "none", "writeback"), null, new DecisionPolicy(policy, false));
            assertThat(d.effectiveWire()).isEqualTo(IoModeDecision.NOT_APPLICABLE);
            assertThat(d.effectiveMode()).isNull();
            assertThat(d.refused()).isFalse();
            assertThat(d.checks()).singleElement().satisfies(c -> {
                assertThat(c.check()).isEqualTo("network-storage");
                assertThat(c.passed()).isTrue();
                assertThat(c.mode()).isEqualTo(requested.wire());
                assertThat(c.message()).contains("Ceph").contains("no io attribute");
            });
            assertThat(d.reason()).contains("does not apply").contains(requested.wire());
            assertThat(isOneSentence(d.reason())).as(d.reason()).isTrue();
        }
    }

    // ---- fallback chain -----------------------------------------------------------------------------------

    @Test
    void ioUringFallsBackToNativeWhenNativePasses() {
        IoModeDecision d = decide(RequestedIoMode.IO_URING, bothOk(), BAD_HOST, FALLBACK);
        assertThat(d.effectiveWire()).isEqualTo("native");
        assertThat(d.refused()).isFalse();
        // a kernel before 5.1 is also before 5.13 (known-bad row, KnownBadRowsTest)
        assertThat(failedNames(d, "io_uring")).containsExactly("kernel-version", "known-bad:kernel-before-5.13-io_uring");
        assertThat(checksOf(d, "native")).isNotEmpty().allMatch(Check::passed);
        // io_uring's checks come first, then native's: the order they were evaluated in
        assertThat(d.checks().get(0).mode()).isEqualTo("io_uring");
        assertThat(d.checks().get(d.checks().size() - 1).mode()).isEqualTo("native");
        assertThat(d.reason()).contains("fell back to native").contains("kernel-version").contains("4.19");
    }

    @Test
    void ioUringFallsBackToThreadsWhenNativeFailsToo() {
        IoModeDecision d = decide(RequestedIoMode.IO_URING, nativeSparse(), BAD_HOST, FALLBACK);
        assertThat(d.effectiveWire()).isEqualTo("threads");
        assertThat(failedNames(d, "io_uring")).containsExactly("kernel-version", "known-bad:kernel-before-5.13-io_uring");
        assertThat(failedNames(d, "native")).containsExactly("non-sparse-image");
        // the reason explains why the requested mode was not used
        assertThat(d.reason()).contains("fell back to threads").contains("kernel-version");
    }

    @Test
    void ioUringWithUnknownHostFallsBackThroughTheChain() {
        assertThat(decide(RequestedIoMode.IO_URING, nativeOk(), null, FALLBACK).effectiveWire()).isEqualTo("native");
        assertThat(decide(RequestedIoMode.IO_URING, nativeSparse(), null, FALLBACK).effectiveWire()).isEqualTo("threads");
    }

    @Test
    void nativeFallsBackToThreadsNeverUpToIoUring() {
        // io_uring would pass on this host, but the chain only goes down
        IoModeDecision d = decide(RequestedIoMode.NATIVE, volume("NFS", "qcow2", "none", "writeback"), goodHost(), FALLBACK);
        assertThat(d.effectiveWire()).isEqualTo("threads");
        assertThat(checksOf(d, "io_uring")).isEmpty();
        assertThat(d.reason()).contains("fell back to threads").contains("cache-mode");
    }

    @Test
    void aRequestedModeWhoseChecksPassIsUsedAsIs() {
        IoModeDecision io = decide(RequestedIoMode.IO_URING, bothOk(), goodHost(), FALLBACK);
        assertThat(io.effectiveWire()).isEqualTo("io_uring");
        assertThat(checksOf(io, "native")).isEmpty(); // no fallback evaluated
        IoModeDecision nat = decide(RequestedIoMode.NATIVE, nativeOk(), goodHost(), FALLBACK);
        assertThat(nat.effectiveWire()).isEqualTo("native");
        assertThat(checksOf(nat, "io_uring")).isEmpty();
    }

    @Test
    void fallbackFollowsThePreferenceInTheRules() {
        // a rules file whose chain skips native: io_uring -> threads
        IoModeRules noNative = new IoModeRules(RULES.storageTypes(), RULES.nativeCacheModes(), RULES.nonSparsePreallocations(),
                RULES.minKernel(), RULES.minQemu(), RULES.minLibvirt(), List.of(IoMode.IO_URING, IoMode.THREADS), RULES.knownBad());
        IoModeDecision d = new IoModeDecider(noNative).decide(in(RequestedIoMode.IO_URING, nativeOk(), BAD_HOST, FALLBACK));
        assertThat(d.effectiveWire()).isEqualTo("threads");
        assertThat(checksOf(d, "native")).isEmpty();
    }

    @Test
    void aModeLeftOutOfTheChainFallsToThreadsNeverUp() {
        // native asked but ruled out; the chain has no native, so its position cannot say what comes after it
        IoModeRules noNative = new IoModeRules(RULES.storageTypes(), RULES.nativeCacheModes(), RULES.nonSparsePreallocations(),
                RULES.minKernel(), RULES.minQemu(), RULES.minLibvirt(), List.of(IoMode.IO_URING, IoMode.THREADS), RULES.knownBad());
        IoModeDecision d = new IoModeDecider(noNative).decide(in(RequestedIoMode.NATIVE, nativeSparse(), goodHost(), FALLBACK));
        assertThat(d.effectiveWire()).isEqualTo("threads");
    }

    // ---- fail policy --------------------------------------------------------------------------------------

    @Test
    void failPolicyRefusesIoUringAndNamesTheCheck() {
        IoModeDecision d = decide(RequestedIoMode.IO_URING, nativeOk(), BAD_HOST, FAIL);
        assertThat(d.refused()).isTrue();
        assertThat(d.effectiveWire()).isNull();
        assertThat(d.effectiveMode()).isNull();
        assertThat(d.reason()).contains("refused").contains("onUnsatisfied is fail").contains("kernel-version");
        // no fallback is evaluated when refusing
        assertThat(checksOf(d, "native")).isEmpty();
    }

    @Test
    void failPolicyRefusesNativeAndNamesTheCheck() {
        IoModeDecision d = decide(RequestedIoMode.NATIVE, nativeSparse(), goodHost(), FAIL);
        assertThat(d.refused()).isTrue();
        assertThat(d.effectiveWire()).isNull();
        assertThat(d.reason()).contains("refused").contains("non-sparse-image");
        assertThat(d.firstFailure(IoMode.NATIVE)).isNotNull().extracting(Check::check).isEqualTo("non-sparse-image");
    }

    @Test
    void failPolicyDoesNotRefuseWhatPasses() {
        assertThat(decide(RequestedIoMode.IO_URING, nativeSparse(), goodHost(), FAIL).refused()).isFalse();
        assertThat(decide(RequestedIoMode.NATIVE, nativeOk(), null, FAIL).refused()).isFalse();
    }

    // ---- auto ---------------------------------------------------------------------------------------------

    @ParameterizedTest
    @EnumSource(OnUnsatisfied.class)
    void autoPicksIoUringWhenItsChecksPass(OnUnsatisfied policy) {
        IoModeDecision d = decide(RequestedIoMode.AUTO, nativeSparse(), goodHost(), new DecisionPolicy(policy, false));
        assertThat(d.effectiveWire()).isEqualTo("io_uring");
        assertThat(d.refused()).isFalse();
        assertThat(d.reason()).contains("chose io_uring").contains("best mode");
        assertThat(checksOf(d, "native")).isEmpty(); // stops at the first mode that passes
    }

    @ParameterizedTest
    @EnumSource(OnUnsatisfied.class)
    void autoPicksNativeWhenIoUringFails(OnUnsatisfied policy) {
        IoModeDecision d = decide(RequestedIoMode.AUTO, nativeOk(), BAD_HOST, new DecisionPolicy(policy, false));
        assertThat(d.effectiveWire()).isEqualTo("native");
        assertThat(d.refused()).isFalse();
        assertThat(d.reason()).contains("chose native").contains("io_uring is ruled out by check kernel-version");
    }

    @ParameterizedTest
    @EnumSource(OnUnsatisfied.class)
    void autoPicksThreadsWhenBothFailAndIsNeverRefused(OnUnsatisfied policy) {
        IoModeDecision d = decide(RequestedIoMode.AUTO, nativeSparse(), null, new DecisionPolicy(policy, false));
        assertThat(d.effectiveWire()).isEqualTo("threads");
        assertThat(d.refused()).isFalse();
        assertThat(failedNames(d, "io_uring")).containsExactly("host-facts");
        assertThat(failedNames(d, "native")).containsExactly("non-sparse-image");
        assertThat(d.reason()).contains("chose threads").contains("host-facts");
    }

    @Test
    void autoHonoursAllowFalloc() {
        VolumeFacts falloc = volume("SharedMountPoint", "raw", "falloc", "directsync");
        assertThat(DECIDER.decide(in(RequestedIoMode.AUTO, falloc, null, new DecisionPolicy(OnUnsatisfied.FALLBACK, true))).effectiveWire())
                .isEqualTo("native");
        assertThat(DECIDER.decide(in(RequestedIoMode.AUTO, falloc, null, new DecisionPolicy(OnUnsatisfied.FALLBACK, false))).effectiveWire())
                .isEqualTo("threads");
    }

    // ---- what the decision echoes --------------------------------------------------------------------------

    @ParameterizedTest
    @EnumSource(ConfigSource.class)
    void requestedSourceVolumeAndHostAreEchoed(ConfigSource source) {
        for (RequestedIoMode requested : RequestedIoMode.values()) {
            IoModeDecision d = DECIDER.decide(new DecisionInput(requested, source, nativeOk(), goodHost(), FALLBACK));
            assertThat(d.requested()).isEqualTo(requested);
            assertThat(d.source()).isEqualTo(source);
            assertThat(d.volumeUuid()).isEqualTo(VOL);
            assertThat(d.hostUuid()).isEqualTo(HOST);
            assertThat(d.reason()).startsWith(requested.wire() + " requested (" + source.wire()
                                              + (source == ConfigSource.STORAGE_KIND_DEFAULT && requested == RequestedIoMode.NATIVE ? ": " : ")"));
        }
        IoModeDecision noHost = DECIDER.decide(new DecisionInput(RequestedIoMode.AUTO, source, nativeOk(), null, FALLBACK));
        assertThat(noHost.hostUuid()).isNull();
        assertThat(noHost.source()).isEqualTo(source);
    }

    @Test
    void aStorageKindDefaultNamesTheKindAndTheRulesFile() {
        IoModeDecision d = DECIDER.decide(new DecisionInput(RequestedIoMode.NATIVE, ConfigSource.STORAGE_KIND_DEFAULT,
                nativeOk(), goodHost(), FALLBACK));
        assertThat(d.effectiveWire()).isEqualTo("native");
        assertThat(d.reason()).isEqualTo("native requested (StorageKindDefault: SharedBlock is block storage, whose default"
                + " is native in conf/aio/io-mode-rules.yaml, and no admin set kvm/vm.ioMode) and all its checks passed.");
        assertThat(isOneSentence(d.reason())).as(d.reason()).isTrue();
    }

    @Test
    void sourceWireNamesMatchTheContract() {
        assertThat(List.of(ConfigSource.values())).extracting(ConfigSource::wire)
                .containsExactly("VolumeVO", "PrimaryStorageVO", "global", "StorageKindDefault");
        for (ConfigSource s : ConfigSource.values()) assertThat(ConfigSource.fromResourceType(s.wire())).isEqualTo(s);
        assertThatThrownBy(() -> ConfigSource.fromResourceType("HostVO")).isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void decisionChecksCannotBeChangedAfterwards() {
        List<Check> mutable = new ArrayList<>(List.of(new Check("native", "cache-mode", true, "ok.")));
        IoModeDecision d = IoModeDecision.copying(VOL, HOST, RequestedIoMode.NATIVE, ConfigSource.GLOBAL, IoMode.NATIVE, true, false,
                mutable, "r.");
        mutable.clear();
        assertThat(d.checks()).hasSize(1);
        assertThatThrownBy(() -> d.checks().add(new Check("x", "y", true, "z"))).isInstanceOf(UnsupportedOperationException.class);
    }

    @Test
    void inputRejectsMissingParts() {
        assertThatThrownBy(() -> new DecisionInput(null, ConfigSource.GLOBAL, nativeOk(), null, FALLBACK)).isInstanceOf(NullPointerException.class);
        assertThatThrownBy(() -> new DecisionInput(RequestedIoMode.AUTO, null, nativeOk(), null, FALLBACK)).isInstanceOf(NullPointerException.class);
        assertThatThrownBy(() -> new DecisionInput(RequestedIoMode.AUTO, ConfigSource.GLOBAL, null, null, FALLBACK)).isInstanceOf(NullPointerException.class);
        assertThatThrownBy(() -> new DecisionInput(RequestedIoMode.AUTO, ConfigSource.GLOBAL, nativeOk(), null, null)).isInstanceOf(NullPointerException.class);
    }

    @Test
    void wireNamesRoundTrip() {
        for (RequestedIoMode m : RequestedIoMode.values()) assertThat(RequestedIoMode.fromWire(m.wire())).isEqualTo(m);
        for (IoMode m : IoMode.values()) assertThat(IoMode.fromWire(m.wire())).isEqualTo(m);
        assertThat(OnUnsatisfied.fromWire("fail")).isEqualTo(OnUnsatisfied.FAIL);
        assertThat(OnUnsatisfied.fromWire("fallback")).isEqualTo(OnUnsatisfied.FALLBACK);
        assertThatThrownBy(() -> RequestedIoMode.fromWire("IO_URING")).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> IoMode.fromWire("auto")).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> OnUnsatisfied.fromWire("Fail")).isInstanceOf(IllegalArgumentException.class);
    }

    // ---- the reason -----------------------------------------------------------------------------------------

    @Test
    void reasonIsOneSentenceNamingTheFailedCheck() {
        List<IoModeDecision> unsatisfied = new ArrayList<>();
        HostFacts g = goodHost();
        List<HostFacts> hosts = List.of(BAD_HOST, host("6.1", 1, "8.2", true, "9.0.0"), host("6.1", 2, "8.2", true, "9.0.0"),
                host("6.1", 0, "4.2", true, "9.0.0"), host("6.1", 0, "8.2", false, "9.0.0"), host("6.1", 0, "8.2", null, "9.0.0"),
                host("6.1", 0, "8.2", true, "6.2.0"), host("6.1", 0, "7.1.1", true, "9.0.0"), host("5.4", 0, "8.2", true, "9.0.0"),
                new HostFacts(HOST, null, null, null, null, null), new HostFacts(HOST, g.kernel(), 0, null, true, g.libvirt()));
        List<VolumeFacts> volumes = List.of(nativeOk(), nativeSparse(), volume("LocalStorage", "qcow2", "full", "writeback"),
                volume("NFS", "raw", "falloc", "none"), measured("LocalStorage", "qcow2", "full", 10 * GIB, GIB),
                volume("SharedBlock", "raw", "none", "writethrough"));
        for (DecisionPolicy p : List.of(FALLBACK, FAIL)) {
            for (VolumeFacts v : volumes) {
                unsatisfied.add(decide(RequestedIoMode.NATIVE, v, null, p));
                for (HostFacts h : hosts) {
                    unsatisfied.add(decide(RequestedIoMode.IO_URING, v, h, p));
                    unsatisfied.add(decide(RequestedIoMode.AUTO, v, h, p));
                }
                unsatisfied.add(decide(RequestedIoMode.IO_URING, v, null, p));
            }
        }
        int withFailure = 0;
        for (IoModeDecision d : unsatisfied) {
            assertThat(isOneSentence(d.reason())).as("one sentence: %s", d.reason()).isTrue();
            IoMode requested = d.requested().mode();
            IoMode looked = requested != null ? requested : IoMode.IO_URING; // auto explains why the best mode was not taken
            Check failed = d.firstFailure(looked);
            if (failed != null) {
                withFailure++;
                assertThat(d.reason()).as(d.reason()).contains("check " + failed.check()).contains(failed.message());
            }
        }
        assertThat(withFailure).isGreaterThan(unsatisfied.size() / 2);
    }

    @Test
    void oneSentenceHelperIsStrictEnough() {
        assertThat(isOneSentence("QEMU 7.2.0 is at least 5.0.")).isTrue();
        assertThat(isOneSentence("kernel.io_uring_disabled is 0: io_uring is enabled.")).isTrue();
        assertThat(isOneSentence("version is unknown. Reconnect the host.")).isFalse();
        assertThat(isOneSentence("no full stop")).isFalse();
        assertThat(isOneSentence("double stop..")).isFalse();
    }
}
