package org.zstack.aio.plugin;

import org.zstack.aio.decision.Check;
import org.zstack.aio.decision.CheckResult;
import org.zstack.aio.decision.IoMode;
import org.zstack.aio.decision.IoModeDecider;
import org.zstack.aio.decision.IoModeDecision;
import org.zstack.aio.decision.IoModeRules;
import org.zstack.aio.decision.StorageKind;

import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The front door of the io-mode feature, for both platforms: given an operation on a VM's disks and a host
 * ({@link DiskRequest}), it asks the platform what it needs through {@link IoModePorts} (volume facts, configs, host
 * facts, figures, stored records), decides each disk through the decision core, applies what the host's agent can do
 * ({@link AgentProfile}), and answers a {@link DiskPlan}: each disk's decision, the one refusal sentence, the records to
 * store. Platforms translate their facts in and the plan out; neither decides nor words a refusal itself.
 * Stateless beyond the immutable rules: one instance serves every thread.
 */
public final class DiskIoModes {

    private static final String FIX_OR_FALL_BACK = "Fix what the check names, choose another kvm/vm.ioMode for the volume or"
                                                   + " its primary storage, or set kvm/vm.ioMode.onUnsatisfied to fallback.";
    private static final String CHOOSE_ANOTHER_HOST = "Choose another host, or change what the check names.";

    private final IoModeDecider decider;
    private final OneDisk oneDisk;
    private final VolumeSetRule setRule;

    public DiskIoModes(IoModeRules rules) {
        this.decider = new IoModeDecider(rules);
        this.oneDisk = new OneDisk(decider);
        this.setRule = new VolumeSetRule(decider);
    }

    public IoModeRules rules() { return decider.rules(); }

    /** The kind of storage a primary storage type is (file, block, network), as the rules say. */
    public StorageKind kindOf(String storageType) { return decider.rules().kindOf(storageType); }

    /** Decides the disks of one operation. */
    public DiskPlan plan(DiskRequest request, IoModePorts ports) {
        if (request.operation() == Operation.MIGRATE) return migrateTo(request, single(request.host()), ports).get(request.host().uuid());
        Batch b = Batch.read(request.volumeUuids(), ports);
        HostIoFacts host = ports.host(request.host().uuid());
        AgentProfile agent = ports.agent(host);
        Figures figures = ports.figures(request.host().uuid(), b.volumes.values());
        List<PlannedDisk> disks = new ArrayList<PlannedDisk>(b.volumes.size());
        IoModeRefusal refusal = null;
        for (VolumeIoFacts v : b.volumes.values()) {
            IoModeSettings s = oneDisk.settings(v, b.configs);
            IoModeDecision d = oneDisk.decide(v, s, host, figures);
            DiskKind kind = kind(v, d);
            IoMode set = d.effectiveMode();
            if (d.refused()) {
                if (refusal == null) refusal = policyRefusal(v, d);
            } else if (request.operation() == Operation.ATTACH) {
                AgentProfile.HotPlug plug = agent.atHotPlug(d, kind, s.policy().onUnsatisfied());
                if (plug.refusal() != null && refusal == null) refusal = plug.refusal();
                d = plug.recorded();
                set = plug.set();
            } else if (v.unreachableAtStart() != null && d.applicable()) {
                d = agent.unreachableAtStart(d, v.unreachableAtStart());
                set = null;
            }
            disks.add(new PlannedDisk(v, d, kind, set, DecisionRecord.of(d, request.vmUuid(), request.operation(), null, null)));
        }
        return new DiskPlan(request, disks, refusal);
    }

