package org.zstack.aio.decision;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

import java.util.List;
import java.util.function.UnaryOperator;
import java.util.stream.Collectors;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;
import static org.zstack.aio.decision.Facts.*;

/**
 * Issue 14, item 4: every known-bad row shipped in conf/aio/io-mode-rules.yaml, each with a case where it fires and
 * cases one condition away where it does not. The rows are data; this table is what says each one still means what
 * its source reported.
 */
class KnownBadRowsTest {

    /** A file volume and host on which no known-bad row fires: the baseline each case changes one or two facts of. */
    private static VolumeFacts vol() {
        return volume("NFS", "raw", "full", "none").withFilesystem("ext4").withLoopBacked(false);
    }

    private static HostFacts host() {
        return goodHost().withProbe(HostFacts.QEMU_LIBURING, "liburing.so.2").withProbe(HostFacts.QEMU_LINUX_AIO, "true")
                .withProbe(HostFacts.AIO_FREE, "64512").withProbe(HostFacts.KERNEL_RELEASE, "6.1.0-27-amd64")
                .withProbe(HostFacts.IO_URING_SETUP, "ok").withProbe(HostFacts.PROCESS_SECCOMP, "disabled");
    }

    private static HostFacts qemu(HostFacts h, String v) {
        return new HostFacts(h.hostUuid(), h.kernel(), h.ioUringDisabled(), Version.parse(v), h.qemuIoUring(), h.libvirt(), h.probes());
    }

    private static HostFacts kernel(HostFacts h, String v) {
        return new HostFacts(h.hostUuid(), Version.parse(v), h.ioUringDisabled(), h.qemu(), h.qemuIoUring(), h.libvirt(), h.probes());
    }

    private static Arguments row(String rule, String mode, boolean fires, UnaryOperator<VolumeFacts> v, UnaryOperator<HostFacts> h) {
        return Arguments.of(rule, mode, fires, v.apply(vol()), h.apply(host()));
    }

