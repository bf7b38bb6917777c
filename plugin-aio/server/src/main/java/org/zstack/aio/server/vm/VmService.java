package org.zstack.aio.server.vm;

import org.zstack.aio.server.quota.QuotaService;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import org.springframework.stereotype.Service;
import org.springframework.retry.annotation.Retryable;
import org.springframework.transaction.annotation.Transactional;
import org.zstack.aio.server.db.UnitOfWork;
import org.zstack.aio.server.account.Caller;
import org.zstack.aio.server.api.ApiException;
import org.zstack.aio.server.api.Bodies;
import org.zstack.aio.server.api.Uuids;
import org.zstack.aio.server.host.HostService;
import org.zstack.aio.server.inventory.Inventories.VmInventory;
import org.zstack.aio.server.inventory.VmInstanceRepository;
import org.zstack.aio.server.inventory.VmInstanceVO;
import org.zstack.aio.server.inventory.VolumeRepository;
import org.zstack.aio.server.inventory.VolumeVO;
import org.zstack.aio.server.account.Ownership;
import org.zstack.aio.server.query.QueryReply;
import org.zstack.aio.server.query.QueryRequest;
import org.zstack.aio.server.query.QuerySpec;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.Comparator;

/** VM records: created stopped on a host with their volumes; listed with their volumes in one query. */
@Service
@Retryable(interceptor = UnitOfWork.IDEMPOTENT)
public class VmService {

    static final int MAX_VOLUMES = 24;

    private final VmInstanceRepository vms;
    private final VolumeRepository volumes;
    private final HostService hosts;
    private final QueryReply query;
    private static final QuerySpec<VmInstanceVO> QUERY = QuerySpec.of(VmInstanceVO.class, VmInventory.class, "createDate", "uuid");
    private final QuotaService quotas;

    public VmService(VmInstanceRepository vms, VolumeRepository volumes, HostService hosts, QuotaService quotas,
                     QueryReply query) {
        this.quotas = quotas;
        this.vms = vms;
        this.volumes = volumes;
        this.hosts = hosts;
        this.query = query;
    }

    @Retryable(interceptor = UnitOfWork.NOT_IDEMPOTENT)
    @Transactional
    public VmInventory create(Caller caller, String name, String hostUuid, long memorySize, int cpuNum, JsonNode volumeUuids) {
        return create(caller, name, hostUuid, memorySize, cpuNum, volumeUuids, JsonNodeFactory.instance.objectNode());
    }

    /** @param params the create's params: its optional {@code boot} and {@code accel} (see {@link VmBootParams}) */
    @Retryable(interceptor = UnitOfWork.NOT_IDEMPOTENT)
    @Transactional
    public VmInventory create(Caller caller, String name, String hostUuid, long memorySize, int cpuNum, JsonNode volumeUuids,
                              JsonNode params) {
        Bodies.requireName(name, "VM");
        hosts.find(hostUuid);
        List<String> uuids = uuidList(volumeUuids);
        VmBootParams boot = params.has("boot") || params.has("accel")
                ? VmBootParams.parse(params, hosts.localStorageUrls()) : new VmBootParams(null, null);
        List<VolumeVO> vols = new ArrayList<>();
        Map<String, VolumeVO> found = new HashMap<>();
        volumes.findAllById(uuids).forEach(v -> found.put(v.getUuid(), v));
        for (String u : uuids) {
            VolumeVO v = found.get(u);
            if (v == null) throw ApiException.notFound("volume", u);
            if (!caller.owns(v.getAccountUuid())) throw ApiException.forbidden("volume " + u + " belongs to another account.");
            if (v.getVmInstanceUuid() != null) {
                throw ApiException.conflict("volume " + u + " is already attached to VM " + v.getVmInstanceUuid() + ".",
                        "Use a volume that is not attached.");
            }
            vols.add(v);
        }
        quotas.requireVmRoom(caller);
        VmInstanceVO created = new VmInstanceVO(Uuids.random(), name, hostUuid, memorySize, cpuNum, caller.accountUuid());
        created.setBoot(boot.boot(), boot.accel());
        VmInstanceVO vm = vms.save(created);
        for (int i = 0; i < vols.size(); i++) vols.get(i).attachTo(vm.getUuid(), i);
        return VmInventory.of(vm, uuids);
    }

    /** GET /v1/vm-instances with ZStack's query parameters: a tenant's query sees only its own VMs. */
    public Map<String, Object> query(Caller caller, QueryRequest q) {
        return query.answer(QUERY, q, Ownership.scope(caller), this::inventories);
    }

    /** Inventories of many VMs, their volumes read in one query. */
    private List<VmInventory> inventories(List<VmInstanceVO> all) {
        Map<String, List<VolumeVO>> byVm = new HashMap<>();
        for (VolumeVO v : volumes.findByVmInstanceUuidIn(all.stream().map(VmInstanceVO::getUuid).toList())) {
            byVm.computeIfAbsent(v.getVmInstanceUuid(), k -> new ArrayList<>()).add(v);
        }
        return all.stream().map(vm -> VmInventory.of(vm, byVm.getOrDefault(vm.getUuid(), List.of()).stream()
                .sorted(Comparator.comparing(VolumeVO::getDeviceId)).map(VolumeVO::getUuid).toList())).toList();
    }

    @Transactional(readOnly = true)
    public VmInventory get(Caller caller, String uuid) {
        return inventory(owned(caller, uuid));
    }

    public VmInstanceVO owned(Caller caller, String uuid) {
        Uuids.require(uuid, "VM");
        VmInstanceVO vm = vms.findById(uuid).orElseThrow(() -> ApiException.notFound("VM", uuid));
        if (!caller.owns(vm.getAccountUuid())) throw ApiException.forbidden("VM " + uuid + " belongs to another account.");
        return vm;
    }

    public VmInventory inventory(VmInstanceVO vm) {
        return VmInventory.of(vm, volumes.findByVmInstanceUuidOrderByDeviceId(vm.getUuid()).stream().map(VolumeVO::getUuid).toList());
    }

    private static List<String> uuidList(JsonNode node) {
        if (node == null || !node.isArray() || node.isEmpty() || node.size() > MAX_VOLUMES) {
            throw ApiException.badRequest("field 'volumeUuids' must be a list of 1 to " + MAX_VOLUMES + " volume uuids.",
                    "Create the volumes first with POST /v1/volumes/data.");
        }
        Set<String> out = new LinkedHashSet<>();
        for (JsonNode n : node) {
            if (!n.isTextual()) throw ApiException.badRequest("'volumeUuids' holds a non-string.", "List uuids as strings.");
            if (!out.add(Uuids.require(n.textValue(), "volume"))) {
                throw ApiException.badRequest("volume " + n.textValue() + " is listed twice.", "List each volume once.");
            }
        }
        return List.copyOf(out);
    }
}
