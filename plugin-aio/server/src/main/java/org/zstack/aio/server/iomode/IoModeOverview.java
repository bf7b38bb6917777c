package org.zstack.aio.server.iomode;

import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import org.springframework.stereotype.Service;
import org.springframework.retry.annotation.Retryable;
import org.springframework.transaction.annotation.Transactional;
import org.zstack.aio.server.db.UnitOfWork;
import org.zstack.aio.decision.Check;
import org.zstack.aio.decision.IoModeDecision;
import org.zstack.aio.plugin.ConfigValues;
import org.zstack.aio.plugin.DiskIoModes;
import org.zstack.aio.plugin.HostIoFacts;
import org.zstack.aio.server.account.AccountService;
import org.zstack.aio.server.account.Caller;
import org.zstack.aio.server.benchmark.MeasuredPerformance;
import org.zstack.aio.server.config.ConfigService;
import org.zstack.aio.server.config.ConfigSnapshot;
import org.zstack.aio.server.config.ConfigSnapshotLoader;
import org.zstack.aio.server.config.GlobalConfigDefinition;
import org.zstack.aio.server.inventory.PrimaryStorageVO;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * Decisions over every volume at once, for the UI: what the next start would decide for each volume, and the impact
 * of a proposed global change (how many volumes get each mode, how many fall back and why), in a constant number of
 * queries whatever the number of volumes.
 */
@Service
@Retryable(interceptor = UnitOfWork.IDEMPOTENT)
public class IoModeOverview {

    private final IoModeFactsLoader facts;
    private final CoreFacts core;
    private final ConfigSnapshotLoader snapshots;
    private final ConfigService configs;
    private final DiskIoModes ioModes;

    public IoModeOverview(IoModeFactsLoader facts, CoreFacts core, ConfigSnapshotLoader snapshots,
                          ConfigService configs, DiskIoModes ioModes) {
        this.facts = facts;
        this.core = core;
        this.snapshots = snapshots;
        this.configs = configs;
        this.ioModes = ioModes;
    }

    /** The most volumes one preview call may name. */
    public static final int MAX_NAMED = 500;

    /** The decision the next start would make for each of these volumes the caller can see (unknown ones: none). */
    @Transactional(readOnly = true)
    public List<IoModeDecisionInventory> previews(Caller caller, java.util.Set<String> volumeUuids) {
        var volumes = facts.volumes(caller.admin() ? null : caller.accountUuid(), volumeUuids);
        var f = new Facts(volumes, facts.allHosts(storagesOf(volumes)), facts.allPerformance());
        return decideAll(f, facts.configs(volumes.stream().map(IoModeFactsLoader.PlacedVolume::volume).toList())).stream()
                .map(IoModeDecisionInventory::of).toList();
    }

    /** The decision the next start would make for each volume the caller can see. */
    @Transactional(readOnly = true)
    public List<IoModeDecisionInventory> previews(Caller caller) {
        return decideAll(facts(caller.admin() ? null : caller.accountUuid()), facts.allConfigs()).stream()
                .map(IoModeDecisionInventory::of).toList();
    }

    public record Tally(Map<String, Long> byEffective, long fallbacks, long refused, List<ReasonGroup> reasons) {
    }

    public record ReasonGroup(String mode, String check, long volumes, String example) {
    }

    public record Impact(String category, String name, String currentValue, String proposedValue, long volumes,
                         long changed, Tally current, Tally proposed) {
    }

    /** Volumes decided per page by the impact preview: its heap is one page, whatever the number of volumes. */
    static final int IMPACT_PAGE = 2000;

