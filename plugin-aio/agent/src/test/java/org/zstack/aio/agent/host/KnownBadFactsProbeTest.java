package org.zstack.aio.agent.host;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.zstack.aio.agent.process.ProcessResult;
import org.zstack.aio.agent.process.ProcessRunner;
import org.zstack.aio.decision.CheckResult;
import org.zstack.aio.decision.DecisionPolicy;
import org.zstack.aio.decision.HostFacts;
import org.zstack.aio.decision.IoMode;
import org.zstack.aio.decision.IoModeDecider;
import org.zstack.aio.decision.OnUnsatisfied;
import org.zstack.aio.decision.Version;
import org.zstack.aio.decision.VolumeFacts;
import org.zstack.aio.decision.rules.IoModeRulesLoader;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/** Issue 14, item 4: the facts the known-bad rows need, probed on this real host. */
class KnownBadFactsProbeTest {

    private static final Path PROC_SYS = Path.of("/proc/sys");
    private final ProcessRunner runner = new ProcessRunner(Duration.ofSeconds(20));
    private final KnownBadFactsProbe probe = new KnownBadFactsProbe(runner, PROC_SYS);

    @Test
    void aioFreeIsMaxMinusNrAsTheKernelReportsThem() throws IOException {
        long max = Long.parseLong(Files.readAllLines(PROC_SYS.resolve("fs/aio-max-nr")).get(0).strip());
        long nr = Long.parseLong(Files.readAllLines(PROC_SYS.resolve("fs/aio-nr")).get(0).strip());
        Long free = probe.aioFree();
        assertThat(free).isNotNull();
        // aio-nr moves while other processes set up contexts: allow the two reads to straddle one io_setup
        assertThat(free).isBetween(max - nr - 65536, max - nr + 65536).isLessThanOrEqualTo(max);
    }

    /**
     * The aio-max-nr row for real: lower fs.aio-max-nr on this host until fewer than 1024 events are left, probe,
     * decide, and restore the old value whatever happens (needs root; the window is a few milliseconds).
     */
    @Test
    void loweringAioMaxNrOnThisHostMakesNativeKnownBad() throws IOException {
        Path maxFile = PROC_SYS.resolve("fs/aio-max-nr");
        assumeTrue(Files.isWritable(maxFile) || "true".equals(System.getenv("CI")), "needs root to write " + maxFile);
        String old = Files.readAllLines(maxFile).get(0).strip();
        assertThat(old).as("fs.aio-max-nr before the test").matches("\\d+");
        IoModeDecider decider = new IoModeDecider(IoModeRulesLoader.fromClasspath());
        VolumeFacts v = new VolumeFacts("v", "NFS", "raw", "full", 1L << 30, null, "none");
        HostFacts base = new HostFacts("h", Version.parse("6.8"), 0, Version.parse("8.2.0"), true, Version.parse("10.0.0"));
        Map<String, String> lowered;
        try {
            long nr = Long.parseLong(Files.readAllLines(PROC_SYS.resolve("fs/aio-nr")).get(0).strip());
            // sysctl(8) writes the knob the way an operator would; the finally below always puts the old value back
            assertThat(runner.run(List.of("sysctl", "-q", "-w", "fs.aio-max-nr=" + (nr + 100))).ok()).isTrue();
            lowered = probe.probe(true, null);
        } finally {
            runner.run(List.of("sysctl", "-q", "-w", "fs.aio-max-nr=" + old));
        }
        assertThat(Files.readAllLines(maxFile).get(0).strip()).isEqualTo(old);
        assertThat(Long.parseLong(lowered.get(HostFacts.AIO_FREE))).isLessThan(1024);
        CheckResult refused = decider.check(IoMode.NATIVE, v, withProbes(base, lowered), new DecisionPolicy(OnUnsatisfied.FAIL, false));
        assertThat(refused.passed()).isFalse();
        assertThat(refused.firstFailure().check()).isEqualTo("known-bad:aio-max-nr-exhausted");
        assertThat(refused.firstFailure().message()).contains("fs.aio-max-nr").contains("harvester");

        // restored: the same probe now leaves native alone
        Map<String, String> restored = probe.probe(true, null);
        assertThat(Long.parseLong(restored.get(HostFacts.AIO_FREE))).isGreaterThanOrEqualTo(1024);
        assertThat(decider.check(IoMode.NATIVE, v, withProbes(base, restored), new DecisionPolicy(OnUnsatisfied.FAIL, false)).passed())
                .isTrue();
    }

    private static HostFacts withProbes(HostFacts h, Map<String, String> probes) {
        return new HostFacts(h.hostUuid(), h.kernel(), h.ioUringDisabled(), h.qemu(), h.qemuIoUring(), h.libvirt(), probes);
    }

