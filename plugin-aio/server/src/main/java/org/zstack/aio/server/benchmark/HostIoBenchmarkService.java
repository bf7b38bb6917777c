package org.zstack.aio.server.benchmark;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import org.springframework.stereotype.Service;
import org.springframework.transaction.support.TransactionTemplate;
import org.zstack.aio.agent.api.AgentPaths;
import org.zstack.aio.agent.api.BenchScores;
import org.zstack.aio.agent.api.HostBenchCmd;
import org.zstack.aio.agent.api.HostBenchRsp;
import org.zstack.aio.agent.api.HostBenchRsp.BenchCell;
import org.zstack.aio.plugin.DiskIoModes;
import org.zstack.aio.decision.StorageKind;
import org.zstack.aio.server.account.AccountService;
import org.zstack.aio.server.account.Caller;
import org.zstack.aio.server.agent.AgentClient;
import org.zstack.aio.server.api.ApiException;
import org.zstack.aio.server.audit.AuditEntry;
import org.zstack.aio.server.audit.AuditService;
import org.zstack.aio.server.inventory.HostVO;
import org.zstack.aio.server.inventory.PrimaryStorageRepository;
import org.zstack.aio.server.inventory.PrimaryStorageVO;
import org.zstack.aio.server.query.QueryExecutor;
import org.zstack.aio.server.query.QueryReply;
import org.zstack.aio.server.query.QueryRequest;
import org.zstack.aio.server.query.QuerySpec;

import java.time.LocalDateTime;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import org.zstack.aio.server.host.HostService;
import org.zstack.aio.server.inventory.PrimaryStorageService;

/**
 * Runs the agent's io-mode benchmark on a host's primary storages (one after the other, each within its time
 * budget) and keeps the latest result per host × primary storage, which {@code auto} then uses.
 */
@Service
public class HostIoBenchmarkService {

    /** The agent call waits for the whole run: stay below the agent client's timeout (120 s by default). */
    public static final int MAX_SECONDS = 110;
    public static final int DEFAULT_SECONDS = 50;

    private final HostService hostService;
    private final PrimaryStorageService storageService;
    private final PrimaryStorageRepository storages;
    private final HostIoBenchmarkRepository benchmarks;
    private final AgentClient agent;
    private final DiskIoModes ioModes;
    private final ObjectMapper json;
    private final TransactionTemplate tx;
    private final AuditService audit;
    private final QueryReply query;
    /** Rows of one host, one per primary storage; the cells (JSON) are shown in the inventory, not queried. */
    private static final QuerySpec<HostIoBenchmarkVO> QUERY = new QuerySpec<>(HostIoBenchmarkVO.class,
            IoBenchmarkInventory.class, java.util.Set.of("cells"),
            List.of(new QueryRequest.Sort("primaryStorageUuid", true), new QueryRequest.Sort("hostUuid", true)));

    public HostIoBenchmarkService(HostService hostService,
                                  PrimaryStorageService storageService,
                                  PrimaryStorageRepository storages, HostIoBenchmarkRepository benchmarks,
                                  AgentClient agent, DiskIoModes ioModes, ObjectMapper json, TransactionTemplate tx,
                                  AuditService audit, QueryReply query) {
        this.hostService = hostService;
        this.storageService = storageService;
        this.storages = storages;
        this.benchmarks = benchmarks;
        this.agent = agent;
        this.ioModes = ioModes;
        this.json = json;
        this.tx = tx;
        this.audit = audit;
        this.query = query;
    }

    /** A stored benchmark as the API shows it; {@code scores}: image kind → mode → score (threads = 1). */
    public record IoBenchmarkInventory(String hostUuid, String primaryStorageUuid, String path, java.time.Instant takenAt,
                                       boolean complete, String note, String qemuImg, int budgetSeconds,
                                       double durationSeconds, Map<String, Map<String, Double>> scores,
                                       List<BenchCell> cells) {
    }

    /** POST /v1/hosts/{uuid}/io-benchmarks: benchmark these primary storages (null/empty: every file storage). */
    public List<IoBenchmarkInventory> benchmark(Caller caller, String hostUuid, List<String> storageUuids, Integer seconds) {
        return benchmark(caller, hostUuid, storageUuids, seconds, null, null);
    }

