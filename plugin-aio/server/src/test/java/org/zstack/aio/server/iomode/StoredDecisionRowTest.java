package org.zstack.aio.server.iomode;

import com.fasterxml.jackson.databind.ObjectMapper;
import org.junit.jupiter.api.Test;
import org.zstack.aio.agent.api.DiskResult;
import org.zstack.aio.decision.ConfigSource;
import org.zstack.aio.decision.DecisionInput;
import org.zstack.aio.decision.DecisionPolicy;
import org.zstack.aio.decision.HostFacts;
import org.zstack.aio.decision.IoMode;
import org.zstack.aio.decision.IoModeDecider;
import org.zstack.aio.decision.IoModeDecision;
import org.zstack.aio.decision.ModePerformance;
import org.zstack.aio.decision.OnUnsatisfied;
import org.zstack.aio.decision.RequestedIoMode;
import org.zstack.aio.decision.Version;
import org.zstack.aio.decision.VolumeFacts;
import org.zstack.aio.decision.WorkloadCell;
import org.zstack.aio.decision.WorkloadProfile;
import org.zstack.aio.decision.rules.IoModeRulesLoader;
import org.zstack.aio.plugin.Operation;
import org.zstack.aio.server.iomode.IoModeDecisionInventory.IoModeCheckInventory;
import org.zstack.aio.server.workload.WorkloadInventory;

