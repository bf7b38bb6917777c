package org.zstack.aio.server.api;

import org.springframework.stereotype.Component;

/** Set once the boot is complete (admin account exists, first reconciliation done): /health says 200 from then on. */
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

    public void waitingFor(String what) {
        this.waitingFor = what;
    }

    public void markReady() {
        ready = true;
    }
}
