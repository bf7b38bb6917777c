package org.zstack.aio.server.volume;

import org.zstack.aio.plugin.DecisionRecord;
import org.zstack.aio.server.quota.QuotaService;
import org.springframework.stereotype.Service;
import org.springframework.transaction.annotation.Transactional;
import org.springframework.transaction.support.TransactionTemplate;
import org.zstack.aio.agent.api.AgentPaths;
import org.zstack.aio.agent.api.VolumeCreateCmd;
import org.zstack.aio.agent.api.VolumeCreateRsp;
import org.zstack.aio.server.account.Caller;
import org.zstack.aio.server.agent.AgentClient;
import org.zstack.aio.server.api.ApiException;
import org.zstack.aio.server.api.Bodies;
import org.zstack.aio.server.api.Uuids;
import org.zstack.aio.server.config.ConfigSnapshot;
import org.zstack.aio.server.host.HostService;
import org.zstack.aio.server.inventory.HostVO;
import org.zstack.aio.server.inventory.PrimaryStorageService;
import org.zstack.aio.server.inventory.PrimaryStorageVO;
import org.zstack.aio.server.inventory.VolumeRepository;
import org.zstack.aio.server.inventory.VolumeVO;
import org.zstack.aio.server.iomode.CoreFacts;
import org.zstack.aio.server.iomode.IoModeFactsLoader;
import org.zstack.aio.server.iomode.IoModeRecords;
import org.zstack.aio.server.iomode.VolumeContext;
import org.zstack.aio.server.account.Ownership;
import org.zstack.aio.server.query.QueryReply;
import org.zstack.aio.server.query.QueryRequest;
import org.zstack.aio.server.query.QuerySpec;

import java.util.List;
import java.util.Map;
import java.util.Set;

/** Data volumes: created by a host's agent (qemu-img), listed with their cache mode and stored decision. */
@Service
public class VolumeService {

    public static final long MAX_SIZE = 64L << 40;
    private static final Set<String> FORMATS = Set.of("qcow2", "raw");
    private static final Set<String> PREALLOCATIONS = Set.of("none", "metadata", "falloc", "full");

    private final VolumeRepository volumes;
    private final PrimaryStorageService storages;
    private final HostService hosts;
    private final AgentClient agent;
    private final IoModeFactsLoader facts;
    private final CoreFacts core;
    private final IoModeRecords records;
    private final TransactionTemplate tx;
    private final QueryReply query;
    /** Volumes are never deleted, and the database numbers each inserted one (4.9.11): their counts may be kept. */
    private static final QuerySpec<VolumeVO> QUERY = QuerySpec.of(VolumeVO.class, VolumeInventory.class, "createDate", "uuid")
            .withInsertStamp("SELECT MAX(insertSeq) FROM VolumeVO");
    private final VolumeRunningRepository runningDisks;
    private final QuotaService quotas;

    public VolumeService(VolumeRepository volumes, PrimaryStorageService storages, HostService hosts, AgentClient agent,
                         IoModeFactsLoader facts, CoreFacts core, IoModeRecords records, TransactionTemplate tx,
                         QuotaService quotas, QueryReply query, VolumeRunningRepository runningDisks) {
        this.quotas = quotas;
        this.volumes = volumes;
        this.storages = storages;
        this.hosts = hosts;
        this.agent = agent;
        this.facts = facts;
        this.core = core;
        this.records = records;
        this.tx = tx;
        this.query = query;
        this.runningDisks = runningDisks;
    }

    /** hostUuid null: any connected host creates the image; uuid null: a new one. */
    public record CreateVolume(String name, long size, String format, String preallocation, String primaryStorageUuid,
                               String hostUuid, String uuid) {

        public CreateVolume(String name, long size, String format, String preallocation, String primaryStorageUuid,
                            String hostUuid) {
            this(name, size, format, preallocation, primaryStorageUuid, hostUuid, null);
        }
    }

