package org.zstack.aio.agent.host;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.zstack.aio.agent.api.StoragePathFacts;
import org.zstack.aio.agent.process.ProcessResult;
import org.zstack.aio.agent.process.ProcessRunner;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assertions.fail;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * The agent's gathering on real devices this test makes: an image file, a loop device (losetup), a filesystem made on
 * it (mkfs.ext4, mkfs.btrfs from btrfs-progs), mounted, each probed through this host's /proc/mounts. (A device-mapper
 * device over a loop device is read from recorded sysfs only, StoragePathProbeTest: these machines' kernel has no
 * device-mapper, dmsetup finds no /dev/mapper/control.) Needs root and those tools (bin/lib/setup-libvirt.sh installs
 * btrfs-progs); without them it skips, and under CI=true it fails. Everything is undone, whatever happens.
 */
class RealLoopStorageTest {

    private final ProcessRunner runner = new ProcessRunner(Duration.ofSeconds(60));
    /** What to undo, last made first. */
    private final Deque<List<String>> undo = new ArrayDeque<>();

    @AfterEach
    void undo() {
        while (!undo.isEmpty()) runner.run(undo.pop());
    }

    @Test
    void btrfsOnALoopDeviceIsBtrfsAndLoopBacked() throws IOException {
        requireTools("mkfs.btrfs");
        Path mnt = mounted("mkfs.btrfs", "-q");
        StoragePathFacts f = StoragePathProbe.ofThisHost().probe(mnt);
        assertThat(f.filesystem()).isEqualTo("btrfs");
        assertThat(f.loopBacked()).isTrue();
        assertThat(f.oDirect()).as(f.error()).isTrue();
    }

    @Test
    void ext4OnALoopDeviceIsExt4AndLoopBacked() throws IOException {
        requireTools("mkfs.ext4");
        Path mnt = mounted("mkfs.ext4", "-q");
        StoragePathFacts f = StoragePathProbe.ofThisHost().probe(mnt);
        assertThat(f.filesystem()).isEqualTo("ext4");
        assertThat(f.loopBacked()).isTrue();
        // a directory below the mount point is on the same filesystem
        Path images = Files.createDirectories(mnt.resolve("images"));
        assertThat(StoragePathProbe.ofThisHost().probe(images).filesystem()).isEqualTo("ext4");
    }

    /** A 128 MiB image (btrfs wants 114 MiB at least) on a loop device, a filesystem made by {@code mkfs}, mounted; the mount point. */
    private Path mounted(String... mkfs) throws IOException {
        String loop = loopDevice();
        List<String> cmd = new java.util.ArrayList<>(List.of(mkfs));
        cmd.add(loop);
        run(cmd.toArray(String[]::new));
        Path mnt = mountPoint();
        run("mount", loop, mnt.toString());
        undo.push(List.of("umount", mnt.toString()));
        return mnt;
    }

    private String loopDevice() throws IOException {
        Path image = Files.createTempFile(Path.of("target").toAbsolutePath(), "loop-", ".img");
        undo.push(List.of("rm", "-f", image.toString()));
        run("truncate", "-s", "128M", image.toString());
        String loop = run("losetup", "-f", "--show", image.toString()).strip();
        undo.push(List.of("losetup", "-d", loop));
        return loop;
    }

    private Path mountPoint() throws IOException {
        Path mnt = Files.createTempDirectory(Path.of("target").toAbsolutePath(), "mnt-").toRealPath();
        undo.push(List.of("rmdir", mnt.toString()));
        return mnt;
    }

    private String run(String... cmd) {
        ProcessResult r = runner.run(List.of(cmd));
        assertThat(r.ok()).as(String.join(" ", cmd) + ": " + r.errorText()).isTrue();
        return r.stdout();
    }

    private void requireTools(String... tools) throws IOException {
        String missing = null;
        if (!"root".equals(System.getProperty("user.name"))) missing = "root (losetup, mount)";
        for (String t : List.of(tools)) {
            if (missing == null && !runner.run(List.of("sh", "-c", "command -v " + t)).ok()) missing = t;
        }
        if (missing == null && !runner.run(List.of("losetup", "-f")).ok()) missing = "a free loop device";
        if (missing == null) return;
        String msg = "needs " + missing + " (as root: bash bin/lib/setup-libvirt.sh installs btrfs-progs)";
        if ("true".equalsIgnoreCase(System.getenv("CI"))) fail("CI=true: " + msg);
        assumeTrue(false, msg);
    }
}
