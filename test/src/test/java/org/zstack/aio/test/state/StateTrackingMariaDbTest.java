package org.zstack.aio.test.state;

import com.fasterxml.jackson.databind.JsonNode;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.mockito.AdditionalAnswers;
import org.mockito.Mockito;
import org.springframework.dao.DataAccessResourceFailureException;
import org.springframework.transaction.support.TransactionTemplate;
import org.zstack.aio.server.account.Caller;
import org.zstack.aio.server.agent.AgentClient;
import org.zstack.aio.server.api.ApiException;
import org.zstack.aio.server.host.HostService;
import org.zstack.aio.server.inventory.VolumeRepository;
import org.zstack.aio.server.iomode.DiskPlanner;
import org.zstack.aio.server.vm.OperationLeases;
import org.zstack.aio.server.vm.VmAttach;
import org.zstack.aio.server.vm.VmLifecycle;
import org.zstack.aio.server.vm.VmMigration;
import org.zstack.aio.server.vm.VmOperationRunner;
import org.zstack.aio.server.vm.VmService;
import org.zstack.aio.server.vm.VmStateRepository;
import org.zstack.aio.server.volume.VolumeService;
import org.zstack.aio.test.support.Fixture;
import org.zstack.aio.test.support.Http;
import org.zstack.aio.test.support.RunningServer;
import org.zstack.aio.test.support.SimulatedAgent;
import org.zstack.aio.test.support.TestDatabase;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.function.Supplier;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * Contract §6 "State" on the real MariaDB with an agent whose libvirt is simulated (so each fault is exact): the host
 * tracker at its default 10 s interval, domains that vanish or appear outside the platform, a hung agent (Unknown),
 * operations a crashed node left behind, one hot-plug per volume, and an agent success whose transaction failed.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class StateTrackingMariaDbTest {

    static final Duration TRACKED_WITHIN = Duration.ofSeconds(15);

    TestDatabase db;
    RunningServer server;
    SimulatedAgent agent;
    Fixture f;
    String admin;
    String ps;
    String host;

    @BeforeAll
    void boot() throws Exception {
        db = TestDatabase.mariadb();
        server = RunningServer.start(db, Map.of("aio.agent.timeout", "PT3S"));
        agent = new SimulatedAgent();
        f = new Fixture(server);
        admin = f.adminSession();
        ps = f.primaryStorage(admin, "local", "LocalStorage", "/var/tmp/aio-sim-state");
        host = f.host(admin, agent.port(), agent.enrollmentToken());
    }

    @AfterAll
    void shutdown() throws Exception {
        if (server != null) server.close();
        if (agent != null) agent.close();
        if (db != null) db.close();
    }

    @Test
    void aHostWhoseAgentStopsAnsweringIsDisconnectedAndConnectedAgainWithin15s() {
        agent.pingsFail = true;
        long t = waitFor(() -> "Disconnected".equals(hostStatus()), "host Disconnected");
        System.out.printf("state: host Disconnected after %d ms%n", t);
        agent.pingsFail = false;
        t = waitFor(() -> "Connected".equals(hostStatus()), "host Connected");
        System.out.printf("state: host Connected after %d ms%n", t);
    }

    @Test
    void aDomainGoneOutsideThePlatformIsStoppedWithItsReasonWithin15s() {
        String vm = vm("gone");
        start(vm);
        waitFor(() -> !volumeOf(vm).path("running").isNull(), "the live disk read back");
        JsonNode running = volumeOf(vm).path("running");
        assertThat(running.path("io").asText()).as("the live io is shown").isNotEmpty();
        assertThat(running.path("hostUuid").asText()).isEqualTo(host);

        agent.running.remove(vm); // virsh destroy, a QEMU crash
        long t = waitFor(() -> "Stopped".equals(state(vm)), "VM Stopped");
        System.out.printf("state: vanished domain Stopped after %d ms%n", t);
        assertThat(vmInventory(vm).path("stateReason").asText()).contains("outside the platform");
        waitFor(() -> volumeOf(vm).path("running").isNull(), "no running disk once stopped");
        start(vm); // and it starts again
        stop(vm);
    }

    @Test
    void aVmRunningWhereTheDatabaseSaysStoppedIsAdoptedNotKilled() {
        String vm = vm("adopt");
        agent.running.add(vm);
        waitFor(() -> "Running".equals(state(vm)), "VM adopted as Running");
        assertThat(vmInventory(vm).path("stateReason").asText()).contains("adopted");
        assertThat(agent.running).as("the tracker never stops a domain").contains(vm);
        stop(vm);
        assertThat(agent.running).doesNotContain(vm);
    }

    @Test
    void aStopTheAgentHangsOnIsUnknownThenSettledWithin15sOfTheAgentGoingOn() {
        String vm = vm("hung");
        start(vm);
        agent.holdStops = new CountDownLatch(1);
        try {
            Http.Response r = f.http.put("/v1/vm-instances/" + vm + "/actions", admin, "{\"stopVmInstance\":{}}");
            assertThat(r.status()).as(r.raw()).isEqualTo(503);
            assertThat(r.body().path("error").path("description").asText()).contains("is now Unknown");
            assertThat(r.raw()).doesNotContain("nothing was changed");
            assertThat(state(vm)).isEqualTo("Unknown");
            // while the agent hangs, the domain still runs: the tracker settles it to what libvirt says, Running
            waitFor(() -> "Running".equals(state(vm)), "Unknown settled from libvirt");
        } finally {
            agent.holdStops.countDown(); // SIGCONT: the agent carries the stop out
            agent.holdStops = null;
        }
        long t = waitFor(() -> "Stopped".equals(state(vm)), "VM Stopped after the agent went on");
        System.out.printf("state: hung stop consistent %d ms after the agent went on%n", t);
        start(vm);
        stop(vm);
    }

    @Test
    void startingAndStoppingLeftByACrashedNodeAreSettledAtBootBeforeHealthy() throws Exception {
        String running = vm("left-starting-running");
        String gone = vm("left-starting-gone");
        String stopping = vm("left-stopping");
        agent.running.add(running);
        agent.running.add(stopping);
        // a node that died mid-operation: its lease lapsed long ago
        try (Connection c = db.connect(); PreparedStatement st = c.prepareStatement(
                "UPDATE VmInstanceVO SET state = ?, opLeaseUntil = NOW(3) - INTERVAL 1 MINUTE WHERE uuid = ?")) {
            for (String[] p : new String[][]{{"Starting", running}, {"Starting", gone}, {"Stopping", stopping}}) {
                st.setString(1, p[0]);
                st.setString(2, p[1]);
                st.executeUpdate();
            }
        }
        // a second node boots on the same database: its boot reconciliation settles them before it is healthy
        RunningServer second = RunningServer.start(db, Map.of("aio.agent.timeout", "PT3S"));
        try {
            Http h = new Http(second.baseUrl());
            assertThat(h.get("/health", null).status()).isEqualTo(200);
            assertThat(state(running)).isEqualTo("Running");
            assertThat(state(gone)).isEqualTo("Stopped");
            assertThat(state(stopping)).isEqualTo("Running");
            assertThat(vmInventory(gone).path("stateReason").asText()).contains("interrupted Starting");
        } finally {
            second.closeLeavingVms();
        }
        stop(running);
        stop(stopping);
        start(gone);
        stop(gone);
    }

    /** Issue 13: a node that died mid-migration; at boot the tracker asks BOTH hosts where each domain runs. */
    @Test
    void migrationsLeftByACrashedNodeAreSettledAtBootOnTheHostThatRunsThem() throws Exception {
        try (SimulatedAgent agentB = new SimulatedAgent()) {
            String hostB = f.host(admin, agentB.port(), agentB.enrollmentToken());
            String arrived = vm("left-migrating-arrived");
            String stayed = vm("left-migrating-stayed");
            String lost = vm("left-migrating-lost");
            agentB.running.add(arrived);
            agent.running.add(stayed);
            try (Connection c = db.connect(); PreparedStatement st = c.prepareStatement("UPDATE VmInstanceVO SET state = "
                    + "'Migrating', migrateHostUuid = ?, opLeaseUntil = NOW(3) - INTERVAL 1 MINUTE WHERE uuid = ?")) {
                for (String vm : List.of(arrived, stayed, lost)) {
                    st.setString(1, hostB);
                    st.setString(2, vm);
                    st.executeUpdate();
                }
            }
            RunningServer second = RunningServer.start(db, Map.of("aio.agent.timeout", "PT3S"));
            try {
                assertThat(new Http(second.baseUrl()).get("/health", null).status()).isEqualTo(200);
                assertThat(state(arrived)).isEqualTo("Running");
                assertThat(vmInventory(arrived).path("hostUuid").asText()).as("it completed: on B").isEqualTo(hostB);
                assertThat(vmInventory(arrived).path("stateReason").asText()).contains("interrupted migration");
                assertThat(state(stayed)).isEqualTo("Running");
                assertThat(vmInventory(stayed).path("hostUuid").asText()).as("libvirt never switched over").isEqualTo(host);
                assertThat(state(lost)).isEqualTo("Stopped");
                assertThat(vmInventory(lost).path("hostUuid").asText()).isEqualTo(host);
            } finally {
                second.closeLeavingVms();
            }
            stop(arrived);
            stop(stayed);
        }
    }

    /**
     * A migration is planned on one read of the VM; if the VM is stopped, moved and started elsewhere before the claim
     * (another request, another node), the claim must fail: the source agent it would ask is no longer the VM's host.
     */
    @Test
    void aMigrationPlannedOnAStaleReadOfTheVmIsRefusedAndChangesNothing() throws Exception {
        try (SimulatedAgent agentB = new SimulatedAgent()) {
            String shared = f.primaryStorage(admin, "shared-stale", "SharedMountPoint", "/var/tmp/aio-sim-shared-stale");
            String hostB = f.host(admin, agentB.port(), agentB.enrollmentToken());
            String vm = f.vm(admin, "stale-plan", host, List.of(f.volume(admin, "root-stale-plan", "qcow2", "full", shared, host)));
            start(vm);
            DiskPlanner real = server.bean(DiskPlanner.class);
            DiskPlanner racing = Mockito.mock(DiskPlanner.class, AdditionalAnswers.delegatesTo(real));
            // between the migration's read of the VM and its claim: stopped, cold-moved to B and started there
            Mockito.doAnswer(inv -> {
                agent.running.remove(vm);
                agentB.running.add(vm);
                try (Connection c = db.connect(); PreparedStatement st = c.prepareStatement(
                        "UPDATE VmInstanceVO SET hostUuid = ?, stateVersion = stateVersion + 3 WHERE uuid = ?")) {
                    st.setString(1, hostB);
                    st.setString(2, vm);
                    st.executeUpdate();
                }
                return real.forMigration(inv.getArgument(0), inv.getArgument(1));
            }).when(racing).forMigration(Mockito.eq(vm), Mockito.any());
            VmMigration migration = new VmMigration(server.bean(VmService.class), server.bean(HostService.class), racing,
                    server.bean(AgentClient.class), runner(server.bean(VmStateRepository.class),
                    server.bean(TransactionTemplate.class)), server.bean(org.zstack.aio.server.metrics.IoModeMetrics.class),
                    java.time.Duration.ofMinutes(30));
            Caller caller = new Caller(adminUuid(), "admin", true, "test");

            assertThatThrownBy(() -> migration.migrate(caller, vm, hostB)).isInstanceOfSatisfying(ApiException.class, e -> {
                assertThat(e.code().status().value()).isEqualTo(409);
                assertThat(e.description()).contains("changed while its migration was being planned").contains(hostB);
            });
            assertThat(state(vm)).isEqualTo("Running");
            assertThat(vmInventory(vm).path("hostUuid").asText()).as("still where it runs").isEqualTo(hostB);
            assertThat(agentB.running).contains(vm);
            stop(vm);
        }
    }

    @Test
    void aLiveLeaseIsNotSettledByTheTracker() throws Exception {
        String vm = vm("leased");
        try (Connection c = db.connect(); PreparedStatement st = c.prepareStatement(
                "UPDATE VmInstanceVO SET state = 'Starting', opLeaseUntil = NOW(3) + INTERVAL 1 HOUR WHERE uuid = ?")) {
            st.setString(1, vm);
            st.executeUpdate();
        }
        long rounds = 0;
        long until = System.nanoTime() + Duration.ofSeconds(12).toNanos(); // more than one ping interval
        while (System.nanoTime() < until) {
            assertThat(state(vm)).as("another node's operation in flight stays its own").isEqualTo("Starting");
            rounds++;
            sleep(1000);
        }
        assertThat(rounds).isPositive();
        // the node's lease lapses (it died): the next round settles it from libvirt
        try (Connection c = db.connect(); PreparedStatement st = c.prepareStatement(
                "UPDATE VmInstanceVO SET opLeaseUntil = NOW(3) - INTERVAL 1 SECOND WHERE uuid = ?")) {
            st.setString(1, vm);
            st.executeUpdate();
        }
        waitFor(() -> "Stopped".equals(state(vm)), "lapsed lease settled");
    }

    @Test
    void twoConcurrentAttachesOfOneVolumeReachTheAgentOnce() throws Exception {
        String vm = vm("attach-twice");
        start(vm);
        String data = f.volume(admin, "data-twice", "qcow2", "full", ps, host);
        agent.holdAttaches = new CountDownLatch(1);
        long before = agent.attaches.get();
        CompletableFuture<Http.Response> first = CompletableFuture.supplyAsync(() ->
                f.http.post("/v1/volumes/" + data + "/vm-instances/" + vm, admin, "{}"));
        waitFor(() -> agent.attaches.get() == before + 1, "first attach at the agent");
        Http.Response second = f.http.post("/v1/volumes/" + data + "/vm-instances/" + vm, admin, "{}");
        assertThat(second.status()).as(second.raw()).isEqualTo(409);
        agent.holdAttaches.countDown();
        agent.holdAttaches = null;
        assertThat(first.join().status()).isEqualTo(200);
        assertThat(agent.attaches.get()).isEqualTo(before + 1);
        stop(vm);
    }

    @Test
    void anAttachTheAgentDidButTheDatabaseDidNotRecordIsRepairedByTheTracker() {
        String vm = vm("attach-repair");
        start(vm);
        String data = f.volume(admin, "data-repair", "qcow2", "full", ps, host);
        VolumeRepository real = server.bean(VolumeRepository.class);
        VolumeRepository failing = Mockito.mock(VolumeRepository.class, AdditionalAnswers.delegatesTo(real));
        // the transaction after the agent's success reads the volume to record the attach: that read fails
        Mockito.doThrow(new DataAccessResourceFailureException("injected: the database went away"))
                .when(failing).findById(data);
        VmAttach attaches = new VmAttach(server.bean(VmService.class), server.bean(VolumeService.class), failing,
                server.bean(HostService.class), server.bean(DiskPlanner.class), server.bean(AgentClient.class),
                runner(server.bean(VmStateRepository.class), server.bean(TransactionTemplate.class)));
        Caller caller = new Caller(adminUuid(), "admin", true, "test");
        long before = agent.attaches.get();
        assertThatThrownBy(() -> attaches.attach(caller, data, vm)).hasMessageContaining("injected");
        assertThat(agent.attaches.get()).as("the agent did attach").isEqualTo(before + 1);
        assertThat(volume(data).path("vmInstanceUuid").isNull()).as("recorded detached at first").isTrue();

        long t = waitFor(() -> vm.equals(volume(data).path("vmInstanceUuid").asText()), "attach repaired");
        System.out.printf("state: live disk recorded attached after %d ms%n", t);
        assertThat(volume(data).path("deviceId").asInt()).isEqualTo(1);
        assertThat(volume(data).path("running").path("hostUuid").asText()).isEqualTo(host);
        stop(vm);
    }

    /**
     * The database committed a claim, and a VM start's last step, and then the connection broke before the acknowledgement
     * (a Galera node killed at that moment): each is run again (UnitOfWork), finds the row already changed, and must know
     * the change as its own, by the operation's token. Before 4.9.13 the start answered its own claim 409 "VM ... is
     * Starting" and the VM stayed Starting until the lease lapsed; and a repeated last step wrote a second audit row.
     */
    @Test
    void aStartAndAStopWhoseCommitsWentUnacknowledgedCompleteOnceWithOneAuditRowEach() throws Exception {
        String vm = vm("unacknowledged");
        VmStateRepository real = server.bean(VmStateRepository.class);
        VmStateRepository lossy = Mockito.mock(VmStateRepository.class, AdditionalAnswers.delegatesTo(real));
        java.util.concurrent.atomic.AtomicInteger claimsLost = new java.util.concurrent.atomic.AtomicInteger();
        Mockito.doAnswer(inv -> {
            int n = real.claim(inv.getArgument(0), inv.getArgument(1), inv.getArgument(2), inv.getArgument(3), inv.getArgument(4));
            if (n == 1) {   // committed (its own transaction): the answer is lost on the way back
                claimsLost.incrementAndGet();
                throw acknowledgementLost();
            }
            return n;
        }).when(lossy).claim(Mockito.eq(vm), Mockito.anyString(), Mockito.anyString(), Mockito.any(), Mockito.anyString());
        java.util.concurrent.atomic.AtomicInteger lastStepsLost = new java.util.concurrent.atomic.AtomicInteger();
        java.util.concurrent.atomic.AtomicBoolean loseNextCommit = new java.util.concurrent.atomic.AtomicBoolean();
        TransactionTemplate lossyTx = new TransactionTemplate(server.bean(TransactionTemplate.class).getTransactionManager()) {
            @Override
            public <T> T execute(org.springframework.transaction.support.TransactionCallback<T> action) {
                T done = super.execute(action);   // committed
                if (loseNextCommit.getAndSet(false)) {
                    lastStepsLost.incrementAndGet();
                    throw acknowledgementLost();
                }
                return done;
            }
        };
        VmLifecycle lifecycle = lifecycle(lossy, server.bean(DiskPlanner.class), lossyTx);
        Caller caller = new Caller(adminUuid(), "admin", true, "test");
        long starts = agent.starts.get();
        long stops = agent.stops.get();

        loseNextCommit.set(true);
        VmLifecycle.StartResult started = lifecycle.start(caller, vm);
        assertThat(started.inventory().state()).isEqualTo("Running");
        assertThat(state(vm)).isEqualTo("Running");
        assertThat(agent.starts.get()).as("the agent was asked once").isEqualTo(starts + 1);
        loseNextCommit.set(true);
        assertThat(lifecycle.stop(caller, vm).state()).isEqualTo("Stopped");
        assertThat(state(vm)).isEqualTo("Stopped");
        assertThat(agent.stops.get()).isEqualTo(stops + 1);

        assertThat(claimsLost).as("both claims committed and lost their acknowledgement").hasValue(2);
        assertThat(lastStepsLost).as("both last steps committed and lost theirs").hasValue(2);
        Mockito.verify(lossy, Mockito.times(4)).claim(Mockito.eq(vm), Mockito.anyString(), Mockito.anyString(),
                Mockito.any(), Mockito.anyString());
        try (Connection c = db.connect(); PreparedStatement st = c.prepareStatement(
                "SELECT action, COUNT(*) FROM AuditVO WHERE resourceUuid = ? AND action IN ('StartVmInstance', 'StopVmInstance')"
                        + " GROUP BY action")) {
            st.setString(1, vm);
            java.sql.ResultSet rs = st.executeQuery();
            Map<String, Integer> rows = new java.util.TreeMap<>();
            while (rs.next()) rows.put(rs.getString(1), rs.getInt(2));
            assertThat(rows).as("one audit row per operation").containsExactlyEntriesOf(
                    new java.util.TreeMap<>(Map.of("StartVmInstance", 1, "StopVmInstance", 1)));
        }
        // and a start of the same VM through the server's own beans claims it normally afterwards
        start(vm);
        stop(vm);
    }

    /**
     * An operation longer than its lease (10 s) keeps it: this node renews the leases of its operations' tokens every
     * 3 s. Without the renewal the lease would have lapsed 3 s before it is read here, and any node's tracker could
     * settle the VM mid-start. Once the start ended, the lease is gone and the token stays (see the test above).
     */
    @Test
    void aStartLongerThanItsLeaseKeepsItRenewedByItsToken() throws Exception {
        String vm = vm("long-start");
        DiskPlanner real = server.bean(DiskPlanner.class);
        DiskPlanner slow = Mockito.mock(DiskPlanner.class, AdditionalAnswers.delegatesTo(real));
        java.util.concurrent.atomic.AtomicReference<String> seen = new java.util.concurrent.atomic.AtomicReference<>();
        Mockito.doAnswer(inv -> {
            sleep(OperationLeases.LEASE.toMillis() + 3000);   // after the claim, before the agent is asked
            try (Connection c = db.connect(); PreparedStatement st = c.prepareStatement(
                    "SELECT state, opToken, opLeaseUntil > NOW(3) FROM VmInstanceVO WHERE uuid = ?")) {
                st.setString(1, vm);
                java.sql.ResultSet rs = st.executeQuery();
                rs.next();
                seen.set(rs.getString(1) + " " + rs.getString(2) + " " + rs.getBoolean(3));
            }
            return real.forStart(inv.getArgument(0), inv.getArgument(1));
        }).when(slow).forStart(Mockito.eq(vm), Mockito.any());
        VmLifecycle lifecycle = lifecycle(server.bean(VmStateRepository.class), slow, server.bean(TransactionTemplate.class));

        assertThat(lifecycle.start(new Caller(adminUuid(), "admin", true, "test"), vm).inventory().state()).isEqualTo("Running");
        assertThat(seen.get()).as("state, token, lease in the future, 13 s into the start").matches("Starting [0-9a-f]{32} true");
        try (Connection c = db.connect(); PreparedStatement st = c.prepareStatement(
                "SELECT opToken, opLeaseUntil FROM VmInstanceVO WHERE uuid = ?")) {
            st.setString(1, vm);
            java.sql.ResultSet rs = st.executeQuery();
            rs.next();
            assertThat(rs.getString(1)).as("the token stays").isEqualTo(seen.get().split(" ")[1]);
            assertThat(rs.getTimestamp(2)).as("no lease once the start ended").isNull();
        }
        stop(vm);
    }

    /**
     * The race GaleraClusterTest hit once its claims were fixed: a start's lease lapsed while its node's database was
     * away, and another node's tracker settled the VM from libvirt before the domain existed (Stopped). The start then
     * got the agent's answer: its last step must make the VM Running (the newer truth), not answer 200 with Stopped
     * and let the next stop be refused 409 "is Stopped" until a tracker round adopts the domain.
     */
    @Test
    void aStartTheTrackerSettledWhileInFlightEndsRunningFromTheAgentsAnswer() throws Exception {
        String vm = vm("settled-mid-start");
        VmStateRepository states = server.bean(VmStateRepository.class);
        DiskPlanner real = server.bean(DiskPlanner.class);
        DiskPlanner settledMeanwhile = Mockito.mock(DiskPlanner.class, AdditionalAnswers.delegatesTo(real));
        java.util.concurrent.atomic.AtomicInteger settled = new java.util.concurrent.atomic.AtomicInteger();
        Mockito.doAnswer(inv -> {
            // the other node's tracker, with libvirt's view from before the start: its own write (VmTracker.apply)
            var row = states.findById(vm).orElseThrow();
            assertThat(row.getState()).isEqualTo(org.zstack.aio.server.inventory.VmInstanceVO.State.Starting);
            settled.addAndGet(states.settle(vm, row.getStateVersion(), "Stopped", "settled after an interrupted Starting"
                    + " (the node doing it stopped or lost the database): libvirt on host " + host + " has no domain."));
            return real.forStart(inv.getArgument(0), inv.getArgument(1));
        }).when(settledMeanwhile).forStart(Mockito.eq(vm), Mockito.any());
        VmLifecycle lifecycle = lifecycle(states, settledMeanwhile, server.bean(TransactionTemplate.class));

        VmLifecycle.StartResult r = lifecycle.start(new Caller(adminUuid(), "admin", true, "test"), vm);
        assertThat(settled).as("the tracker's settle applied mid-start").hasValue(1);
        assertThat(r.inventory().state()).isEqualTo("Running");
        assertThat(agent.running).contains(vm);
        assertThat(state(vm)).isEqualTo("Running");
        assertThat(vmInventory(vm).path("stateReason").asText()).contains("the agent's answer to the start came after");
        try (Connection c = db.connect(); PreparedStatement st = c.prepareStatement(
                "SELECT COUNT(*) FROM AuditVO WHERE resourceUuid = ? AND action = 'StartVmInstance'")) {
            st.setString(1, vm);
            java.sql.ResultSet rs = st.executeQuery();
            rs.next();
            assertThat(rs.getInt(1)).as("the start is audited once").isEqualTo(1);
        }
        stop(vm);
    }

    /** What Connector/J raises when the socket breaks after the server committed (shape from a Galera run). */
    static RuntimeException acknowledgementLost() {
        return new DataAccessResourceFailureException("injected: connection lost after the commit",
                new java.sql.SQLNonTransientConnectionException("(conn=7) Socket error", "08000", -1));
    }

    // --- helpers

    /** A VmLifecycle on this server's beans, with the three given in their place (where a test injects its fault). */
    VmLifecycle lifecycle(VmStateRepository states, DiskPlanner disks, TransactionTemplate tx) {
        return new VmLifecycle(server.bean(VmService.class), server.bean(HostService.class), disks,
                server.bean(AgentClient.class), runner(states, tx), server.bean(org.zstack.aio.server.metrics.IoModeMetrics.class));
    }

    /** The operations' runner on this server's beans, with the VM states and transactions given (their faults). */
    VmOperationRunner runner(VmStateRepository states, TransactionTemplate tx) {
        return new VmOperationRunner(server.bean(OperationLeases.class), states,
                server.bean(org.zstack.aio.server.db.UnitOfWork.class), tx,
                server.bean(org.zstack.aio.server.audit.AuditService.class), event -> { });
    }

    String vm(String name) {
        String vol = f.volume(admin, "root-" + name, "qcow2", "full", ps, host);
        return f.vm(admin, name, host, List.of(vol));
    }

    void start(String vm) {
        Http.Response r = f.http.put("/v1/vm-instances/" + vm + "/actions", admin, "{\"startVmInstance\":{}}");
        assertThat(r.status()).as(r.raw()).isEqualTo(200);
    }

    void stop(String vm) {
        Http.Response r = f.http.put("/v1/vm-instances/" + vm + "/actions", admin, "{\"stopVmInstance\":{}}");
        assertThat(r.status()).as(r.raw()).isEqualTo(200);
        assertThat(state(vm)).isEqualTo("Stopped");
    }

    JsonNode vmInventory(String vm) {
        return f.http.get("/v1/vm-instances/" + vm, admin).body().path("inventory");
    }

    String state(String vm) {
        return vmInventory(vm).path("state").asText();
    }

    JsonNode volume(String uuid) {
        return f.http.get("/v1/volumes/" + uuid, admin).body().path("inventory");
    }

    JsonNode volumeOf(String vm) {
        return volume(vmInventory(vm).path("volumeUuids").get(0).asText());
    }

    String hostStatus() {
        return f.http.get("/v1/hosts/" + host, admin).body().path("inventory").path("status").asText();
    }

    String adminUuid() {
        return server.bean(org.zstack.aio.server.account.AccountRepository.class).findByName("admin").orElseThrow().getUuid();
    }

    /** Polls every 200 ms; fails after {@link #TRACKED_WITHIN}; returns the milliseconds it took. */
    static long waitFor(Supplier<Boolean> done, String what) {
        long t0 = System.nanoTime();
        while (!done.get()) {
            if (System.nanoTime() - t0 > TRACKED_WITHIN.toNanos()) throw new AssertionError(what + ": not within " + TRACKED_WITHIN);
            sleep(200);
        }
        return (System.nanoTime() - t0) / 1_000_000;
    }

    static void sleep(long ms) {
        try {
            Thread.sleep(ms);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new AssertionError(e);
        }
    }
}