    /** The agent creates and measures the image first; the volume is stored only when that worked. */
    public VolumeInventory create(Caller caller, CreateVolume c) {
        Bodies.requireName(c.name(), "volume");
        if (!FORMATS.contains(c.format())) {
            throw ApiException.badRequest("'" + Uuids.abbreviate(c.format()) + "' is not a volume format.", "Use qcow2 or raw.");
        }
        String prealloc = c.preallocation() == null ? "none" : c.preallocation();
        if (!PREALLOCATIONS.contains(prealloc)) {
            throw ApiException.badRequest("'" + Uuids.abbreviate(prealloc) + "' is not a preallocation.",
                    "Use none, metadata, falloc or full.");
        }
        if ("raw".equals(c.format()) && "metadata".equals(prealloc)) {
            throw ApiException.badRequest("a raw image has no metadata to preallocate.", "Use none, falloc or full for raw.");
        }
        PrimaryStorageVO ps = storages.find(c.primaryStorageUuid());
        quotas.requireVolumeRoom(caller, c.size());
        HostVO host = c.hostUuid() == null ? hosts.anyConnected() : hosts.find(c.hostUuid());
        String uuid = c.uuid() == null ? Uuids.random() : c.uuid();
        if (c.uuid() != null && volumes.existsById(uuid)) {
            throw ApiException.conflict("a volume with uuid " + uuid + " already exists.", "Choose another resourceUuid, or leave it out.");
        }
        hosts.ensureStorageRegistered(host, ps);
        VolumeCreateRsp image = agent.call(host.getManagementIp(), host.getAgentPort(), AgentPaths.VOLUME_CREATE,
                new VolumeCreateCmd(uuid, ps.getType(), ps.getUrl(), c.format(), prealloc, c.size()), VolumeCreateRsp.class);
        VolumeVO saved = tx.execute(s -> {
            VolumeVO v = new VolumeVO(uuid, c.name(), ps.getUuid(), c.format(), c.size(), prealloc, caller.accountUuid());
            v.setImage(image.installPath(), image.size(), image.actualSize());
            return volumes.save(v);
        });
        return inventories(List.of(saved)).get(0);
    }

    /** GET /v1/volumes with ZStack's query parameters: a tenant's query sees only its own volumes. */
    public Map<String, Object> query(Caller caller, QueryRequest q) {
        return query.answer(QUERY, q, Ownership.scope(caller), this::inventories);
    }

    @Transactional(readOnly = true)
    public VolumeInventory get(Caller caller, String uuid) {
        return inventories(List.of(owned(caller, uuid))).get(0);
    }

    public VolumeVO owned(Caller caller, String uuid) {
        Uuids.require(uuid, "volume");
        VolumeVO v = volumes.findById(uuid).orElseThrow(() -> ApiException.notFound("volume", uuid));
        if (!caller.owns(v.getAccountUuid())) throw ApiException.forbidden("volume " + uuid + " belongs to another account.");
        return v;
    }

    /** Inventories of many volumes in a constant number of queries (storage and workload, configs, stored decisions). */
    @Transactional(readOnly = true)
    public List<VolumeInventory> inventories(List<VolumeVO> vols) {
        List<VolumeContext> ctx = facts.volumes(vols.stream().map(VolumeVO::getUuid).toList());
        ConfigSnapshot snap = facts.configs(ctx);
        Map<String, DecisionRecord> decisions = records.stored(vols.stream().map(VolumeVO::getUuid).toList());
        Map<String, VolumeInventory.Running> running = new java.util.HashMap<>();
        runningDisks.findAllById(vols.stream().map(VolumeVO::getUuid).toList()).forEach(r -> running.put(r.getVolumeUuid(),
                new VolumeInventory.Running(r.getIo(), r.getCache(), r.getHostUuid(), r.getSince())));
        return ctx.stream().map(c -> {
            VolumeVO v = c.volume();
            return new VolumeInventory(v.getUuid(), v.getName(), v.getPrimaryStorageUuid(), c.storage().getName(),
                    c.storage().getType(), v.getVmInstanceUuid(),
                    v.getDeviceId(), v.getInstallPath(), v.getFormat(), v.getSize(), v.getActualSize(), v.getPreallocation(),
                    core.cacheMode(c, snap), v.getAccountUuid(), decisions.get(v.getUuid()),
                    running.get(v.getUuid()), c.workload() == null ? null : c.workload().inventory(), v.getCreateDate(),
                    v.getLastOpDate());
        }).toList();
    }
}
