package org.zstack.aio.decision;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.MethodSource;

import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;
import static org.zstack.aio.decision.Facts.*;

/** docs/contract.md, "The decision", item 2: io_uring needs kernel >= 5.1, io_uring_disabled 0/absent, QEMU >= 5.0 with io_uring, libvirt >= 6.3.0. */
class IoUringChecksTest {

    private static final VolumeFacts FILE_VOLUME = volume("LocalStorage", "qcow2", "none", "none");

    private static IoModeDecision ioUring(HostFacts h) {
        return decide(RequestedIoMode.IO_URING, FILE_VOLUME, h, FAIL);
    }

    @Test
    void goodHostPassesEveryCheck() {
        IoModeDecision d = ioUring(goodHost());
        assertThat(checksOf(d, "io_uring")).extracting(Check::check).containsExactly(
                "kernel-version", "io_uring-sysctl", "qemu-version", "qemu-io_uring-support", "libvirt-version");
        assertThat(checksOf(d, "io_uring")).allMatch(Check::passed);
        assertThat(d.effectiveWire()).isEqualTo("io_uring");
        assertThat(d.refused()).isFalse();
        assertThat(d.reason()).contains("all its checks passed");
    }

    /** One host fact changed from the good host; the check it should affect; whether that check passes. */
    static Stream<Arguments> oneFactAtATime() {
        HostFacts g = goodHost();
        return Stream.of(
                Arguments.of("kernel 5.0", new HostFacts(HOST, Version.parse("5.0"), 0, g.qemu(), true, g.libvirt()), "kernel-version", false),
                Arguments.of("kernel 5.1", new HostFacts(HOST, Version.parse("5.1"), 0, g.qemu(), true, g.libvirt()), "kernel-version", true),
                Arguments.of("kernel 4.19.0-el8", new HostFacts(HOST, Version.parse("4.19.0-el8"), 0, g.qemu(), true, g.libvirt()), "kernel-version", false),
                Arguments.of("kernel unknown", new HostFacts(HOST, null, 0, g.qemu(), true, g.libvirt()), "kernel-version", false),
                Arguments.of("io_uring_disabled absent", new HostFacts(HOST, g.kernel(), null, g.qemu(), true, g.libvirt()), "io_uring-sysctl", true),
                Arguments.of("io_uring_disabled 0", new HostFacts(HOST, g.kernel(), 0, g.qemu(), true, g.libvirt()), "io_uring-sysctl", true),
                Arguments.of("io_uring_disabled 1", new HostFacts(HOST, g.kernel(), 1, g.qemu(), true, g.libvirt()), "io_uring-sysctl", false),
                Arguments.of("io_uring_disabled 2", new HostFacts(HOST, g.kernel(), 2, g.qemu(), true, g.libvirt()), "io_uring-sysctl", false),
                Arguments.of("qemu 4.2", new HostFacts(HOST, g.kernel(), 0, Version.parse("4.2"), true, g.libvirt()), "qemu-version", false),
                // 5.0 meets minQemu but the known-bad row qemu-before-6.1-io_uring refuses it (KnownBadRowsTest); 6.1 is clean
                Arguments.of("qemu 6.1", new HostFacts(HOST, g.kernel(), 0, Version.parse("6.1"), true, g.libvirt()), "qemu-version", true),
                Arguments.of("qemu unknown", new HostFacts(HOST, g.kernel(), 0, null, true, g.libvirt()), "qemu-version", false),
                Arguments.of("qemu io_uring true", new HostFacts(HOST, g.kernel(), 0, g.qemu(), true, g.libvirt()), "qemu-io_uring-support", true),
                Arguments.of("qemu io_uring false", new HostFacts(HOST, g.kernel(), 0, g.qemu(), false, g.libvirt()), "qemu-io_uring-support", false),
                Arguments.of("qemu io_uring not probed", new HostFacts(HOST, g.kernel(), 0, g.qemu(), null, g.libvirt()), "qemu-io_uring-support", false),
                Arguments.of("libvirt 6.2.0", new HostFacts(HOST, g.kernel(), 0, g.qemu(), true, Version.parse("6.2.0")), "libvirt-version", false),
                Arguments.of("libvirt 6.3.0", new HostFacts(HOST, g.kernel(), 0, g.qemu(), true, Version.parse("6.3.0")), "libvirt-version", true),
                Arguments.of("libvirt unknown", new HostFacts(HOST, g.kernel(), 0, g.qemu(), true, null), "libvirt-version", false));
    }

