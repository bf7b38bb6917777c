package org.zstack.aio.agent.vm;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.libvirt.LibvirtException;
import org.zstack.aio.agent.AgentSettings;
import org.zstack.aio.agent.KvmAgent;
import org.zstack.aio.agent.api.AgentError;
import org.zstack.aio.agent.api.AgentPaths;
import org.zstack.aio.agent.api.DiskResult;
import org.zstack.aio.agent.api.DiskTO;
import org.zstack.aio.agent.api.HostConnectCmd;
import org.zstack.aio.agent.api.HostFactsRsp;
import org.zstack.aio.agent.api.VmAttachVolumeCmd;
import org.zstack.aio.agent.api.VmStartCmd;
import org.zstack.aio.agent.api.VmStartRsp;
import org.zstack.aio.agent.api.VmStopCmd;
import org.zstack.aio.agent.api.VolumeCreateCmd;
import org.zstack.aio.agent.api.VolumeCreateRsp;
import org.zstack.aio.agent.libvirt.LibvirtHost;
import org.zstack.aio.agent.support.AgentClient;
import org.zstack.aio.agent.support.SystemLibvirt;
import org.zstack.aio.agent.support.TestAgents;
import org.zstack.aio.agent.support.QemuProcess;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.List;
import java.util.Set;
import java.util.UUID;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Against REAL libvirtd + QEMU (qemu:///system; start it with bin/lib/setup-libvirt.sh as root): every claim is
 * checked in the running QEMU process, not in what the agent answered. Skipped without a libvirt daemon,
 * except under CI=true, where a skip would hide that nothing was proven, so it fails instead.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class RealQemuIoModeTest {

    private static final String URI = "qemu:///system";
    private static final long MEM = 64L << 20;
    private static final long DISK = 16L << 20;

    private KvmAgent agent;
    private KvmAgent refusingAgent;
    private AgentClient client;
    private AgentClient refusing;
    private LibvirtHost libvirt;
    private Path workDir;

    @BeforeAll
    void requireRealLibvirt() throws IOException {
        // the socket is overridable only so the skip/fail rule itself can be checked without stopping a shared libvirtd
        libvirt = SystemLibvirt.connectOrSkip("the real QEMU tests");
        AgentSettings s = TestAgents.settings().withLibvirtUri(URI);
        agent = KvmAgent.start(s);
        refusingAgent = KvmAgent.start(s.withRefusedIoModes(Set.of("io_uring")).withDataDir(TestAgents.newDataDir()));
        client = new AgentClient(agent);
        refusing = new AgentClient(refusingAgent);
        // /var/tmp: a real disk file system (O_DIRECT, native AIO) that QEMU, running as root, can open
        workDir = Files.createTempDirectory(Path.of("/var/tmp"), "aio-real-qemu-");
        for (AgentClient c : List.of(client, refusing)) { // the storage root the agents may use
            assertThat(c.post(AgentPaths.HOST_CONNECT, new HostConnectCmd("h", List.of(workDir.toString()))).status())
                    .isEqualTo(200);
        }
    }

    @AfterAll
    void cleanUp() throws IOException {
        if (agent != null) {
            agent.close();
        }
        if (refusingAgent != null) {
            refusingAgent.close();
        }
        if (libvirt != null) {
            libvirt.close();
        }
        if (workDir != null) {
            try (Stream<Path> files = Files.walk(workDir)) {
                for (Path p : files.sorted(Comparator.reverseOrder()).toList()) {
                    Files.deleteIfExists(p);
                }
            }
        }
    }

    private String newVm() {
        return "aio-real-" + UUID.randomUUID().toString().substring(0, 8);
    }

    /** A qcow2 volume with preallocation full, created and measured by the agent. */
    private VolumeCreateRsp newVolume(String uuid) {
        AgentClient.Answer a = client.post(AgentPaths.VOLUME_CREATE,
                new VolumeCreateCmd(uuid, "LocalStorage", workDir.toString(), "qcow2", "full", DISK));
        assertThat(a.status()).as(a.body()).isEqualTo(200);
        VolumeCreateRsp rsp = a.as(VolumeCreateRsp.class);
        assertThat(rsp.actualSize()).as("full preallocation is measured as allocated").isGreaterThanOrEqualTo(DISK);
        return rsp;
    }

    private DiskTO disk(int id, String cache, String... io) {
        String uuid = "vol-" + UUID.randomUUID().toString().substring(0, 8);
        return new DiskTO(uuid, newVolume(uuid).installPath(), "qcow2", "file", id, cache, List.of(io));
    }

    private VmStartRsp start(AgentClient c, String vm, DiskTO... disks) {
        AgentClient.Answer a = c.post(AgentPaths.VM_START, new VmStartCmd(vm, vm, MEM, 1, List.of(disks)));
        assertThat(a.status()).as(a.body()).isEqualTo(200);
        VmStartRsp rsp = a.as(VmStartRsp.class);
        assertThat(rsp.qemuPid()).as("QEMU pid").isNotNull();
        assertThat(Path.of("/proc", rsp.qemuPid().toString())).exists();
        return rsp;
    }

    private void stop(String vm) {
        client.post(AgentPaths.VM_STOP, new VmStopCmd(vm));
        try {
            libvirt.destroyAndUndefine(vm); // belt and braces: never leave a QEMU running after a test
        } catch (LibvirtException ignored) {
            // reported by the assertions of the test itself
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {"threads", "native", "io_uring"})
    void eachModeIsWhatTheQemuProcessRuns(String mode) throws IOException {
        String vm = newVm();
        try {
            VmStartRsp rsp = start(client, vm, disk(0, "none", mode));
            assertThat(rsp.disks()).singleElement().satisfies(d -> {
                assertThat(d.io()).isEqualTo(mode);
                assertThat(d.cache()).isEqualTo("none");
                assertThat(d.attempts()).isEmpty();
            });

            QemuProcess qemu = new QemuProcess(rsp.qemuPid());
            assertThat(qemu.aioModes()).as(qemu.cmdline()).contains(mode);
            assertThat(qemu.ioUringFds() > 0).as("io_uring fd").isEqualTo(mode.equals("io_uring"));
            assertThat(qemu.hasNativeAioRing()).as("[aio] mapping").isEqualTo(mode.equals("native"));
        } finally {
            stop(vm);
        }
    }

    @Test
    void threeDisksInOneVmEachRunTheirOwnMode() throws IOException {
        String vm = newVm();
        try {
            VmStartRsp rsp = start(client, vm, disk(0, "none", "threads"), disk(1, "none", "native"),
                    disk(2, "directsync", "io_uring"));
            assertThat(rsp.disks()).extracting(DiskResult::io).containsExactly("threads", "native", "io_uring");

            QemuProcess qemu = new QemuProcess(rsp.qemuPid());
            assertThat(qemu.aioModes()).contains("threads", "native", "io_uring");
            assertThat(qemu.ioUringFds()).isPositive();
            assertThat(qemu.hasNativeAioRing()).isTrue();
        } finally {
            stop(vm);
        }
    }

    @Test
    void nativeWithWritebackIsRefusedByLibvirtAndFallsBackToTheNextCandidate() throws IOException {
        String vm = newVm();
        try {
            VmStartRsp rsp = start(client, vm, disk(0, "writeback", "native", "threads"));
            DiskResult d = rsp.disks().get(0);
            assertThat(d.io()).isEqualTo("threads");
            assertThat(d.cache()).isEqualTo("writeback");
            assertThat(d.attempts()).singleElement().satisfies(at -> {
                assertThat(at.io()).isEqualTo("native");
                assertThat(at.error()).contains("native", "cache");
            });

            QemuProcess qemu = new QemuProcess(rsp.qemuPid());
            assertThat(qemu.aioModes()).containsOnly("threads");
            assertThat(qemu.hasNativeAioRing()).isFalse();
        } finally {
            stop(vm);
        }
    }

    @Test
    void whenLibvirtRefusesTheOnlyCandidateTheStartFailsAndNoDomainIsLeft() throws LibvirtException {
        String vm = newVm();
        try {
            AgentClient.Answer a = client.post(AgentPaths.VM_START,
                    new VmStartCmd(vm, vm, MEM, 1, List.of(disk(0, "writeback", "native"))));
            assertThat(a.status()).isEqualTo(500);
            AgentError e = a.as(AgentError.class);
            assertThat(e.error()).contains(vm, "native");
            assertThat(e.details()).contains("vda", "io=native refused");
            assertThat(libvirt.lookup(vm)).as("no domain left defined").isEmpty();
        } finally {
            stop(vm);
        }
    }

    @Test
    void anInjectedIoUringRefusalFallsBackToNativeInTheQemuProcess() throws IOException {
        String vm = newVm();
        try {
            VmStartRsp rsp = start(refusing, vm, disk(0, "none", "io_uring", "native", "threads"));
            DiskResult d = rsp.disks().get(0);
            assertThat(d.io()).isEqualTo("native");
            assertThat(d.attempts()).singleElement().satisfies(at -> {
                assertThat(at.io()).isEqualTo("io_uring");
                assertThat(at.error()).contains("AIO_AGENT_REFUSE_IO");
            });

            QemuProcess qemu = new QemuProcess(rsp.qemuPid());
            assertThat(qemu.aioModes()).containsOnly("native");
            assertThat(qemu.ioUringFds()).isZero();
            assertThat(qemu.hasNativeAioRing()).isTrue();
        } finally {
            stop(vm);
        }
    }

    @Test
    void hotPlugWithIoUringIntoARunningVmIsProvenFromTheQemuProcess() throws IOException {
        String vm = newVm();
        try {
            VmStartRsp rsp = start(client, vm, disk(0, "none", "threads"));
            QemuProcess qemu = new QemuProcess(rsp.qemuPid());
            assertThat(qemu.ioUringFds()).as("before the hot-plug").isZero();

            AgentClient.Answer a = client.post(AgentPaths.VM_ATTACH_VOLUME,
                    new VmAttachVolumeCmd(vm, disk(1, "none", "io_uring", "native")));

            assertThat(a.status()).as(a.body()).isEqualTo(200);
            DiskResult d = a.as(DiskResult.class);
            assertThat(d.io()).isEqualTo("io_uring");
            assertThat(d.attempts()).isEmpty();
            assertThat(qemu.ioUringFds()).as("the same QEMU process opened the disk with io_uring").isPositive();
        } finally {
            stop(vm);
        }
    }

    @Test
    void hotPlugOfNativeWithWritebackFallsBackAndIsProvenFromTheQemuProcess() throws IOException {
        String vm = newVm();
        try {
            VmStartRsp rsp = start(client, vm, disk(0, "none", "threads"));
            QemuProcess qemu = new QemuProcess(rsp.qemuPid());

            AgentClient.Answer a = client.post(AgentPaths.VM_ATTACH_VOLUME,
                    new VmAttachVolumeCmd(vm, disk(1, "writeback", "native", "io_uring")));

            assertThat(a.status()).as(a.body()).isEqualTo(200);
            DiskResult d = a.as(DiskResult.class);
            assertThat(d.io()).isEqualTo("io_uring");
            assertThat(d.attempts()).extracting(DiskResult.Attempt::io).containsExactly("native");
            assertThat(qemu.ioUringFds()).isPositive();
            assertThat(qemu.hasNativeAioRing()).isFalse();
        } finally {
            stop(vm);
        }
    }

    @Test
    void hostFactsOfThisMachine() {
        AgentClient.Answer a = client.post(AgentPaths.HOST_CONNECT, new HostConnectCmd("h", List.of(workDir.toString())));
        assertThat(a.status()).isEqualTo(200);
        HostFactsRsp f = a.as(HostFactsRsp.class);
        assertThat(f.qemuVersion()).matches("\\d+\\.\\d+(\\.\\d+)?");
        assertThat(f.libvirtVersion()).matches("\\d+\\.\\d+\\.\\d+");
        assertThat(f.libvirtUri()).isEqualTo(URI);
        assertThat(f.storagePaths()).singleElement().satisfies(p -> assertThat(p.oDirect()).isTrue());
        // native AIO with O_DIRECT works on a disk file system wherever QEMU runs VMs with it (proven above)
        assertThat(f.qemuNative()).as(f.qemuNativeError()).isTrue();
        if (f.ioUringDisabled() == null || f.ioUringDisabled() == 0) {
            assertThat(f.qemuIoUring()).as(f.qemuIoUringError()).isTrue();
        }
    }
}
