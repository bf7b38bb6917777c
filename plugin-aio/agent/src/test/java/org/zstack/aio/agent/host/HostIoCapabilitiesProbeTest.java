package org.zstack.aio.agent.host;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.libvirt.LibvirtException;
import org.zstack.aio.agent.api.HostConnectCmd;
import org.zstack.aio.agent.api.HostFactsRsp;
import org.zstack.aio.agent.libvirt.LibvirtHost;
import org.zstack.aio.agent.process.ProcessResult;
import org.zstack.aio.agent.process.ProcessRunner;
import org.zstack.aio.decision.HostFacts;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import org.junit.jupiter.api.Assumptions;

class HostIoCapabilitiesProbeTest {

    private static LibvirtHost libvirt;
    private final ProcessRunner runner = new ProcessRunner(Duration.ofSeconds(30));

    @BeforeAll
    static void open() throws LibvirtException {
        libvirt = new LibvirtHost("test:///default");
    }

    @AfterAll
    static void close() {
        libvirt.close();
    }

    @Test
    void aKernelWithoutTheIoUringKnobGivesNullNotZero() throws IOException {
        Path procSys = fakeProcSys("5.15.0-generic", null);
        HostFactsRsp f = new HostIoCapabilitiesProbe(runner, libvirt, procSys, StoragePathProbe.ofThisHost()).probe(new HostConnectCmd("h", null));

        assertThat(f.kernelVersion()).isEqualTo("5.15.0-generic");
        assertThat(f.probes()).containsEntry(HostFacts.KERNEL_RELEASE, "5.15.0-generic");
        assertThat(f.ioUringDisabled()).isNull();
        assertThat(f.hostname()).isEqualTo("fakehost");
    }

    @Test
    void theIoUringKnobIsReadAsANumber() throws IOException {
        Path procSys = fakeProcSys("6.6.0", "2");
        assertThat(new HostIoCapabilitiesProbe(runner, libvirt, procSys, StoragePathProbe.ofThisHost()).probe(null).ioUringDisabled()).isEqualTo(2);
    }

    @Test
    void aModeProbeOnAnUnusableDirectoryIsFalseWithTheReason() {
        HostIoCapabilitiesProbe probe = new HostIoCapabilitiesProbe(runner, libvirt);
        HostIoCapabilitiesProbe.ModeProbe p = probe.probeMode("io_uring", List.of(Path.of("/no/such/dir")));

        assertThat(p.accepted()).isFalse();
        assertThat(p.error()).contains("/no/such/dir", "cannot create a probe image");
    }

    @Test
    void aModeQemuDoesNotKnowIsRefusedWithQemusWords() throws IOException {
        HostIoCapabilitiesProbe probe = new HostIoCapabilitiesProbe(runner, libvirt);
        Assumptions.assumeTrue(runner.run(List.of("qemu-img", "--version")).ok());
        Path dir = Files.createTempDirectory(Path.of("target").toAbsolutePath(), "probe-");
        try {
            HostIoCapabilitiesProbe.ModeProbe p = probe.probeMode("posix_aio", List.of(dir));
            assertThat(p.accepted()).isFalse();
            assertThat(p.error()).contains("qemu-img refused aio=posix_aio", dir.toString());
            try (var files = Files.list(dir)) {
                assertThat(files).as("probe images are deleted").isEmpty();
            }
        } finally {
            Files.deleteIfExists(dir);
        }
    }

    @Test
    void versionsAreDottedLikeLibvirtPrintsThem() {
        assertThat(HostIoCapabilitiesProbe.dotted(9_000_000)).isEqualTo("9.0.0");
        assertThat(HostIoCapabilitiesProbe.dotted(7_002_022)).isEqualTo("7.2.22");
    }

    @Test
    void oDirectOnAMissingDirectoryIsFalseWithTheReason() {
        assertThat(new ODirectProbe().probe(Path.of("/no/such/dir")).error()).contains("not a directory");
    }

    /** QEMU 8.2 to 10.1 "open" with io_uring unavailable and warn; that is no proof of io_uring (issue 27). */
    @Test
    void aFallbackWarningIsARefusalInQemusWords() {
        List<String> cmd = List.of("qemu-img", "bench");
        String warning = "qemu-img: Unable to use linux io_uring, falling back to thread pool: failed to init linux"
                         + " io_uring ring: Operation not permitted";
        assertThat(HostIoCapabilitiesProbe.refusal(new ProcessResult(cmd, 0, "Sending 1 read requests", warning + "\n")))
                .isEqualTo(warning);
        assertThat(HostIoCapabilitiesProbe.refusal(new ProcessResult(cmd, 0, "Run completed in 0.001 seconds.", ""))).isNull();
        assertThat(HostIoCapabilitiesProbe.refusal(new ProcessResult(cmd, 1, "", "aio=io_uring was specified, but is not available")))
                .isEqualTo("aio=io_uring was specified, but is not available");
    }

    private static Path fakeProcSys(String osrelease, String ioUringDisabled) throws IOException {
        Path root = Files.createTempDirectory(Path.of("target").toAbsolutePath(), "procsys-");
        Files.createDirectories(root.resolve("kernel"));
        Files.writeString(root.resolve("kernel/osrelease"), osrelease + "\n");
        Files.writeString(root.resolve("kernel/hostname"), "fakehost\n");
        if (ioUringDisabled != null) {
            Files.writeString(root.resolve("kernel/io_uring_disabled"), ioUringDisabled + "\n");
        }
        root.toFile().deleteOnExit();
        return root;
    }
}
