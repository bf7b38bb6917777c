package org.zstack.aio.server.inventory;

import org.springframework.stereotype.Service;
import org.springframework.retry.annotation.Retryable;
import org.springframework.transaction.annotation.Transactional;
import org.zstack.aio.server.db.UnitOfWork;
import org.zstack.aio.decision.IoModeDecider;
import org.zstack.aio.decision.StorageKind;
import org.zstack.aio.server.account.AccountService;
import org.zstack.aio.server.account.Caller;
import org.zstack.aio.server.api.ApiException;
import org.zstack.aio.server.api.Bodies;
import org.zstack.aio.server.api.Inputs;
import org.zstack.aio.server.api.Uuids;

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
    private final IoModeDecider decider;

    public PrimaryStorageService(PrimaryStorageRepository storages, VolumeRepository volumes, IoModeDecider decider) {
        this.storages = storages;
        this.volumes = volumes;
        this.decider = decider;
    }

    @Retryable(interceptor = UnitOfWork.NOT_IDEMPOTENT)
    @Transactional
    public Inventories.PrimaryStorageInventory add(Caller caller, String name, String type, String url) {
        AccountService.requireAdmin(caller, "add primary storage");
        Bodies.requireName(name, "primary storage");
        var types = decider.rules().storageTypes();
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

    @Transactional(readOnly = true)
    public List<Inventories.PrimaryStorageInventory> list(Caller caller) {
        AccountService.requireAdmin(caller, "list primary storage");
        Map<String, Long> counts = new HashMap<>();
        for (Object[] row : volumes.countPerPrimaryStorage()) counts.put((String) row[0], (Long) row[1]);
        return storages.findAll().stream().map(p -> inventory(p, counts.getOrDefault(p.getUuid(), 0L))).toList();
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
                decider.rules().kindOf(p.getType()).name().toLowerCase(Locale.ROOT), count);
    }
}