    @ParameterizedTest(name = "{0}: {2} passes={3}")
    @MethodSource("oneFactAtATime")
    void eachHostFactIsCheckedOnItsOwn(String label, HostFacts h, String checkName, boolean passes) {
        IoModeDecision d = ioUring(h);

        assertThat(check(d, "io_uring", checkName).passed()).isEqualTo(passes);
        // every other io_uring check still passes: exactly one fact was changed (an old QEMU also trips the
        // known-bad row qemu-before-6.1-io_uring, an old kernel kernel-before-5.13-io_uring: KnownBadRowsTest)
        List<String> versionRows = List.of("known-bad:qemu-before-6.1-io_uring", "known-bad:kernel-before-5.13-io_uring");
        assertThat(failedNames(d, "io_uring").stream().filter(n -> !versionRows.contains(n)))
                .isEqualTo(passes ? List.of() : List.of(checkName));
        // kernel 5.1 passes kernel-version but still refuses io_uring, on its known-bad row
        boolean rowFired = failedNames(d, "io_uring").stream().anyMatch(versionRows::contains);
        assertThat(d.refused()).isEqualTo(!passes || rowFired);
        assertThat(d.effectiveWire()).isEqualTo(passes && !rowFired ? "io_uring" : null);
        if (!passes) assertThat(d.reason()).contains(checkName).contains(check(d, "io_uring", checkName).message());
    }

    @ParameterizedTest
    @CsvSource({"kernel-version,5.0,host kernel", "qemu-version,4.2,QEMU", "libvirt-version,6.2.0,libvirt"})
    void anOldVersionNamesWhatWasFoundWhatIsNeededAndWhatToUpgrade(String checkName, String old, String what) {
        HostFacts g = goodHost();
        HostFacts h = switch (checkName) {
            case "kernel-version" -> new HostFacts(HOST, Version.parse(old), 0, g.qemu(), true, g.libvirt());
            case "qemu-version" -> new HostFacts(HOST, g.kernel(), 0, Version.parse(old), true, g.libvirt());
            default -> new HostFacts(HOST, g.kernel(), 0, g.qemu(), true, Version.parse(old));
        };
        String need = switch (checkName) {
            case "kernel-version" -> RULES.minKernel().toString();
            case "qemu-version" -> RULES.minQemu().toString();
            default -> RULES.minLibvirt().toString();
        };
        String msg = check(ioUring(h), "io_uring", checkName).message();
        assertThat(msg).contains(what + " " + old).contains("older than " + need).contains("upgrade " + what);
    }

    @ParameterizedTest
    @CsvSource({"1,io_uring_group", "2,every process"})
    void sysctlMessageSaysWhatTheValueMeansAndHowToFixIt(int value, String meaning) {
        HostFacts g = goodHost();
        String msg = check(ioUring(new HostFacts(HOST, g.kernel(), value, g.qemu(), true, g.libvirt())),
                "io_uring", "io_uring-sysctl").message();
        assertThat(msg).contains("is " + value).contains(meaning).contains("set it to 0");
    }

    @Test
    void everyFailingFactIsReportedNotOnlyTheFirst() {
        IoModeDecision d = ioUring(host("4.19", 2, "4.2", false, "6.0.0"));
        assertThat(failedNames(d, "io_uring")).containsExactly(
                "kernel-version", "io_uring-sysctl", "qemu-version", "qemu-io_uring-support", "libvirt-version",
                "known-bad:qemu-before-6.1-io_uring", "known-bad:kernel-before-5.13-io_uring");
        assertThat(d.reason()).contains("kernel-version");
    }

