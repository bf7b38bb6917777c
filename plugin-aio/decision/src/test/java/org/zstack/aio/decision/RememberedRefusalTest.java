package org.zstack.aio.decision;

import org.junit.jupiter.api.Test;

import java.util.Collections;
import java.util.EnumMap;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.zstack.aio.decision.Facts.DECIDER;
import static org.zstack.aio.decision.Facts.FAIL;
import static org.zstack.aio.decision.Facts.FALLBACK;
import static org.zstack.aio.decision.Facts.bothOk;
import static org.zstack.aio.decision.Facts.goodHost;

/**
 * A mode libvirt or QEMU refused at a start on the volume's host × storage, remembered by the platform: a failed
 * {@code remembered-refusal} check with the platform's sentence, so no decision and no candidate chain tries it there.
 */
class RememberedRefusalTest {

    private static final String WHY = "QEMU refused io_uring for volume v at a start on this host and primary storage";

    private static VolumeFacts refused(IoMode mode) {
        Map<IoMode, String> m = new EnumMap<>(IoMode.class);
        m.put(mode, WHY);
        return bothOk().withRefusedModes(m);
    }

    private static IoModeDecision decide(RequestedIoMode asked, VolumeFacts v, DecisionPolicy p) {
        return DECIDER.decide(new DecisionInput(asked, ConfigSource.VOLUME, v, goodHost(), p));
    }

    @Test
    void aRememberedIoUringRefusalStepsTheDiskDownAndLeavesTheChain() {
        IoModeDecision d = decide(RequestedIoMode.IO_URING, refused(IoMode.IO_URING), FALLBACK);
        assertThat(d.effectiveMode()).isEqualTo(IoMode.NATIVE);
        Check c = d.firstFailure(IoMode.IO_URING);
        assertThat(c.check()).isEqualTo("remembered-refusal");
        assertThat(c.message()).isEqualTo(WHY);
        assertThat(d.reason()).contains("fell back to native because check remembered-refusal failed: " + WHY);
        assertThat(d.candidates()).containsExactly(IoMode.NATIVE, IoMode.THREADS);
        // the same volume without the refusal runs io_uring, with io_uring first in its chain
        IoModeDecision free = decide(RequestedIoMode.IO_URING, bothOk(), FALLBACK);
        assertThat(free.effectiveMode()).isEqualTo(IoMode.IO_URING);
        assertThat(free.checks()).noneMatch(x -> x.check().equals("remembered-refusal"));
    }

    @Test
    void withFailTheStartIsRefusedNamingTheRefusal() {
        IoModeDecision d = decide(RequestedIoMode.IO_URING, refused(IoMode.IO_URING), FAIL);
        assertThat(d.refused()).isTrue();
        assertThat(d.reason()).contains("check remembered-refusal failed: " + WHY);
    }

    @Test
    void autoSkipsARememberedModeAndARefusedNativeFallsToThreads() {
        IoModeDecision auto = decide(RequestedIoMode.AUTO, refused(IoMode.IO_URING), FALLBACK);
        assertThat(auto.effectiveMode()).isEqualTo(IoMode.NATIVE);
        assertThat(auto.reason()).contains("io_uring is ruled out by check remembered-refusal");
        IoModeDecision nat = decide(RequestedIoMode.NATIVE, refused(IoMode.NATIVE), FALLBACK);
        assertThat(nat.effectiveMode()).isEqualTo(IoMode.THREADS);
        assertThat(nat.firstFailure(IoMode.NATIVE).check()).isEqualTo("remembered-refusal");
    }

    @Test
    void theRefusedModesArePartOfTheVolumesFacts() {
        assertThat(refused(IoMode.IO_URING)).isNotEqualTo(bothOk());
        assertThat(refused(IoMode.IO_URING).refusedModes()).containsOnlyKeys(IoMode.IO_URING);
        assertThat(bothOk().withRefusedModes(Collections.emptyMap())).isEqualTo(bothOk());
        // the facts' other copies keep them
        assertThat(refused(IoMode.IO_URING).withCacheMode("directsync").refusedModes()).containsOnlyKeys(IoMode.IO_URING);
        assertThat(DECIDER.checkNames()).contains("remembered-refusal");
    }
}
