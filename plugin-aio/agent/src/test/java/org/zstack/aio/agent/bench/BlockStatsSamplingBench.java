package org.zstack.aio.agent.bench;

import org.junit.jupiter.api.Test;
import org.libvirt.LibvirtException;
import org.zstack.aio.agent.KvmAgent;
import org.zstack.aio.agent.api.AgentPaths;
import org.zstack.aio.agent.api.DiskTO;
import org.zstack.aio.agent.api.HostConnectCmd;
import org.zstack.aio.agent.api.VmListCmd;
import org.zstack.aio.agent.api.VmListRsp;
import org.zstack.aio.agent.api.VmStartCmd;
import org.zstack.aio.agent.api.VmStartRsp;
import org.zstack.aio.agent.api.VmStopCmd;
import org.zstack.aio.agent.api.VolumeCreateCmd;
import org.zstack.aio.agent.api.VolumeCreateRsp;
import org.zstack.aio.agent.libvirt.AllDomainStats;
import org.zstack.aio.agent.libvirt.LibvirtHost;
import org.zstack.aio.agent.support.AgentClient;
import org.zstack.aio.agent.support.TestAgents;
import org.zstack.aio.agent.vm.VmLister;

import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.UUID;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * What sampling every disk's block counters costs (issue 14 acceptance: under 1 % of a host CPU core with 50 running
 * VMs × 4 disks). Starts 50 tiny no-OS domains with 4 disks each on the system libvirtd, then takes the sample the
 * way the agent does (one virConnectGetAllDomainStats) N times and reads the CPU it cost: the calling thread's CPU
 * time (the agent) and libvirtd's process CPU time (/proc/PID/stat), and the same for the whole /vm/list with and
 * without counters. Not a unit test (not in surefire's includes): run it with
 * {@code mvn -pl plugin-aio/agent test -Dtest=BlockStatsSamplingBench -Daio.bench.vms=50}; results in docs/performance.md.
 */
class BlockStatsSamplingBench {

    private static final int VMS = Integer.getInteger("aio.bench.vms", 50);
    private static final int DISKS = 4;
    private static final int ROUNDS = Integer.getInteger("aio.bench.rounds", 30);

    @Test
    void sampleCostWith50DomainsOf4Disks() throws Exception {
        Path dir = Files.createTempDirectory(Path.of("/var/tmp"), "aio-sampling-bench-");
        List<String> vms = new ArrayList<>();
        List<Long> qemus = new ArrayList<>();
        try (KvmAgent agent = KvmAgent.start(TestAgents.settings().withLibvirtUri("qemu:///system"));
             LibvirtHost libvirt = new LibvirtHost("qemu:///system")) {
            AgentClient client = new AgentClient(agent);
            assertThat(client.post(AgentPaths.HOST_CONNECT, new HostConnectCmd("h", List.of(dir.toString()))).status()).isEqualTo(200);
            try {
                for (int v = 0; v < VMS; v++) {
                    String vm = "b10c" + UUID.randomUUID().toString().replace("-", "").substring(4);
                    List<DiskTO> disks = new ArrayList<>();
                    for (int d = 0; d < DISKS; d++) {
                        String vol = UUID.randomUUID().toString().replace("-", "");
                        VolumeCreateRsp img = client.post(AgentPaths.VOLUME_CREATE,
                                new VolumeCreateCmd(vol, "LocalStorage", dir.toString(), "raw", "none", 1L << 20)).as(VolumeCreateRsp.class);
                        disks.add(new DiskTO(vol, img.installPath(), "raw", "file", d, "none", List.of("threads")));
                    }
                    vms.add(vm);
                    AgentClient.Answer a = client.post(AgentPaths.VM_START, new VmStartCmd(vm, vm, 32L << 20, 1, disks));
                    assertThat(a.status()).as(a.body()).isEqualTo(200);
                    qemus.add(a.as(VmStartRsp.class).qemuPid().longValue());
                }
                Thread.sleep(5000); // let the firmware of the last ones settle
                long libvirtd = pidOf("libvirtd");
                VmLister lister = new VmLister(libvirt);
                var stats = AllDomainStats.read(libvirt.connect());
                long sampled = vms.stream().filter(stats::containsKey).count();
                long disks = vms.stream().filter(stats::containsKey).mapToLong(vm -> stats.get(vm).disks().size()).sum();
                assertThat(sampled).isEqualTo(VMS);
                assertThat(disks).isEqualTo((long) VMS * DISKS);
                for (int i = 0; i < 5; i++) AllDomainStats.read(libvirt.connect()); // warm-up (JNA, JIT)
                Cost stats1 = measure(libvirtd, qemus, () -> AllDomainStats.read(libvirt.connect()));
                Cost listWith = measure(libvirtd, qemus, () -> lister.list(new VmListCmd(true)));
                Cost listWithout = measure(libvirtd, qemus, () -> lister.list(new VmListCmd(false)));
                VmListRsp sample = lister.list(new VmListCmd(true));
                assertThat(sample.domains().stream().filter(d -> vms.contains(d.vmUuid())).flatMap(d -> d.disks().stream())
                        .filter(d -> d.stats() != null).count()).isEqualTo((long) VMS * DISKS);
                System.out.printf(Locale.ROOT, "SAMPLING %d domains x %d disks, %d rounds, load %s%n", VMS, DISKS, ROUNDS,
                        Files.readString(Path.of("/proc/loadavg")).trim());
                System.out.println("SAMPLING virConnectGetAllDomainStats: " + stats1);
                System.out.println("SAMPLING /vm/list with counters:     " + listWith);
                System.out.println("SAMPLING /vm/list without counters:  " + listWithout);
            } finally {
                for (String vm : vms) {
                    client.post(AgentPaths.VM_STOP, new VmStopCmd(vm));
                    try {
                        libvirt.destroyAndUndefine(vm);
                    } catch (LibvirtException ignored) {
                        // already gone
                    }
                }
            }
        } finally {
            try (Stream<Path> files = Files.walk(dir)) {
                for (Path p : files.sorted(Comparator.reverseOrder()).toList()) Files.deleteIfExists(p);
            }
        }
    }

    interface Call {
        Object run() throws Exception;
    }

    /**
     * Per call: wall and this thread's CPU (median and range over the rounds, ms); the CPU of libvirtd and of the
     * domains' QEMUs over all the rounds minus an idle window of the same length (they serve other clients and run
     * their guests too), per call, ms. /proc counts in 10 ms ticks, so only sums over many calls mean anything.
     */
    record Cost(double[] wall, double[] agentCpu, double libvirtdPerCall, double qemuPerCall, long libvirtdIdle, long qemuIdle) {
        @Override
        public String toString() {
            return "wall " + m(wall) + " ms, agent thread CPU " + m(agentCpu) + String.format(Locale.ROOT,
                    " ms; libvirtd %.2f ms, QEMUs %.2f ms per call above idle (idle window: libvirtd %d ms, QEMUs %d ms)",
                    libvirtdPerCall, qemuPerCall, libvirtdIdle, qemuIdle);
        }

        private static String m(double[] v) {
            double[] s = v.clone();
            Arrays.sort(s);
            return String.format(Locale.ROOT, "%.2f (%.2f-%.2f)", s[s.length / 2], s[0], s[s.length - 1]);
        }
    }

    private static Cost measure(long libvirtd, List<Long> qemus, Call call) throws Exception {
        ThreadMXBean threads = ManagementFactory.getThreadMXBean();
        double[] wall = new double[ROUNDS];
        double[] cpu = new double[ROUNDS];
        long d0 = processCpuMillis(libvirtd);
        long q0 = cpuOf(qemus);
        long t0 = System.nanoTime();
        for (int i = 0; i < ROUNDS; i++) {
            long c0 = threads.getCurrentThreadCpuTime();
            long w0 = System.nanoTime();
            call.run();
            wall[i] = (System.nanoTime() - w0) / 1e6;
            cpu[i] = (threads.getCurrentThreadCpuTime() - c0) / 1e6;
            Thread.sleep(200);
        }
        long busy = processCpuMillis(libvirtd) - d0;
        long busyQemu = cpuOf(qemus) - q0;
        long window = (System.nanoTime() - t0) / 1_000_000;
        long i0 = processCpuMillis(libvirtd);
        long iq0 = cpuOf(qemus);
        Thread.sleep(window);
        long idle = processCpuMillis(libvirtd) - i0;
        long idleQemu = cpuOf(qemus) - iq0;
        return new Cost(wall, cpu, (busy - idle) / (double) ROUNDS, (busyQemu - idleQemu) / (double) ROUNDS, idle, idleQemu);
    }

    private static long cpuOf(List<Long> pids) throws Exception {
        long sum = 0;
        for (long p : pids) sum += processCpuMillis(p);
        return sum;
    }

    /** utime + stime of a process in ms (clock ticks of 10 ms: a single call reads as 0 or 10). */
    private static long processCpuMillis(long pid) throws Exception {
        String stat = Files.readString(Path.of("/proc/" + pid + "/stat"));
        String[] f = stat.substring(stat.lastIndexOf(')') + 2).split(" ");
        return (Long.parseLong(f[11]) + Long.parseLong(f[12])) * 10;
    }

    /**
     * The libvirtd serving qemu:///system: the one in this process's mount namespace (a second libvirtd for the
     * migration tests, bin/lib/setup-libvirt-b.sh, runs in its own).
     */
    private static long pidOf(String name) throws Exception {
        Process p = new ProcessBuilder("pidof", name).start();
        String ours = Files.readSymbolicLink(Path.of("/proc/self/ns/mnt")).toString();
        for (String pid : new String(p.getInputStream().readAllBytes()).trim().split("\\s+")) {
            if (Files.readSymbolicLink(Path.of("/proc/" + pid + "/ns/mnt")).toString().equals(ours)) return Long.parseLong(pid);
        }
        throw new IllegalStateException("no " + name + " in this mount namespace");
    }
}
