package org.zstack.aio.plugin.cache;

import org.junit.jupiter.api.Test;
import org.zstack.aio.decision.IoMode;
import org.zstack.aio.decision.IoModeDecider;
import org.zstack.aio.decision.ModePerformance;
import org.zstack.aio.decision.Version;
import org.zstack.aio.decision.WorkloadCell;
import org.zstack.aio.decision.WorkloadProfile;
import org.zstack.aio.decision.rules.IoModeRulesLoader;
import org.zstack.aio.plugin.AgentProfile;
import org.zstack.aio.plugin.ConfigValues;
import org.zstack.aio.plugin.DecisionRecord;
import org.zstack.aio.plugin.DiskIoModes;
import org.zstack.aio.plugin.DiskRequest;
import org.zstack.aio.plugin.Figures;
import org.zstack.aio.plugin.HostIoFacts;
import org.zstack.aio.plugin.HostRef;
import org.zstack.aio.plugin.IoModeConfig;
import org.zstack.aio.plugin.IoModePorts;
import org.zstack.aio.plugin.PlannedDisk;
import org.zstack.aio.plugin.VolumeIoFacts;
import org.zstack.aio.plugin.bench.BenchLine;
import org.zstack.aio.plugin.bench.BenchOutcome;
import org.zstack.aio.plugin.bench.ImageKind;
import org.zstack.aio.plugin.bench.StorageBenchmark;

import java.util.ArrayList;
import java.util.Collection;
import java.util.EnumMap;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A VM start through the use case with the host's benchmark and the disks' profiles read from the node's memory:
 * {@code auto} weighs the bench lines a host printed by each disk's observed workload, names the figures, keeps the
 * fixed order without them; and the store is read once per kind on a cold node, never on a warm one, whatever the
 * number of disks.
 */
class MeasuredStartTest {

    private static final DiskIoModes IO_MODES = new DiskIoModes(IoModeRulesLoader.fromClasspath());
    private static final HostRef H1 = new HostRef("h1", "kvm1");

    /**
     * Lines as host-bench.sh prints them on a storage where native beats io_uring at depth 32 for writes (the project's
     * baseline, qcow2 full: threads 70.1k, native 153k, io_uring 105k) and threads wins 4K reads at depth 1.
     */
    static final String LINES = String.join("\n",
            "bench mode=threads depth=1 rw=write iops=12000",
            "bench mode=native depth=1 rw=write iops=11800",
            "bench mode=io_uring depth=1 rw=write iops=13300",
            "bench mode=threads depth=32 rw=write iops=70100",
            "bench mode=native depth=32 rw=write iops=153000",
            "bench mode=io_uring depth=32 rw=write iops=105000",
            "bench mode=threads depth=1 rw=read iops=14200",
            "bench mode=native depth=1 rw=read iops=11100",
            "bench mode=io_uring depth=1 rw=read iops=11900",
            "bench mode=threads depth=32 rw=read iops=84500",
            "bench mode=native depth=32 rw=read iops=126900",
            "bench mode=io_uring depth=32 rw=read iops=109700", "");

    static final WorkloadProfile WRITE_DEEP = new WorkloadProfile(0.1, 4096, 4096, 300, 2700, 30, 3600, "2026-11-27T10:00:00.000Z");
    static final WorkloadProfile READ_QD1 = new WorkloadProfile(1, 4096, 0, 900, 0, 1, 3600, "2026-11-27T10:00:00.000Z");

    /** A store in memory that counts its statements. */
    static class Store implements IoFactsStore {
        final Map<String, HostIoFacts> hosts = new HashMap<>();
        final Map<String, List<StorageBenchmark>> benchmarks = new HashMap<>();
        final Map<String, WorkloadProfile> profiles = new HashMap<>();
        final List<String> statements = new ArrayList<>();

        public HostIoFacts hostFacts(String hostUuid) {
            statements.add("host " + hostUuid);
            HostIoFacts f = hosts.get(hostUuid);
            return f != null ? f : HostIoFacts.unknown(hostUuid, "the host was never probed");
        }

