package org.zstack.aio.test.ui;

import com.fasterxml.jackson.databind.JsonNode;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.zstack.aio.agent.api.VmListRsp.BlockStats;
import org.zstack.aio.server.workload.WorkloadSampler;
import org.zstack.aio.test.support.BenchCells;
import org.zstack.aio.test.support.Fixture;
import org.zstack.aio.test.support.Http;
import org.zstack.aio.test.support.RunningServer;
import org.zstack.aio.test.support.SimulatedAgent;
import org.zstack.aio.test.support.Storage;
import org.zstack.aio.test.support.TestDatabase;

import java.util.List;
import java.util.Locale;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Issue 14 item 5 in a real headless Chromium: the volume page shows each volume's observed workload as the API has
 * it, "not observed yet" without one, and for an auto decision that weighed the host's benchmark by the workload,
 * which workload it optimised for (the preview's optimizedFor) next to its reason.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class WorkloadUiTest {

    TestDatabase db;
    RunningServer server;
    SimulatedAgent agent;
    Fixture f;
    Http http;
    Browser b;
    String admin;
    String observed;
    String quiet;

    @BeforeAll
    void boot() throws Exception {
        Browser.requireChromium();
        db = TestDatabase.h2();
        server = RunningServer.start(db);
        agent = new SimulatedAgent();
        f = new Fixture(server);
        http = f.http;
        admin = f.adminSession();
        String ps = f.primaryStorage(admin, "local-ssd", "LocalStorage", Storage.dir("ui-workload"));
        String host = f.host(admin, agent.port(), agent.enrollmentToken());
        // a benchmark whose aggregate favours io_uring while 4K writes at depth 16 run best with native
        agent.benchCells = BenchCells.aggregateFavoursIoUringExcept("qcow2-full", "randwrite-4k-qd16", 3000, 1000);
        ok(http.post("/v1/hosts/" + host + "/io-benchmarks", admin, "{\"params\":{\"primaryStorageUuids\":[\"" + ps + "\"]}}"));
        ok(http.put("/v1/global-configurations/kvm/vm.ioMode/actions", admin, "{\"updateGlobalConfig\":{\"value\":\"auto\"}}"));
        observed = f.volume(admin, "db-disk", "qcow2", "full", ps, host);
        quiet = f.volume(admin, "idle-disk", "qcow2", "full", ps, host);
        f.vm(admin, "vm-db", host, List.of(observed, quiet));
        // two samples 60 s apart of the db disk: 3 reads for every 7 writes, 4 KiB, ~16 in flight
        WorkloadSampler sampler = server.bean(WorkloadSampler.class);
        sampler.record(host, 1_700_000_000_000L, List.of(new WorkloadSampler.DiskSample(observed, 3, new BlockStats(0, 0, 0, 0, 0, 0))));
        sampler.record(host, 1_700_000_060_000L, List.of(new WorkloadSampler.DiskSample(observed, 3,
                new BlockStats(300, 300 * 4096L, 96_000_000_000L, 700, 700 * 4096L, 864_000_000_000L))));
        b = Browser.open(server.baseUrl());
    }

    @AfterAll
    void shutdown() throws Exception {
        if (b != null) b.close();
        if (server != null) server.close();
        if (agent != null) agent.close();
        if (db != null) db.close();
    }

    private static void ok(Http.Response r) {
        assertThat(r.status()).as(r.raw()).isEqualTo(200);
    }

    @Test
    void theVolumePageShowsTheObservedWorkloadAndWhatAutoOptimisedFor() throws Exception {
        JsonNode w = http.get("/v1/volumes/" + observed, admin).body().path("inventory").path("workload");
        assertThat(w.path("readFraction").asDouble()).isEqualTo(0.3);
        JsonNode d = f.ioMode(admin, observed);
        assertThat(d.path("effective").asText()).as(d.toString()).isEqualTo("native");
        assertThat(d.path("optimizedFor").isObject()).isTrue();

        b.login("admin", RunningServer.ADMIN_PASSWORD);
        b.page("volumes");
        String shown = b.text("[data-workload='" + observed + "']");
        assertThat(shown).startsWith(text(w)).contains("over 60 s");
        assertThat(shown).contains("30 % reads", "4.0 KiB per read", "5.0 reads/s", "11.7 writes/s", "16.0 in flight");
        assertThat(b.text("[data-workload='" + quiet + "']")).isEqualTo("not observed yet");
        assertThat(b.text("[data-reason='" + observed + "']")).isEqualTo(d.path("reason").asText())
                .contains("observed workload (70 % 4K writes, depth ~16)");
        assertThat(b.text("[data-optimized-for='" + observed + "']")).isEqualTo("optimised for: " + text(d.path("optimizedFor")));
        assertThat(b.all("[data-optimized-for='" + quiet + "']")).as("no workload: the aggregate decides").isEmpty();
        assertThat(b.text("[data-reason='" + quiet + "']")).contains("fastest measured");
        b.fullScreenshot("20-volumes-workload-1280");
        b.viewport(420, 900);
        b.page("volumes");
        assertThat(b.visible("[data-workload='" + observed + "']").getText()).startsWith(text(w));
        b.fullScreenshot("21-volumes-workload-420");
    }

    /** The page's wording of a workload (volumes.js workloadText), from the API's numbers. */
    private static String text(JsonNode w) {
        return Math.round(w.path("readFraction").asDouble() * 100) + " % reads · " + bytes(Math.round(w.path("avgReadBytes").asDouble()))
               + " per read, " + bytes(Math.round(w.path("avgWriteBytes").asDouble())) + " per write · "
               + String.format(Locale.ROOT, "%.1f reads/s, %.1f writes/s · %.1f in flight", w.path("readIops").asDouble(),
                w.path("writeIops").asDouble(), w.path("avgQueueDepth").asDouble());
    }

    /** dom.js bytes(). */
    private static String bytes(double n) {
        String[] u = {"B", "KiB", "MiB", "GiB", "TiB"};
        int i = 0;
        while (n >= 1024 && i < u.length - 1) {
            n /= 1024;
            i++;
        }
        return (i == 0 || n >= 100 ? String.format(Locale.ROOT, "%.0f", n) : String.format(Locale.ROOT, "%.1f", n)) + " " + u[i];
    }
}
