package org.zstack.aio.plugin;

import org.junit.jupiter.api.Test;
import org.zstack.aio.decision.WorkloadProfile;
import org.zstack.aio.decision.ConfigSource;
import org.zstack.aio.decision.DecisionInput;
import org.zstack.aio.decision.DecisionPolicy;
import org.zstack.aio.decision.IoModeDecider;
import org.zstack.aio.decision.IoModeDecision;
import org.zstack.aio.decision.RequestedIoMode;
import org.zstack.aio.decision.VolumeFacts;
import org.zstack.aio.decision.rules.IoModeRulesLoader;

import java.beans.Introspector;
import java.beans.PropertyDescriptor;
import java.util.Arrays;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

class DecisionRecordTest {

    @Test
    void aRecordCarriesTheDecisionAndWhatWasApplied() {
        IoModeDecision d = new IoModeDecider(IoModeRulesLoader.fromClasspath()).decide(new DecisionInput(
                RequestedIoMode.NATIVE, ConfigSource.PRIMARY_STORAGE,
                new VolumeFacts("vol1", "LocalStorage", "qcow2", "none", 10L << 30, null, "none"), null, DecisionPolicy.DEFAULT));
        DecisionRecord r = DecisionRecord.of(d, "vm1", Operation.ATTACH, new DecisionRecord.Applied(null, "none",
                List.of(new DecisionRecord.AttemptRecord("native", "refused"))), null);
        assertThat(r.getVolumeUuid()).isEqualTo("vol1");
        assertThat(r.getVmInstanceUuid()).isEqualTo("vm1");
        assertThat(r.getOperation()).isEqualTo("attach");
        assertThat(r.getRequested()).isEqualTo("native");
        assertThat(r.getSource()).isEqualTo("PrimaryStorageVO");
        assertThat(r.getEffective()).isEqualTo("threads");
        assertThat(r.getChecks()).extracting(DecisionRecord.CheckRecord::getCheck).contains("non-sparse-image");
        assertThat(r.getReason()).isEqualTo(d.reason());
        assertThat(r.getAppliedCache()).isEqualTo("none");
        assertThat(r.getAttempts()).extracting(DecisionRecord.AttemptRecord::getIo).containsExactly("native");
        assertThat(r.getDecidedAt()).isNull();
        assertThat(r.decidedAt("2026-11-26T04:31:11.123Z").getDecidedAt()).isEqualTo("2026-11-26T04:31:11.123Z");
        assertThat(DecisionRecord.of(d, "vm1", Operation.START, null, null).getAppliedIo()).isNull();
    }

    /**
     * The view's properties are the stored columns, decidedAt standing for the stored createDate, and the volume's
     * sampled workload, shown with it and kept by the sampling.
     */
    @Test
    void theViewShowsEveryStoredColumn() throws Exception {
        List<String> props = Arrays.stream(Introspector.getBeanInfo(DecisionRecord.class, Object.class).getPropertyDescriptors())
                .map(PropertyDescriptor::getName).map(n -> n.equals("decidedAt") ? "createDate" : n)
                .filter(n -> !n.equals("workload")).toList();
        assertThat(props).containsExactlyInAnyOrderElementsOf(DecisionRecord.STORED_COLUMNS);
    }

    @Test
    void theSampledWorkloadIsShownOnACopyAndNeverTakenForWhatTheDecisionWeighed() {
        DecisionRecord r = new DecisionRecord("v1", "vm1", "h1", "start", "auto", "global", "native", false, null, "why",
                null, null, null, null, "2026-11-26T04:31:11.123Z");
        WorkloadProfile p = new WorkloadProfile(0.1, 4096, 4096, 300, 2700, 30, 600, "2026-11-27T10:00:00.000Z");
        DecisionRecord shown = r.withWorkload(p);
        assertThat(r.getWorkload()).isNull();
        assertThat(shown.getWorkload().getWriteIops()).isEqualTo(2700);
        assertThat(shown.getWorkload().getSampledAt()).isEqualTo("2026-11-27T10:00:00.000Z");
        assertThat(shown.getOptimizedFor()).isNull();
        assertThat(shown.getEffective()).isEqualTo("native");
        assertThat(shown.getDecidedAt()).isEqualTo(r.getDecidedAt());
        assertThat(r.withWorkload(null).getWorkload()).isNull();
    }
}
