package org.zstack.aio.agent.vm;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.libvirt.Connect;
import org.libvirt.LibvirtException;
import org.zstack.aio.agent.AgentSettings;
import org.zstack.aio.agent.KvmAgent;
import org.zstack.aio.agent.api.AgentError;
import org.zstack.aio.agent.api.AgentPaths;
import org.zstack.aio.agent.api.DiskResult;
import org.zstack.aio.agent.api.DiskTO;
import org.zstack.aio.agent.api.GuestBoot;
import org.zstack.aio.agent.api.VmAttachVolumeCmd;
import org.zstack.aio.agent.api.VmStartCmd;
import org.zstack.aio.agent.api.VmStartRsp;
import org.zstack.aio.agent.api.VmStopCmd;
import org.zstack.aio.agent.support.AgentClient;
import org.zstack.aio.agent.support.TestAgents;
import org.zstack.aio.agent.support.TestDriverDomains;

import java.util.Arrays;
import java.util.List;
import java.util.Set;
import java.util.UUID;

import static org.assertj.core.api.Assertions.assertThat;
import java.util.ArrayList;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.assertj.core.groups.Tuple;

/**
 * VM start, fallback, stop and hot-plug through the agent's HTTP API on libvirt's test driver (no daemon).
 * The test driver does not run QEMU, so this proves the agent's logic and the XML libvirt keeps; the QEMU
 * side is proven by RealQemuIoModeTest.
 */
class TestDriverVmLifecycleTest {

    private static final long MEM = 64L << 20;
    private static KvmAgent agent;
    private static KvmAgent refusingAgent;
    private static AgentClient client;
    private static AgentClient refusing;
    private static Connect libvirt;

    @BeforeAll
    static void start() throws LibvirtException {
        AgentSettings s = TestAgents.settings()
                .withLibvirtUri("test:///default");
        agent = KvmAgent.start(s);
        refusingAgent = KvmAgent.start(s.withRefusedIoModes(Set.of("io_uring")).withDataDir(TestAgents.newDataDir()));
        client = new AgentClient(agent);
        refusing = new AgentClient(refusingAgent);
        // the disks below live under /images (the test driver opens no file): register it as the storage root
        for (AgentClient c : List.of(client, refusing)) {
            assertThat(c.post(AgentPaths.HOST_CONNECT, new org.zstack.aio.agent.api.HostConnectCmd("h", List.of("/images")))
                    .status()).isEqualTo(200);
        }
        libvirt = new Connect("test:///default"); // the test driver's state is shared within the JVM
    }

    @AfterAll
    static void stop() throws LibvirtException {
        agent.close();
        refusingAgent.close();
        libvirt.close();
    }

    private static String uniqueVm() {
        return "tdvm-" + UUID.randomUUID().toString().substring(0, 8);
    }

    private static DiskTO disk(int id, String cache, String... io) {
        return new DiskTO("vol-" + id, "/images/td-" + UUID.randomUUID() + ".qcow2", "qcow2", "file", id, cache,
                Arrays.asList(io));
    }

    private static boolean defined(String name) throws LibvirtException {
        return TestDriverDomains.defined(libvirt, name);
    }

    @Test
    void startsWithTheFirstCandidateAndReadsTheDriverBack() throws LibvirtException {
        String vm = uniqueVm();
        try {
            AgentClient.Answer a = client.post(AgentPaths.VM_START, new VmStartCmd(vm, "my vm", MEM, 1,
                    List.of(disk(0, "none", "io_uring", "native", "threads"), disk(1, "writeback"),
                            disk(2, "directsync", "native"))));

            assertThat(a.status()).as(a.body()).isEqualTo(200);
            VmStartRsp rsp = a.as(VmStartRsp.class);
            assertThat(rsp.vmUuid()).isEqualTo(vm);
            assertThat(rsp.qemuPid()).as("the test driver has no QEMU process").isNull();
            assertThat(rsp.disks()).extracting(DiskResult::volumeUuid, DiskResult::io, DiskResult::cache)
                    .containsExactly(
                            Tuple.tuple("vol-0", "io_uring", "none"),
                            Tuple.tuple("vol-1", null, "writeback"),
                            Tuple.tuple("vol-2", "native", "directsync"));
            assertThat(rsp.disks()).allSatisfy(d -> assertThat(d.attempts()).isEmpty());
            assertThat(libvirt.domainLookupByName(vm).isActive()).isEqualTo(1);
        } finally {
            client.post(AgentPaths.VM_STOP, new VmStopCmd(vm));
        }
        assertThat(defined(vm)).isFalse();
    }