    @Test
    void unknownHostFailsWithOneCheckSayingSo() {
        IoModeDecision d = ioUring(null);
        assertThat(checksOf(d, "io_uring")).extracting(Check::check).containsExactly("host-facts");
        assertThat(check(d, "io_uring", "host-facts").passed()).isFalse();
        assertThat(check(d, "io_uring", "host-facts").message()).contains("no known host");
        assertThat(d.refused()).isTrue();
        assertThat(d.hostUuid()).isNull();
        assertThat(d.reason()).contains("host-facts");
    }

    @Test
    void thresholdsAreData() {
        IoModeRules stricter = new IoModeRules(RULES.storageTypes(), RULES.nativeCacheModes(), RULES.nonSparsePreallocations(),
                Version.parse("6.7"), RULES.minQemu(), RULES.minLibvirt(), RULES.preference(), RULES.knownBad());
        IoModeDecision d = new IoModeDecider(stricter).decide(in(RequestedIoMode.IO_URING, FILE_VOLUME, goodHost(), FAIL));
        assertThat(failedNames(d, "io_uring")).containsExactly("kernel-version");
        assertThat(check(d, "io_uring", "kernel-version").message()).contains("older than 6.7");
    }

    // ---- known-bad combinations from conf/aio/io-mode-rules.yaml ----------------------------------------

    @ParameterizedTest
    @CsvSource({"7.1.0,false", "7.1.5,false", "7.1,false", "7.0.0,true", "7.2.0,true", "7.0.99,true", "8.0.0,true"})
    void qemu71WithIoUringIsKnownBad(String qemu, boolean passes) {
        HostFacts g = goodHost();
        for (VolumeFacts v : List.of(FILE_VOLUME, volume("NFS", "raw", "full", "none"))) {
            IoModeDecision d = decide(RequestedIoMode.IO_URING, v, new HostFacts(HOST, g.kernel(), 0, Version.parse(qemu), true, g.libvirt()), FAIL);
            assertThat(failedNames(d, "io_uring")).isEqualTo(passes ? List.of() : List.of("known-bad:qemu-7.1-io_uring-hang"));
            assertThat(d.effectiveWire()).isEqualTo(passes ? "io_uring" : null);
            if (!passes) {
                assertThat(check(d, "io_uring", "known-bad:qemu-7.1-io_uring-hang").message()).contains("QEMU 7.1").contains("7.2");
                assertThat(d.reason()).contains("known-bad:qemu-7.1-io_uring-hang");
            }
        }
    }

    @ParameterizedTest(name = "{0} kernel {1} -> passes={2}")
    @CsvSource({
            "SharedBlock,5.13,false", "SharedBlock,5.15.0-150-generic,false", "SharedBlock,6.1.0,false",
            "LocalStorage,5.13,true", "NFS,6.1.0,true", "SharedMountPoint,5.15,true"})
    void ioUringOnBlockStorageIsKnownBadOnEveryKernel(String type, String kernel, boolean passes) {
        HostFacts g = goodHost();
        VolumeFacts v = volume(type, "raw", "full", "none");
        IoModeDecision d = decide(RequestedIoMode.IO_URING, v, new HostFacts(HOST, Version.parse(kernel), 0, g.qemu(), true, g.libvirt()), FAIL);
        assertThat(failedNames(d, "io_uring")).isEqualTo(passes ? List.of() : List.of("known-bad:lvm-io_uring"));
        assertThat(d.effectiveWire()).isEqualTo(passes ? "io_uring" : null);
        if (!passes) assertThat(check(d, "io_uring", "known-bad:lvm-io_uring").message()).contains("LVM").contains("78a3ada7");
    }

    @Test
    void knownBadOnBlockFallsBackToNative() {
        HostFacts g = goodHost();
        IoModeDecision d = decide(RequestedIoMode.IO_URING, nativeOk(),
                new HostFacts(HOST, Version.parse("5.15.0-150-generic"), 0, g.qemu(), true, g.libvirt()), FALLBACK);
        assertThat(d.effectiveWire()).isEqualTo("native");
        assertThat(d.reason()).contains("fell back to native").contains("known-bad:lvm-io_uring");
    }