    /** @param imageKinds, workloads the part of the matrix to measure (null: all of it) */
    public List<IoBenchmarkInventory> benchmark(Caller caller, String hostUuid, List<String> storageUuids, Integer seconds,
                                                List<String> imageKinds, List<String> workloads) {
        AccountService.requireAdmin(caller, "benchmark hosts");
        HostVO host = hostService.find(hostUuid);
        int budget = seconds == null ? DEFAULT_SECONDS : seconds;
        if (budget < 1 || budget > MAX_SECONDS) {
            throw ApiException.badRequest("field 'seconds' is " + budget + ", outside 1.." + MAX_SECONDS + ".",
                    "Send a time budget per primary storage between 1 and " + MAX_SECONDS + " seconds.");
        }
        List<PrimaryStorageVO> targets = new ArrayList<>();
        if (storageUuids == null || storageUuids.isEmpty()) {
            storages.findAll().stream().filter(p -> ioModes.kindOf(p.getType()) == StorageKind.FILE).forEach(targets::add);
            if (targets.isEmpty()) {
                throw ApiException.badRequest("there is no file primary storage to benchmark.",
                        "Add a LocalStorage, NFS or SharedMountPoint primary storage first.");
            }
        } else {
            for (String u : storageUuids) {
                PrimaryStorageVO p = storageService.find(u);
                if (ioModes.kindOf(p.getType()) != StorageKind.FILE) {
                    throw ApiException.badRequest("primary storage " + u + " is " + p.getType() + ", not file storage.",
                            "The benchmark creates image files in the storage's directory; block and network storage "
                            + "are not measured (block volumes use native, network ones take no io mode).");
                }
                targets.add(p);
            }
        }
        // every storage is measured before anything is stored: a run that fails part-way replaces nothing
        Map<PrimaryStorageVO, HostBenchRsp> measured = new LinkedHashMap<>();
        for (PrimaryStorageVO p : targets) {
            hostService.ensureStorageRegistered(host, p);
            measured.put(p, agent.call(host.getManagementIp(), host.getAgentPort(), AgentPaths.HOST_BENCH,
                    new HostBenchCmd(p.getUrl(), budget, imageKinds, workloads, null), HostBenchRsp.class));
        }
        List<HostIoBenchmarkVO> rows = tx.execute(s -> {
            List<HostIoBenchmarkVO> saved = new ArrayList<>();
            measured.forEach((p, rsp) -> {
                HostIoBenchmarkVO r = benchmarks.findById(new HostIoBenchmarkVO.Key(hostUuid, p.getUuid()))
                        .orElseGet(() -> new HostIoBenchmarkVO(hostUuid, p.getUuid()));
                r.set(rsp.path(), rsp.complete(), rsp.note(), rsp.qemuImg(), rsp.budgetSeconds(),
                        Math.round(rsp.seconds() * 1000), write(rsp.cells()), taken(rsp.startedAt()));
                audit.record(caller, new AuditEntry("BenchmarkHostIo", "HostVO", hostUuid, host.getName() + " on " + p.getName(),
                        null, (rsp.complete() ? "complete" : "incomplete") + " run of " + rsp.path()));
                saved.add(benchmarks.save(r));
            });
            return saved;
        });
        return rows.stream().map(this::view).toList();
    }

    /** GET /v1/hosts/{uuid}/io-benchmarks. */
    /** GET /v1/hosts/{uuid}/io-benchmarks: the host's stored measurements, with ZStack's query parameters (admin). */
    public Map<String, Object> query(Caller caller, String hostUuid, QueryRequest q) {
        AccountService.requireAdmin(caller, "read host benchmarks");
        hostService.find(hostUuid);
        QueryExecutor.Scope<HostIoBenchmarkVO> ofHost = (cb, cq, root) -> cb.equal(root.get("hostUuid"), hostUuid);
        return query.answer(QUERY, q, ofHost, rows -> rows.stream().map(this::view).toList());
    }

    private IoBenchmarkInventory view(HostIoBenchmarkVO r) {
        List<BenchCell> cells = MeasuredPerformance.cells(r, json);
        Map<String, Map<String, Double>> scores = new LinkedHashMap<>();
        for (String kind : BenchScores.IMAGE_KINDS) {
            Map<String, Double> s = BenchScores.scores(cells, kind);
            if (!s.isEmpty()) {
                Map<String, Double> rounded = new LinkedHashMap<>();
                s.forEach((m, v) -> rounded.put(m, Math.round(v * 100) / 100.0));
                scores.put(kind, rounded);
            }
        }
        return new IoBenchmarkInventory(r.getHostUuid(), r.getPrimaryStorageUuid(), r.getPath(),
                r.getTakenAt() == null ? null : r.getTakenAt().toInstant(ZoneOffset.UTC), r.isComplete(),
                r.getNote(), r.getQemuImg(), r.getBudgetSeconds(), r.getDurationMillis() / 1000.0, scores, cells);
    }

    private static LocalDateTime taken(String startedAt) {
        try {
            return LocalDateTime.ofInstant(Instant.parse(startedAt), ZoneOffset.UTC)
                    .truncatedTo(ChronoUnit.MILLIS); // DATETIME(3)
        } catch (RuntimeException e) {
            return LocalDateTime.now(ZoneOffset.UTC).truncatedTo(ChronoUnit.MILLIS);
        }
    }

    private String write(Object o) {
        try {
            return json.writeValueAsString(o);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException(e);
        }
    }
}