    @Test
    void anInjectedIoUringRefusalFallsBackOnlyOnTheDisksThatAskedForIt() {
        String vm = uniqueVm();
        try {
            AgentClient.Answer a = refusing.post(AgentPaths.VM_START, new VmStartCmd(vm, vm, MEM, 1,
                    List.of(disk(0, "none", "io_uring", "native", "threads"), disk(1, "none", "native", "threads"),
                            disk(2, "none", "io_uring", "native", "threads"))));

            assertThat(a.status()).as(a.body()).isEqualTo(200);
            List<DiskResult> disks = a.as(VmStartRsp.class).disks();
            assertThat(disks).extracting(DiskResult::io).containsExactly("native", "native", "native");
            assertThat(disks.get(0).attempts()).singleElement().satisfies(at -> {
                assertThat(at.io()).isEqualTo("io_uring");
                assertThat(at.error()).contains("vda", "injected", "AIO_AGENT_REFUSE_IO");
            });
            assertThat(disks.get(1).attempts()).as("vdb never asked for io_uring").isEmpty();
            assertThat(disks.get(2).attempts()).singleElement().extracting(DiskResult.Attempt::error)
                    .asString().contains("vdc");
        } finally {
            refusing.post(AgentPaths.VM_STOP, new VmStopCmd(vm));
        }
    }

    @Test
    void whenNoCandidateIsLeftTheStartFailsWith500AndLeavesNoDomain() throws LibvirtException {
        String vm = uniqueVm();
        AgentClient.Answer a = refusing.post(AgentPaths.VM_START, new VmStartCmd(vm, vm, MEM, 1,
                List.of(disk(0, "none", "threads"), disk(1, "none", "io_uring"))));

        assertThat(a.status()).isEqualTo(500);
        AgentError e = a.as(AgentError.class);
        assertThat(e.error()).contains(vm, "did not start", "aio=io_uring");
        assertThat(e.details()).contains("vdb", "io=io_uring refused");
        assertThat(defined(vm)).isFalse();
    }

    @Test
    void theSteppedDownModeIsWhatTheDefinedDomainReallyHas() throws LibvirtException {
        String vm = uniqueVm();
        try {
            AgentClient.Answer a = refusing.post(AgentPaths.VM_START, new VmStartCmd(vm, vm, MEM, 1,
                    List.of(disk(0, "none", "io_uring", "threads"))));
            assertThat(a.status()).as(a.body()).isEqualTo(200);
            DiskResult d = a.as(VmStartRsp.class).disks().get(0);
            assertThat(d.io()).isEqualTo("threads");
            assertThat(d.attempts()).extracting(DiskResult.Attempt::io).containsExactly("io_uring");
            assertThat(libvirt.domainLookupByName(vm).getXMLDesc(0)).contains("io='threads'");
        } finally {
            refusing.post(AgentPaths.VM_STOP, new VmStopCmd(vm));
        }
    }

    @Test
    void aStaleDomainFromADeadAgentIsReplaced() throws LibvirtException {
        String vm = uniqueVm();
        try {
            assertThat(client.post(AgentPaths.VM_START, new VmStartCmd(vm, vm, MEM, 1,
                    List.of(disk(0, "none", "native")))).status()).isEqualTo(200);
            // the server never saw the answer (agent killed) and starts again
            AgentClient.Answer again = client.post(AgentPaths.VM_START, new VmStartCmd(vm, vm, MEM, 1,
                    List.of(disk(0, "none", "io_uring"))));
            assertThat(again.status()).as(again.body()).isEqualTo(200);
            assertThat(again.as(VmStartRsp.class).disks().get(0).io()).isEqualTo("io_uring");
        } finally {
            client.post(AgentPaths.VM_STOP, new VmStopCmd(vm));
        }
        assertThat(defined(vm)).isFalse();
    }

    @Test
    void concurrentStartsAndStopsOfOneVmDoNotInterleave() throws Exception {
        String vm = uniqueVm();
        ExecutorService pool = Executors.newFixedThreadPool(4);
        try {
            List<Future<AgentClient.Answer>> answers = new ArrayList<>();
            for (int i = 0; i < 8; i++) {
                boolean start = i % 2 == 0;
                answers.add(pool.submit(() -> start
                        ? client.post(AgentPaths.VM_START, new VmStartCmd(vm, vm, MEM, 1, List.of(disk(0, "none", "native"))))
                        : client.post(AgentPaths.VM_STOP, new VmStopCmd(vm))));
            }
            for (var f : answers) {
                AgentClient.Answer a = f.get();
                assertThat(a.status()).as(a.body()).isEqualTo(200);
            }
        } finally {
            pool.shutdownNow();
            client.post(AgentPaths.VM_STOP, new VmStopCmd(vm));
        }
        assertThat(defined(vm)).isFalse();
    }

    @Test
    void stopIsIdempotent() {
        String vm = uniqueVm();
        client.post(AgentPaths.VM_START, new VmStartCmd(vm, vm, MEM, 1, List.of(disk(0, "none"))));
        AgentClient.Answer first = client.post(AgentPaths.VM_STOP, new VmStopCmd(vm));
        AgentClient.Answer second = client.post(AgentPaths.VM_STOP, new VmStopCmd(vm));
        assertThat(first.status()).isEqualTo(200);
        assertThat(first.json().get("existed").asBoolean()).isTrue();
        assertThat(second.status()).isEqualTo(200);
        assertThat(second.json().get("existed").asBoolean()).isFalse();
    }

