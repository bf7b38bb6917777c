package org.zstack.aio.test.state;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.read.ListAppender;
import org.junit.jupiter.api.Test;
import org.slf4j.LoggerFactory;
import org.zstack.aio.test.support.Fixture;
import org.zstack.aio.test.support.Http;
import org.zstack.aio.test.support.RealComponents;
import org.zstack.aio.test.support.RunningServer;
import org.zstack.aio.test.support.SimulatedAgent;
import org.zstack.aio.test.support.TestDatabase;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Two management nodes on one MariaDB run the tracker together while many VMs are started and stopped through both
 * at random, and some domains vanish outside the platform: at the end 0 VMs in a wrong state, 0 duplicate QEMUs
 * (starts of a domain that already ran), 0 tracker warnings or exceptions. AIO_SOAK_VMS (default 50) and
 * AIO_SOAK_SECONDS (default 300 under CI=true, the full run; 30 locally).
 */
class TwoNodeTrackerSoakTest {

    static final int VMS = Integer.parseInt(System.getenv().getOrDefault("AIO_SOAK_VMS", "50"));
    static final int SECONDS = Integer.parseInt(System.getenv().getOrDefault("AIO_SOAK_SECONDS", RealComponents.ci() ? "300" : "30"));

    @Test
    void twoNodesTrackManyVmsStartedAndStoppedInALoopWithoutAWrongStateADuplicateOrAnException() throws Exception {
        ListAppender<ILoggingEvent> logs = new ListAppender<>();
        logs.start();
        List<Logger> watched = new ArrayList<>();
        try (TestDatabase db = TestDatabase.mariadb(); SimulatedAgent agent = new SimulatedAgent();
             RunningServer a = RunningServer.start(db, Map.of("aio.agent.timeout", "PT60S"));
             RunningServer b = RunningServer.start(db, Map.of("aio.agent.timeout", "PT60S"))) {
            // after both boots: Spring Boot resets logging when a context starts
            watched.add((Logger) LoggerFactory.getLogger("org.zstack.aio.server.tracker"));
            watched.add((Logger) LoggerFactory.getLogger("org.zstack.aio.server.vm.OperationLeases"));
            watched.add((Logger) LoggerFactory.getLogger("org.zstack.aio.server.agent.AgentClient")); // broken connections
            watched.forEach(l -> l.addAppender(logs));
            Fixture fa = new Fixture(a);
            Fixture fb = new Fixture(b);
            String adminA = fa.adminSession();
            String adminB = fb.adminSession();
            Http.Response r = fa.http.put("/v1/global-configurations/host/ping.interval/actions", adminA,
                    "{\"updateGlobalConfig\":{\"value\":\"2\"}}"); // more tracker rounds racing the loop
            assertThat(r.status()).as(r.raw()).isEqualTo(200);
            String ps = fa.primaryStorage(adminA, "local", "LocalStorage", "/var/tmp/aio-sim-soak");
            String host = fa.host(adminA, agent.port(), agent.enrollmentToken());
            List<String> vms = new ArrayList<>();
            for (int i = 0; i < VMS; i++) {
                vms.add(fa.vm(adminA, "soak-" + i, host, List.of(fa.volume(adminA, "soak-root-" + i, "qcow2", "full", ps, host))));
            }

            Map<Integer, AtomicLong> statuses = new ConcurrentHashMap<>();
            AtomicLong outsideStops = new AtomicLong();
            List<String> unexpected = java.util.Collections.synchronizedList(new ArrayList<>());
            long end = System.nanoTime() + TimeUnit.SECONDS.toNanos(SECONDS);
            ExecutorService workers = Executors.newFixedThreadPool(8);
            for (int w = 0; w < 8; w++) {
                workers.execute(() -> {
                    ThreadLocalRandom rnd = ThreadLocalRandom.current();
                    while (System.nanoTime() < end) {
                        String vm = vms.get(rnd.nextInt(vms.size()));
                        if (rnd.nextInt(20) == 0) { // a domain destroyed outside the platform
                            if (agent.running.remove(vm)) outsideStops.incrementAndGet();
                            continue;
                        }
                        boolean onA = rnd.nextBoolean();
                        Fixture f = onA ? fa : fb;
                        String admin = onA ? adminA : adminB;
                        String state = f.http.get("/v1/vm-instances/" + vm, admin).body().path("inventory").path("state").asText();
                        String action = "Running".equals(state) ? "stopVmInstance" : "startVmInstance";
                        Http.Response rsp = f.http.put("/v1/vm-instances/" + vm + "/actions", admin, "{\"" + action + "\":{}}");
                        statuses.computeIfAbsent(rsp.status(), k -> new AtomicLong()).incrementAndGet();
                        if (rsp.status() != 200 && rsp.status() != 409) unexpected.add(action + " " + rsp.status() + " " + rsp.raw());
                    }
                });
            }
            workers.shutdown();
            assertThat(workers.awaitTermination(SECONDS + 120, TimeUnit.SECONDS)).isTrue();

            // settle: every VM Running with its domain or Stopped without, within 15 s of the loop's end
            long t0 = System.nanoTime();
            List<String> wrong;
            while (true) {
                wrong = new ArrayList<>();
                for (String vm : vms) {
                    String state = fa.http.get("/v1/vm-instances/" + vm, adminA).body().path("inventory").path("state").asText();
                    boolean domain = agent.running.contains(vm);
                    if (!(("Running".equals(state) && domain) || ("Stopped".equals(state) && !domain))) wrong.add(vm + " " + state + " domain=" + domain);
                }
                if (wrong.isEmpty() || System.nanoTime() - t0 > TimeUnit.SECONDS.toNanos(15)) break;
                Thread.sleep(500);
            }
            List<ILoggingEvent> problems = logs.list.stream()
                    .filter(e -> e.getLevel().isGreaterOrEqual(Level.WARN) || e.getThrowableProxy() != null).toList();
            long settled = logs.list.stream().filter(e -> e.getFormattedMessage().contains(" is now ")).count();
            System.out.printf("soak: %d VMs, %d s, 2 nodes: answers %s, outside stops %d, tracker settlements %d, "
                            + "wrong states %d, duplicate starts %d, tracker warnings/exceptions %d, consistent %d ms after the loop%n",
                    VMS, SECONDS, statuses, outsideStops.get(), settled, wrong.size(), agent.duplicateStarts.get(),
                    problems.size(), (System.nanoTime() - t0) / 1_000_000);
            assertThat(unexpected).as("answers other than 200/409").isEmpty();
            assertThat(wrong).as("VMs in a wrong state").isEmpty();
            assertThat(agent.duplicateStarts.get()).as("duplicate QEMUs").isZero();
            assertThat(problems.stream().map(ILoggingEvent::getFormattedMessage).toList()).as("tracker warnings/exceptions").isEmpty();
            assertThat(statuses.getOrDefault(200, new AtomicLong()).get()).as("operations done").isGreaterThan(VMS);
            assertThat(settled).as("the tracker did settle the outside stops it saw (the log is watched)").isPositive();
        } finally {
            watched.forEach(l -> l.detachAppender(logs));
        }
    }
}