        public List<StorageBenchmark> benchmarks(String hostUuid) {
            statements.add("benchmarks " + hostUuid);
            return benchmarks.getOrDefault(hostUuid, List.of());
        }

        public Map<String, WorkloadProfile> workloads(Collection<String> volumeUuids) {
            statements.add("workloads " + volumeUuids.size());
            Map<String, WorkloadProfile> out = new HashMap<>();
            for (String u : volumeUuids) if (profiles.containsKey(u)) out.put(u, profiles.get(u));
            return out;
        }

        final Map<String, String> types = new HashMap<>();
        final Map<String, Map<String, String>> rows = new HashMap<>();

        public ConfigRows configRows(Collection<String> resourceUuids, Collection<String> storageUuids) {
            statements.add("configs " + resourceUuids + " " + storageUuids);
            Map<String, String> t = new HashMap<>();
            for (String ps : storageUuids) if (types.containsKey(ps)) t.put(ps, types.get(ps));
            Map<String, Map<String, String>> r = new HashMap<>();
            for (String u : resourceUuids) if (rows.containsKey(u)) r.put(u, new HashMap<>(rows.get(u)));
            return new ConfigRows(t, r);
        }
    }

    /** One start's ports: volumes and configs as a platform reads them per start, host and figures from the cache. */
    static final class StartPorts implements IoModePorts {
        final Map<String, VolumeIoFacts> volumes = new LinkedHashMap<>();
        final IoFactsCache cache;

        StartPorts(IoFactsCache cache) { this.cache = cache; }

        public Map<String, VolumeIoFacts> volumes(List<String> uuids) { return volumes; }

        public ConfigValues configs(Collection<VolumeIoFacts> vols) {
            return new ConfigValues() {
                public String override(String uuid, IoModeConfig c) { return c == IoModeConfig.IO_MODE ? "auto" : null; }
                public String global(IoModeConfig c) { return c.defaultValue(); }
                public String globalDefault(IoModeConfig c) { return c.defaultValue(); }
            };
        }

        public HostIoFacts host(String hostUuid) { return cache.host(hostUuid); }

        public AgentProfile agent(HostIoFacts host) { return AgentProfile.ZSTACK_STOCK; }

        public Figures figures(String hostUuid, Collection<VolumeIoFacts> vols) { return cache.figures(hostUuid, vols); }

        public Map<String, DecisionRecord> stored(Collection<String> uuids) { return Map.of(); }
    }

    static HostIoFacts capable() {
        return HostIoFacts.builder("h1").kernel(Version.parse("6.1.0")).ioUringDisabled(0).qemu(Version.parse("7.2.0"))
                .qemuIoUring(true, null).libvirt(Version.parse("9.0.0")).build();
    }

    static VolumeIoFacts disk(String uuid) {
        return VolumeIoFacts.builder(uuid).name(uuid).storage("ps1", "LocalStorage").image("qcow2", "full")
                .sizes(10L << 30, 10L << 30).cacheMode("none").build();
    }

    static Store storeWithBenchmark() {
        Store s = new Store();
        s.hosts.put("h1", capable());
        s.benchmarks.put("h1", List.of(StorageBenchmark.restore("h1", "ps1", "qcow2-full", "2026-11-27T09:00:00.000Z",
                "COMPLETE", null, LINES)));
        s.profiles.put("writer", WRITE_DEEP);
        s.profiles.put("reader", READ_QD1);
        return s;
    }

    static Map<String, PlannedDisk> start(StartPorts ports) {
        List<String> uuids = new ArrayList<>(ports.volumes.keySet());
        Map<String, PlannedDisk> out = new LinkedHashMap<>();
        for (PlannedDisk d : IO_MODES.plan(DiskRequest.start("vm1", H1, uuids), ports).disks()) out.put(d.volumeUuid(), d);
        return out;
    }

