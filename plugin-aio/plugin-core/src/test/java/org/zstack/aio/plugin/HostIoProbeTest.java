package org.zstack.aio.plugin;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.entry;

class HostIoProbeTest {

    /** What the probe prints on a capable host: every key it has, no storage path given. */
    private static final String CAPABLE = "kernel=6.8.0-45-generic\nkernel.release=6.8.0-45-generic\nio_uring_disabled=0\n"
            + "qemu=8.2.2\nqemu_io_uring=yes\nqemu_native=yes\nqemu.linux-aio=true\nqemu.liburing=liburing.so.2\n"
            + "aio.free=64512\nio_uring.setup=ok\nprocess.seccomp=disabled\nlibvirt.seccomp_sandbox=unset\nos.id=ubuntu\n"
            + "os.version=24.04\nlibvirt=10.0.0\nkvmagent_patch=no\n";

    @Test
    void everyKeyOfACapableHostIsRead() {
        HostIoProbe p = HostIoProbe.read("h1", CAPABLE, null, null, null);
        HostIoFacts f = p.facts();
        assertThat(f.getHostUuid()).isEqualTo("h1");
        assertThat(f.getKernel()).isEqualTo("6.8.0");
        assertThat(f.getIoUringDisabled()).isEqualTo(0);
        assertThat(f.getQemu()).isEqualTo("8.2.2");
        assertThat(f.getQemuIoUring()).isTrue();
        assertThat(f.getLibvirt()).isEqualTo("10.0.0");
        assertThat(f.getQemuNative()).isTrue();
        assertThat(f.getProbes()).containsExactly(entry("kernel.release", "6.8.0-45-generic"), entry("qemu.linux-aio", "true"),
                entry("qemu.liburing", "liburing.so.2"), entry("aio.free", "64512"), entry("io_uring.setup", "ok"),
                entry("process.seccomp", "disabled"), entry("libvirt.seccomp_sandbox", "unset"), entry("os.id", "ubuntu"),
                entry("os.version", "24.04"));
        assertThat(f.getStorages()).isEmpty();
        assertThat(p.facts().getUnknown()).isEmpty();
        assertThat(p.facts().getQemuIoUringReason()).isNull();
    }

    @Test
    void theDateAPlatformKeepsApartJoinsTheFactsUnchanged() {
        HostIoFacts f = HostIoProbe.read("h1", CAPABLE + "qemu.liburing=2.5\n", null, null, null).facts();
        assertThat(f.getProbedAt()).isNull();
        HostIoFacts dated = f.withProbedAt("2026-11-27T04:31:11.123Z");
        assertThat(dated.getProbedAt()).isEqualTo("2026-11-27T04:31:11.123Z");
        assertThat(dated).usingRecursiveComparison().ignoringFields("probedAt", "decisionFacts").isEqualTo(f);
    }

    @Test
    void thePlatformsQemuVersionWinsOverTheProbes() {
        HostIoFacts f = HostIoProbe.read("h1", CAPABLE, null, "4.2.0-632.g6a6222b.el7", null).facts();
        assertThat(f.getQemu()).isEqualTo("4.2.0");
        // an unparsable platform version falls back to the probe's
        assertThat(HostIoProbe.read("h1", CAPABLE, null, "unknown", null).facts().getQemu()).isEqualTo("8.2.2");
    }

    @Test
    void thePlatformsLibvirtVersionStandsInOnlyWhenTheProbePrintedNone() {
        assertThat(HostIoProbe.read("h1", CAPABLE, null, null, "6.0.0").facts().getLibvirt()).isEqualTo("10.0.0");
        HostIoProbe p = HostIoProbe.read("h1", CAPABLE.replace("libvirt=10.0.0\n", ""), null, null, "6.0.0");
        assertThat(p.facts().getLibvirt()).isEqualTo("6.0.0");
        assertThat(p.facts().getUnknown()).isEmpty();
    }

    @Test
    void anAbsentSysctlIsNullAndNotUnknown() {
        HostIoProbe p = HostIoProbe.read("h1", CAPABLE.replace("io_uring_disabled=0\n", ""), null, null, null);
        assertThat(p.facts().getIoUringDisabled()).isNull();
        assertThat(p.facts().getUnknown()).isEmpty();
    }

    @Test
    void aRefusedIoUringKeepsItsReason() {
        HostIoProbe p = HostIoProbe.read("h1", CAPABLE.replace("qemu_io_uring=yes", "qemu_io_uring=no\n"
                + "qemu_io_uring_reason=qemu-img: Unable to use io_uring: Operation not permitted"), null, null, null);
        assertThat(p.facts().getQemuIoUring()).isFalse();
        assertThat(p.facts().getQemuIoUringReason()).isEqualTo("qemu-img: Unable to use io_uring: Operation not permitted");
        assertThat(p.facts().getUnknown()).isEmpty();
    }

