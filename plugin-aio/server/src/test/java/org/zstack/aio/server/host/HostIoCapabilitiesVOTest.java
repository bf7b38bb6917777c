package org.zstack.aio.server.host;

import org.junit.jupiter.api.Test;
import org.zstack.aio.agent.api.HostFactsRsp;
import org.zstack.aio.decision.HostFacts;
import org.zstack.aio.decision.IoMode;
import org.zstack.aio.decision.rules.IoModeRulesLoader;
import org.zstack.aio.plugin.DiskIoModes;
import org.zstack.aio.plugin.HostIoFacts;
import org.zstack.aio.plugin.StorageIoFacts;
import org.zstack.aio.server.inventory.PrimaryStorageVO;

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
        HostIoFacts facts = caps.toIoFacts(Map.of());
        assertThat(facts.getProbes()).containsEntry(HostFacts.QEMU_LIBURING, "liburing.so.1")
                .containsEntry("kernel.release", "6.1.0-1.el9.x86_64");
        assertThat(CORE.hostCheck(IoMode.IO_URING, facts).passed()).as("liburing.so.1 is a known-bad row").isFalse();
    }

    @Test
    void aReconnectReplacesTheProbes() {
        HostIoCapabilitiesVO caps = new HostIoCapabilitiesVO("host-1");
        caps.update(reported(Map.of(HostFacts.QEMU_LIBURING, "liburing.so.1")), "[]");
        caps.update(reported(Map.of()), "[]");
        assertThat(caps.toIoFacts(Map.of()).getProbes()).isEmpty();
        assertThat(CORE.hostCheck(IoMode.IO_URING, caps.toIoFacts(Map.of())).passed()).isTrue();
    }

    /**
     * Issue 32: each storage path the agent reported goes under the primary storage whose url it is (a url written
     * with a trailing slash or a dot still matches), with its filesystem, loop backing and O_DIRECT; a path no storage
     * has is left out, and a path whose mount the agent did not find says so in {@code unknown}.
     */
    @Test
    void storagePathsGoUnderTheirPrimaryStorage() {
        HostIoCapabilitiesVO caps = new HostIoCapabilitiesVO("host-1");
        caps.update(reported(Map.of()), """
                [{"path":"/srv/btrfs","oDirect":true,"filesystem":"btrfs","loopBacked":true},
                 {"path":"/srv/gone","oDirect":true,"filesystem":"ext4","loopBacked":false},
                 {"path":"/srv/tmpfs","oDirect":false,"error":"O_DIRECT refused on /srv/tmpfs: invalid argument"},
                 {"path":"/srv/none","oDirect":true}]""");
        HostIoFacts f = caps.toIoFacts(StoragePaths.byPath(List.of(new PrimaryStorageVO("ps-b", "b", "NFS", "/srv/btrfs/"),
                new PrimaryStorageVO("ps-t", "t", "NFS", "/srv/./tmpfs"), new PrimaryStorageVO("ps-n", "n", "NFS", "/srv/none"))));

        assertThat(f.getStorages()).extracting(StorageIoFacts::getPrimaryStorageUuid).containsExactly("ps-b", "ps-t", "ps-n");
        StorageIoFacts b = f.storage("ps-b");
        assertThat(b.getFilesystem()).isEqualTo("btrfs");
        assertThat(b.getLoopBacked()).isTrue();
        assertThat(b.getDirectIo()).isTrue();
        assertThat(b.getDirectIoReason()).isNull();
        assertThat(f.storage("ps-t").getDirectIo()).isFalse();
        assertThat(f.storage("ps-t").getDirectIoReason()).contains("invalid argument");
        assertThat(f.getUnknown()).anyMatch(u -> u.startsWith("the filesystem of storage path /srv/none is unknown"))
                .noneMatch(u -> u.contains("/srv/btrfs"));
        assertThat(f.getKernel()).isEqualTo("6.1.0");
        assertThat(f.getAgent()).isEqualTo("plugin-aio's agent");
    }

    @Test
    void aVersionTheAgentDidNotReportIsUnknownWithItsSentence() {
        HostIoCapabilitiesVO caps = new HostIoCapabilitiesVO("host-1");
        caps.update(new HostFactsRsp("h", null, null, "not-a-version", null, null, null, null, "9.0.0", "qemu:///system",
                List.of(), null), "[]");
        HostIoFacts f = caps.toIoFacts(Map.of());
        assertThat(f.getKernel()).isNull();
        assertThat(f.getQemu()).isNull();
        assertThat(f.getUnknown()).containsExactly("the kernel version is unknown: the agent reported none at its last probe.",
                "the QEMU version is unknown: the agent reported 'not-a-version', not a version at its last probe.");
    }

    private static final DiskIoModes CORE = new DiskIoModes(IoModeRulesLoader.fromClasspath());
}
