package org.zstack.aio.test.state;

import org.junit.jupiter.api.Test;
import org.zstack.aio.agent.AgentSettings;
import org.zstack.aio.agent.KvmAgent;
import org.zstack.aio.test.support.Fixture;
import org.zstack.aio.test.support.Http;
import org.zstack.aio.test.support.QemuProcess;
import org.zstack.aio.test.support.RealComponents;
import org.zstack.aio.test.support.ServerProcess;
import org.zstack.aio.test.support.Storage;
import org.zstack.aio.test.support.TestDatabase;

import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Acceptance (contract §6): the server SIGKILLed at many points of a real VM start and of a real stop (real MariaDB,
 * real agent in this JVM, real QEMU); after each restart, within 30 s, the VM is Running with exactly one QEMU or
 * Stopped with none, and start and stop work. Kill delays: AIO_KILL_START_MS / AIO_KILL_STOP_MS (comma-separated ms).
 * CI (CI=true) runs the full 10 + 10 points (FULL_* below, ~5.5 min); a local run 5 + 5 over the same range (~3 min).
 */
class ServerKillE2ETest {

    static final Duration CONSISTENT_WITHIN = Duration.ofSeconds(30);
    static final String FULL_START = "0,30,80,150,250,400,600,900,1300,2000";
    static final String FULL_STOP = "0,10,25,45,70,100,150,220,350,600";
    static final String START_DELAYS = System.getenv().getOrDefault("AIO_KILL_START_MS", RealComponents.ci() ? FULL_START : "0,80,250,600,1300");
    static final String STOP_DELAYS = System.getenv().getOrDefault("AIO_KILL_STOP_MS", RealComponents.ci() ? FULL_STOP : "0,25,70,150,350");

    record Outcome(String phase, long delayMs, String state, int qemus, long consistentMs) {
    }

    @Test
    void killedAtAnyPointOfAStartOrAStopTheVmIsConsistentWithin30sAndStillStartsAndStops() throws Exception {
        RealComponents.require(QemuProcess.libvirtAnswers(), "libvirtd at qemu:///system", "run bin/lib/setup-libvirt.sh as root");
        long[] starts = parse(START_DELAYS);
        long[] stops = parse(STOP_DELAYS);
        Path log = Path.of("target", "server-kill-" + System.currentTimeMillis() + ".log");
        List<Outcome> outcomes = new ArrayList<>();
        try (TestDatabase db = TestDatabase.mariadb();
             KvmAgent agent = KvmAgent.start(AgentSettings.defaults().withBindAddress("127.0.0.1").withPort(0)
                     .withLibvirtUri("qemu:///system").withDataDir(Path.of(Storage.dir("kill-agent-data"))))) {
            ServerProcess server = ServerProcess.start(db, log, Map.of(), Duration.ofSeconds(90));
            String vm;
            try {
                Fixture f = new Fixture(server.baseUrl());
                String admin = f.adminSession();
                String ps = f.primaryStorage(admin, "local", "LocalStorage", Storage.dir("kill-local"));
                String host = f.host(admin, agent.port(), agent.enrollmentToken());
                String vol = f.volume(admin, "root", "qcow2", "full", ps, host, 64L << 20);
                vm = f.vm(admin, "kill", host, List.of(vol));
            } catch (RuntimeException | Error e) {
                server.kill();
                throw e;
            }
            try {
                for (int i = 0; i < Math.max(starts.length, stops.length); i++) {
                    if (i < starts.length) {
                        server = killDuring(server, db, log, vm, "Stopped", "startVmInstance", starts[i], outcomes);
                    }
                    if (i < stops.length) {
                        server = killDuring(server, db, log, vm, "Running", "stopVmInstance", stops[i], outcomes);
                    }
                }
                Fixture f = new Fixture(server.baseUrl());
                String admin = f.adminSession();
                if ("Running".equals(state(f, admin, vm))) action(f, admin, vm, "stopVmInstance");
                assertThat(ServerProcess.qemuCount(vm)).isZero();
            } finally {
                server.close();
                outcomes.forEach(o -> System.out.printf("kill: %-16s at %5d ms -> %-7s qemus=%d consistent after %d ms%n",
                        o.phase(), o.delayMs(), o.state(), o.qemus(), o.consistentMs()));
                agent.close();
                new ProcessBuilder("virsh", "-c", "qemu:///system", "destroy", vm).start().waitFor();
            }
        }
        assertThat(outcomes).hasSize(starts.length + stops.length);
    }

    /** Brings the VM to {@code from}, sends the action, SIGKILLs the server after {@code delayMs}, restarts, checks. */
    ServerProcess killDuring(ServerProcess server, TestDatabase db, Path log, String vm, String from, String action,
                             long delayMs, List<Outcome> outcomes) throws Exception {
        Fixture f = new Fixture(server.baseUrl());
        String admin = f.adminSession();
        if (!from.equals(state(f, admin, vm))) action(f, admin, vm, "Running".equals(from) ? "startVmInstance" : "stopVmInstance");
        CompletableFuture<?> sent = CompletableFuture.runAsync(() -> {
            try {
                f.http.put("/v1/vm-instances/" + vm + "/actions", admin, "{\"" + action + "\":{}}");
            } catch (RuntimeException killed) {
                // the server died under the request: that is the point
            }
        });
        Thread.sleep(delayMs);
        server.kill();
        sent.join();
        long t0 = System.nanoTime();
        ServerProcess next = ServerProcess.start(db, log, Map.of(), Duration.ofSeconds(90));
        Fixture g = new Fixture(next.baseUrl());
        String admin2 = g.adminSession();
        String state;
        int qemus;
        while (true) {
            state = state(g, admin2, vm);
            qemus = ServerProcess.qemuCount(vm);
            boolean consistent = ("Running".equals(state) && qemus == 1) || ("Stopped".equals(state) && qemus == 0);
            if (consistent) break;
            if (System.nanoTime() - t0 > CONSISTENT_WITHIN.toNanos()) {
                throw new AssertionError(action + " killed at " + delayMs + " ms: after " + CONSISTENT_WITHIN
                        + " the VM is " + state + " with " + qemus + " QEMU process(es)");
            }
            Thread.sleep(250);
        }
        outcomes.add(new Outcome(action, delayMs, state, qemus, (System.nanoTime() - t0) / 1_000_000));
        // start and stop work from here
        if ("Running".equals(state)) {
            action(g, admin2, vm, "stopVmInstance");
            assertThat(ServerProcess.qemuCount(vm)).isZero();
        }
        action(g, admin2, vm, "startVmInstance");
        assertThat(ServerProcess.qemuCount(vm)).isEqualTo(1);
        return next;
    }

    static void action(Fixture f, String admin, String vm, String action) {
        Http.Response r = f.http.put("/v1/vm-instances/" + vm + "/actions", admin, "{\"" + action + "\":{}}");
        assertThat(r.status()).as(action + ": " + r.raw()).isEqualTo(200);
    }

    static String state(Fixture f, String admin, String vm) {
        return f.http.get("/v1/vm-instances/" + vm, admin).body().path("inventory").path("state").asText();
    }

    static long[] parse(String csv) {
        return Arrays.stream(csv.split(",")).map(String::trim).filter(s -> !s.isEmpty()).mapToLong(Long::parseLong).toArray();
    }
}
