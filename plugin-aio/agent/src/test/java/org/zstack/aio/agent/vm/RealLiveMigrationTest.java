package org.zstack.aio.agent.vm;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.libvirt.LibvirtException;
import org.zstack.aio.agent.AgentSettings;
import org.zstack.aio.agent.KvmAgent;
import org.zstack.aio.agent.api.AgentPaths;
import org.zstack.aio.agent.api.DiskTO;
import org.zstack.aio.agent.api.GuestBoot;
import org.zstack.aio.agent.api.HostConnectCmd;
import org.zstack.aio.agent.api.VmMigrateCmd;
import org.zstack.aio.agent.api.VmMigrateRsp;
import org.zstack.aio.agent.api.VmStartCmd;
import org.zstack.aio.agent.api.VmStartRsp;
import org.zstack.aio.agent.api.VolumeCreateCmd;
import org.zstack.aio.agent.api.VolumeCreateRsp;
import org.zstack.aio.agent.libvirt.LibvirtHost;
import org.zstack.aio.agent.support.AgentClient;
import org.zstack.aio.agent.support.QemuProcess;
import org.zstack.aio.agent.support.SecondLibvirt;
import org.zstack.aio.agent.support.TestAgents;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;
import java.util.UUID;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assertions.fail;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * Live migration between two REAL libvirt hosts on this machine: the system libvirtd (source, A) and the second
 * libvirtd of bin/lib/setup-libvirt-b.sh (destination, B). Every claim is read from the QEMU processes'
 * /proc/PID/cmdline. Skipped without both daemons, except under CI=true, where it fails.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class RealLiveMigrationTest {

    private static final String SOURCE = "qemu:///system";
    private static final Path IO_URING_DISABLED = Path.of("/proc/sys/kernel/io_uring_disabled");
    /** bin/lib/setup-guest.sh's kernel and initramfs (bin/aio-test builds them before the tests) */
    private static final Path GUEST_ASSETS = Path.of(System.getenv().getOrDefault("AIO_GUEST_DIR", "/var/cache/plugin-aio-guest"));

    private KvmAgent agent;
    private AgentClient client;
    private LibvirtHost a;
    private LibvirtHost b;
    private Path workDir;

    @BeforeAll
    void requireTwoHosts() throws IOException {
        String why = null;
        if (!Files.exists(Path.of("/run/libvirt/libvirt-sock"))) {
            why = "no system libvirtd (run: sudo bash bin/lib/setup-libvirt.sh)";
        } else {
            why = SecondLibvirt.ensure().orElse(null);
        }
        if (why == null) {
            try {
                a = new LibvirtHost(SOURCE);
                b = new LibvirtHost(SecondLibvirt.URI);
            } catch (LibvirtException | LinkageError e) {
                why = "cannot connect to both libvirtds: " + e.getMessage();
            }
        }
        if (why != null) {
            if ("true".equalsIgnoreCase(System.getenv("CI"))) {
                fail("CI=true: the live-migration tests must run, but " + why);
            }
            assumeTrue(false, why);
        }
        AgentSettings s = TestAgents.settings().withLibvirtUri(SOURCE);
        agent = KvmAgent.start(s);
        client = new AgentClient(agent);
        // /var/tmp is the same directory in B's mount namespace: the "shared storage" of the two hosts
        workDir = Files.createTempDirectory(Path.of("/var/tmp"), "aio-i13-migration-");
        assertThat(client.post(AgentPaths.HOST_CONNECT, new HostConnectCmd("a", List.of(workDir.toString()))).status())
                .isEqualTo(200);
    }

    @AfterAll
    void cleanUp() throws IOException {
        if (agent != null) {
            agent.close();
        }
        for (LibvirtHost h : new LibvirtHost[] {a, b}) {
            if (h != null) {
                h.close();
            }
        }
        if (workDir != null) {
            try (Stream<Path> files = Files.walk(workDir)) {
                for (Path p : files.sorted(Comparator.reverseOrder()).toList()) {
                    Files.deleteIfExists(p);
                }
            }
        }
    }

    /** A new 16 MiB preallocated qcow2 in the shared directory, as the disk of a VM with this io mode. */
    private DiskTO newDisk(String io) {
        String vol = "vol-" + UUID.randomUUID().toString().substring(0, 8);
        AgentClient.Answer created = client.post(AgentPaths.VOLUME_CREATE,
                new VolumeCreateCmd(vol, "LocalStorage", workDir.toString(), "qcow2", "full", 16L << 20));
        assertThat(created.status()).as(created.body()).isEqualTo(200);
        return new DiskTO(vol, created.as(VolumeCreateRsp.class).installPath(), "qcow2", "file", 0, "none", List.of(io));
    }

    private VmStartRsp startIoUringVm(String vm) {
        DiskTO disk = newDisk("io_uring");
        AgentClient.Answer started = client.post(AgentPaths.VM_START, new VmStartCmd(vm, vm, 64L << 20, 1, List.of(disk)));
        assertThat(started.status()).as(started.body()).isEqualTo(200);
        return started.as(VmStartRsp.class);
    }

    private AgentClient.Answer migrate(String vm, String destination, String io) {
        return client.post(AgentPaths.VM_MIGRATE, new VmMigrateCmd(vm, destination, "tcp://127.0.0.1",
                List.of(new VmMigrateCmd.DiskDriverTO("vda", io, "none"))));
    }

    private void destroyEverywhere(String vm) {
        for (LibvirtHost h : new LibvirtHost[] {a, b}) {
            try {
                h.destroyAndUndefine(vm);
            } catch (LibvirtException ignored) {
                // the test's own assertions report what went wrong
            }
        }
    }

    @Test
    void destinationQemuRunsTheDestinationsModeAndTheSourceQemuIsGone() throws IOException, LibvirtException {
        String vm = "i13-mig-" + UUID.randomUUID().toString().substring(0, 8);
        try {
            int sourcePid = startIoUringVm(vm).qemuPid();
            assertThat(new QemuProcess(sourcePid).aioModes()).containsExactly("io_uring");

            AgentClient.Answer moved = migrate(vm, SecondLibvirt.URI, "native");

            assertThat(moved.status()).as(moved.body()).isEqualTo(200);
            assertThat(moved.as(VmMigrateRsp.class).disks()).singleElement()
                    .satisfies(d -> assertThat(d.io()).isEqualTo("native"));
            int destPid = SecondLibvirt.qemuPid(vm).orElseThrow();
            assertThat(new QemuProcess(destPid).aioModes()).as("destination QEMU").containsExactly("native");
            assertThat(Path.of("/proc/" + sourcePid)).as("source QEMU gone").doesNotExist();
            assertThat(a.lookup(vm)).as("source libvirtd no longer has the domain").isEmpty();
        } finally {
            destroyEverywhere(vm);
        }
    }

    /**
     * With io_uring disabled by the kernel, the unchanged XML (io_uring) cannot run on the destination: libvirt
     * refuses, the answer quotes it and the VM keeps running on A. The same VM then moves with io=native.
     */
    @Test
    void unchangedXmlFailsWhereTheDestinationCannotRunItAndTheVmStaysOnTheSource() throws IOException, LibvirtException {
        assumeTrue(Files.isWritable(IO_URING_DISABLED), "kernel.io_uring_disabled is not writable (not root)");
        String vm = "i13-mig-" + UUID.randomUUID().toString().substring(0, 8);
        String before = Files.readString(IO_URING_DISABLED).strip();
        try {
            int sourcePid = startIoUringVm(vm).qemuPid();
            Files.writeString(IO_URING_DISABLED, "2");

            AgentClient.Answer refused = migrate(vm, SecondLibvirt.URI, "io_uring");

            assertThat(refused.status()).as(refused.body()).isEqualTo(500);
            assertThat(refused.json().path("error").asText()).contains("libvirt could not migrate VM " + vm);
            assertThat(refused.json().path("details").asText()).contains("still runs on this host");
            assertThat(Path.of("/proc/" + sourcePid)).as("source QEMU kept").exists();
            assertThat(new QemuProcess(sourcePid).aioModes()).containsExactly("io_uring");
            assertThat(b.lookup(vm)).as("nothing left on B").isEmpty();

            AgentClient.Answer moved = migrate(vm, SecondLibvirt.URI, "native");
            assertThat(moved.status()).as(moved.body()).isEqualTo(200);
            assertThat(new QemuProcess(SecondLibvirt.qemuPid(vm).orElseThrow()).aioModes()).containsExactly("native");
        } finally {
            Files.writeString(IO_URING_DISABLED, before);
            destroyEverywhere(vm);
        }
    }

    /**
     * A migration that cannot finish within the server's limit is aborted by the agent, and the VM keeps running
     * here: a real guest kernel (its pages are not zero, unlike a no-OS guest's, which moves in ~3 s whatever the
     * bandwidth) with the migration bandwidth at 1 MiB/s would take minutes (measured: not done after 90 s).
     */
    @Test
    void aMigrationPastItsTimeLimitIsAbortedAndTheVmStaysOnTheSource() throws Exception {
        Path kernel = GUEST_ASSETS.resolve("vmlinuz");
        Path initrd = GUEST_ASSETS.resolve("initrd.gz");
        if (!Files.isReadable(kernel) || !Files.isReadable(initrd)) {
            String why = "no guest kernel in " + GUEST_ASSETS + " (run: sudo bash bin/lib/setup-guest.sh)";
            if ("true".equalsIgnoreCase(System.getenv("CI"))) fail("CI=true: this test must run, but " + why);
            assumeTrue(false, why);
        }
        String vm = "i13-slow-" + UUID.randomUUID().toString().substring(0, 8);
        try {
            // the agent boots only files under its storage roots
            Files.copy(kernel, workDir.resolve(vm + "-vmlinuz"));
            Files.copy(initrd, workDir.resolve(vm + "-initrd.gz"));
            DiskTO disk = newDisk("threads");
            GuestBoot boot = new GuestBoot(workDir.resolve(vm + "-vmlinuz").toString(),
                    workDir.resolve(vm + "-initrd.gz").toString(), "console=ttyS0 quiet no_timer_check aio.secs=1", null);
            AgentClient.Answer started = client.post(AgentPaths.VM_START,
                    new VmStartCmd(vm, vm, 128L << 20, 1, List.of(disk), boot, "tcg"));
            assertThat(started.status()).as(started.body()).isEqualTo(200);
            int sourcePid = started.as(VmStartRsp.class).qemuPid();
            Thread.sleep(3000); // the kernel and initramfs unpacked in guest memory
            // libvirt-java 0.5.4 has no virDomainMigrateSetMaxSpeed binding
            Process speed = new ProcessBuilder("virsh", "-c", SOURCE, "migrate-setspeed", vm, "1").inheritIO().start();
            assertThat(speed.waitFor()).as("virsh migrate-setspeed").isZero();

            long t0 = System.nanoTime();
            AgentClient.Answer aborted = client.post(AgentPaths.VM_MIGRATE, new VmMigrateCmd(vm, SecondLibvirt.URI,
                    "tcp://127.0.0.1", List.of(new VmMigrateCmd.DiskDriverTO("vda", "threads", "none")), 3));
            long millis = (System.nanoTime() - t0) / 1_000_000;

            assertThat(aborted.status()).as(aborted.body()).isEqualTo(500);
            assertThat(aborted.json().path("error").asText()).contains("did not finish migrating within 3 s");
            assertThat(aborted.json().path("details").asText()).contains("still runs on this host");
            assertThat(millis).as("answered soon after the limit, not after the whole copy").isLessThan(30_000);
            assertThat(Path.of("/proc/" + sourcePid)).as("source QEMU kept").exists();
            assertThat(a.lookup(vm).map(d -> {
                try {
                    return d.isActive();
                } catch (LibvirtException e) {
                    return -1;
                } finally {
                    LibvirtHost.freeQuietly(d);
                }
            })).as("the domain runs on A").contains(1);
            assertThat(b.lookup(vm)).as("nothing left on B").isEmpty();
        } finally {
            destroyEverywhere(vm);
        }
    }

    @Test
    void anUnauthenticatedDestinationTransportIsRefusedAndNothingMoves() throws IOException, LibvirtException {
        String vm = "i13-mig-" + UUID.randomUUID().toString().substring(0, 8);
        try {
            int sourcePid = startIoUringVm(vm).qemuPid();

            AgentClient.Answer refused = migrate(vm, "qemu+tcp://127.0.0.1/system", "native");
            AgentClient.Answer unknownDisk = client.post(AgentPaths.VM_MIGRATE, new VmMigrateCmd(vm, SecondLibvirt.URI,
                    "tcp://127.0.0.1", List.of(new VmMigrateCmd.DiskDriverTO("vdz", "native", "none"))));

            assertThat(refused.status()).as(refused.body()).isEqualTo(403);
            assertThat(refused.body()).contains("qemu+tcp", "qemu+tls");
            assertThat(unknownDisk.status()).as(unknownDisk.body()).isEqualTo(400);
            assertThat(unknownDisk.body()).contains("vdz");
            assertThat(new QemuProcess(sourcePid).aioModes()).containsExactly("io_uring");
            assertThat(b.lookup(vm)).isEqualTo(Optional.empty());
        } finally {
            destroyEverywhere(vm);
        }
    }
}
