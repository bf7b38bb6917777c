package org.zstack.aio.server.benchmark;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.type.TypeReference;
import com.fasterxml.jackson.databind.ObjectMapper;
import org.zstack.aio.agent.api.BenchScores;
import org.zstack.aio.agent.api.HostBenchRsp.BenchCell;
import org.zstack.aio.decision.IoMode;
import org.zstack.aio.decision.ModePerformance;

import java.util.EnumMap;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Stored benchmarks turned into the decision's optional input: for a host × primary storage × image kind, a
 * {@link ModePerformance} whose scores are {@link BenchScores#scores} (geometric mean over the kind's workloads of
 * median ops/s relative to threads). No I/O: built from rows already loaded.
 */
public final class MeasuredPerformance {

    private static final TypeReference<List<BenchCell>> CELLS = new TypeReference<>() { };

    /** primaryStorageUuid → imageKind → performance. */
    private final Map<String, Map<String, ModePerformance>> byStorage = new HashMap<>();

    public static final MeasuredPerformance NONE = new MeasuredPerformance();

    private MeasuredPerformance() {
    }

    public static MeasuredPerformance of(List<HostIoBenchmarkVO> rows, ObjectMapper json) {
        MeasuredPerformance out = new MeasuredPerformance();
        for (HostIoBenchmarkVO row : rows) {
            List<BenchCell> cells = cells(row, json);
            Map<String, ModePerformance> kinds = new HashMap<>();
            for (String kind : BenchScores.IMAGE_KINDS) {
                Map<String, Double> scores = BenchScores.scores(cells, kind);
                if (scores.isEmpty()) continue;
                Map<IoMode, Double> byMode = new EnumMap<>(IoMode.class);
                scores.forEach((m, s) -> byMode.put(IoMode.fromWire(m), s));
                String metric = "geomean of " + BenchScores.workloadCount(cells, kind) + " qemu-img bench workloads on "
                                + kind + ", taken " + row.getTakenAt();
                kinds.put(kind, new ModePerformance(byMode, metric, String.valueOf(row.getTakenAt()),
                        BenchScores.workloadCells(cells, kind)));
            }
            out.byStorage.put(row.getPrimaryStorageUuid(), kinds);
        }
        return out;
    }

    /** The performance for a volume of this format/preallocation on this storage, null when not measured. */
    public ModePerformance forVolume(String primaryStorageUuid, String format, String preallocation) {
        Map<String, ModePerformance> kinds = byStorage.get(primaryStorageUuid);
        if (kinds == null) return null;
        String kind = BenchScores.imageKind(format, preallocation);
        return kind == null ? null : kinds.get(kind);
    }

    static List<BenchCell> cells(HostIoBenchmarkVO row, ObjectMapper json) {
        try {
            return json.readValue(row.getCells(), CELLS);
        } catch (JsonProcessingException e) {
            return List.of(); // a damaged row counts as not measured
        }
    }
}
