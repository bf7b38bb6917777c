package org.zstack.aio.agent.host;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.libvirt.LibvirtException;
import org.zstack.aio.agent.api.HostConnectCmd;
import org.zstack.aio.agent.api.HostFactsRsp;
import org.zstack.aio.agent.api.StoragePathFacts;
import org.zstack.aio.agent.libvirt.LibvirtHost;
import org.zstack.aio.agent.process.ProcessResult;
import org.zstack.aio.agent.process.ProcessRunner;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * Each storage path's filesystem and loop backing, gathered from recorded tables: a /proc/mounts text and a
 * /sys/class/block tree (device-mapper devices with their dm/name and slaves/), as the agent reads them on a host.
 */
class StoragePathProbeTest {

    /** A host with a plain disk, a btrfs pool on a loop device, LVM on a loop device, LUKS on that LV, and a CIFS share. */
    static final String MOUNTS = """
            /dev/sda2 / ext4 rw,relatime 0 0
            proc /proc proc rw 0 0
            /dev/loop3 /var/lib/pool btrfs rw 0 0
            /dev/loop12 /var/lib/pool/deeper xfs rw 0 0
            /dev/sdb1 /var/lib/pool/disk ext4 rw 0 0
            /dev/loopback-ish /srv ext4 rw 0 0
            /dev/mapper/vg0-images /var/lib/lvm-on-loop ext4 rw 0 0
            /dev/dm-1 /var/lib/luks xfs rw 0 0
            /dev/mapper/vg1-real /var/lib/lvm-on-disk xfs rw 0 0
            /dev/mapper/gone /var/lib/unknown-dm ext4 rw 0 0
            //nas/share /mnt/with\\040space cifs rw 0 0
            tank/images /tank zfs rw 0 0
            """;

    static Path recorded(Path tmp) throws IOException {
        Path sys = tmp.resolve("sys-class-block");
        dm(sys, "dm-0", "vg0-images", "loop7");   // LVM on an image file
        dm(sys, "dm-1", "luks-x", "dm-0");        // LUKS on that LV: loop two levels down
        dm(sys, "dm-2", "vg1-real", "sdc");       // LVM on a real disk
        Files.createDirectories(sys.resolve("sdc"));
        Files.createDirectories(sys.resolve("loop7"));
        Files.writeString(tmp.resolve("mounts"), MOUNTS);
        return sys;
    }

    private static void dm(Path sys, String dev, String name, String slave) throws IOException {
        Files.createDirectories(sys.resolve(dev).resolve("dm"));
        Files.writeString(sys.resolve(dev).resolve("dm").resolve("name"), name + "\n");
        Files.createDirectories(sys.resolve(dev).resolve("slaves").resolve(slave));
    }

    @Test
    void theFilesystemIsTheDeepestMountAboveThePath(@TempDir Path tmp) throws IOException {
        StoragePathProbe p = new StoragePathProbe(tmp.resolve("mounts"), recorded(tmp));
        assertThat(p.filesystem(Path.of("/var/lib/pool/images/a.qcow2"))).isEqualTo("btrfs");
        assertThat(p.filesystem(Path.of("/var/lib/pool/deeper/x"))).isEqualTo("xfs");
        assertThat(p.filesystem(Path.of("/var/lib/poolx"))).as("a sibling's prefix is no parent").isEqualTo("ext4");
        assertThat(p.filesystem(Path.of("/mnt/with space/vol"))).isEqualTo("cifs");
        assertThat(p.filesystem(Path.of("/tank/images/x"))).isEqualTo("zfs");
        assertThat(new StoragePathProbe(tmp.resolve("absent"), tmp).filesystem(Path.of("/var"))).isNull();
    }