import java.lang.reflect.RecordComponent;
import java.util.Arrays;
import java.util.EnumMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The digest a start compares instead of loading a stored decision: equal exactly when every stored column is equal,
 * over decisions that differ in one stored value each (the columns are what {@link StoredDecisionRow#storeIn} writes).
 */
class StoredDecisionRowTest {

    private static final IoModeDecider DECIDER = new IoModeDecider(IoModeRulesLoader.fromClasspath());
    private static final ObjectMapper JSON = new ObjectMapper().findAndRegisterModules();
    private static final long G = 1L << 30;
    private static final HostFacts MODERN = new HostFacts("h-modern", Version.parse("6.1.0"), 0, Version.parse("8.2.2"), true,
            Version.parse("10.0.0"));
    private static final HostFacts EL8 = new HostFacts("h-el8", Version.parse("4.18.0-553.el8_10.x86_64"), null,
            Version.parse("6.2.0"), false, Version.parse("8.0.0"));
    private static final DecisionPolicy FALLBACK = new DecisionPolicy(OnUnsatisfied.FALLBACK, false);

    private static VolumeFacts volume(String cache) {
        return new VolumeFacts("v-1", "LocalStorage", "qcow2", "full", 40 * G, 40 * G, cache);
    }

    private static IoModeDecision decide(RequestedIoMode requested, ConfigSource source, String cache, HostFacts host) {
        return DECIDER.decide(new DecisionInput(requested, source, volume(cache), host, FALLBACK));
    }

    /** auto with a benchmark in which native wins 4K writes at depth 64, and a workload that is exactly that. */
    private static IoModeDecision optimizedFor(double writeIops) {
        Map<IoMode, Double> ops = new EnumMap<>(IoMode.class);
        ops.put(IoMode.THREADS, 10_000.0);
        ops.put(IoMode.NATIVE, 60_000.0);
        ops.put(IoMode.IO_URING, 40_000.0);
        WorkloadCell cell = new WorkloadCell("4k-write-qd64", 0, 4096, 64, ops);
        ModePerformance perf = new ModePerformance(Map.of(IoMode.THREADS, 1.0, IoMode.NATIVE, 6.0, IoMode.IO_URING, 4.0),
                "test", null, List.of(cell));
        return DECIDER.decide(new DecisionInput(RequestedIoMode.AUTO, ConfigSource.GLOBAL, volume("none"), MODERN, FALLBACK, perf,
                new WorkloadProfile(0, 4096, 4096, 0, writeIops, 64, 600, "2026-01-01T00:00:00")));
    }

    private static DiskResult applied(String io, String cache, DiskResult.Attempt... attempts) {
        return new DiskResult("v-1", io, cache, List.of(attempts));
    }

    /** Rows that each differ from the first in one stored value. */
    private static Map<String, StoredDecisionRow> variants() {
        IoModeDecision base = decide(RequestedIoMode.AUTO, ConfigSource.GLOBAL, "none", MODERN);
        DiskResult ok = applied("io_uring", "none");
        Map<String, StoredDecisionRow> v = new LinkedHashMap<>();
        v.put("base", new StoredDecisionRow("vm-1", Operation.START, base, ok));
        v.put("vm", new StoredDecisionRow("vm-2", Operation.START, base, ok));
        v.put("operation", new StoredDecisionRow("vm-1", Operation.ATTACH, base, ok));
        v.put("host (its checks)", new StoredDecisionRow("vm-1", Operation.START, decide(RequestedIoMode.AUTO, ConfigSource.GLOBAL, "none", EL8), ok));
        v.put("requested", new StoredDecisionRow("vm-1", Operation.START, decide(RequestedIoMode.IO_URING, ConfigSource.GLOBAL, "none", MODERN), ok));
        v.put("source", new StoredDecisionRow("vm-1", Operation.START, decide(RequestedIoMode.AUTO, ConfigSource.PRIMARY_STORAGE, "none", MODERN), ok));
        HostFacts newerKernel = new HostFacts("h-modern", Version.parse("6.6.0"), 0, Version.parse("8.2.2"), true,
                Version.parse("10.0.0"));
        v.put("kernel (only a check's message)", new StoredDecisionRow("vm-1", Operation.START,
                decide(RequestedIoMode.AUTO, ConfigSource.GLOBAL, "none", newerKernel), ok));
        v.put("cache (a check fails)", new StoredDecisionRow("vm-1", Operation.START,
                decide(RequestedIoMode.NATIVE, ConfigSource.GLOBAL, "writeback", MODERN), ok));
        v.put("requested native", new StoredDecisionRow("vm-1", Operation.START, decide(RequestedIoMode.NATIVE, ConfigSource.GLOBAL, "none", MODERN), ok));
        v.put("reason", new StoredDecisionRow("vm-1", Operation.START, base.withNote("a note"), ok));
        v.put("not sent", new StoredDecisionRow("vm-1", Operation.START, base, null));
        v.put("applied io", new StoredDecisionRow("vm-1", Operation.START, base, applied("native", "none")));
        v.put("applied cache", new StoredDecisionRow("vm-1", Operation.START, base, applied("io_uring", "directsync")));
        v.put("an attempt", new StoredDecisionRow("vm-1", Operation.START, base, applied("native", "none", new DiskResult.Attempt("io_uring", "x"))));
        v.put("the attempt's error", new StoredDecisionRow("vm-1", Operation.START, base,
                applied("native", "none", new DiskResult.Attempt("io_uring", "y"))));
        v.put("optimised for", new StoredDecisionRow("vm-1", Operation.START, optimizedFor(800), ok));
        v.put("optimised for another rate", new StoredDecisionRow("vm-1", Operation.START, optimizedFor(900), ok));
        return v;
    }

    @Test
    void theSameDecisionDecidedAgainHasTheSameDigest() {
        Map<String, StoredDecisionRow> once = variants();
        Map<String, StoredDecisionRow> again = variants();
        once.forEach((name, row) -> assertThat(again.get(name).digestValue()).as(name).isEqualTo(row.digestValue()));
    }

    @Test
    void digestsAreEqualExactlyWhenTheStoredColumnsAre() {
        Map<String, StoredDecisionRow> v = variants();
        assertThat(v.get("optimised for").view().getOptimizedFor()).as("the workload variant optimised for its workload").isNotNull();
        Map<String, List<Object>> columns = new LinkedHashMap<>();
        v.forEach((name, row) -> columns.put(name, columns(row)));
        for (String a : v.keySet()) {
            for (String b : v.keySet()) {
                boolean sameColumns = columns.get(a).equals(columns.get(b));
                assertThat(sameColumns).as("%s and %s store different values", a, b).isEqualTo(a.equals(b));
                assertThat(v.get(a).digestValue().equals(v.get(b).digestValue())).as("digests of %s and %s", a, b)
                        .isEqualTo(sameColumns);
            }
        }
    }

    /** Every column a row stores apart from its date and digest. */
    private static List<Object> columns(StoredDecisionRow row) {
        VolumeIoModeDecisionVO vo = new VolumeIoModeDecisionVO(row.volumeUuid());
        row.storeIn(vo, JSON);
        assertThat(vo.getContentDigest()).isEqualTo(row.digestValue());
        return Arrays.asList(vo.getVmInstanceUuid(), vo.getOperation(), vo.getHostUuid(), vo.getRequested(), vo.getSource(), vo.getEffective(),
                vo.isRefused(), vo.getChecks(), vo.getReason(), vo.getAppliedIo(), vo.getAppliedCache(), vo.getAttempts(),
                vo.getOptimizedFor());
    }

    /**
     * The digest feeds these records' components one by one; a component added to one of them is stored in its JSON
     * column, and must be fed to the digest too ({@code StoredDecisionRow#digest}), or a change to it would go unstored.
     */
    @Test
    void theDigestFeedsEveryComponentOfTheStoredRecords() {
        assertThat(names(IoModeCheckInventory.class)).containsExactly("mode", "check", "passed", "message");
        assertThat(names(DiskResult.Attempt.class)).containsExactly("io", "error");
        assertThat(names(WorkloadInventory.class)).containsExactly("readFraction", "avgReadBytes", "avgWriteBytes", "readIops",
                "writeIops", "avgQueueDepth", "sampledSeconds", "sampledAt");
    }

    private static List<String> names(Class<? extends Record> type) {
        return Arrays.stream(type.getRecordComponents()).map(RecordComponent::getName).toList();
    }
}
