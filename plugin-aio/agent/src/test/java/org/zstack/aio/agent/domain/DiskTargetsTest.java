package org.zstack.aio.agent.domain;

import org.junit.jupiter.api.Test;

import java.util.HashSet;
import java.util.Set;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class DiskTargetsTest {

    @Test
    void namesLikeLibvirt() {
        assertThat(DiskTargets.virtio(0)).isEqualTo("vda");
        assertThat(DiskTargets.virtio(1)).isEqualTo("vdb");
        assertThat(DiskTargets.virtio(25)).isEqualTo("vdz");
        assertThat(DiskTargets.virtio(26)).isEqualTo("vdaa");
        assertThat(DiskTargets.virtio(51)).isEqualTo("vdaz");
        assertThat(DiskTargets.virtio(52)).isEqualTo("vdba");
        assertThat(DiskTargets.virtio(701)).isEqualTo("vdzz");
        assertThat(DiskTargets.virtio(702)).isEqualTo("vdaaa");
    }

    @Test
    void namesAreUnique() {
        Set<String> seen = new HashSet<>();
        for (int i = 0; i < 1000; i++) {
            assertThat(seen.add(DiskTargets.virtio(i))).as("name of %d", i).isTrue();
        }
    }

    @Test
    void refusesNegativeIds() {
        assertThatThrownBy(() -> DiskTargets.virtio(-1)).isInstanceOf(IllegalArgumentException.class);
    }
}