    @Test
    void badCommandsAre400AndDefineNothing() throws LibvirtException {
        String vm = uniqueVm();
        assertThat(client.post(AgentPaths.VM_START, new VmStartCmd(vm, vm, MEM, 1,
                List.of(disk(0, "none", "aio_fast")))).status()).isEqualTo(400);
        assertThat(client.post(AgentPaths.VM_START, new VmStartCmd(vm, vm, MEM, 1,
                List.of(disk(0, "fast")))).status()).isEqualTo(400);
        assertThat(client.post(AgentPaths.VM_START, new VmStartCmd(vm, vm, 64, 1,
                List.of(disk(0, "none")))).as(AgentError.class).details()).contains("bytes");
        assertThat(client.post(AgentPaths.VM_START, new VmStartCmd(vm, vm, MEM, 1,
                List.of(disk(0, "none"), disk(0, "none")))).status()).isEqualTo(400);
        assertThat(defined(vm)).isFalse();
    }

    @Test
    void aDirectKernelBootIsConfinedToTheStorageRootsAndValidated() throws LibvirtException {
        String vm = uniqueVm();
        GuestBoot inside = new GuestBoot("/images/vmlinuz", "/images/initrd.gz", "console=ttyS0 aio.wl=randwrite-4k-qd16",
                "/images/" + vm + ".log");
        for (GuestBoot outside : List.of(new GuestBoot("/boot/vmlinuz", null, null, null),
                new GuestBoot("/images/vmlinuz", "/etc/shadow", null, null),
                new GuestBoot("/images/vmlinuz", null, null, "/root/.bashrc"),
                new GuestBoot("/images/../etc/vmlinuz", null, null, null))) {
            AgentClient.Answer a = client.post(AgentPaths.VM_START, new VmStartCmd(vm, vm, MEM, 1, List.of(disk(0, "none")),
                    outside, null));
            assertThat(a.status()).as(a.body()).isEqualTo(403);
        }
        for (VmStartCmd bad : List.of(
                new VmStartCmd(vm, vm, MEM, 1, List.of(disk(0, "none")), inside, "hvf"),
                new VmStartCmd(vm, vm, MEM, 1, List.of(disk(0, "none")), new GuestBoot(null, null, null, null), null),
                new VmStartCmd(vm, vm, MEM, 1, List.of(disk(0, "none")),
                        new GuestBoot("/images/vmlinuz", null, "console=ttyS0\ninit=/bin/sh", null), null))) {
            AgentClient.Answer a = client.post(AgentPaths.VM_START, bad);
            assertThat(a.status()).as(a.body()).isEqualTo(400);
            assertThat(a.as(AgentError.class).details()).isNotBlank();
        }
        assertThat(defined(vm)).isFalse();

        try {
            assertThat(client.post(AgentPaths.VM_START, new VmStartCmd(vm, vm, MEM, 1, List.of(disk(0, "none")), inside, null))
                    .status()).isEqualTo(200);
            String xml = libvirt.domainLookupByName(vm).getXMLDesc(0);
            assertThat(xml).contains("<kernel>/images/vmlinuz</kernel>", "<initrd>/images/initrd.gz</initrd>",
                    "<cmdline>console=ttyS0 aio.wl=randwrite-4k-qd16</cmdline>", "/images/" + vm + ".log");
        } finally {
            client.post(AgentPaths.VM_STOP, new VmStopCmd(vm));
        }
    }

    @Test
    void hotPlugAppliesTheCandidatesWithFallbackAndReadsTheLiveXmlBack() {
        String vm = uniqueVm();
        try {
            assertThat(refusing.post(AgentPaths.VM_START, new VmStartCmd(vm, vm, MEM, 1,
                    List.of(disk(0, "none", "threads")))).status()).isEqualTo(200);

            AgentClient.Answer a = refusing.post(AgentPaths.VM_ATTACH_VOLUME,
                    new VmAttachVolumeCmd(vm, disk(1, "none", "io_uring", "native")));

            assertThat(a.status()).as(a.body()).isEqualTo(200);
            DiskResult d = a.as(DiskResult.class);
            assertThat(d.volumeUuid()).isEqualTo("vol-1");
            assertThat(d.io()).isEqualTo("native");
            assertThat(d.cache()).isEqualTo("none");
            assertThat(d.attempts()).extracting(DiskResult.Attempt::io).containsExactly("io_uring");

            AgentClient.Answer twice = refusing.post(AgentPaths.VM_ATTACH_VOLUME,
                    new VmAttachVolumeCmd(vm, disk(1, "none", "native")));
            assertThat(twice.status()).isEqualTo(400);
            assertThat(twice.as(AgentError.class).error()).contains("already has a disk vdb");
        } finally {
            refusing.post(AgentPaths.VM_STOP, new VmStopCmd(vm));
        }
    }

    @Test
    void hotPlugIntoAMissingVmIs400() {
        AgentClient.Answer a = client.post(AgentPaths.VM_ATTACH_VOLUME,
                new VmAttachVolumeCmd(uniqueVm(), disk(1, "none", "native")));
        assertThat(a.status()).isEqualTo(400);
        assertThat(a.as(AgentError.class).error()).contains("no domain");
    }
}
