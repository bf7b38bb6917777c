package org.zstack.aio.server.host;

import org.junit.jupiter.api.Test;
import org.zstack.aio.agent.api.HostFactsRsp;
import org.zstack.aio.decision.HostFacts;
import org.zstack.aio.decision.IoMode;
import org.zstack.aio.decision.IoModeDecider;
import org.zstack.aio.decision.rules.IoModeRulesLoader;

import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The agent's named probes are kept with the host's facts and reach the decision, so the known-bad rules that test
 * them apply on this server (before, toFacts dropped them and no probe rule could fire here).
 */
class HostIoCapabilitiesVOTest {

    private static HostFactsRsp reported(Map<String, String> probes) {
        return new HostFactsRsp("h", "6.1.0", 0, "8.2.0", true, null, true, null, "9.0.0", "qemu:///system", List.of(), probes);
    }

    @Test
    void probesReachTheDecisionAndItsKnownBadRules() {
        HostIoCapabilitiesVO caps = new HostIoCapabilitiesVO("host-1");
        caps.update(reported(Map.of(HostFacts.QEMU_LIBURING, "liburing.so.1", "kernel.release", "6.1.0-1.el9.x86_64")), "[]");
        HostFacts facts = caps.toFacts();
        assertThat(facts.probe(HostFacts.QEMU_LIBURING)).isEqualTo("liburing.so.1");
        assertThat(facts.probe("kernel.release")).isEqualTo("6.1.0-1.el9.x86_64");
        IoModeDecider decider = new IoModeDecider(IoModeRulesLoader.fromClasspath());
        assertThat(decider.checkHost(IoMode.IO_URING, facts).passed()).as("liburing.so.1 is a known-bad row").isFalse();
    }

    @Test
    void aReconnectReplacesTheProbes() {
        HostIoCapabilitiesVO caps = new HostIoCapabilitiesVO("host-1");
        caps.update(reported(Map.of(HostFacts.QEMU_LIBURING, "liburing.so.1")), "[]");
        caps.update(reported(Map.of()), "[]");
        assertThat(caps.toFacts().probes()).isEmpty();
        IoModeDecider decider = new IoModeDecider(IoModeRulesLoader.fromClasspath());
        assertThat(decider.checkHost(IoMode.IO_URING, caps.toFacts()).passed()).isTrue();
    }
}
