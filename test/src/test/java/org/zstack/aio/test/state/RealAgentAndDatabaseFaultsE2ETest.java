package org.zstack.aio.test.state;

import com.fasterxml.jackson.databind.JsonNode;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.zstack.aio.test.support.AgentProcess;
import org.zstack.aio.test.support.Fixture;
import org.zstack.aio.test.support.Http;
import org.zstack.aio.test.support.QemuProcess;
import org.zstack.aio.test.support.RealComponents;
import org.zstack.aio.test.support.RunningServer;
import org.zstack.aio.test.support.ServerProcess;
import org.zstack.aio.test.support.StandaloneMariaDb;
import org.zstack.aio.test.support.Storage;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.function.Supplier;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Contract §6 "State", the faults produced for real: a real agent process (libvirt qemu:///system, real QEMU)
 * SIGKILLed and restarted, SIGSTOPped in the middle of a stop and SIGCONTed, and the database itself (a MariaDB of
 * this test's own, never the shared one) stopped for 20 s in the middle of a VM start. After each, the API agrees
 * with libvirt: a VM is Running with exactly one QEMU or Stopped with none, and it starts and stops again.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class RealAgentAndDatabaseFaultsE2ETest {

    static final Duration TRACKED_WITHIN = Duration.ofSeconds(15);
    static final Duration DB_DOWN = Duration.ofSeconds(20);
    static final int DB_PORT = Integer.parseInt(System.getenv().getOrDefault("AIO_FAULT_DB_PORT", "3351"));

    StandaloneMariaDb db;
    AgentProcess agent;
    RunningServer server;
    Fixture f;
    String admin;
    String ps;
    String host;

    @BeforeAll
    void boot() throws Exception {
        RealComponents.require(QemuProcess.libvirtAnswers(), "libvirtd at qemu:///system", "run bin/lib/setup-libvirt.sh as root");
        db = StandaloneMariaDb.create("faults", DB_PORT);
        agent = AgentProcess.start("faults", "qemu:///system");
        // the server gives up on an agent call after 8 s (the hung-agent case), pings at its default 10 s
        server = RunningServer.start(db.database(), Map.of("aio.agent.timeout", "PT8S", "aio.embedded-agent", "false"));
        f = new Fixture(server);
        admin = f.adminSession();
        ps = f.primaryStorage(admin, "local", "LocalStorage", Storage.dir("faults-local"));
        host = f.host(admin, agent.port(), agent.enrollmentToken());
    }

    @AfterAll
    void shutdown() throws Exception {
        if (server != null) server.close();
        if (agent != null) agent.close();
        if (db != null) db.close();
    }

    @Test
    void anAgentKilledIsDisconnectedWithin15sAndConnectedWithin15sOfItsRestart() throws Exception {
        assertThat(hostStatus()).isEqualTo("Connected");
        agent.signal("KILL");
        long down = waitFor(() -> "Disconnected".equals(hostStatus()), "host Disconnected after the agent's SIGKILL");
        agent.start("qemu:///system");
        long up = waitFor(() -> "Connected".equals(hostStatus()), "host Connected after the agent's restart");
        System.out.printf("faults: agent SIGKILL -> Disconnected after %d ms; restart -> Connected after %d ms%n", down, up);
        String vm = vm("after-agent-kill"); // and the host works again
        action(vm, "startVmInstance");
        assertThat(ServerProcess.qemuCount(vm)).isEqualTo(1);
        action(vm, "stopVmInstance");
        assertThat(ServerProcess.qemuCount(vm)).isZero();
    }

    @Test
    void aStopTheAgentIsFrozenInIsUnknownThenConsistentWithin15sOfSigcont() throws Exception {
        String vm = vm("frozen-stop");
        action(vm, "startVmInstance");
        assertThat(ServerProcess.qemuCount(vm)).isEqualTo(1);
        CompletableFuture<Http.Response> stop = CompletableFuture.supplyAsync(() ->
                f.http.put("/v1/vm-instances/" + vm + "/actions", admin, "{\"stopVmInstance\":{}}"));
        Thread.sleep(5); // the stop is on its way or being carried out: the agent does it after SIGCONT
        agent.signal("STOP");
        Http.Response r;
        try {
            r = stop.join();
            assertThat(r.status()).as(r.raw()).isEqualTo(503);
            assertThat(r.body().path("error").path("description").asText()).contains("is now Unknown");
            assertThat(r.raw()).doesNotContain("nothing was changed");
            assertThat(state(vm)).isEqualTo("Unknown");
        } finally {
            agent.signal("CONT");
        }
        long settled = waitFor(() -> consistent(vm), "VM consistent with libvirt after SIGCONT");
        System.out.printf("faults: stop frozen by SIGSTOP answered %d; after SIGCONT %s with %d QEMU after %d ms%n",
                r.status(), state(vm), qemus(vm), settled);
        startAndStopWork(vm);
    }

    @Test
    void theDatabaseStopped20sInTheMiddleOfAStartLeavesTheVmConsistentWithin30sOfItsReturn() throws Exception {
        String vm = vm("db-outage");
        CompletableFuture<Http.Response> start = CompletableFuture.supplyAsync(() ->
                f.http.put("/v1/vm-instances/" + vm + "/actions", admin, "{\"startVmInstance\":{}}"));
        long deadline = System.nanoTime() + Duration.ofSeconds(30).toNanos();
        while (qemus(vm) == 0) { // the middle of the start: the agent has started QEMU, the server has not recorded it
            assertThat(System.nanoTime()).as("QEMU started by the start").isLessThan(deadline);
            Thread.sleep(5);
        }
        db.stop();
        long downAt = System.nanoTime();
        Thread.sleep(DB_DOWN.toMillis());
        db.start();
        long back = System.nanoTime();
        Http.Response r = start.join();
        System.out.printf("faults: start with the database down %d s answered %d after it came back: %s%n",
                DB_DOWN.toSeconds(), r.status(), r.raw());
        assertThat(r.status()).as(r.raw()).isNotEqualTo(500);
        if (r.status() != 200) {
            assertThat(r.raw()).as("QEMU runs: a failure must not claim nothing changed").doesNotContain("nothing was changed");
        }
        long t = waitFor(() -> consistent(vm), Duration.ofSeconds(30), "VM consistent within 30 s of the database's return");
        System.out.printf("faults: database down %d ms; VM %s with %d QEMU %d ms after it came back%n",
                (back - downAt) / 1_000_000, state(vm), qemus(vm), t);
        startAndStopWork(vm);
    }

    void startAndStopWork(String vm) throws Exception {
        if ("Running".equals(state(vm))) action(vm, "stopVmInstance");
        assertThat(qemus(vm)).isZero();
        action(vm, "startVmInstance");
        assertThat(qemus(vm)).isEqualTo(1);
        action(vm, "stopVmInstance");
        assertThat(qemus(vm)).isZero();
    }

    boolean consistent(String vm) {
        String s = state(vm);
        int q = qemus(vm);
        return ("Running".equals(s) && q == 1) || ("Stopped".equals(s) && q == 0);
    }

    String vm(String name) {
        String vol = f.volume(admin, name, "qcow2", "full", ps, host, 64L << 20);
        return f.vm(admin, name, host, List.of(vol));
    }

    void action(String vm, String action) {
        Http.Response r = f.http.put("/v1/vm-instances/" + vm + "/actions", admin, "{\"" + action + "\":{}}");
        assertThat(r.status()).as(action + ": " + r.raw()).isEqualTo(200);
    }

    String state(String vm) {
        JsonNode inv = f.http.get("/v1/vm-instances/" + vm, admin).body().path("inventory");
        return inv.path("state").asText();
    }

    String hostStatus() {
        return f.http.get("/v1/hosts/" + host, admin).body().path("inventory").path("status").asText();
    }

    static int qemus(String vm) {
        try {
            return ServerProcess.qemuCount(vm);
        } catch (java.io.IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }

    static long waitFor(Supplier<Boolean> done, String what) {
        return waitFor(done, TRACKED_WITHIN, what);
    }

    static long waitFor(Supplier<Boolean> done, Duration within, String what) {
        long t0 = System.nanoTime();
        while (!done.get()) {
            if (System.nanoTime() - t0 > within.toNanos()) throw new AssertionError(what + ": not within " + within);
            try {
                Thread.sleep(200);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new AssertionError(e);
            }
        }
        return (System.nanoTime() - t0) / 1_000_000;
    }
}
