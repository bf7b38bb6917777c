package org.zstack.aio.server.iomode;

import com.fasterxml.jackson.databind.ObjectMapper;
import jakarta.persistence.EntityManager;
import jakarta.persistence.TypedQuery;
import org.springframework.stereotype.Component;
import org.zstack.aio.plugin.HostIoFacts;
import org.zstack.aio.server.benchmark.HostIoBenchmarkRepository;
import org.zstack.aio.server.benchmark.HostIoBenchmarkVO;
import org.zstack.aio.server.benchmark.MeasuredPerformance;
import org.zstack.aio.server.config.ConfigSnapshot;
import org.zstack.aio.server.config.ConfigSnapshotLoader;
import org.zstack.aio.server.host.HostIoCapabilitiesRepository;
import org.zstack.aio.server.host.HostIoCapabilitiesVO;
import org.zstack.aio.server.host.StoragePaths;
import org.zstack.aio.server.inventory.PrimaryStorageVO;
import org.zstack.aio.server.inventory.VolumeVO;
import org.zstack.aio.server.workload.VolumeWorkloadVO;

import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Reads everything the decisions for a set of volumes need in a constant number of round trips, whatever the
 * number of volumes: (1) volumes with their primary storage and observed workload, (2) every config row that can apply, (3) the
 * host's facts together with its stored io benchmarks of those volumes' primary storages. No per-volume query.
 * Queries only: {@link CoreFacts} turns what it reads into the core's facts, and the core decides.
 */
@Component
public class IoModeFactsLoader {

    /** The volumes with storage, workload and their stored decision's digest (what a start compares, no query of its own). */
    private static final String VOLUME_AND_STORAGE =
            "select v, p, w, d.contentDigest, d.createDate from VolumeVO v join PrimaryStorageVO p on p.uuid = v.primaryStorageUuid "
            + "left join VolumeWorkloadVO w on w.volumeUuid = v.uuid left join VolumeIoModeDecisionVO d on d.volumeUuid = v.uuid ";

    private final EntityManager em;
    private final ConfigSnapshotLoader snapshots;
    private final HostIoCapabilitiesRepository capabilities;
    private final HostIoBenchmarkRepository benchmarks;
    private final IoModeConfigs configs;
    private final ObjectMapper json;

    public IoModeFactsLoader(EntityManager em, ConfigSnapshotLoader snapshots, HostIoCapabilitiesRepository capabilities,
                             HostIoBenchmarkRepository benchmarks, IoModeConfigs configs, ObjectMapper json) {
        this.em = em;
        this.snapshots = snapshots;
        this.capabilities = capabilities;
        this.benchmarks = benchmarks;
        this.configs = configs;
        this.json = json;
    }

    /** Round trip 1: the volumes (in the order asked) with their primary storage. */
    public List<VolumeContext> volumes(Collection<String> volumeUuids) {
        if (volumeUuids.isEmpty()) return List.of();
        List<VolumeContext> rows = contexts(em.createQuery(VOLUME_AND_STORAGE + "where v.uuid in :uuids", Object[].class)
                .setParameter("uuids", volumeUuids));
        java.util.Map<String, VolumeContext> byUuid = new java.util.HashMap<>();
        for (VolumeContext c : rows) byUuid.put(c.volume().getUuid(), c);
        List<VolumeContext> out = new ArrayList<>(rows.size());
        for (String uuid : volumeUuids) {
            VolumeContext c = byUuid.get(uuid);
            if (c != null) out.add(c);
        }
        return out;
    }

    /** Round trip 1, for a VM: the volumes attached to it by device id, with their primary storage. */
    public List<VolumeContext> volumesOfVm(String vmUuid) {
        return contexts(em.createQuery(VOLUME_AND_STORAGE + "where v.vmInstanceUuid = :vm order by v.deviceId",
                Object[].class).setParameter("vm", vmUuid));
    }

    /** Rows of {@link #VOLUME_AND_STORAGE}: a stored decision has a date, so a null date means none is stored. */
    private static List<VolumeContext> contexts(TypedQuery<Object[]> q) {
        return q.getResultList().stream().map(r -> {
            VolumeVO v = (VolumeVO) r[0];
            StoredDigest stored = r[4] == null ? null : new StoredDigest(v.getUuid(), (String) r[3], (java.time.LocalDateTime) r[4]);
            return new VolumeContext(v, (PrimaryStorageVO) r[1], (VolumeWorkloadVO) r[2], stored);
        }).toList();
    }

    /** A row of (volume, storage, workload, ...) as read by the queries here. */
    private static VolumeContext context(Object[] r) {
        return new VolumeContext((VolumeVO) r[0], (PrimaryStorageVO) r[1], (VolumeWorkloadVO) r[2]);
    }