    @Test
    void bothKnownBadRulesAreReportedWhenBothMatch() {
        HostFacts g = goodHost();
        IoModeDecision d = decide(RequestedIoMode.IO_URING, nativeOk(),
                new HostFacts(HOST, Version.parse("5.15"), 0, Version.parse("7.1.2"), true, g.libvirt()), FAIL);
        assertThat(failedNames(d, "io_uring")).containsExactly("known-bad:qemu-7.1-io_uring-hang", "known-bad:lvm-io_uring");
    }

    @Test
    void aKnownBadRuleNeedsAllItsConditionsAndCanTargetNative() {
        KnownBadRule rule = new KnownBadRule("old-libvirt-native-on-nfs", IoMode.NATIVE, Set.of(StorageKind.FILE), null, null,
                new VersionRange(null, Version.parse("7.0.0")), "native on file storage misbehaves with this libvirt");
        IoModeRules rules = new IoModeRules(Map.of("NFS", StorageKind.FILE, "SharedBlock", StorageKind.BLOCK),
                RULES.nativeCacheModes(), RULES.nonSparsePreallocations(), RULES.minKernel(), RULES.minQemu(), RULES.minLibvirt(),
                RULES.preference(), List.of(rule));
        IoModeDecider decider = new IoModeDecider(rules);
        VolumeFacts nfsFull = volume("NFS", "qcow2", "full", "none");
        HostFacts g = goodHost();
        HostFacts oldLibvirt = new HostFacts(HOST, g.kernel(), 0, g.qemu(), true, Version.parse("6.10.0"));

        IoModeDecision matched = decider.decide(in(RequestedIoMode.NATIVE, nfsFull, oldLibvirt, FAIL));
        assertThat(failedNames(matched, "native")).containsExactly("known-bad:old-libvirt-native-on-nfs");
        assertThat(check(matched, "native", "known-bad:old-libvirt-native-on-nfs").message())
                .isEqualTo("native on file storage misbehaves with this libvirt.");

        // storage kind does not match
        assertThat(decider.decide(in(RequestedIoMode.NATIVE, nativeOk(), oldLibvirt, FAIL)).effectiveWire()).isEqualTo("native");
        // libvirt outside the range
        assertThat(decider.decide(in(RequestedIoMode.NATIVE, nfsFull, g, FAIL)).effectiveWire()).isEqualTo("native");
        // a version condition cannot match an unknown host or unknown version
        assertThat(decider.decide(in(RequestedIoMode.NATIVE, nfsFull, null, FAIL)).effectiveWire()).isEqualTo("native");
        assertThat(decider.decide(in(RequestedIoMode.NATIVE, nfsFull,
                new HostFacts(HOST, g.kernel(), 0, g.qemu(), true, null), FAIL)).effectiveWire()).isEqualTo("native");
        // the rule is for native only: io_uring on the same host and volume is not touched by it
        IoModeDecision ioUring = decider.decide(in(RequestedIoMode.IO_URING, nfsFull, oldLibvirt, FAIL));
        assertThat(ioUring.effectiveWire()).isEqualTo("io_uring");
        assertThat(ioUring.checks()).noneMatch(c -> c.check().startsWith("known-bad:"));
    }

    @Test
    void versionRangeIsMinInclusiveBelowExclusive() {
        VersionRange r = new VersionRange(Version.parse("7.1.0"), Version.parse("7.2.0"));
        assertThat(r.contains(Version.parse("7.1.0"))).isTrue();
        assertThat(r.contains(Version.parse("7.1.9"))).isTrue();
        assertThat(r.contains(Version.parse("7.2.0"))).isFalse();
        assertThat(r.contains(Version.parse("7.0.9"))).isFalse();
        assertThat(r.contains(null)).isFalse();
        assertThat(new VersionRange(null, null).contains(Version.parse("1"))).isTrue();
        assertThat(new VersionRange(null, Version.parse("2")).contains(Version.parse("1.9"))).isTrue();
        assertThat(new VersionRange(Version.parse("2"), null).contains(Version.parse("1.9"))).isFalse();
    }
}
