package org.zstack.aio.server.iomode;

import jakarta.persistence.EntityManager;
import org.springframework.stereotype.Component;
import org.zstack.aio.decision.ConfigSource;
import org.zstack.aio.decision.DecisionInput;
import org.zstack.aio.decision.DecisionPolicy;
import org.zstack.aio.decision.HostFacts;
import org.zstack.aio.decision.OnUnsatisfied;
import org.zstack.aio.decision.RequestedIoMode;
import org.zstack.aio.decision.VolumeFacts;
import org.zstack.aio.server.benchmark.HostIoBenchmarkRepository;
import org.zstack.aio.server.benchmark.HostIoBenchmarkVO;
import org.zstack.aio.server.benchmark.MeasuredPerformance;
import org.zstack.aio.server.config.ConfigDefinitions;
import org.zstack.aio.server.config.ConfigSnapshot;
import org.zstack.aio.server.config.ConfigSnapshotLoader;
import org.zstack.aio.server.config.GlobalConfigDefinition;
import org.zstack.aio.server.host.HostIoCapabilitiesRepository;
import org.zstack.aio.server.host.HostIoCapabilitiesVO;
import org.zstack.aio.server.inventory.PrimaryStorageVO;
import org.zstack.aio.server.inventory.VolumeVO;

import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/**
 * Reads everything the decisions for a set of volumes need in a constant number of round trips, whatever the
 * number of volumes: (1) volumes with their primary storage, (2) every config row that can apply, (3) the
 * host's facts together with its stored io benchmarks of those volumes' primary storages. No per-volume query.
 */
@Component
public class IoModeFactsLoader {

    private final EntityManager em;
    private final ConfigSnapshotLoader snapshots;
    private final HostIoCapabilitiesRepository capabilities;
    private final GlobalConfigDefinition ioMode;
    private final GlobalConfigDefinition cacheMode;
    private final GlobalConfigDefinition onUnsatisfied;
    private final GlobalConfigDefinition allowFalloc;
    private final HostIoBenchmarkRepository benchmarks;
    private final com.fasterxml.jackson.databind.ObjectMapper json;

    public IoModeFactsLoader(EntityManager em, ConfigSnapshotLoader snapshots, HostIoCapabilitiesRepository capabilities,
                             ConfigDefinitions definitions, HostIoBenchmarkRepository benchmarks,
                             com.fasterxml.jackson.databind.ObjectMapper json) {
        this.em = em;
        this.benchmarks = benchmarks;
        this.json = json;
        this.snapshots = snapshots;
        this.capabilities = capabilities;
        this.ioMode = required(definitions, IoModeConfigs.IO_MODE);
        this.cacheMode = required(definitions, IoModeConfigs.CACHE_MODE);
        this.onUnsatisfied = required(definitions, IoModeConfigs.ON_UNSATISFIED);
        this.allowFalloc = required(definitions, IoModeConfigs.ALLOW_FALLOC);
    }

    /** Round trip 1: the volumes (in the order asked) with their primary storage. */
    public List<VolumeContext> volumes(Collection<String> volumeUuids) {
        if (volumeUuids.isEmpty()) return List.of();
        List<Object[]> rows = em.createQuery(
                        "select v, p from VolumeVO v join PrimaryStorageVO p on p.uuid = v.primaryStorageUuid "
                        + "where v.uuid in :uuids", Object[].class)
                .setParameter("uuids", volumeUuids).getResultList();
        java.util.Map<String, VolumeContext> byUuid = new java.util.HashMap<>();
        for (Object[] r : rows) byUuid.put(((VolumeVO) r[0]).getUuid(), new VolumeContext((VolumeVO) r[0], (PrimaryStorageVO) r[1]));
        List<VolumeContext> out = new ArrayList<>(rows.size());
        for (String uuid : volumeUuids) {
            VolumeContext c = byUuid.get(uuid);
            if (c != null) out.add(c);
        }
        return out;
    }

    /** Round trip 1, for a VM start: the VM's volumes by device id, with their primary storage. */
    public List<VolumeContext> volumesOfVm(String vmUuid) {
        return em.createQuery("select v, p from VolumeVO v join PrimaryStorageVO p on p.uuid = v.primaryStorageUuid "
                              + "where v.vmInstanceUuid = :vm order by v.deviceId", Object[].class)
                .setParameter("vm", vmUuid).getResultList().stream()
                .map(r -> new VolumeContext((VolumeVO) r[0], (PrimaryStorageVO) r[1])).toList();
    }

    /** All volumes (or one account's) with their primary storage and their VM's host uuid, in one query. */
    public List<PlacedVolume> allVolumes(String accountUuid) {
        String where = accountUuid == null ? "" : " where v.accountUuid = :account";
        var q = em.createQuery("select v, p, m.hostUuid from VolumeVO v join PrimaryStorageVO p on p.uuid = v.primaryStorageUuid "
                               + "left join VmInstanceVO m on m.uuid = v.vmInstanceUuid" + where + " order by v.createDate, v.uuid",
                Object[].class);
        if (accountUuid != null) q.setParameter("account", accountUuid);
        return q.getResultList().stream()
                .map(r -> new PlacedVolume(new VolumeContext((VolumeVO) r[0], (PrimaryStorageVO) r[1]), (String) r[2])).toList();
    }

    /** A volume and the host its VM runs on (null when not attached). */
    public record PlacedVolume(VolumeContext volume, String hostUuid) {
    }

    /** Every host's facts, in one query. */
    public java.util.Map<String, HostFacts> allHosts() {
        java.util.Map<String, HostFacts> out = new java.util.HashMap<>();
        capabilities.findAll().forEach(c -> out.put(c.getHostUuid(), c.toFacts()));
        return out;
    }

