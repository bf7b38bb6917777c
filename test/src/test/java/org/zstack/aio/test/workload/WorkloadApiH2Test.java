package org.zstack.aio.test.workload;

import com.fasterxml.jackson.databind.JsonNode;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.zstack.aio.agent.api.VmListRsp.BlockStats;
import org.zstack.aio.test.support.BenchCells;
import org.zstack.aio.test.support.Fixture;
import org.zstack.aio.test.support.Http;
import org.zstack.aio.test.support.RunningServer;
import org.zstack.aio.test.support.SimulatedAgent;
import org.zstack.aio.test.support.Storage;
import org.zstack.aio.test.support.TestDatabase;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.function.BooleanSupplier;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

/**
 * docs/contract.md, "Workload" through the API, on H2, with an agent whose counters the test sets (so every figure is
 * exact): the tracker samples the running disk's counters, GET /v1/volumes/{uuid} shows the observed workload,
 * a new QEMU (reset counters) is a new baseline and not a negative delta, sampleInterval 0 stops sampling, and auto
 * with a benchmark picks the best mode for that workload instead of the benchmark's aggregate, and says so.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class WorkloadApiH2Test {

    TestDatabase db;
    RunningServer server;
    SimulatedAgent agent;
    Fixture f;
    String admin;
    String ps;
    String host;

    @BeforeAll
    void boot() throws Exception {
        db = TestDatabase.h2();
        server = RunningServer.start(db);
        agent = new SimulatedAgent();
        f = new Fixture(server);
        admin = f.adminSession();
        global("host", "ping.interval", "1");
        global("kvm", "vm.workload.sampleInterval", "1");
        ps = f.primaryStorage(admin, "local", "LocalStorage", Storage.dir("workload-sim"));
        host = f.host(admin, agent.port(), agent.enrollmentToken());
    }

    @AfterAll
    void shutdown() throws Exception {
        if (server != null) server.close();
        if (agent != null) agent.close();
        if (db != null) db.close();
    }

    private void global(String category, String name, String value) {
        Http.Response r = f.http.put("/v1/global-configurations/" + category + "/" + name + "/actions", admin,
                "{\"updateGlobalConfig\":{\"value\":\"" + value + "\"}}");
        assertThat(r.status()).as(r.raw()).isEqualTo(200);
    }

    private JsonNode volume(String uuid) {
        Http.Response r = f.http.get("/v1/volumes/" + uuid, admin);
        assertThat(r.status()).as(r.raw()).isEqualTo(200);
        return r.body().path("inventory");
    }

    private void vmAction(String vm, String action) {
        Http.Response r = f.http.put("/v1/vm-instances/" + vm + "/actions", admin, "{\"" + action + "\":{}}");
        assertThat(r.status()).as(r.raw()).isEqualTo(200);
    }

    /** Sets the counters of one disk and waits until the tracker has read them twice (so the sample is in). */
    private void counters(String source, BlockStats s, long atMillis) {
        agent.counters = new SimulatedAgent.Counters(Map.of(source, s), atMillis);
        long seen = agent.blockStatsLists.get();
        waitFor(() -> agent.blockStatsLists.get() >= seen + 2, "two samples taken");
    }

    private static void waitFor(BooleanSupplier ok, String what) {
        long until = System.nanoTime() + Duration.ofSeconds(20).toNanos();
        while (!ok.getAsBoolean()) {
            if (System.nanoTime() > until) throw new AssertionError("not within 20 s: " + what);
            try {
                Thread.sleep(100);
            } catch (InterruptedException e) {
                throw new AssertionError(e);
            }
        }
    }

    @Test
    void theRunningDisksCountersBecomeItsWorkloadAndAutoOptimisesForIt() {
        String vol = f.volume(admin, "w", "qcow2", "full", ps, host, 1L << 20);
        String source = volume(vol).path("installPath").asText();
        String vm = f.vm(admin, "wvm", host, List.of(vol));
        long t0 = 1_700_000_000_000L;
        agent.counters = new SimulatedAgent.Counters(Map.of(source, new BlockStats(5, 20480, 1_000_000, 7, 28672, 2_000_000)), t0);
        vmAction(vm, "startVmInstance");
        counters(source, new BlockStats(5, 20480, 1_000_000, 7, 28672, 2_000_000), t0);
        assertThat(volume(vol).path("workload").isNull()).as("one sample is only a baseline").isTrue();

        // 10 s later: 100 reads of 4 KiB and 300 writes of 16 KiB, 4 s of read time and 36 s of write time
        counters(source, new BlockStats(105, 20480 + 409_600, 4_001_000_000L, 307, 28672 + 4_915_200, 36_002_000_000L), t0 + 10_000);
        JsonNode w = volume(vol).path("workload");
        assertThat(w.isObject()).as(volume(vol).toString()).isTrue();
        assertThat(w.path("readFraction").asDouble()).isCloseTo(0.25, within(1e-9));
        assertThat(w.path("avgReadBytes").asDouble()).isCloseTo(4096, within(1e-6));
        assertThat(w.path("avgWriteBytes").asDouble()).isCloseTo(16384, within(1e-6));
        assertThat(w.path("readIops").asDouble()).isCloseTo(10, within(1e-9));
        assertThat(w.path("writeIops").asDouble()).isCloseTo(30, within(1e-9));
        assertThat(w.path("avgQueueDepth").asDouble()).as("(4 s + 36 s) / 10 s in flight").isCloseTo(4, within(1e-9));
        assertThat(w.path("sampledSeconds").asDouble()).isCloseTo(10, within(1e-9));
        assertThat(w.path("sampledAt").asText()).isNotEmpty();

        // a new QEMU counts from 0: a baseline again, never a negative delta; the profile stays
        vmAction(vm, "stopVmInstance");
        vmAction(vm, "startVmInstance");
        counters(source, new BlockStats(1, 512, 1000, 0, 0, 0), t0 + 20_000);
        JsonNode after = volume(vol).path("workload");
        assertThat(after.path("readFraction").asDouble()).isCloseTo(0.25, within(1e-9));
        assertThat(after.path("sampledSeconds").asDouble()).isCloseTo(10, within(1e-9));

        // off: no counters are asked for any more
        global("kvm", "vm.workload.sampleInterval", "0");
        long asked = agent.blockStatsLists.get();
        try {
            sleep(3000);
            assertThat(agent.blockStatsLists.get()).as("sampling off").isLessThanOrEqualTo(asked + 1);
        } finally {
            global("kvm", "vm.workload.sampleInterval", "1");
        }
        vmAction(vm, "stopVmInstance");
    }

    @Test
    void autoWithABenchmarkPicksTheBestModeForTheObservedWorkloadNotTheAggregate() {
        // the aggregate favours io_uring (2x on six workloads); 4K writes at depth 16 run 3x faster with native
        agent.benchCells = BenchCells.aggregateFavoursIoUringExcept("qcow2-full", "randwrite-4k-qd16", 3000, 1500);
        Http.Response bench = f.http.post("/v1/hosts/" + host + "/io-benchmarks", admin,
                "{\"params\":{\"primaryStorageUuids\":[\"" + ps + "\"],\"seconds\":5}}");
        assertThat(bench.status()).as(bench.raw()).isEqualTo(200);
        String vol = f.volume(admin, "a", "qcow2", "full", ps, host, 1L << 20);
        Http.Response set = f.http.put("/v1/resource-configurations/kvm/vm.ioMode/" + vol + "/actions", admin,
                "{\"updateResourceConfig\":{\"value\":\"auto\"}}");
        assertThat(set.status()).as(set.raw()).isEqualTo(200);
        String source = volume(vol).path("installPath").asText();
        String vm = f.vm(admin, "avm", host, List.of(vol));
        long t0 = 1_700_000_100_000L;
        agent.counters = new SimulatedAgent.Counters(Map.of(source, new BlockStats(0, 0, 0, 0, 0, 0)), t0);
        vmAction(vm, "startVmInstance");
        JsonNode first = volume(vol).path("ioModeDecision");
        assertThat(first.path("effective").asText()).as(first.toString()).isEqualTo("io_uring");
        assertThat(first.path("reason").asText()).contains("fastest measured");
        assertThat(first.path("optimizedFor").isNull()).isTrue();

        // 10 s of 4 KiB writes, 16 in flight on average: exactly the randwrite-4k-qd16 cell
        counters(source, new BlockStats(0, 0, 0, 0, 0, 0), t0);
        counters(source, new BlockStats(0, 0, 0, 5000, 5000L * 4096, 160_000_000_000L), t0 + 10_000);
        JsonNode preview = f.ioMode(admin, vol);
        assertThat(preview.path("effective").asText()).as(preview.toString()).isEqualTo("native");
        assertThat(preview.path("optimizedFor").path("avgQueueDepth").asDouble()).isCloseTo(16, within(1e-9));

        vmAction(vm, "stopVmInstance");
        vmAction(vm, "startVmInstance");
        JsonNode d = volume(vol).path("ioModeDecision");
        assertThat(d.path("effective").asText()).as(d.toString()).isEqualTo("native");
        assertThat(d.path("reason").asText()).contains("best for this disk's observed workload (100 % 4K writes, depth ~16)",
                "3.00x threads");
        JsonNode opt = d.path("optimizedFor");
        assertThat(opt.path("readFraction").asDouble()).isZero();
        assertThat(opt.path("avgWriteBytes").asDouble()).isCloseTo(4096, within(1e-6));
        assertThat(opt.path("avgQueueDepth").asDouble()).isCloseTo(16, within(1e-9));
        assertThat(opt.path("writeIops").asDouble()).isCloseTo(500, within(1e-9));
        vmAction(vm, "stopVmInstance");
    }

    private static void sleep(long ms) {
        try {
            Thread.sleep(ms);
        } catch (InterruptedException e) {
            throw new AssertionError(e);
        }
    }
}
