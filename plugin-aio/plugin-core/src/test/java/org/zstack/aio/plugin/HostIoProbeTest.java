package org.zstack.aio.plugin;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

class HostIoProbeTest {

    private static final String CAPABLE = "kernel=6.8.0-45-generic\nio_uring_disabled=0\nqemu=8.2.2\nqemu_io_uring=yes\n"
            + "libvirt=10.0.0\nkvmagent_patch=no\n";

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
        assertThat(f.getProbes()).isEmpty();
        assertThat(p.facts().getUnknown()).isEmpty();
        assertThat(p.facts().getQemuIoUringReason()).isNull();
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
        assertThat(p.facts().getUnknown()).hasSize(6).allSatisfy(s -> assertThat(s).contains("the host probe failed (ssh: connection refused)"));
        assertThat(p.facts().getUnknown()).anySatisfy(s -> assertThat(s).startsWith("kernel.io_uring_disabled is unknown"));
    }

    @Test
    void aHostNeverProbedSaysSo() {
        assertThat(HostIoProbe.read("h1", null, null, "7.2.0", null).facts().getUnknown())
                .hasSize(5).allSatisfy(s -> assertThat(s).contains("not probed"));
    }

    @Test
    void missingAndGarbledLinesAreNamed() {
        HostIoProbe p = HostIoProbe.read("h1", "kernel=abc\nio_uring_disabled=x\nqemu_io_uring=maybe\n", null, null, null);
        assertThat(p.facts().getUnknown()).containsExactly(
                "the kernel version is unknown: the probe printed 'abc', not a version.",
                "kernel.io_uring_disabled is unknown: the probe printed 'x', not a number.",
                "the QEMU version is unknown: the probe printed no qemu= line.",
                "whether QEMU opens an image with aio=io_uring is unknown: the probe printed 'maybe'.",
                "the libvirt version is unknown: the probe printed no libvirt= line.",
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
        HostIoProbe p = HostIoProbe.read("h1", "warning: something\n" + CAPABLE + "qemu.liburing=no\nkernel.release=5.14.0-427.el9\n"
                + "kernel=9.9\n =x\nempty=\n", null, null, null);
        assertThat(p.facts().getProbes()).containsExactly(
                org.assertj.core.api.Assertions.entry("qemu.liburing", "no"),
                org.assertj.core.api.Assertions.entry("kernel.release", "5.14.0-427.el9"));
        assertThat(p.facts().getKernel()).isEqualTo("6.8.0"); // the first value wins
    }
}
