package org.zstack.aio.agent.libvirt;

import org.junit.jupiter.api.Test;
import org.zstack.aio.agent.domain.DiskSpec;
import org.zstack.aio.agent.domain.DomainSpec;
import org.zstack.aio.agent.domain.DomainXmlBuilder;

import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/** The agent recognises its own domains by the metadata mark it writes, and nothing else. */
class OwnerMarkTest {

    @Test
    void aBuiltDomainCarriesTheMark() {
        String xml = new DomainXmlBuilder().build(new DomainSpec("vm", "vm", "qemu", 64L << 20, 1,
                List.of(new DiskSpec("vda", DiskSpec.Kind.FILE, "/images/a.qcow2", "qcow2", "none", null))));
        assertThat(LibvirtHost.hasOwnerMark(xml)).isTrue();
    }

    @Test
    void aForeignDomainOrAMarkOutsideMetadataIsNotOurs() {
        assertThat(LibvirtHost.hasOwnerMark("<domain type='kvm'><name>x</name></domain>")).isFalse();
        assertThat(LibvirtHost.hasOwnerMark("<domain type='kvm'><name>x</name><description>"
                + "<created-by-aio-agent xmlns='urn:zstack:aio:agent:1'/></description></domain>")).isFalse();
        assertThat(LibvirtHost.hasOwnerMark("<domain type='kvm'><metadata><created-by-aio-agent xmlns='urn:other'/>"
                + "</metadata></domain>")).isFalse();
    }
}