    /**
     * A live migration's candidates: the VM's disks decided for each host, and for each host the first disk its agent
     * cannot take there (the plan's refusal). Volumes and configs are read once for every host.
     */
    public Map<String, DiskPlan> migrateTo(DiskRequest request, List<HostRef> hosts, IoModePorts ports) {
        Batch b = Batch.read(request.volumeUuids(), ports);
        RunningModes running = new RunningModes(ports, b.volumes.keySet());
        Map<String, DiskPlan> out = new LinkedHashMap<String, DiskPlan>();
        for (HostRef h : hosts) {
            HostIoFacts host = ports.host(h.uuid());
            AgentProfile agent = ports.agent(host);
            Figures figures = ports.figures(h.uuid(), b.volumes.values());
            List<PlannedDisk> disks = new ArrayList<PlannedDisk>(b.volumes.size());
            IoModeRefusal refusal = null;
            for (VolumeIoFacts v : b.volumes.values()) {
                IoModeDecision d = oneDisk.decide(v, oneDisk.settings(v, b.configs), host, figures);
                if (refusal == null) {
                    String blocker = agent.migrationBlocker(new Migrating(v, h, d, host, running));
                    if (blocker != null) refusal = new IoModeRefusal(v.volumeUuid(), blocker, CHOOSE_ANOTHER_HOST);
                }
                disks.add(new PlannedDisk(v, d, kind(v, d), d.effectiveMode(),
                        DecisionRecord.of(d, request.vmUuid(), Operation.MIGRATE, null, null)));
            }
            out.put(h.uuid(), new DiskPlan(request.on(h), disks, refusal));
        }
        return out;
    }

    /**
     * The records of a VM's disks after a live migration to {@code destination} by an agent that carries the source's
     * disks ({@link ZStackAgent}): each disk's stored record moved there, and a disk whose XML the migration rebuilt
     * ({@code rebuiltAs}, by volume uuid: how it is opened now) running what that agent writes. Not stored yet.
     *
     * @throws IllegalStateException when the destination's agent re-decides every disk (its platform plans the
     *                               migration with {@link #plan} and records that instead)
     */
    public List<DecisionRecord> migrated(String vmUuid, HostRef destination, List<String> volumeUuids,
                                         Map<String, DiskKind> rebuiltAs, IoModePorts ports) {
        AgentProfile agent = ports.agent(ports.host(destination.uuid()));
        if (!(agent instanceof ZStackAgent)) {
            throw new IllegalStateException(agent.name() + " re-decides every disk for the destination of a migration");
        }
        Map<String, DecisionRecord> stored = ports.stored(volumeUuids);
        List<DecisionRecord> out = new ArrayList<DecisionRecord>();
        for (String uuid : volumeUuids) {
            DecisionRecord r = stored.get(uuid);
            if (r != null && vmUuid.equals(r.getVmInstanceUuid())) {
                out.add(((ZStackAgent) agent).afterMigration(r, destination.uuid(), destination.label(), rebuiltAs.get(uuid)));
            }
        }
        return out;
    }

    /**
     * What one volume's next operation on {@code host} would decide (null: host unknown), without a plan: previews,
     * impact tallies over many volumes, set-time checks. The configs and figures are the caller's, read once for all.
     */
    public IoModeDecision preview(VolumeIoFacts volume, ConfigValues configs, HostIoFacts host, Figures figures) {
        return oneDisk.decide(volume, oneDisk.settings(volume, configs), host, figures);
    }

    /** The volume's configs, resolved (requested mode and where it came from, the policy). */
    public IoModeSettings settings(VolumeIoFacts volume, ConfigValues configs) {
        return oneDisk.settings(volume, configs);
    }

    /** Whether a host can run {@code mode} at all: the checks that depend on the host alone, each with its sentence. */
    public CheckResult hostCheck(IoMode mode, HostIoFacts host) {
        return decider.checkHost(mode, host == null ? null : host.decisionFacts());
    }

    /** Every check name a decision can hold (for metrics labels and query values). */
    public List<String> checkNames() { return decider.checkNames(); }

    /** kvm/vm.ioMode set to {@code value} on the volume: why not, or null (the core's {@link VolumeSetRule}). */
    public ConfigRefusal refuseIoModeOnVolume(String value, VolumeIoFacts volume, ConfigValues configs) {
        return setRule.ioMode(value, OneDisk.volumeFacts(volume, null), oneDisk.settings(volume, configs).policy());
    }

