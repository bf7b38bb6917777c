package org.zstack.aio.test.support;

import org.junit.jupiter.api.Assertions;
import org.junit.jupiter.api.Assumptions;

/** A real component (MariaDB, libvirtd, Chromium) that is missing skips a test locally, and FAILS it under CI=true. */
public final class RealComponents {

    private RealComponents() {
    }

    public static boolean ci() {
        return "true".equalsIgnoreCase(System.getenv("CI"));
    }

    public static void require(boolean available, String what, String howToGet) {
        if (available) return;
        String msg = what + " is not available: " + howToGet;
        if (ci()) Assertions.fail("CI=true and " + msg);
        Assumptions.abort(msg);
    }
}
