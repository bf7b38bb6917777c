package org.zstack.aio.agent.volume;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.zstack.aio.agent.api.VolumeCreateCmd;
import org.zstack.aio.agent.api.VolumeCreateRsp;
import org.zstack.aio.agent.http.AgentException;
import org.zstack.aio.agent.process.ProcessRunner;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Comparator;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assumptions.assumeTrue;
import java.util.List;

/** qemu-img create + measure on a real file system (qemu-utils is a declared requirement of the agent). */
class VolumeCreatorTest {

    private static final long SIZE = 8L << 20;
    private final ProcessRunner runner = new ProcessRunner(Duration.ofMinutes(1));
    private final VolumeCreator creator = new VolumeCreator(runner);
    private Path dir;

    @BeforeEach
    void setUp() throws IOException {
        assumeTrue(runner.run(List.of("qemu-img", "--version")).ok(), "qemu-img is not installed");
        Files.createDirectories(Path.of("target"));
        dir = Files.createTempDirectory(Path.of("target").toAbsolutePath(), "volumes-");
    }

    @AfterEach
    void tearDown() throws IOException {
        if (dir != null) {
            try (Stream<Path> files = Files.walk(dir)) {
                for (Path p : files.sorted(Comparator.reverseOrder()).toList()) {
                    Files.deleteIfExists(p);
                }
            }
        }
    }

    private VolumeCreateCmd cmd(String uuid, String type, String format, String prealloc) {
        return new VolumeCreateCmd(uuid, type, dir.toString(), format, prealloc, SIZE);
    }

    @Test
    void fullPreallocationIsMeasuredAsAllocated() {
        VolumeCreateRsp rsp = creator.create(cmd("vfull", "LocalStorage", "qcow2", "full"));

        assertThat(rsp.installPath()).isEqualTo(dir.resolve("vfull.qcow2").toString());
        assertThat(Path.of(rsp.installPath())).exists();
        assertThat(rsp.size()).isEqualTo(SIZE);
        assertThat(rsp.actualSize()).isGreaterThanOrEqualTo(SIZE);
    }

    @Test
    void aSparseImageIsMeasuredAsSparse() {
        VolumeCreateRsp rsp = creator.create(cmd("vsparse", "NFS", "qcow2", "none"));

        assertThat(rsp.size()).isEqualTo(SIZE);
        assertThat(rsp.actualSize()).isLessThan(SIZE / 4);
    }

    @Test
    void rawFallocIsAllocated() {
        VolumeCreateRsp rsp = creator.create(cmd("vraw", "SharedMountPoint", "raw", "falloc"));

        assertThat(rsp.installPath()).endsWith("vraw.raw");
        assertThat(rsp.actualSize()).isGreaterThanOrEqualTo(SIZE);
    }

    @Test
    void sharedBlockOnADirectoryIsThickLikeAnLv() {
        VolumeCreateRsp rsp = creator.create(cmd("vblock", "SharedBlock", "qcow2", "none"));

        assertThat(rsp.actualSize()).as("created fully preallocated, like an LV").isGreaterThanOrEqualTo(SIZE);
    }

    @Test
    void cephCreatesNothingAndAnswersAnRbdPath() {
        VolumeCreateRsp rsp = creator.create(new VolumeCreateCmd("vceph", "Ceph", "ceph://pool1/", "raw", "none", SIZE));

        assertThat(rsp).isEqualTo(new VolumeCreateRsp("ceph://pool1/vceph", SIZE, 0));
    }

    @Test
    void anExistingImageIsNeverOverwritten() throws IOException {
        creator.create(cmd("vtwice", "LocalStorage", "raw", "none"));
        Files.writeString(dir.resolve("marker"), "x");

        assertThatThrownBy(() -> creator.create(cmd("vtwice", "LocalStorage", "raw", "full")))
                .isInstanceOfSatisfying(AgentException.class, e -> assertThat(e.status()).isEqualTo(400))
                .hasMessageContaining("already exists");
    }

    @Test
    void badCommandsAre400() {
        assertStatus(cmd("../evil", "LocalStorage", "raw", "none"), 400);
        assertStatus(cmd("v1", "LocalStorage", "vmdk", "none"), 400);
        assertStatus(cmd("v1", "LocalStorage", "raw", "metadata"), 400);
        assertStatus(cmd("v1", "LocalStorage", "qcow2", "sparse"), 400);
        assertStatus(cmd("v1", "Floppy", "qcow2", "none"), 400);
        assertStatus(new VolumeCreateCmd("v1", "LocalStorage", dir.toString(), "raw", "none", 0), 400);
        assertThat(dir.resolve("v1.raw")).doesNotExist();
    }

    @Test
    void aThickVolumeLargerThanTheFreeSpaceIs400AndLeavesNoFile() {
        // more bytes than any disk here has: refused before qemu-img fills the file system
        for (String prealloc : new String[]{"full", "falloc"}) {
            VolumeCreateCmd huge = new VolumeCreateCmd("vhuge", "LocalStorage", dir.toString(), "raw", prealloc,
                    Long.MAX_VALUE / 2);
            assertThatThrownBy(() -> creator.create(huge))
                    .isInstanceOfSatisfying(AgentException.class, e -> {
                        assertThat(e.status()).isEqualTo(400);
                        assertThat(e.getMessage()).contains("bytes free");
                    });
            assertThat(dir.resolve("vhuge.raw")).doesNotExist();
        }
    }

    @Test
    void aSparseImageLargerThanTheFormatAllowsIs400AndLeavesNoFile() {
        VolumeCreateCmd huge = new VolumeCreateCmd("vhuge", "LocalStorage", dir.toString(), "raw", "none", Long.MAX_VALUE / 2);
        assertThatThrownBy(() -> creator.create(huge))
                .isInstanceOfSatisfying(AgentException.class, e -> assertThat(e.status()).isEqualTo(400));
        assertThat(dir.resolve("vhuge.raw")).doesNotExist();
    }

    private void assertStatus(VolumeCreateCmd c, int status) {
        assertThatThrownBy(() -> creator.create(c))
                .isInstanceOfSatisfying(AgentException.class, e -> assertThat(e.status()).isEqualTo(status));
    }
}