    @Test
    void aFailedProbeLeavesEveryFactUnknownAndSaysWhy() {
        HostIoProbe p = HostIoProbe.read("h1", null, "ssh: connection refused", null, null);
        HostIoFacts f = p.facts();
        assertThat(f.getKernel()).isNull();
        assertThat(f.getQemu()).isNull();
        assertThat(f.getQemuIoUring()).isNull();
        assertThat(f.getLibvirt()).isNull();
        assertThat(p.kvmagentPatch()).isNull();
        assertThat(p.facts().getUnknown()).hasSize(8).allSatisfy(s -> assertThat(s).contains("the host probe failed (ssh: connection refused)"));
        assertThat(p.facts().getUnknown()).contains("the facts the known-bad rules test (qemu.liburing, qemu.linux-aio, aio.free,"
                + " kernel.release, io_uring.setup, process.seccomp) are unknown: the host probe failed (ssh: connection refused).");
        assertThat(p.facts().getUnknown()).anySatisfy(s -> assertThat(s).startsWith("kernel.io_uring_disabled is unknown"));
    }

    @Test
    void aHostNeverProbedSaysSo() {
        assertThat(HostIoProbe.read("h1", null, null, "7.2.0", null).facts().getUnknown())
                .hasSize(7).allSatisfy(s -> assertThat(s).contains("not probed"));
    }

    @Test
    void missingAndGarbledLinesAreNamed() {
        HostIoProbe p = HostIoProbe.read("h1", "kernel=abc\nio_uring_disabled=x\nqemu_io_uring=maybe\n", null, null, null);
        assertThat(p.facts().getUnknown()).containsExactly(
                "the kernel version is unknown: the probe printed 'abc', not a version.",
                "kernel.io_uring_disabled is unknown: the probe printed 'x', not a number.",
                "the QEMU version is unknown: the probe printed no qemu= line.",
                "whether QEMU opens an image with aio=io_uring is unknown: the probe printed 'maybe'.",
                "whether QEMU opens an image with aio=native is unknown: the probe printed no qemu_native= line.",
                "the libvirt version is unknown: the probe printed no libvirt= line.",
                "qemu.liburing is unknown: the probe printed no qemu.liburing= line; reconnect the host to probe it again.",
                "qemu.linux-aio is unknown: the probe printed no qemu.linux-aio= line; reconnect the host to probe it again.",
                "aio.free is unknown: the probe printed no aio.free= line; reconnect the host to probe it again.",
                "kernel.release is unknown: the probe printed no kernel.release= line; reconnect the host to probe it again.",
                "io_uring.setup is unknown: the probe printed no io_uring.setup= line; reconnect the host to probe it again.",
                "process.seccomp is unknown: the probe printed no process.seccomp= line; reconnect the host to probe it again.",
                "whether the host's kvmagent carries the plugin-aio patch is unknown: the probe printed no kvmagent_patch="
                + " line; the unmodified agent is assumed.");
    }

    @Test
    void theKvmagentPatchIsReadAndChoosesTheAgentProfile() {
        HostIoProbe patched = HostIoProbe.read("h1", CAPABLE.replace("kvmagent_patch=no", "kvmagent_patch=yes"), null, null, null);
        assertThat(patched.kvmagentPatch()).isTrue();
        assertThat(patched.facts().getUnknown()).isEmpty();
        assertThat(AgentProfile.zstack(patched.kvmagentPatch())).isSameAs(AgentProfile.ZSTACK_PATCHED);
        HostIoProbe stock = HostIoProbe.read("h1", CAPABLE, null, null, null);
        assertThat(stock.kvmagentPatch()).isFalse();
        assertThat(AgentProfile.zstack(stock.kvmagentPatch())).isSameAs(AgentProfile.ZSTACK_STOCK);
        // garbled: unknown, said so, and the unmodified agent is assumed
        HostIoProbe garbled = HostIoProbe.read("h1", CAPABLE.replace("kvmagent_patch=no", "kvmagent_patch=maybe"), null, null, null);
        assertThat(garbled.kvmagentPatch()).isNull();
        assertThat(garbled.facts().getUnknown()).containsExactly("whether the host's kvmagent carries the plugin-aio patch is unknown:"
                + " the probe printed 'maybe'; the unmodified agent is assumed.");
        assertThat(AgentProfile.zstack(garbled.kvmagentPatch())).isSameAs(AgentProfile.ZSTACK_STOCK);
    }

    @Test
    void dottedKeysBecomeNamedProbesForTheRulesAndOtherLinesAreIgnored() {
        HostIoProbe p = HostIoProbe.read("h1", "warning: something\nqemu.liburing=no\nkernel.release=5.14.0-427.el9\n" + CAPABLE
                + "kernel=9.9\n =x\nempty=\n", null, null, null);
        assertThat(p.facts().getProbes()).containsEntry("qemu.liburing", "no").containsEntry("kernel.release", "5.14.0-427.el9");
        assertThat(p.facts().getKernel()).isEqualTo("6.8.0"); // the first value wins
    }