    @Test
    void autoPicksWhatWinsForEachDisksObservedWorkloadAndNamesTheFigures() {
        StartPorts ports = new StartPorts(new IoFactsCache(storeWithBenchmark(), 1000));
        for (String u : List.of("writer", "reader", "quiet")) ports.volumes.put(u, disk(u));
        Map<String, PlannedDisk> d = start(ports);

        // write-heavy and deep, on a preallocated disk: native, which beats io_uring at depth 32 for writes
        assertThat(d.get("writer").set()).isEqualTo(IoMode.NATIVE);
        assertThat(d.get("writer").decision().reason())
                .startsWith("auto requested (VolumeVO) chose native: best for this disk's observed workload (90 % 4K writes, depth ~30)")
                .contains("(expected native ", ", io_uring ", ", threads 1.00x, weighted from geomean of 4 qemu-img bench workloads"
                        + " (randwrite-4k-qd1, randwrite-4k-qd32, randread-4k-qd1, randread-4k-qd32) on qcow2-full of this storage,"
                        + " taken 2026-11-27T09:00:00.000Z)");
        assertThat(d.get("writer").record().getOptimizedFor()).isNotNull();

        // read-heavy at depth 1: whatever wins that workload on this storage, by the core's own rule
        WorkloadCell readQd1 = StorageBenchmark.restore("h1", "ps1", "qcow2-full", "t", "COMPLETE", null, LINES).performance()
                .cells().stream().filter(c -> c.name().equals("randread-4k-qd1")).findFirst().orElseThrow();
        IoMode winner = IoModeDecider.pickMeasured(List.of(IoMode.IO_URING, IoMode.NATIVE, IoMode.THREADS),
                new ModePerformance(readQd1.ops(), "cell", null), IO_MODES.rules().measuredTieMargin());
        assertThat(winner).as("the lines make threads the winner here, not the fixed order").isEqualTo(IoMode.THREADS);
        assertThat(d.get("reader").set()).isEqualTo(winner);
        assertThat(d.get("reader").decision().reason()).contains("observed workload (100 % 4K reads, depth ~1.0)");

        // never sampled: the benchmark's aggregate over its 4 workloads
        assertThat(d.get("quiet").decision().reason()).contains("fastest measured on this storage").contains("(measured ");
    }

    @Test
    void withoutFiguresTheFixedOrderAndItsReason() {
        Store s = new Store();
        s.hosts.put("h1", capable());
        StartPorts ports = new StartPorts(new IoFactsCache(s, 1000));
        ports.volumes.put("writer", disk("writer"));
        PlannedDisk d = start(ports).get("writer");
        assertThat(d.set()).isEqualTo(IoMode.IO_URING);
        assertThat(d.decision().reason()).isEqualTo("auto requested (VolumeVO) chose io_uring, the best mode in the preference"
                + " order, whose checks all passed (no benchmark figures of this storage for the volume's image kind).");
        // a benchmark of another image kind is no figure for this disk
        s.benchmarks.put("h1", List.of(StorageBenchmark.restore("h1", "ps1", "qcow2-metadata", "t", "COMPLETE", null, LINES)));
        ports.cache.apply(IoFactsChange.benchmark("h1"));
        assertThat(start(ports).get("writer").set()).isEqualTo(IoMode.IO_URING);
        // a refused benchmark weighs nothing either
        s.benchmarks.put("h1", List.of(new StorageBenchmark("h1", "ps1", ImageKind.of("qcow2", "full"), "t", BenchOutcome.REFUSED,
                "no room", List.of(BenchLine.parse("bench mode=threads depth=1 rw=write refused=no-room full")))));
        ports.cache.apply(IoFactsChange.benchmark("h1"));
        assertThat(start(ports).get("writer").decision().reason()).contains("(no benchmark figures of this storage");
    }

    @Test
    void aWarmNodeReadsNothingPerStartAndAColdOneReadsEachKindOnceWhateverTheDiskCount() {
        for (int disks : new int[]{1, 8}) {
            Store s = storeWithBenchmark();
            StartPorts ports = new StartPorts(new IoFactsCache(s, 1000));
            for (int i = 0; i < disks; i++) ports.volumes.put("v" + i, disk("v" + i));
            start(ports);
            assertThat(s.statements).as("%d disks, cold", disks).containsExactly("host h1", "benchmarks h1", "workloads " + disks);
            start(ports);
            start(ports);
            assertThat(s.statements).as("%d disks, warm", disks).hasSize(3);
        }
    }

