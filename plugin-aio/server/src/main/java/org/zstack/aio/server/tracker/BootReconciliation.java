package org.zstack.aio.server.tracker;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.boot.ApplicationArguments;
import org.springframework.boot.ApplicationRunner;
import org.springframework.core.annotation.Order;
import org.springframework.stereotype.Component;
import org.zstack.aio.server.api.Readiness;

/**
 * After the admin account exists (order 10), reads every host once and settles what a crashed node left
 * (Starting/Stopping without a live lease, domains gone or adopted). /health says 200 once every boot step has run
 * ({@link Readiness}), this one included.
 */
@Component
@Order(20)
class BootReconciliation implements ApplicationRunner {

    private static final Logger log = LoggerFactory.getLogger(BootReconciliation.class);

    private final HostTracker hosts;
    private final Readiness readiness;

    BootReconciliation(HostTracker hosts, Readiness readiness) {
        this.hosts = hosts;
        this.readiness = readiness;
    }

    @Override
    public void run(ApplicationArguments args) {
        readiness.waitingFor("the first reconciliation with the hosts");
        long t0 = System.nanoTime();
        hosts.trackAllNow();
        log.info("boot reconciliation with the hosts done in {} ms", (System.nanoTime() - t0) / 1_000_000);
        readiness.waitingFor("the boot's remaining steps");
    }
}
