package org.zstack.aio.agent.domain;

import org.junit.jupiter.api.Test;
import org.zstack.aio.agent.domain.DomainXmlPatcher.DriverChange;
import org.zstack.aio.agent.support.SampleDomains;

import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class DomainXmlPatcherTest {

    private final DomainXmlPatcher patcher = new DomainXmlPatcher();

    @Test
    void setsIoAndCacheOnEverySixtyFourDisks() {
        String xml = SampleDomains.xmlWithDisks(64);
        List<DriverChange> changes = new ArrayList<>();
        String[] modes = {"threads", "native", "io_uring"};
        for (int i = 0; i < 64; i++) {
            changes.add(new DriverChange(DiskTargets.virtio(i), modes[i % 3], i % 2 == 0 ? "none" : "directsync"));
        }

        List<DiskDriver> after = patcher.readDrivers(patcher.patch(xml, changes));

        assertThat(after).hasSize(64);
        for (int i = 0; i < 64; i++) {
            assertThat(after.get(i).io()).as("io of disk %d", i).isEqualTo(modes[i % 3]);
            assertThat(after.get(i).cache()).as("cache of disk %d", i).isEqualTo(i % 2 == 0 ? "none" : "directsync");
        }
    }

    @Test
    void nullRemovesTheAttribute() {
        String patched = patcher.patch(SampleDomains.LIBVIRT_STYLE, List.of(new DriverChange("vda", null, "none")));

        DiskDriver vda = patcher.readDrivers(patched).get(0);
        assertThat(vda.io()).isNull();
        assertThat(vda.cache()).isEqualTo("none");
        assertThat(patched).doesNotContain("io=\"native\"");
    }

    @Test
    void keysByTargetOrSourcePath() {
        String patched = patcher.patch(SampleDomains.LIBVIRT_STYLE, List.of(
                new DriverChange("/var/lib/images/root.qcow2", "io_uring", "none"),
                new DriverChange("/dev/vg0/data", "native", "directsync")));

        assertThat(patcher.readDrivers(patched)).startsWith(
                new DiskDriver("vda", "/var/lib/images/root.qcow2", "io_uring", "none"),
                new DiskDriver("vdb", "/dev/vg0/data", "native", "directsync"));
    }

    @Test
    void createsADriverElementWhenTheDiskHasNone() {
        String patched = patcher.patch(SampleDomains.LIBVIRT_STYLE, List.of(new DriverChange("vdb", "native", "none")));

        assertThat(patcher.readDrivers(patched).get(1)).isEqualTo(new DiskDriver("vdb", "/dev/vg0/data", "native", "none"));
        assertThat(patched.split("<driver ", -1)).as("one driver per disk, vda's untouched").hasSize(4);
    }

    @Test
    void keepsEverythingElseLibvirtWrote() {
        String patched = patcher.patch(SampleDomains.LIBVIRT_STYLE, List.of(new DriverChange("vda", "threads", "none")));

        assertThat(patched).contains("discard=\"unmap\"", "<alias name=\"virtio-disk0\"", "slot=\"0x04\"",
                "<backingStore", "<emulator>/usr/bin/qemu-system-x86_64</emulator>", "index=\"2\"", "id=\"7\"");
    }

    @Test
    void cdromsAreNotDisksToPatch() {
        assertThat(patcher.readDrivers(SampleDomains.LIBVIRT_STYLE)).extracting(DiskDriver::target)
                .containsExactly("vda", "vdb");
        assertThatThrownBy(() -> patcher.patch(SampleDomains.LIBVIRT_STYLE, List.of(new DriverChange("hdc", "native",
                "none")))).isInstanceOf(UnknownDiskException.class);
    }

    @Test
    void unknownDiskIsRefusedAndNamed() {
        assertThatThrownBy(() -> patcher.patch(SampleDomains.LIBVIRT_STYLE, List.of(
                new DriverChange("vda", "native", "none"), new DriverChange("vdz", "native", "none"))))
                .isInstanceOf(UnknownDiskException.class)
                .hasMessageContaining("'vdz'")
                .hasMessageContaining("[vda, vdb]");
    }

    @Test
    void refusesXmlWithADoctype() {
        String evil = "<!DOCTYPE d [<!ENTITY x SYSTEM \"file:///etc/passwd\">]><domain><devices/></domain>";
        assertThatThrownBy(() -> patcher.readDrivers(evil)).isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void refusesGarbage() {
        assertThatThrownBy(() -> patcher.patch("<domain><devices>", List.of()))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("well-formed");
    }
}