    @Test
    void eachChangeDropsOnlyWhatItNamesAndTheNextStartReadsItAgainOnce() {
        Store s = storeWithBenchmark();
        StartPorts ports = new StartPorts(new IoFactsCache(s, 1000));
        ports.volumes.put("writer", disk("writer"));
        ports.volumes.put("reader", disk("reader"));
        start(ports);
        s.statements.clear();

        // a new sample of writer: it now reads like reader
        s.profiles.put("writer", READ_QD1);
        ports.cache.apply(IoFactsChange.decode(IoFactsChange.workload(List.of("writer")).encode()));
        assertThat(start(ports).get("writer").set()).isEqualTo(IoMode.THREADS);
        assertThat(s.statements).containsExactly("workloads 1");

        // a probe finds io_uring off
        s.hosts.put("h1", HostIoFacts.builder("h1").kernel(Version.parse("6.1.0")).ioUringDisabled(2).qemu(Version.parse("7.2.0"))
                .qemuIoUring(true, null).libvirt(Version.parse("9.0.0")).build());
        s.statements.clear();
        assertThat(start(ports).get("reader").decision().reason()).as("not heard yet: the node keeps what it had")
                .doesNotContain("io_uring is ruled out");
        ports.cache.apply(IoFactsChange.hostFacts("h1"));
        assertThat(start(ports).get("reader").decision().reason()).contains("io_uring is ruled out by check io_uring-sysctl");
        assertThat(s.statements).containsExactly("host h1");

        // a new benchmark, and everything (e.g. a node that may have missed changes)
        s.statements.clear();
        ports.cache.apply(IoFactsChange.benchmark("h1"));
        start(ports);
        ports.cache.apply(IoFactsChange.all());
        start(ports);
        assertThat(s.statements).containsExactly("benchmarks h1", "host h1", "benchmarks h1", "workloads 2");
    }

    @Test
    void aLoadThatRacedWithAChangeIsNotKept() {
        Store s = storeWithBenchmark();
        IoFactsCache[] cache = new IoFactsCache[1];
        Store racing = new Store() {
            @Override
            public HostIoFacts hostFacts(String hostUuid) {
                HostIoFacts old = s.hostFacts(hostUuid); // read before another node's probe committed...
                cache[0].apply(IoFactsChange.hostFacts(hostUuid)); // ...whose change arrives while this load runs
                return old;
            }

            public List<StorageBenchmark> benchmarks(String h) { return s.benchmarks(h); }

            public Map<String, WorkloadProfile> workloads(Collection<String> v) { return s.workloads(v); }

            public ConfigRows configRows(Collection<String> r, Collection<String> ps) {
                ConfigRows old = s.configRows(r, ps); // read before an UpdateResourceConfig committed...
                cache[0].apply(IoFactsChange.configs(r)); // ...whose extension drops the rows while this load runs
                return old;
            }
        };
        cache[0] = new IoFactsCache(racing, 1000);
        cache[0].host("h1");
        cache[0].host("h1");
        assertThat(s.statements).as("the raced load was answered but not kept").containsExactly("host h1", "host h1");
        s.statements.clear();
        cache[0].configRows(List.of("v1"), List.of());
        cache[0].configRows(List.of("v1"), List.of());
        assertThat(s.statements).as("the raced rows were answered but not kept").containsExactly("configs [v1] []", "configs [v1] []");
    }

