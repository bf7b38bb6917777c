package org.zstack.aio.plugin.workload;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.zstack.aio.plugin.HostScript;
import org.zstack.aio.plugin.HostShell;
import org.zstack.aio.plugin.ShippedFiles;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.UUID;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assumptions.assumeThat;

/**
 * conf/aio/host-sample.sh against this machine's real libvirtd: a transient no-OS domain of its own (QEMU under
 * TCG, one raw disk the firmware reads its boot sector from), sampled through ZStack's way of sending a script, read
 * by {@link HostSample} and matched to the disk by its path. Other domains running here are read, never touched.
 */
class HostSampleScriptTest {

    @Test
    void aRunningDomainsDiskIsSampledFromLibvirtsOwnOutput(@TempDir Path dir, @TempDir Path tmp) throws Exception {
        boolean libvirt = HostShell.sh("virsh -c qemu:///system version >/dev/null 2>&1 && command -v qemu-img", null).exit() == 0;
        // bin/aio-test starts libvirtd before the tests; a machine without it may skip, CI may not
        if (!"true".equals(System.getenv("CI"))) assumeThat(libvirt).as("libvirtd and qemu-img here").isTrue();
        assertThat(libvirt).as("libvirtd and qemu-img here (CI=true: no skip)").isTrue();
        Path disk = dir.resolve("vol-" + UUID.randomUUID().toString().replace("-", "") + ".raw");
        assertThat(HostShell.sh("qemu-img create -q -f raw " + disk + " 1M", null).exit()).isZero();
        String name = "aio-sample-test-" + UUID.randomUUID().toString().substring(0, 8);
        Path xml = Files.writeString(dir.resolve("domain.xml"), "<domain type='qemu'><name>" + name + "</name>"
                + "<memory unit='MiB'>32</memory><vcpu>1</vcpu><os><type arch='x86_64'>hvm</type><boot dev='hd'/></os>"
                + "<devices><disk type='file' device='disk'><driver name='qemu' type='raw' cache='none' io='threads'/>"
                + "<source file='" + disk + "'/><target dev='vda' bus='virtio'/></disk></devices></domain>");
        HostShell.Result created = HostShell.sh("virsh -c qemu:///system create " + xml, null);
        assertThat(created.exit()).as(created.stderr()).isZero();
        try {
            long id = Long.parseLong(HostShell.sh("virsh -c qemu:///system domid " + name, null).stdout().trim());
            // the firmware reads the boot sector: wait (bounded) until QEMU counted a read
            HostSample.Disk vda = null;
            HostSample s = null;
            for (int i = 0; i < 100 && (vda == null || vda.counters().rdReqs() == 0); i++) {
                HostShell.Result r = HostShell.zstackRunShell(HostScript.of("conf/aio/host-sample.sh", ShippedFiles.read(ShippedFiles.SAMPLE_SCRIPT)).with("5")
                        .heredocSafe(), tmp, null);
                assertThat(r.exit()).as(r.stdout() + r.stderr()).isZero();
                s = HostSample.parse(r.stdout());
                assertThat(s.failure()).isNull();
                HostSample.Domain mine = s.domains().stream().filter(d -> d.name().equals(name)).findFirst().orElseThrow();
                assertThat(mine.id()).isEqualTo(id);
                assertThat(mine.disks()).hasSize(1);
                vda = mine.disks().get(0);
                if (vda.counters().rdReqs() == 0) Thread.sleep(100);
            }
            assertThat(vda.name()).isEqualTo("vda");
            assertThat(vda.path()).isEqualTo(disk.toString());
            assertThat(vda.counters().rdReqs()).as("QEMU counted the firmware's reads").isPositive();
            assertThat(vda.counters().rdBytes()).isGreaterThanOrEqualTo(512 * vda.counters().rdReqs());
            assertThat(Math.abs(s.atMillis() - System.currentTimeMillis())).as("the host's clock, in ms").isLessThan(120_000);
            String volume = disk.getFileName().toString().substring(4, 36);
            SampleFold f = SampleFold.fold("here", s, SampleFold.byPathOrUuid(Map.of("/not/its/path", volume)), Map.of(), 3600);
            assertThat(f.states()).containsOnlyKeys(volume);
            assertThat(f.states().get(volume).last()).isEqualTo(vda.counters());
        } finally {
            HostShell.sh("virsh -c qemu:///system destroy " + name, null);
        }
    }
}