    @Test
    void aLoopBackedPathIsOneWhoseFilesystemComesFromALoopDevice(@TempDir Path tmp) throws IOException {
        StoragePathProbe p = new StoragePathProbe(tmp.resolve("mounts"), recorded(tmp));
        assertThat(p.loopBacked(Path.of("/var/lib/pool/images/a.qcow2"))).isTrue();
        assertThat(p.loopBacked(Path.of("/var/lib/pool/deeper/x"))).isTrue();
        assertThat(p.loopBacked(Path.of("/var/lib/pool/disk/x"))).isFalse();
        assertThat(p.loopBacked(Path.of("/var/lib/zstack"))).isFalse();
        assertThat(p.loopBacked(Path.of("/srv/x"))).as("only /dev/loopN").isFalse();
        assertThat(p.loopBacked(Path.of("/mnt/with space/vol"))).as("a share is no device").isFalse();
        assertThat(new StoragePathProbe(tmp.resolve("absent"), tmp).loopBacked(Path.of("/var"))).isNull();
    }

    /** Before issue 32 a loop device under device-mapper showed as /dev/mapper/... and counted as no loop. */
    @Test
    void aLoopDeviceUnderDeviceMapperIsFoundThroughSysfs(@TempDir Path tmp) throws IOException {
        StoragePathProbe p = new StoragePathProbe(tmp.resolve("mounts"), recorded(tmp));
        assertThat(p.loopBacked(Path.of("/var/lib/lvm-on-loop/v.qcow2"))).as("LVM on a loop device").isTrue();
        assertThat(p.loopBacked(Path.of("/var/lib/luks/v.qcow2"))).as("LUKS on LVM on a loop device").isTrue();
        assertThat(p.loopBacked(Path.of("/var/lib/lvm-on-disk/v.qcow2"))).as("LVM on a disk").isFalse();
        assertThat(p.loopBacked(Path.of("/var/lib/unknown-dm/v"))).as("a dm device sysfs does not show").isNull();
    }

    /** The agent's whole gathering (what /host/connect answers) from the recorded tables, per storage path. */
    @Test
    void theHostProbeAnswersEachStoragePathFromTheTables(@TempDir Path tmp) throws IOException, LibvirtException {
        Path sys = recorded(tmp);
        Path pool = Files.createDirectories(tmp.resolve("pool"));
        Files.writeString(tmp.resolve("mounts"), MOUNTS + "/dev/loop9 " + pool.toRealPath() + " btrfs rw 0 0\n");
        LibvirtHost libvirt = new LibvirtHost("test:///default");
        try {
            HostIoCapabilitiesProbe probe = new HostIoCapabilitiesProbe(new ProcessRunner(Duration.ofSeconds(30)), libvirt,
                    Path.of("/proc/sys"), new StoragePathProbe(tmp.resolve("mounts"), sys));
            HostFactsRsp f = probe.probe(new HostConnectCmd("h", List.of(pool.toString(), "/var/lib/lvm-on-loop/images")));
            assertThat(f.storagePaths()).extracting(StoragePathFacts::path, StoragePathFacts::filesystem, StoragePathFacts::loopBacked)
                    .containsExactly(org.assertj.core.groups.Tuple.tuple(pool.toString(), "btrfs", true),
                            org.assertj.core.groups.Tuple.tuple("/var/lib/lvm-on-loop/images", "ext4", true));
            assertThat(f.storagePaths().get(1).error()).isEqualTo("not a directory on this host: /var/lib/lvm-on-loop/images");
        } finally {
            libvirt.close();
        }
    }

    /** This host's own tables, against findmnt's answer for a temp dir. */
    @Test
    void onThisHostTheTablesAgreeWithFindmnt(@TempDir Path tmp) {
        ProcessRunner runner = new ProcessRunner(Duration.ofSeconds(20));
        ProcessResult findmnt = runner.run(List.of("findmnt", "-n", "-o", "SOURCE,FSTYPE", "-T", tmp.toString()));
        assumeTrue(findmnt.ok(), "findmnt is missing");
        String[] f = findmnt.stdout().strip().split("\\s+");
        StoragePathFacts facts = StoragePathProbe.ofThisHost().probe(tmp);
        assertThat(facts.filesystem()).isEqualTo(f[1]);
        assertThat(facts.loopBacked()).isEqualTo(f[0].matches("/dev/loop\\d+"));
    }
}