    /**
     * What changing a global config to {@code value} would do to every volume (admin only). Changes nothing. The
     * volumes are walked in keyset pages of {@value #IMPACT_PAGE}, each decided with the current and the proposed
     * configs and tallied, then let go, so 100,000 volumes cost the heap of one page.
     */
    @Transactional(readOnly = true)
    public Impact impact(Caller caller, String category, String name, String value) {
        AccountService.requireAdmin(caller, "preview global config changes");
        GlobalConfigDefinition def = configs.definition(category, name);
        String valid = ConfigService.validValue(def, value == null ? null : JsonNodeFactory.instance.textNode(value));
        ConfigSnapshot now = snapshots.loadAll(category);
        ConfigSnapshot proposed = now.withGlobal(name, valid);
        ConfigValues nowValues = core.configs(now);
        ConfigValues proposedValues = core.configs(proposed);
        var storages = facts.allStorages();
        var hosts = facts.allHosts(storages.values());
        var measured = facts.allPerformance();
        TallyBuilder before = new TallyBuilder();
        TallyBuilder after = new TallyBuilder();
        long changed = 0;
        IoModeFactsLoader.VolumePage page = null;
        do {
            page = facts.volumesAfter(null, page == null ? null : page.last(), IMPACT_PAGE, storages);
            for (var v : page.volumes()) {
                IoModeDecision b = decide(v, now, nowValues, hosts, measured);
                IoModeDecision a = decide(v, proposed, proposedValues, hosts, measured);
                before.add(b);
                after.add(a);
                if (b.effectiveMode() != a.effectiveMode() || b.refused() != a.refused()) changed++;
            }
        } while (page.full()); // each page is plain columns, let go with the loop: the heap holds one page
        return new Impact(category, name, now.global(def), valid, before.count(), changed, before.build(), after.build());
    }

    /** What the core previews for one volume on its VM's host (none when detached); {@code values} is {@code snap}'s. */
    private IoModeDecision decide(IoModeFactsLoader.PlacedVolume v, ConfigSnapshot snap, ConfigValues values,
                                  Map<String, HostIoFacts> hosts, Map<String, MeasuredPerformance> measured) {
        String host = v.hostUuid();
        VolumeContext c = v.volume();
        return ioModes.preview(core.volume(c, snap), values, host == null ? null : hosts.get(host),
                host == null ? null : CoreFacts.figures(measured.get(host), uuid -> c.workloadProfile()));
    }

    /** Everything the decisions over all (or one account's) volumes read, loaded once. */
    private record Facts(List<IoModeFactsLoader.PlacedVolume> volumes, Map<String, HostIoFacts> hosts,
                         Map<String, MeasuredPerformance> measuredByHost) {
    }

    private Facts facts(String accountUuid) {
        var volumes = facts.allVolumes(accountUuid);
        return new Facts(volumes, facts.allHosts(storagesOf(volumes)), facts.allPerformance());
    }

    /** The primary storages of these volumes, read with them: no query of their own. */
    private static List<PrimaryStorageVO> storagesOf(List<IoModeFactsLoader.PlacedVolume> volumes) {
        return volumes.stream().map(v -> v.volume().storage()).distinct().toList();
    }

    private List<IoModeDecision> decideAll(Facts f, ConfigSnapshot snap) {
        var hosts = f.hosts();
        var measured = f.measuredByHost();
        List<IoModeDecision> out = new ArrayList<>(f.volumes().size());
        ConfigValues values = core.configs(snap);
        for (var v : f.volumes()) out.add(decide(v, snap, values, hosts, measured));
        return out;
    }

    static Tally tally(List<IoModeDecision> decisions) {
        TallyBuilder t = new TallyBuilder();
        decisions.forEach(t::add);
        return t.build();
    }

    /** A tally built one decision at a time (the impact preview never holds every decision). */
    static final class TallyBuilder {
        private final Map<String, Long> byEffective = new TreeMap<>();
        private final Map<String, ReasonGroup> reasons = new LinkedHashMap<>();
        private long count;
        private long fallbacks;
        private long refused;

        void add(IoModeDecision d) {
            count++;
            if (d.refused()) {
                refused++;
            } else {
                byEffective.merge(d.effectiveWire(), 1L, Long::sum);
            }
            boolean fellBack = d.fellBack();
            if (fellBack) fallbacks++;
            if (fellBack || d.refused()) {
                Check c = d.firstFailure();
                if (c != null) {
                    reasons.merge(c.mode() + "/" + c.check(), new ReasonGroup(c.mode(), c.check(), 1, c.message()),
                            (a, b) -> new ReasonGroup(a.mode(), a.check(), a.volumes() + 1, a.example()));
                }
            }
        }

        long count() {
            return count;
        }

        Tally build() {
            return new Tally(new TreeMap<>(byEffective), fallbacks, refused, List.copyOf(reasons.values()));
        }
    }
}