    /** All volumes (or one account's) with their primary storage and their VM's host uuid, in one query. */
    public List<PlacedVolume> allVolumes(String accountUuid) {
        return volumes(accountUuid, null);
    }

    /** These volumes (all when null) of one account (every account when null), with their storage and VM host. */
    public List<PlacedVolume> volumes(String accountUuid, java.util.Collection<String> uuids) {
        String where = (accountUuid == null ? "" : " and v.accountUuid = :account") + (uuids == null ? "" : " and v.uuid in :uuids");
        TypedQuery<Object[]> q = em.createQuery("select v, p, w, m.hostUuid from VolumeVO v join PrimaryStorageVO p "
                                                + "on p.uuid = v.primaryStorageUuid left join VolumeWorkloadVO w on w.volumeUuid = v.uuid "
                                                + "left join VmInstanceVO m "
                                                + "on m.uuid = v.vmInstanceUuid where 1 = 1" + where + " order by v.createDate, v.uuid",
                Object[].class);
        if (accountUuid != null) q.setParameter("account", accountUuid);
        if (uuids != null) q.setParameter("uuids", uuids);
        return q.getResultList().stream()
                .map(r -> new PlacedVolume(context(r), (String) r[3])).toList();
    }

    /**
     * Up to {@code limit} volumes (of one account, or all when null) after the given one in (createDate, uuid) order,
     * the index's order: a keyset page, so a walk over every volume holds one page at a time. {@code after} null: the
     * first page. {@code storages}: every primary storage by uuid ({@link #allStorages()}), read once per walk.
     * <p>Plain columns, no entities: a single-table range scan of {@code limit} entries of VolumeVO's (createDate, uuid)
     * index (joined with storage and VM, the optimizer sorted every volume for every page: 15 s at 100k), then the
     * page's VMs by primary key. Hydrating 100k managed entities was 70 % of the impact preview's time.
     */
    public VolumePage volumesAfter(String accountUuid, VolumeVO after, int limit, Map<String, PrimaryStorageVO> storages) {
        String where = (accountUuid == null ? "" : " and v.accountUuid = :account")
                       // the leading range on createDate lets the index start at the position
                       + (after == null ? "" : " and v.createDate >= :d and (v.createDate > :d or v.uuid > :u)");
        TypedQuery<Object[]> q = em.createQuery("select v.uuid, v.primaryStorageUuid, v.vmInstanceUuid, v.format, v.size, "
                                                + "v.actualSize, v.preallocation, v.createDate from VolumeVO v where 1 = 1"
                                                + where + " order by v.createDate, v.uuid", Object[].class).setMaxResults(limit);
        if (accountUuid != null) q.setParameter("account", accountUuid);
        if (after != null) {
            q.setParameter("d", after.getCreateDate());
            q.setParameter("u", after.getUuid());
        }
        List<VolumeVO> page = q.getResultList().stream().map(r -> VolumeVO.decisionFacts((String) r[0], (String) r[1],
                (String) r[2], (String) r[3], (Long) r[4], (Long) r[5], (String) r[6], (java.time.LocalDateTime) r[7])).toList();
        if (page.isEmpty()) return new VolumePage(List.of(), after, false);
        Set<String> vms = new java.util.HashSet<>();
        for (VolumeVO v : page) if (v.getVmInstanceUuid() != null) vms.add(v.getVmInstanceUuid());
        Map<String, String> hostOfVm = new HashMap<>();
        if (!vms.isEmpty()) {
            em.createQuery("select m.uuid, m.hostUuid from VmInstanceVO m where m.uuid in :vms", Object[].class)
                    .setParameter("vms", vms).getResultList().forEach(r -> hostOfVm.put((String) r[0], (String) r[1]));
        }
        Map<String, VolumeWorkloadVO> workloads = new HashMap<>(); // only sampled volumes have one
        em.createQuery("select w from VolumeWorkloadVO w where w.volumeUuid in :uuids", VolumeWorkloadVO.class)
                .setParameter("uuids", page.stream().map(VolumeVO::getUuid).toList()).getResultList()
                .forEach(w -> {
                    em.detach(w); // the walk holds one page: nothing read stays managed
                    workloads.put(w.getVolumeUuid(), w);
                });
        List<PlacedVolume> out = new ArrayList<>(page.size());
        for (VolumeVO v : page) {
            PrimaryStorageVO p = storages.get(v.getPrimaryStorageUuid());
            if (p == null) continue; // as the inner join before: a volume whose storage is gone is not decided
            out.add(new PlacedVolume(new VolumeContext(v, p, workloads.get(v.getUuid())),
                    v.getVmInstanceUuid() == null ? null : hostOfVm.get(v.getVmInstanceUuid())));
        }
        return new VolumePage(out, page.get(page.size() - 1), page.size() == limit);
    }

