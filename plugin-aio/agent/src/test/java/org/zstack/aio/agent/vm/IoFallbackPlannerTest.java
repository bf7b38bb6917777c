package org.zstack.aio.agent.vm;

import org.junit.jupiter.api.Test;
import org.zstack.aio.agent.api.DiskTO;

import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import org.zstack.aio.agent.domain.DiskTargets;

class IoFallbackPlannerTest {

    private static DiskIoCursor disk(int id, String path, String... candidates) {
        return new DiskIoCursor(new DiskTO("vol-" + id, path, "qcow2", "file", id, "none", List.of(candidates)),
                DiskTargets.virtio(id));
    }

    @Test
    void anErrorNamingATargetStepsDownOnlyThatDisk() {
        DiskIoCursor a = disk(0, "/i/a.qcow2", "io_uring", "native", "threads");
        DiskIoCursor b = disk(1, "/i/b.qcow2", "io_uring", "native", "threads");

        List<DiskIoCursor> down = IoFallbackPlanner.toStepDown(List.of(a, b),
                "QEMU refused aio=io_uring for disk vdb (/i/b.qcow2)");

        assertThat(down).containsExactly(b);
    }

    @Test
    void anErrorNamingAPathStepsDownOnlyThatDisk() {
        DiskIoCursor a = disk(0, "/i/a.qcow2", "io_uring", "threads");
        DiskIoCursor b = disk(1, "/i/b.qcow2", "io_uring", "threads");

        assertThat(IoFallbackPlanner.toStepDown(List.of(a, b),
                "-blockdev {\"driver\":\"file\",\"filename\":\"/i/a.qcow2\",\"aio\":\"io_uring\"}: Unable to use io_uring"))
                .containsExactly(a);
    }

    @Test
    void targetNamesMatchWholeWordsOnly() {
        DiskIoCursor vda = disk(0, "/i/a", "native", "threads");
        DiskIoCursor vdaa = disk(26, "/i/aa", "native", "threads");

        assertThat(IoFallbackPlanner.toStepDown(List.of(vda, vdaa), "disk vdaa refused")).containsExactly(vdaa);
    }

    @Test
    void libvirtsNativeRefusalStepsDownTheNativeDisksOnly() {
        DiskIoCursor nat = disk(0, "/i/a", "native", "threads");
        DiskIoCursor uring = disk(1, "/i/b", "io_uring", "native", "threads");

        assertThat(IoFallbackPlanner.toStepDown(List.of(nat, uring),
                "unsupported configuration: io='native' needs either no disk cache or directsync cache mode"))
                .containsExactly(nat);
    }

    @Test
    void anErrorNamingNothingStepsDownEveryDiskWithACandidateLeft() {
        DiskIoCursor a = disk(0, "/i/a", "io_uring", "threads");
        DiskIoCursor last = disk(1, "/i/b", "threads");
        DiskIoCursor none = disk(2, "/i/c");

        assertThat(IoFallbackPlanner.toStepDown(List.of(a, last, none), "internal error: something broke"))
                .containsExactly(a);
    }

    @Test
    void aNamedDiskWithoutCandidatesLeftMeansGiveUpNotBlameOthers() {
        DiskIoCursor a = disk(0, "/i/a", "native");
        DiskIoCursor b = disk(1, "/i/b", "io_uring", "threads");

        assertThat(IoFallbackPlanner.toStepDown(List.of(a, b), "cannot open /i/a: permission denied")).isEmpty();
    }

    @Test
    void steppingDownRecordsTheRefusedModeWithItsError() {
        DiskIoCursor a = disk(0, "/i/a", "io_uring", "native", "threads");
        a.stepDown("no io_uring");
        a.stepDown("no native");

        assertThat(a.currentIo()).isEqualTo("threads");
        assertThat(a.canStepDown()).isFalse();
        assertThat(a.attempts()).extracting(x -> x.io() + ":" + x.error())
                .containsExactly("io_uring:no io_uring", "native:no native");
    }

    @Test
    void anEmptyCandidateListMeansNoIoAttributeAndNoStepDown() {
        DiskIoCursor a = disk(0, "/i/a");
        assertThat(a.currentIo()).isNull();
        assertThat(a.canStepDown()).isFalse();
    }

    @Test
    void readsModesFromLibvirtAndQemuSpellings() {
        assertThat(IoFallbackPlanner.namedModes("io='native' needs")).containsExactly("native");
        assertThat(IoFallbackPlanner.namedModes("aio=native was specified")).containsExactly("native");
        assertThat(IoFallbackPlanner.namedModes("\"aio\":\"threads\"")).containsExactly("threads");
        assertThat(IoFallbackPlanner.namedModes("Unable to use io_uring")).containsExactly("io_uring");
        assertThat(IoFallbackPlanner.namedModes("native speakers")).isEmpty();
    }
}
