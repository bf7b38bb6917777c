package org.zstack.aio.server.inventory;

import org.springframework.stereotype.Service;
import org.springframework.retry.annotation.Retryable;
import org.springframework.transaction.annotation.Transactional;
import org.zstack.aio.server.db.UnitOfWork;
import org.zstack.aio.plugin.DiskIoModes;
import org.zstack.aio.decision.StorageKind;
import org.zstack.aio.server.account.AccountService;
import org.zstack.aio.server.account.Caller;
import org.zstack.aio.server.api.ApiException;
import org.zstack.aio.server.api.Bodies;
import org.zstack.aio.server.api.Inputs;
import org.zstack.aio.server.api.Uuids;
import org.zstack.aio.server.query.QueryExecutor;
import org.zstack.aio.server.query.QueryReply;
import org.zstack.aio.server.query.QueryRequest;
import org.zstack.aio.server.query.QuerySpec;

import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/** Primary storage: admin-only. Its types and their kinds are data (conf/aio/io-mode-rules.yaml). */
@Service
@Retryable(interceptor = UnitOfWork.IDEMPOTENT)
public class PrimaryStorageService {

    private final PrimaryStorageRepository storages;
    private final VolumeRepository volumes;
    private final DiskIoModes ioModes;
    private final QueryReply query;
    private static final QuerySpec<PrimaryStorageVO> QUERY =
            QuerySpec.of(PrimaryStorageVO.class, Inventories.PrimaryStorageInventory.class, "createDate", "uuid");

    public PrimaryStorageService(PrimaryStorageRepository storages, VolumeRepository volumes, DiskIoModes ioModes,
                                 QueryReply query) {
        this.storages = storages;
        this.volumes = volumes;
        this.ioModes = ioModes;
        this.query = query;
    }

    @Retryable(interceptor = UnitOfWork.NOT_IDEMPOTENT)
    @Transactional
    public Inventories.PrimaryStorageInventory add(Caller caller, String name, String type, String url) {
        AccountService.requireAdmin(caller, "add primary storage");
        Bodies.requireName(name, "primary storage");
        var types = ioModes.rules().storageTypes();
        if (type == null || !types.containsKey(type)) {
            throw ApiException.badRequest("'" + Uuids.abbreviate(type) + "' is not a primary storage type.",
                    "Use one of: " + String.join(", ", types.keySet().stream().sorted().toList()) + ".");
        }
        StorageKind kind = types.get(type);
        if (kind == StorageKind.NETWORK) {
            Inputs.networkUrl(url, "url");
        } else {
            Inputs.absolutePath(url, "url"); // the hosts mount it there; agents create files and XML under it
        }
        PrimaryStorageVO ps = storages.save(new PrimaryStorageVO(Uuids.random(), name, type, url));
        return inventory(ps, 0);
    }

    /** GET /v1/primary-storage with ZStack's query parameters (admin only). */
    public Map<String, Object> query(Caller caller, QueryRequest q) {
        AccountService.requireAdmin(caller, "list primary storage");
        return query.answer(QUERY, q, QueryExecutor.Scope.all(), page -> {
            Map<String, Long> counts = new HashMap<>();
            for (Object[] row : volumes.countPerPrimaryStorage(page.stream().map(PrimaryStorageVO::getUuid).toList())) {
                counts.put((String) row[0], (Long) row[1]);
            }
            return page.stream().map(p -> inventory(p, counts.getOrDefault(p.getUuid(), 0L))).toList();
        });
    }

    @Transactional(readOnly = true)
    public Inventories.PrimaryStorageInventory get(Caller caller, String uuid) {
        AccountService.requireAdmin(caller, "read primary storage");
        PrimaryStorageVO p = find(uuid);
        return inventory(p, volumes.countByPrimaryStorageUuid(uuid));
    }

    public PrimaryStorageVO find(String uuid) {
        Uuids.require(uuid, "primary storage");
        return storages.findById(uuid).orElseThrow(() -> ApiException.notFound("primary storage", uuid));
    }

    private Inventories.PrimaryStorageInventory inventory(PrimaryStorageVO p, long count) {
        return new Inventories.PrimaryStorageInventory(p.getUuid(), p.getName(), p.getType(), p.getUrl(), p.getStatus(),
                ioModes.kindOf(p.getType()).name().toLowerCase(Locale.ROOT), count, p.getCreateDate(), p.getLastOpDate());
    }
}