    /**
     * The volume's cache mode set to {@code cacheMode}: why not, or null. Only the volume's own kvm/vm.ioMode = native
     * is a promise the cache mode must keep.
     */
    public ConfigRefusal refuseCacheModeOnVolume(String cacheMode, VolumeIoFacts volume, ConfigValues configs) {
        return setRule.cacheMode(cacheMode, configs.override(volume.volumeUuid(), IoModeConfig.IO_MODE),
                OneDisk.volumeFacts(volume, null), oneDisk.settings(volume, configs).policy());
    }

    private DiskKind kind(VolumeIoFacts v, IoModeDecision d) {
        if (!d.applicable()) return DiskKind.NETWORK;
        if (v.kind() != null) return v.kind();
        StorageKind k = decider.rules().kindOf(v.storageType());
        return k == StorageKind.BLOCK ? DiskKind.BLOCK : k == StorageKind.NETWORK ? DiskKind.NETWORK : DiskKind.FILE;
    }

    /** The one sentence of a decision refused by onUnsatisfied = fail. */
    private static IoModeRefusal policyRefusal(VolumeIoFacts v, IoModeDecision d) {
        Check failed = d.firstFailure();
        return new IoModeRefusal(v.volumeUuid(), "volume " + v.label() + " cannot run " + d.requested().wire() + ": check "
                + failed.check() + " failed: " + failed.message(), FIX_OR_FALL_BACK);
    }

    private static List<HostRef> single(HostRef h) {
        List<HostRef> l = new ArrayList<HostRef>(1);
        l.add(h);
        return l;
    }

    /** The volumes of an operation in the order asked (those that exist) and their configs: two reads. */
    private static final class Batch {
        final Map<String, VolumeIoFacts> volumes = new LinkedHashMap<String, VolumeIoFacts>();
        ConfigValues configs;

        static Batch read(List<String> uuids, IoModePorts ports) {
            Batch b = new Batch();
            Map<String, VolumeIoFacts> found = ports.volumes(uuids);
            for (String u : uuids) {
                VolumeIoFacts v = found.get(u);
                if (v != null) b.volumes.put(u, v);
            }
            b.configs = ports.configs(b.volumes.values());
            return b;
        }
    }

    /** What the disks run now, read from the stored records once, and only if an agent asks. */
    private static final class RunningModes {
        private final IoModePorts ports;
        private final Collection<String> volumeUuids;
        private Map<String, DecisionRecord> stored;

        RunningModes(IoModePorts ports, Collection<String> volumeUuids) {
            this.ports = ports;
            this.volumeUuids = volumeUuids;
        }

        IoMode of(String volumeUuid) {
            if (stored == null) stored = ports.stored(volumeUuids);
            DecisionRecord r = stored.get(volumeUuid);
            return r == null ? null : IoMode.fromWireOrNull(r.getEffective());
        }
    }

    private final class Migrating implements MigratingDisk {
        private final VolumeIoFacts volume;
        private final HostRef host;
        private final IoModeDecision onDestination;
        private final HostIoFacts facts;
        private final RunningModes running;

        Migrating(VolumeIoFacts volume, HostRef host, IoModeDecision onDestination, HostIoFacts facts, RunningModes running) {
            this.volume = volume;
            this.host = host;
            this.onDestination = onDestination;
            this.facts = facts;
            this.running = running;
        }

        @Override
        public String volumeName() { return volume.label(); }

        @Override
        public String hostName() { return host.label(); }

        @Override
        public IoModeDecision onDestination() { return onDestination; }

        @Override
        public IoMode runsNow() { return running.of(volume.volumeUuid()); }

        @Override
        public CheckResult destinationCanRun(IoMode mode) { return hostCheck(mode, facts); }
    }
}