    @Test
    void configRowsAreReadOnceAndDroppedOnlyForTheResourcesAChangeNames() {
        Store s = new Store();
        s.types.put("ps1", "LocalStorage");
        s.rows.put("v1", Map.of("kvm/vm.ioMode", "native"));
        s.rows.put("ps1", Map.of("kvm/vm.ioMode", "io_uring", "localStoragePrimaryStorage/qcow2.allocation", "full"));
        IoFactsCache cache = new IoFactsCache(s, 1000);

        ConfigRows first = cache.configRows(List.of("v1", "v2"), List.of("ps1"));
        assertThat(first.row("v1", "kvm", "vm.ioMode")).isEqualTo("native");
        assertThat(first.row("v2", "kvm", "vm.ioMode")).as("nothing set on v2").isNull();
        assertThat(first.row("ps1", "localStoragePrimaryStorage", "qcow2.allocation")).isEqualTo("full");
        assertThat(first.storageType("ps1")).isEqualTo("LocalStorage");
        ConfigRows again = cache.configRows(List.of("v2", "v1"), List.of("ps1"));
        assertThat(again.row("v1", "kvm", "vm.ioMode")).isEqualTo("native");
        assertThat(again.storageType("ps1")).isEqualTo("LocalStorage");
        assertThat(s.statements).as("one statement for all, then none: v2's 'nothing set' is kept too")
                .containsExactly("configs [v1, v2, ps1] [ps1]");

        s.rows.put("v2", Map.of("kvm/vm.ioMode", "threads"));
        s.rows.put("v1", Map.of("kvm/vm.ioMode", "auto"));
        cache.apply(IoFactsChange.configs(List.of("v2")));
        ConfigRows changed = cache.configRows(List.of("v1", "v2"), List.of("ps1"));
        assertThat(changed.row("v2", "kvm", "vm.ioMode")).isEqualTo("threads");
        assertThat(changed.row("v1", "kvm", "vm.ioMode")).as("v1 was not named: kept").isEqualTo("native");
        assertThat(s.statements).last().isEqualTo("configs [v2] []");

        cache.apply(IoFactsChange.all());
        assertThat(cache.configRows(List.of("v1"), List.of("ps1")).row("v1", "kvm", "vm.ioMode")).isEqualTo("auto");
        assertThat(s.statements).last().isEqualTo("configs [v1, ps1] [ps1]");
        assertThat(IoFactsChange.decode(IoFactsChange.configs(List.of("v1", "ps1")).encode()))
                .isEqualTo(IoFactsChange.configs(List.of("v1", "ps1")));
    }

    @Test
    void aStorageTheStoreDoesNotKnowIsAskedAgain() {
        Store s = new Store();
        IoFactsCache cache = new IoFactsCache(s, 1000);
        assertThat(cache.configRows(List.of(), List.of("ps9")).storageType("ps9")).isNull();
        s.types.put("ps9", "NFS");
        assertThat(cache.configRows(List.of(), List.of("ps9")).storageType("ps9")).isEqualTo("NFS");
        assertThat(s.statements).containsExactly("configs [ps9] [ps9]", "configs [] [ps9]");
    }

    @Test
    void theCacheIsBoundedAndForgetsTheLeastRecentlyUsed() {
        Store s = storeWithBenchmark();
        IoFactsCache cache = new IoFactsCache(s, 2);
        cache.host("a");
        cache.host("b");
        cache.host("a");
        cache.host("c"); // b goes
        s.statements.clear();
        cache.host("a");
        cache.host("c");
        cache.host("b");
        assertThat(s.statements).containsExactly("host b");
        assertThat(cache.reads()).isEqualTo(4);
    }

    @Test
    void aChangeTravelsAsOneLineAndALineThatIsNoChangeIsRefused() {
        IoFactsChange w = IoFactsChange.workload(List.of("v1", "v2", "v1"));
        assertThat(w.encode()).isEqualTo("WORKLOAD v1 v2");
        assertThat(IoFactsChange.decode("WORKLOAD v1 v2")).isEqualTo(w);
        assertThat(IoFactsChange.decode("ALL")).isEqualTo(IoFactsChange.all());
        for (String bad : new String[]{"", "SOMETHING x", "BENCHMARK", "ALL x"}) {
            org.assertj.core.api.Assertions.assertThatThrownBy(() -> IoFactsChange.decode(bad))
                    .isInstanceOf(IllegalArgumentException.class);
        }
        org.assertj.core.api.Assertions.assertThatThrownBy(() -> IoFactsChange.hostFacts("a b"))
                .hasMessage("a key is a uuid, without spaces: 'a b'");
    }

    static {
        // the lines are the script's own form
        assertThat(new EnumMap<IoMode, Double>(IoMode.class)).isEmpty();
    }
}
