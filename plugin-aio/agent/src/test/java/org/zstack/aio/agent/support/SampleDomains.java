package org.zstack.aio.agent.support;

import org.zstack.aio.agent.domain.DiskSpec;
import org.zstack.aio.agent.domain.DiskTargets;
import org.zstack.aio.agent.domain.DomainSpec;
import org.zstack.aio.agent.domain.DomainXmlBuilder;

import java.util.ArrayList;
import java.util.List;

/** Domain XML fixtures shared by tests and the JMH benchmark. */
public final class SampleDomains {

    private SampleDomains() {
    }

    /** A domain with {@code n} qcow2 file disks vda.., cache none, no io attribute, images under /images. */
    public static DomainSpec withDisks(String name, int n) {
        List<DiskSpec> disks = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            disks.add(new DiskSpec(DiskTargets.virtio(i), DiskSpec.Kind.FILE, "/images/disk-" + i + ".qcow2", "qcow2",
                    "none", null));
        }
        return new DomainSpec(name, name, "kvm", 64L << 20, 1, disks);
    }

    public static String xmlWithDisks(int n) {
        return new DomainXmlBuilder().build(withDisks("bench-" + n, n));
    }

    /** What libvirt hands back for a running domain: addresses, aliases, a cdrom, an emulator. */
    public static final String LIBVIRT_STYLE = """
            <domain type='kvm' id='7'>
              <name>vm-1</name>
              <memory unit='KiB'>65536</memory>
              <devices>
                <emulator>/usr/bin/qemu-system-x86_64</emulator>
                <disk type='file' device='disk'>
                  <driver name='qemu' type='qcow2' cache='writeback' io='native' discard='unmap'/>
                  <source file='/var/lib/images/root.qcow2' index='2'/>
                  <backingStore/>
                  <target dev='vda' bus='virtio'/>
                  <alias name='virtio-disk0'/>
                  <address type='pci' domain='0x0000' bus='0x00' slot='0x04' function='0x0'/>
                </disk>
                <disk type='block' device='disk'>
                  <source dev='/dev/vg0/data'/>
                  <target dev='vdb' bus='virtio'/>
                  <address type='pci' domain='0x0000' bus='0x00' slot='0x05' function='0x0'/>
                </disk>
                <disk type='file' device='cdrom'>
                  <driver name='qemu' type='raw'/>
                  <target dev='hdc' bus='ide'/>
                  <readonly/>
                </disk>
              </devices>
            </domain>
            """;
}