    static Stream<Arguments> rows() {
        UnaryOperator<VolumeFacts> sameV = v -> v;
        UnaryOperator<HostFacts> sameH = h -> h;
        return Stream.of(
                row("lvm-io_uring", "io_uring", true, v -> volume("SharedBlock", "raw", "none", "none"), sameH),
                row("lvm-io_uring", "io_uring", true, v -> volume("SharedBlock", "raw", "none", "writeback"), sameH),
                row("lvm-io_uring", "io_uring", false, sameV, sameH),
                row("cifs-io_uring-kernel-5.15", "io_uring", true, v -> v.withFilesystem("cifs"), h -> kernel(h, "5.15")),
                row("cifs-io_uring-kernel-5.15", "io_uring", true, v -> v.withFilesystem("smb3"), h -> kernel(h, "6.8.0-45-generic")),
                row("cifs-io_uring-kernel-5.15", "io_uring", false, v -> v.withFilesystem("cifs"), h -> kernel(h, "5.14.21")),
                row("cifs-io_uring-kernel-5.15", "io_uring", false, v -> v.withFilesystem("nfs4"), h -> kernel(h, "6.8")),
                row("btrfs-native-odirect", "native", true, v -> v.withFilesystem("btrfs"), sameH),
                row("btrfs-native-odirect", "native", true, v -> v.withFilesystem("btrfs").withCacheMode("directsync"), sameH),
                row("btrfs-native-odirect", "native", false, v -> v.withFilesystem("xfs"), sameH),
                // writeback is no O_DIRECT: the row does not fire (native is refused by its cache-mode check instead)
                row("btrfs-native-odirect", "native", false, v -> v.withFilesystem("btrfs").withCacheMode("writeback"), sameH),
                row("btrfs-io_uring-odirect", "io_uring", true, v -> v.withFilesystem("btrfs"), sameH),
                row("btrfs-io_uring-odirect", "io_uring", false, v -> v.withFilesystem("btrfs").withCacheMode("writethrough"), sameH),
                row("qemu-5.0-7.0-io_uring-btrfs", "io_uring", true, v -> v.withFilesystem("btrfs"), h -> qemu(h, "7.0.0")),
                row("qemu-5.0-7.0-io_uring-btrfs", "io_uring", true, v -> v.withFilesystem("btrfs").withCacheMode("writeback"), h -> qemu(h, "6.2.0")),
                row("qemu-5.0-7.0-io_uring-btrfs", "io_uring", false, v -> v.withFilesystem("btrfs"), h -> qemu(h, "7.1.0")),
                row("qemu-5.0-7.0-io_uring-btrfs", "io_uring", false, v -> v.withFilesystem("ext4"), h -> qemu(h, "6.2.0")),
                row("qemu-before-6.1-io_uring", "io_uring", true, sameV, h -> qemu(h, "6.0.0")),
                row("qemu-before-6.1-io_uring", "io_uring", true, sameV, h -> qemu(h, "5.2")),
                row("qemu-before-6.1-io_uring", "io_uring", false, sameV, h -> qemu(h, "6.1.0")),
                row("liburing.so.1-io_uring", "io_uring", true, sameV, h -> h.withProbe(HostFacts.QEMU_LIBURING, "liburing.so.1")),
                row("liburing.so.1-io_uring", "io_uring", false, sameV, h -> h.withProbe(HostFacts.QEMU_LIBURING, "liburing.so.2")),
                row("liburing.so.1-io_uring", "io_uring", false, sameV, h -> h.withProbe(HostFacts.QEMU_LIBURING, null)),
                row("aio-max-nr-exhausted", "native", true, sameV, h -> h.withProbe(HostFacts.AIO_FREE, "1023")),
                row("aio-max-nr-exhausted", "native", true, v -> volume("SharedBlock", "raw", "none", "none"), h -> h.withProbe(HostFacts.AIO_FREE, "0")),
                row("aio-max-nr-exhausted", "native", false, sameV, h -> h.withProbe(HostFacts.AIO_FREE, "1024")),
                row("aio-max-nr-exhausted", "native", false, sameV, h -> h.withProbe(HostFacts.AIO_FREE, "not-a-number")),
                row("aio-max-nr-exhausted", "native", false, sameV, h -> h.withProbe(HostFacts.AIO_FREE, null)),
                row("qemu-without-linux-aio", "native", true, sameV, h -> h.withProbe(HostFacts.QEMU_LINUX_AIO, "false")),
                row("qemu-without-linux-aio", "native", false, sameV, h -> h.withProbe(HostFacts.QEMU_LINUX_AIO, "true")),
                row("qemu-without-linux-aio", "native", false, sameV, h -> h.withProbe(HostFacts.QEMU_LINUX_AIO, null)),
                // issue 27: RHEL 9 and its rebuilds, io_uring off unless the sysctl is reported 0
                row("el9-io_uring-off-by-default", "io_uring", true, sameV, h -> disabled(el9(h), 2)),
                row("el9-io_uring-off-by-default", "io_uring", true, sameV, h -> disabled(el9(h), null)),
                row("el9-io_uring-off-by-default", "io_uring", true, sameV,
                        h -> disabled(h, null).withProbe(HostFacts.KERNEL_RELEASE, "5.14.0-70.13.1.el9_0.x86_64")),
                row("el9-io_uring-off-by-default", "io_uring", false, sameV, h -> disabled(el9(h), 0)),
                row("el9-io_uring-off-by-default", "io_uring", false, sameV,
                        h -> disabled(h, null).withProbe(HostFacts.KERNEL_RELEASE, "4.18.0-513.el8.x86_64")),
                row("el9-io_uring-off-by-default", "io_uring", false, sameV,
                        h -> disabled(h, null).withProbe(HostFacts.KERNEL_RELEASE, "6.8.0-45-generic")),
                row("el9-io_uring-off-by-default", "io_uring", false, sameV, h -> disabled(h, null)),
                row("zfs-io_uring", "io_uring", true, v -> v.withFilesystem("zfs"), sameH),
                row("zfs-io_uring", "io_uring", true, v -> v.withFilesystem("zfs").withCacheMode("writeback"), sameH),
                row("zfs-io_uring", "io_uring", false, v -> v.withFilesystem("xfs"), sameH),
                row("zfs-io_uring", "io_uring", false, v -> v.withFilesystem(null), sameH),
                row("zfs-io_uring", "native", false, v -> v.withFilesystem("zfs"), sameH),
                row("loop-io_uring", "io_uring", true, v -> v.withLoopBacked(true), sameH),
                row("loop-io_uring", "io_uring", true, v -> v.withFilesystem("btrfs").withCacheMode("writeback").withLoopBacked(true), sameH),
                row("loop-io_uring", "io_uring", false, v -> v.withLoopBacked(false), sameH),
                row("loop-io_uring", "io_uring", false, v -> v.withLoopBacked(null), sameH),
                row("loop-io_uring", "native", false, v -> v.withLoopBacked(true), sameH),
                row("kernel-before-5.13-io_uring", "io_uring", true, sameV, h -> kernel(h, "5.12.19")),
                row("kernel-before-5.13-io_uring", "io_uring", true, sameV, h -> kernel(h, "5.4.0-150-generic")),
                row("kernel-before-5.13-io_uring", "io_uring", false, sameV, h -> kernel(h, "5.13")),
                row("kernel-before-5.13-io_uring", "io_uring", false, sameV, h -> kernel(h, "5.14.0-427.el9_4")),
                row("qemu-10.2-io_uring-unavailable", "io_uring", true, sameV, h -> setup(qemu(h, "10.2.0"), "EPERM")),
                row("qemu-10.2-io_uring-unavailable", "io_uring", true, sameV, h -> setup(qemu(h, "11.0"), "ENOMEM")),
                row("qemu-10.2-io_uring-unavailable", "io_uring", false, sameV, h -> setup(qemu(h, "10.2.0"), "ok")),
                row("qemu-10.2-io_uring-unavailable", "io_uring", false, sameV, h -> setup(qemu(h, "10.2.0"), null)),
                // 10.1 falls back to threads instead: the agent's qemu-img probe catches that (qemu-io_uring-support)
                row("qemu-10.2-io_uring-unavailable", "io_uring", false, sameV, h -> setup(qemu(h, "10.1.2"), "EPERM")),
                row("seccomp-io_uring", "io_uring", true, sameV, h -> seccomp(setup(h, "EPERM"), "filter")),
                row("seccomp-io_uring", "io_uring", true, sameV, h -> seccomp(setup(disabled(h, null), "ENOSYS"), "filter")),
                row("seccomp-io_uring", "io_uring", false, sameV, h -> seccomp(setup(h, "ok"), "filter")),
                row("seccomp-io_uring", "io_uring", false, sameV, h -> seccomp(setup(h, "EPERM"), "disabled")),
                row("seccomp-io_uring", "io_uring", false, sameV, h -> seccomp(setup(h, "EPERM"), null)),
                row("seccomp-io_uring", "io_uring", false, sameV, h -> seccomp(setup(h, null), "filter")),
                // EPERM with the sysctl at 2 is the sysctl's doing (its own check says so), not the filter's
                row("seccomp-io_uring", "io_uring", false, sameV, h -> seccomp(setup(disabled(h, 2), "EPERM"), "filter")));
    }

