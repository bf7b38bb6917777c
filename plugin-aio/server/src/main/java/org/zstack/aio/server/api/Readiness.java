package org.zstack.aio.server.api;

import org.springframework.boot.context.event.ApplicationReadyEvent;
import org.springframework.context.event.EventListener;
import org.springframework.stereotype.Component;

/**
 * Whether the boot is complete: /health says 200 from then on. Complete means every boot step has run (each
 * {@code ApplicationRunner}: the admin account, the first reconciliation with the hosts, the launcher's demo
 * inventory), so it is set on Spring's {@link ApplicationReadyEvent}, which comes after the last runner; a step
 * only says what it is doing meanwhile ({@link #waitingFor(String)}), never that the boot is done.
 */
@Component
public class Readiness {

    private volatile boolean ready;
    private volatile String waitingFor = "the boot to finish";

    public boolean ready() {
        return ready;
    }

    public String waitingFor() {
        return waitingFor;
    }

    /** The boot step under way, which a 503 from /health names. */
    public void waitingFor(String what) {
        this.waitingFor = what;
    }

    @EventListener(ApplicationReadyEvent.class)
    public void markReady() {
        ready = true;
    }
}