    /** Round trip 2: every config row that can apply to these volumes, as one snapshot. */
    public ConfigSnapshot configs(List<VolumeContext> volumes) {
        Set<String> uuids = new LinkedHashSet<>();
        for (VolumeContext v : volumes) {
            uuids.add(v.volume().getUuid());
            uuids.add(v.storage().getUuid());
        }
        return snapshots.load(IoModeConfigs.CATEGORY, uuids);
    }

    /** Round trip 3: the host's probed facts, null when the host is unknown or was never probed. */
    public HostFacts host(String hostUuid) {
        return hostUuid == null ? null : capabilities.findById(hostUuid).map(HostIoCapabilitiesVO::toFacts).orElse(null);
    }

    /** A host's facts and its measured io benchmarks, read together. */
    public record HostWithPerformance(HostFacts host, MeasuredPerformance measured) {
    }

    /**
     * Round trip 3, with the measurements: the host's probed facts and its io benchmarks of these volumes' primary
     * storages in ONE query (capabilities left-joined to the benchmarks), so measurements cost no extra round trip.
     * Host null when unknown or never probed (then no measurement is used either).
     */
    public HostWithPerformance hostWithPerformance(String hostUuid, List<VolumeContext> volumes) {
        if (hostUuid == null) return new HostWithPerformance(null, MeasuredPerformance.NONE);
        Set<String> storages = new LinkedHashSet<>();
        for (VolumeContext v : volumes) storages.add(v.storage().getUuid());
        if (storages.isEmpty()) storages.add("");
        List<Object[]> rows = em.createQuery("select c, b from HostIoCapabilitiesVO c left join HostIoBenchmarkVO b "
                                             + "on b.hostUuid = c.hostUuid and b.primaryStorageUuid in :storages "
                                             + "where c.hostUuid = :host", Object[].class)
                .setParameter("host", hostUuid).setParameter("storages", storages).getResultList();
        if (rows.isEmpty()) return new HostWithPerformance(null, MeasuredPerformance.NONE);
        List<HostIoBenchmarkVO> benches = new ArrayList<>();
        for (Object[] r : rows) if (r[1] != null) benches.add((HostIoBenchmarkVO) r[1]);
        return new HostWithPerformance(((HostIoCapabilitiesVO) rows.get(0)[0]).toFacts(),
                benches.isEmpty() ? MeasuredPerformance.NONE : MeasuredPerformance.of(benches, json));
    }

    /** The host's measured io benchmarks of these volumes' primary storages (none when no host), in one query. */
    public MeasuredPerformance performance(String hostUuid, List<VolumeContext> volumes) {
        if (hostUuid == null || volumes.isEmpty()) return MeasuredPerformance.NONE;
        Set<String> storages = new LinkedHashSet<>();
        for (VolumeContext v : volumes) storages.add(v.storage().getUuid());
        return MeasuredPerformance.of(benchmarks.forDecisions(hostUuid, storages), json);
    }

    /** Every host's measured io benchmarks, by host uuid, in one query (for previews over all volumes). */
    public java.util.Map<String, MeasuredPerformance> allPerformance() {
        java.util.Map<String, List<HostIoBenchmarkVO>> byHost = new java.util.HashMap<>();
        for (HostIoBenchmarkVO b : benchmarks.findAll()) byHost.computeIfAbsent(b.getHostUuid(), h -> new ArrayList<>()).add(b);
        java.util.Map<String, MeasuredPerformance> out = new java.util.HashMap<>();
        byHost.forEach((h, rows) -> out.put(h, MeasuredPerformance.of(rows, json)));
        return out;
    }

    /** The decision's input for one volume with the host × storage measurements for its image kind; no I/O. */
    public DecisionInput input(VolumeContext v, ConfigSnapshot snap, HostFacts host, String cacheOverride,
                               MeasuredPerformance measured) {
        DecisionInput in = input(v, snap, host, cacheOverride);
        if (measured == null || host == null) return in;
        return in.withPerformance(measured.forVolume(v.storage().getUuid(), v.volume().getFormat(),
                v.volume().getPreallocation()));
    }

    /** The decision's input for one volume; no I/O. {@code cacheOverride} replaces the resolved cache mode when set. */
    public DecisionInput input(VolumeContext v, ConfigSnapshot snap, HostFacts host, String cacheOverride) {
        var chain = v.configChain();
        ConfigSnapshot.Resolved mode = snap.resolve(ioMode, chain);
        String cache = cacheOverride != null ? cacheOverride : snap.resolve(cacheMode, chain).value();
        VolumeVO vol = v.volume();
        VolumeFacts facts = new VolumeFacts(vol.getUuid(), v.storage().getType(), vol.getFormat(), vol.getPreallocation(),
                vol.getSize(), vol.getActualSize(), cache);
        DecisionPolicy policy = new DecisionPolicy(OnUnsatisfied.fromWire(snap.resolve(onUnsatisfied, chain).value()),
                Boolean.parseBoolean(snap.resolve(allowFalloc, chain).value()));
        return new DecisionInput(RequestedIoMode.fromWire(mode.value()), ConfigSource.fromResourceType(mode.sourceType()),
                facts, host, policy);
    }

    public String cacheMode(VolumeContext v, ConfigSnapshot snap) {
        return snap.resolve(cacheMode, v.configChain()).value();
    }

    private static GlobalConfigDefinition required(ConfigDefinitions defs, String name) {
        return defs.find(IoModeConfigs.CATEGORY, name).orElseThrow(() ->
                new IllegalStateException("conf/globalConfig does not define kvm/" + name));
    }
}