    @Test
    void eachStoragePathBecomesTheStorageFactsOfItsPrimaryStorage() {
        HostIoFacts f = HostIoProbe.read("h1", CAPABLE + "storage.ps1.path=/zstack_ps\nstorage.ps1.filesystem=btrfs\n"
                + "storage.ps1.loopBacked=no\nstorage.ps1.directIo=yes\nstorage.ps2.path=/mnt/nfs\nstorage.ps2.filesystem=nfs4\n"
                + "storage.ps2.loopBacked=no\nstorage.ps2.directIo=no\nstorage.ps2.directIoReason=O_DIRECT refused on /mnt/nfs: "
                + "Invalid argument\nstorage.ps3.path=/var/lib/loop\nstorage.ps3.filesystem=ext4\nstorage.ps3.loopBacked=yes\n"
                + "storage.ps3.directIo=yes\n", null, null, null).facts();
        assertThat(f.getStorages()).extracting(StorageIoFacts::getPrimaryStorageUuid).containsExactly("ps1", "ps2", "ps3");
        StorageIoFacts ps1 = f.storage("ps1");
        assertThat(ps1.getPath()).isEqualTo("/zstack_ps");
        assertThat(ps1.getFilesystem()).isEqualTo("btrfs");
        assertThat(ps1.getLoopBacked()).isFalse();
        assertThat(ps1.getDirectIo()).isTrue();
        assertThat(ps1.getDirectIoReason()).isNull();
        assertThat(f.storage("ps2").getDirectIo()).isFalse();
        assertThat(f.storage("ps2").getDirectIoReason()).isEqualTo("O_DIRECT refused on /mnt/nfs: Invalid argument");
        assertThat(f.storage("ps3").getLoopBacked()).isTrue();
        // storage lines are the storages', never named probes
        assertThat(f.getProbes().keySet()).noneMatch(k -> k.startsWith("storage."));
        assertThat(f.getUnknown()).isEmpty();
    }

    @Test
    void whatTheProbeCouldNotGatherIsSaidWithItsReason() {
        String out = CAPABLE.replace("qemu.linux-aio=true\n", "unknown.qemu.linux-aio=qemu-img refused aio=native for another"
                + " reason than its build: Could not open '/tmp/x': Invalid argument\n").replace("io_uring.setup=ok\n",
                "unknown.io_uring.setup=neither perl nor python is installed to call io_uring_setup\n")
                + "storage.ps1.path=/dead\nunknown.storage.ps1.filesystem=/dead did not answer within 3 s\nstorage.ps1.directIo=no\n"
                + "storage.ps1.directIoReason=/dead did not answer within 3 s\n";
        HostIoFacts f = HostIoProbe.read("h1", out, null, null, null).facts();
        assertThat(f.getProbes()).doesNotContainKeys("qemu.linux-aio", "io_uring.setup", "unknown.qemu.linux-aio");
        assertThat(f.getUnknown()).containsExactly(
                "qemu.linux-aio is unknown: qemu-img refused aio=native for another reason than its build: Could not open"
                + " '/tmp/x': Invalid argument.",
                "io_uring.setup is unknown: neither perl nor python is installed to call io_uring_setup.",
                "the filesystem under the path of primary storage ps1 (/dead) is unknown: /dead did not answer within 3 s.");
        StorageIoFacts ps1 = f.storage("ps1");
        assertThat(ps1.getFilesystem()).isNull();
        assertThat(ps1.getLoopBacked()).isNull();
        assertThat(ps1.getDirectIo()).isFalse();
        assertThat(ps1.getDirectIoReason()).isEqualTo("/dead did not answer within 3 s");
    }

    @Test
    void aGarbledStorageLineIsNamedAndTakenForNothing() {
        HostIoFacts f = HostIoProbe.read("h1", CAPABLE + "storage.ps1.path=/p\nstorage.ps1.filesystem=xfs\n"
                + "storage.ps1.loopBacked=maybe\nstorage.ps1.directIo=perhaps\nstorage.=x\nstorage.ps2=y\n", null, null, null).facts();
        assertThat(f.getStorages()).hasSize(1);
        assertThat(f.storage("ps1").getLoopBacked()).isNull();
        assertThat(f.storage("ps1").getDirectIo()).isNull();
        assertThat(f.getUnknown()).containsExactly("whether the path of primary storage ps1 (/p) takes O_DIRECT is unknown: the"
                + " probe printed 'perhaps'.");
    }

    @Test
    void nativeRefusedByQemuKeepsItsReason() {
        HostIoFacts f = HostIoProbe.read("h1", CAPABLE.replace("qemu_native=yes\nqemu.linux-aio=true\n", "qemu_native=no\n"
                + "qemu_native_reason=qemu-img: Could not open 'x': aio=native was specified, but is not supported in this build.\n"
                + "qemu.linux-aio=false\n"), null, null, null).facts();
        assertThat(f.getQemuNative()).isFalse();
        assertThat(f.getQemuNativeReason()).endsWith("is not supported in this build.");
        assertThat(f.getProbes()).containsEntry("qemu.linux-aio", "false");
        assertThat(f.getUnknown()).isEmpty();
    }
}