    private static HostFacts el9(HostFacts h) {
        return h.withProbe(HostFacts.KERNEL_RELEASE, "5.14.0-427.13.1.el9_4.x86_64");
    }

    private static HostFacts disabled(HostFacts h, Integer ioUringDisabled) {
        return new HostFacts(h.hostUuid(), h.kernel(), ioUringDisabled, h.qemu(), h.qemuIoUring(), h.libvirt(), h.probes());
    }

    private static HostFacts setup(HostFacts h, String result) {
        return h.withProbe(HostFacts.IO_URING_SETUP, result);
    }

    private static HostFacts seccomp(HostFacts h, String mode) {
        return h.withProbe(HostFacts.PROCESS_SECCOMP, mode);
    }

    @ParameterizedTest(name = "{0} on {1} fires={2}")
    @MethodSource("rows")
    void eachRowFiresOnItsConditionsOnly(String rule, String mode, boolean fires, VolumeFacts v, HostFacts h) {
        IoModeDecision d = decide(RequestedIoMode.fromWire(mode), v, h, FAIL);
        List<String> failed = failedNames(d, mode);
        if (fires) {
            assertThat(failed).contains("known-bad:" + rule);
            Check c = check(d, mode, "known-bad:" + rule);
            KnownBadRule r = RULES.knownBad().stream().filter(k -> k.id().equals(rule)).findFirst().orElseThrow();
            // the check names what went wrong and where it was reported, so an operator can follow it up
            assertThat(c.message()).startsWith(r.message()).contains("(source: " + r.source() + ")");
            assertThat(d.effectiveWire()).isNull();
        } else {
            assertThat(failed).doesNotContain("known-bad:" + rule);
        }
    }

    @Test
    void theBaselineHostAndVolumeTripNoRow() {
        for (String mode : List.of("native", "io_uring")) {
            IoModeDecision d = decide(RequestedIoMode.fromWire(mode), vol(), host(), FAIL);
            assertThat(failedNames(d, mode)).isEmpty();
            assertThat(d.effectiveWire()).isEqualTo(mode);
        }
    }

    @Test
    void everyShippedRowHasACaseThatFiresAndOneThatDoesNot() {
        List<String> shipped = RULES.knownBad().stream().map(KnownBadRule::id).collect(Collectors.toList());
        List<Arguments> all = rows().collect(Collectors.toList());
        for (String id : shipped) {
            if (id.equals("qemu-7.1-io_uring-hang")) continue; // IoUringChecksTest.qemu71WithIoUringIsKnownBad
            assertThat(all).as(id + " fires somewhere").anyMatch(a -> a.get()[0].equals(id) && (boolean) a.get()[2]);
            assertThat(all).as(id + " stays quiet somewhere").anyMatch(a -> a.get()[0].equals(id) && !(boolean) a.get()[2]);
        }
    }

    @Test
    void autoStepsAroundAFiringRow() {
        // io_uring preferred, but liburing.so.1 refuses it: auto takes native, whose checks pass
        IoModeDecision d = decide(RequestedIoMode.AUTO, vol(), host().withProbe(HostFacts.QEMU_LIBURING, "liburing.so.1"), FALLBACK);
        assertThat(d.effectiveWire()).isEqualTo("native");
        // and with the AIO events exhausted too, threads
        IoModeDecision t = decide(RequestedIoMode.AUTO, vol(), host().withProbe(HostFacts.QEMU_LIBURING, "liburing.so.1")
                .withProbe(HostFacts.AIO_FREE, "12"), FALLBACK);
        assertThat(t.effectiveWire()).isEqualTo("threads");
    }
}
