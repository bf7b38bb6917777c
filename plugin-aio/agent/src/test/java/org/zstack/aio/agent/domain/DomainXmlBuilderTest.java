package org.zstack.aio.agent.domain;

import org.junit.jupiter.api.Test;
import org.zstack.aio.agent.api.GuestBoot;
import org.zstack.aio.agent.support.SampleDomains;

import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

class DomainXmlBuilderTest {

    private final DomainXmlBuilder builder = new DomainXmlBuilder();
    private final DomainXmlPatcher patcher = new DomainXmlPatcher();

    @Test
    void minimalDomainAsTheRecipeWantsIt() {
        String xml = builder.build(new DomainSpec("vm-uuid-1", "my vm", "kvm", 64L << 20, 2, List.of(
                new DiskSpec("vda", DiskSpec.Kind.FILE, "/images/a.qcow2", "qcow2", "none", "native"))));

        assertThat(xml).contains("<domain type=\"kvm\">", "<name>vm-uuid-1</name>", "<title>my vm</title>",
                "<memory unit=\"KiB\">65536</memory>", "<vcpu>2</vcpu>",
                "<type arch=\"x86_64\" machine=\"pc\">hvm</type>", "<boot dev=\"hd\"/>", "<acpi/>",
                "<memballoon model=\"none\"/>", "<target bus=\"virtio\" dev=\"vda\"/>",
                "<source file=\"/images/a.qcow2\"/>");
        assertThat(xml).doesNotContain("graphics", "interface");
        assertThat(patcher.readDrivers(xml))
                .containsExactly(new DiskDriver("vda", "/images/a.qcow2", "native", "none"));
    }

    @Test
    void aDirectKernelBootHasKernelInitrdCmdlineAndItsSerialConsoleInAFile() {
        String xml = builder.build(new DomainSpec("vm", null, "qemu", 64L << 20, 1, List.of(
                new DiskSpec("vda", DiskSpec.Kind.FILE, "/images/a.raw", "raw", "none", "io_uring")),
                new GuestBoot("/images/vmlinuz", "/images/initrd.gz", "console=ttyS0 aio.wl=x<y&z", "/images/con.log")));

        assertThat(xml).contains("<domain type=\"qemu\">", "<kernel>/images/vmlinuz</kernel>",
                "<initrd>/images/initrd.gz</initrd>", "<cmdline>console=ttyS0 aio.wl=x&lt;y&amp;z</cmdline>",
                "<serial type=\"file\"><source path=\"/images/con.log\"/><target port=\"0\"/></serial>");
        assertThat(xml).doesNotContain("<boot ");
        assertThat(patcher.readDrivers(xml)).containsExactly(new DiskDriver("vda", "/images/a.raw", "io_uring", "none"));

        String bare = builder.build(new DomainSpec("vm", null, "qemu", 64L << 20, 1, List.of(),
                new GuestBoot("/images/vmlinuz", null, null, null)));
        assertThat(bare).contains("<kernel>/images/vmlinuz</kernel>").doesNotContain("<initrd", "<cmdline", "<serial");
    }

    @Test
    void noIoAttributeWhenNoneIsWanted() {
        String xml = builder.build(new DomainSpec("vm", null, "qemu", 64L << 20, 1, List.of(
                new DiskSpec("vda", DiskSpec.Kind.FILE, "/images/a.qcow2", "qcow2", null, null))));

        assertThat(xml).doesNotContain("io=", "cache=", "<title");
        assertThat(patcher.readDrivers(xml)).containsExactly(new DiskDriver("vda", "/images/a.qcow2", null, null));
    }

    @Test
    void blockAndNetworkDisksUseTheirOwnSourceElements() {
        String xml = builder.build(new DomainSpec("vm", null, "kvm", 64L << 20, 1, List.of(
                new DiskSpec("vda", DiskSpec.Kind.BLOCK, "/dev/vg/lv", "raw", "none", "native"),
                new DiskSpec("vdb", DiskSpec.Kind.NETWORK, "pool/img", "qcow2", "none", null))));

        assertThat(xml).contains("<disk device=\"disk\" type=\"block\">", "<source dev=\"/dev/vg/lv\"/>",
                "<disk device=\"disk\" type=\"network\">", "<source name=\"pool/img\" protocol=\"rbd\"/>");
        // rbd images are raw to QEMU whatever the volume's format field says
        assertThat(xml).contains("<driver cache=\"none\" name=\"qemu\" type=\"raw\"/>");
    }

    @Test
    void namesAndPathsAreEscapedNotConcatenated() {
        String evil = "/images/a'b\"c&d<e>.qcow2";
        String xml = builder.build(new DomainSpec("vm", "x</title><devices/>", "kvm", 64L << 20, 1, List.of(
                new DiskSpec("vda", DiskSpec.Kind.FILE, evil, "qcow2", "none", null))));

        assertThat(patcher.readDrivers(xml)).extracting(DiskDriver::source).containsExactly(evil);
        assertThat(xml).contains("<title>x&lt;/title&gt;&lt;devices/&gt;</title>");
    }

    @Test
    void sixtyFourDisksGetDistinctTargets() {
        String xml = builder.build(SampleDomains.withDisks("vm64", 64));
        List<DiskDriver> drivers = patcher.readDrivers(xml);

        assertThat(drivers).hasSize(64);
        assertThat(drivers).extracting(DiskDriver::target).doesNotHaveDuplicates()
                .startsWith("vda", "vdb").endsWith("vdbl");
    }

    @Test
    void memoryThatIsNotAKibMultipleRoundsUp() {
        String xml = builder.build(new DomainSpec("vm", null, "kvm", (64L << 20) + 1, 1, List.of()));
        assertThat(xml).contains("<memory unit=\"KiB\">65537</memory>");
    }

    @Test
    void hotPlugDiskXmlIsALoneDiskElement() {
        String xml = builder.diskXml(new DiskSpec("vdc", DiskSpec.Kind.FILE, "/i/c.raw", "raw", "none", "io_uring"));
        assertThat(xml).startsWith("<disk").endsWith("</disk>")
                .contains("io=\"io_uring\"", "<target bus=\"virtio\" dev=\"vdc\"/>");
    }
}