    /** A keyset page: its volumes, the last row read (where the next page starts) and whether more may follow. */
    public record VolumePage(List<PlacedVolume> volumes, VolumeVO last, boolean full) {
    }

    /** Every primary storage by uuid, in one query. */
    public Map<String, PrimaryStorageVO> allStorages() {
        Map<String, PrimaryStorageVO> out = new HashMap<>();
        em.createQuery("select p from PrimaryStorageVO p", PrimaryStorageVO.class).getResultList()
                .forEach(p -> out.put(p.getUuid(), p));
        return out;
    }

    /** A volume and the host its VM runs on (null when not attached). */
    public record PlacedVolume(VolumeContext volume, String hostUuid) {
    }

    /**
     * Every host's facts, in one query; each storage path under its primary storage among {@code storages} (those
     * of the volumes decided, already read with them: a path of another storage is left out).
     */
    public Map<String, HostIoFacts> allHosts(Collection<PrimaryStorageVO> storages) {
        Map<String, String> byPath = StoragePaths.byPath(storages);
        Map<String, HostIoFacts> out = new HashMap<>();
        capabilities.findAll().forEach(c -> out.put(c.getHostUuid(), c.toIoFacts(byPath)));
        return out;
    }


    /** Round trip 2: every config row that can apply to these volumes, as one snapshot. */
    public ConfigSnapshot configs(List<VolumeContext> volumes) {
        return snapshots.load(configs.category(), CoreFacts.configOwners(volumes));
    }

    /** Every io-mode config row of every resource, as one snapshot (for views over all volumes). */
    public ConfigSnapshot allConfigs() {
        return snapshots.loadAll(configs.category());
    }

    /** A host's facts and its measured io benchmarks, read together. */
    public record HostWithPerformance(HostIoFacts host, MeasuredPerformance measured) {
    }

    /**
     * Round trip 3: the hosts' probed facts and their io benchmarks of these volumes' primary storages in ONE query
     * (capabilities left-joined to the benchmarks), however many hosts (a migration's candidates). Unprobed hosts are
     * absent.
     */
    public Map<String, HostWithPerformance> hostsWithPerformance(Collection<String> hostUuids, List<VolumeContext> volumes) {
        if (hostUuids.isEmpty()) return Map.of();
        Set<String> storages = new LinkedHashSet<>();
        for (VolumeContext v : volumes) storages.add(v.storage().getUuid());
        if (storages.isEmpty()) storages.add("");
        List<Object[]> rows = em.createQuery("select c, b from HostIoCapabilitiesVO c left join HostIoBenchmarkVO b "
                                             + "on b.hostUuid = c.hostUuid and b.primaryStorageUuid in :storages "
                                             + "where c.hostUuid in :hosts", Object[].class)
                .setParameter("hosts", hostUuids).setParameter("storages", storages).getResultList();
        Map<String, HostIoCapabilitiesVO> caps = new LinkedHashMap<>();
        Map<String, List<HostIoBenchmarkVO>> benches = new HashMap<>();
        for (Object[] r : rows) {
            HostIoCapabilitiesVO c = (HostIoCapabilitiesVO) r[0];
            caps.put(c.getHostUuid(), c);
            List<HostIoBenchmarkVO> mine = benches.computeIfAbsent(c.getHostUuid(), h -> new ArrayList<>());
            if (r[1] != null) mine.add((HostIoBenchmarkVO) r[1]);
        }
        Map<String, String> byPath = StoragePaths.byPath(volumes.stream().map(VolumeContext::storage).distinct().toList());
        Map<String, HostWithPerformance> out = new HashMap<>();
        caps.forEach((host, c) -> {
            List<HostIoBenchmarkVO> b = benches.get(host);
            out.put(host, new HostWithPerformance(c.toIoFacts(byPath),
                    b.isEmpty() ? MeasuredPerformance.NONE : MeasuredPerformance.of(b, json)));
        });
        return out;
    }

    /** Every host's measured io benchmarks, by host uuid, in one query (for previews over all volumes). */
    public Map<String, MeasuredPerformance> allPerformance() {
        Map<String, List<HostIoBenchmarkVO>> byHost = new HashMap<>();
        for (HostIoBenchmarkVO b : benchmarks.findAll()) byHost.computeIfAbsent(b.getHostUuid(), h -> new ArrayList<>()).add(b);
        Map<String, MeasuredPerformance> out = new HashMap<>();
        byHost.forEach((h, rows) -> out.put(h, MeasuredPerformance.of(rows, json)));
        return out;
    }
}