    @Test
    void qemuLiburingIsWhatTheLoaderResolves() {
        ProcessResult which = runner.run(List.of("sh", "-c", "command -v qemu-system-x86_64"));
        assumeTrue(which.ok() || "true".equals(System.getenv("CI")), "no qemu-system-x86_64 on PATH");
        ProcessResult ldd = runner.run(List.of("ldd", which.stdout().strip()));
        String expected = ldd.stdout().contains("liburing.so.2") ? "liburing.so.2"
                : ldd.stdout().contains("liburing.so.1") ? "liburing.so.1" : "none";
        assertThat(probe.qemuLiburing()).isEqualTo(expected);
    }

    @Test
    void linuxAioIsFalseOnlyOnQemusOwnWords() {
        assertThat(KnownBadFactsProbe.linuxAioBuilt(true, null)).isEqualTo("true");
        assertThat(KnownBadFactsProbe.linuxAioBuilt(false,
                "qemu-img refused aio=native on /x: aio=native was specified, but is not supported in this build")).isEqualTo("false");
        assertThat(KnownBadFactsProbe.linuxAioBuilt(false, "O_DIRECT refused: Invalid argument")).isNull();
        assertThat(KnownBadFactsProbe.linuxAioBuilt(null, null)).isNull();
    }

    // ---- issue 27: the facts of the el9, loop, seccomp and QEMU 10.2 rows ----------------------------------

    @Test
    void kernelReleaseIsOsreleaseWithItsDistributionSuffix(@TempDir Path tmp) throws IOException {
        Files.createDirectories(tmp.resolve("kernel"));
        Files.writeString(tmp.resolve("kernel/osrelease"), "5.14.0-427.13.1.el9_4.x86_64\n");
        assertThat(new KnownBadFactsProbe(runner, tmp).kernelRelease())
                .isEqualTo("5.14.0-427.13.1.el9_4.x86_64");
        assertThat(new KnownBadFactsProbe(runner, tmp.resolve("absent")).kernelRelease()).isNull();
        // on this host: what uname -r prints
        ProcessResult uname = runner.run(List.of("uname", "-r"));
        assumeTrue(uname.ok());
        assertThat(probe.kernelRelease()).isEqualTo(uname.stdout().strip());
    }

    @Test
    void seccompIsTheStatusLineByName(@TempDir Path tmp) throws IOException {
        assertThat(seccompOf(tmp, "Name:\tjava\nSeccomp:\t2\nSeccomp_filters:\t1\n")).isEqualTo("filter");
        assertThat(seccompOf(tmp, "Seccomp:\t0\nSeccomp_filters:\t0\n")).isEqualTo("disabled");
        assertThat(seccompOf(tmp, "Seccomp:\t1\n")).isEqualTo("strict");
        assertThat(seccompOf(tmp, "Name:\tjava\n")).as("a kernel without the line").isNull();
        assertThat(seccompOf(tmp, "Seccomp:\t7\n")).as("a mode we do not know is no evidence").isNull();
        // this JVM, against /proc/self/status read here
        String line = Files.readAllLines(Path.of("/proc/self/status")).stream().filter(l -> l.startsWith("Seccomp:"))
                .findFirst().orElseThrow().substring(8).strip();
        assertThat(probe.seccomp()).isEqualTo(List.of("disabled", "strict", "filter").get(Integer.parseInt(line)));
    }

    private String seccompOf(Path tmp, String status) throws IOException {
        Path f = Files.writeString(tmp.resolve("status"), status);
        return new KnownBadFactsProbe(runner, PROC_SYS, f).seccomp();
    }

    @Test
    void ioUringSetupNamesTheErrno() {
        assertThat(IoUringSetup.errnoName(1)).isEqualTo("EPERM");
        assertThat(IoUringSetup.errnoName(38)).isEqualTo("ENOSYS");
        assertThat(IoUringSetup.errnoName(12)).isEqualTo("ENOMEM");
        assertThat(IoUringSetup.errnoName(95)).isEqualTo("E95");
    }

    /** On a host where nothing stops io_uring (sysctl 0 or absent, no seccomp filter), the real syscall succeeds. */
    @Test
    void ioUringSetupSucceedsWhereNothingStopsIt() throws IOException {
        Path knob = PROC_SYS.resolve("kernel/io_uring_disabled");
        String disabled = Files.exists(knob) ? Files.readAllLines(knob).get(0).strip() : "0";
        assumeTrue("0".equals(disabled) && "disabled".equals(probe.seccomp()), "io_uring is restricted on this host");
        assertThat(IoUringSetup.probe()).isEqualTo("ok");
        assertThat(probe.probe(true, null)).containsEntry(HostFacts.IO_URING_SETUP, "ok")
                .containsEntry(HostFacts.PROCESS_SECCOMP, "disabled").containsKey(HostFacts.KERNEL_RELEASE);
    }
}
