package org.zstack.aio.plugin;

import org.zstack.aio.decision.Check;
import org.zstack.aio.decision.CheckResult;
import org.zstack.aio.decision.IoMode;
import org.zstack.aio.decision.IoModeDecider;
import org.zstack.aio.decision.IoModeDecision;
import org.zstack.aio.decision.IoModeRules;
import org.zstack.aio.decision.IoModeText;
import org.zstack.aio.decision.StorageKind;

import java.util.ArrayList;
import java.util.Collection;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

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
    /** The decision core's check of a mode remembered as refused on a host × storage. */
    static final String REMEMBERED_REFUSAL = "remembered-refusal";
    private static final String CHOOSE_ANOTHER_HOST = "Choose another host, or change what the check names.";

    private final IoModeDecider decider;
    private final OneDisk oneDisk;
    private final VolumeSetRule setRule;
    private final RefusalRecognizer recognizer;
    private final DiskReadBack readBacks;

    public DiskIoModes(IoModeRules rules) {
        this.decider = new IoModeDecider(rules);
        this.oneDisk = new OneDisk(decider);
        this.setRule = new VolumeSetRule(decider);
        this.recognizer = new RefusalRecognizer(rules.startRefusals());
        this.readBacks = new DiskReadBack(rules);
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
            IoMode decided = d.refused() ? null : d.effectiveMode();
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
            disks.add(new PlannedDisk(v, d, kind, decided, set, DecisionRecord.of(d, request.vmUuid(), request.operation(),
                    refusedBefore(v, d, host), null)));
        }
        return new DiskPlan(request, disks, refusal);
    }

    /**
     * The modes remembered as refused on the disk's host × storage that its decision stepped past, as the record's
     * attempts (each with what refused it and when); null when none, so the record says nothing was refused.
     */
    private static DecisionRecord.Applied refusedBefore(VolumeIoFacts v, IoModeDecision d, HostIoFacts host) {
        StorageIoFacts path = host == null ? null : host.storage(v.primaryStorageUuid());
        if (path == null || path.getRefused().isEmpty()) return null;
        List<DecisionRecord.AttemptRecord> attempts = new ArrayList<DecisionRecord.AttemptRecord>();
        Set<String> seen = new HashSet<String>();
        for (RefusedIoMode r : path.getRefused()) {
            IoMode m = IoMode.fromWireOrNull(r.getMode());
            Check c = m == null ? null : d.firstFailure(m);
            if (c != null && REMEMBERED_REFUSAL.equals(c.check()) && seen.add(r.getMode())) {
                attempts.add(new DecisionRecord.AttemptRecord(r.getMode(), r.getBy() + " at " + r.getRefusedAt() + ": " + r.getText()));
            }
        }
        return attempts.isEmpty() ? null : new DecisionRecord.Applied(null, null, attempts);
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
                IoMode decided = d.refused() ? null : d.effectiveMode();
                disks.add(new PlannedDisk(v, d, kind(v, d), decided, d.effectiveMode(),
                        DecisionRecord.of(d, request.vmUuid(), Operation.MIGRATE, null, null)));
            }
            out.put(h.uuid(), new DiskPlan(request.on(h), disks, refusal));
        }
        return out;
    }

    /**
     * The records of a VM's disks after a live migration from {@code sourceHostUuid} to {@code destination} by an agent
     * that carries the source's disks ({@link ZStackAgent}): each disk's stored record moved there, and a disk whose XML
     * the migration rebuilt ({@code rebuiltAs}, by volume uuid: how it is opened now) running what the agent that
     * rebuilt it writes. That is the source's agent: it builds the XML the destination runs (ZStack: vm_plugin.py's
     * migrate, _get_new_disk). Not stored yet.
     *
     * @throws IllegalStateException when the source's agent re-decides every disk (its platform plans the migration
     *                               with {@link #plan} and records that instead)
     */
    public List<DecisionRecord> migrated(String vmUuid, String sourceHostUuid, HostRef destination, List<String> volumeUuids,
                                         Map<String, DiskKind> rebuiltAs, IoModePorts ports) {
        AgentProfile agent = ports.agent(ports.host(sourceHostUuid));
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
     * A VM start of {@code plan} that the host failed with {@code error} (ZStack: the start's error as its KVMHost
     * reports it, the agent's libvirt error inside): whether libvirt or QEMU refused a disk's io mode, by their words in
     * the rules' {@code startRefusals}. For each refused disk: what to remember as refused on the host × storage (so
     * no later start tries it there until cleared; only where the disk steps down, onUnsatisfied = fallback), the mode its next start will use (the same start decided again with
     * the refusal remembered), and the one sentence the start fails with. {@link StartRefusal#NONE} when the error holds
     * none of the words: the failure is not an io mode's.
     *
     * @param imagePaths each volume's image as QEMU opens it (the domain XML's source), by volume uuid; a missing one
     *                   is found by the mode it tried
     * @param at         when the start failed, ISO-8601 UTC ({@link IsoDates})
     */
    public StartRefusal startFailed(DiskPlan plan, String error, Map<String, String> imagePaths, String at, IoModePorts ports) {
        HostRef h = plan.request().host();
        HostIoFacts host = ports.host(h.uuid());
        if (host == null) host = HostIoFacts.unknown(h.uuid(), "the host was never probed");
        AgentProfile agent = ports.agent(host);
        List<RefusalRecognizer.Tried> tried = new ArrayList<RefusalRecognizer.Tried>();
        for (PlannedDisk d : plan.disks()) {
            IoMode m = d.set() != null ? d.set() : d.decision().refused() ? null : agent.writesWithoutMode(d.kind());
            // threads is QEMU's own thread pool: nothing refuses it
            if (m != null && m != IoMode.THREADS) tried.add(new RefusalRecognizer.Tried(d, imagePaths.get(d.volumeUuid()), m));
        }
        List<RefusalRecognizer.Match> matches = recognizer.recognise(error, tried);
        if (matches.isEmpty()) return StartRefusal.NONE;
        List<RefusedIoMode> refusedHere = new ArrayList<RefusedIoMode>();
        for (RefusalRecognizer.Match m : matches) {
            if (m.words.scope() != IoModeText.Scope.HOST_STORAGE) continue;
            List<String> cleared = new ArrayList<String>();
            cleared.add(RefusedIoMode.CLEARED_BY_ADMIN);
            if (m.words.clearedBy().contains(IoModeText.Clearing.VERSION_CHANGE)) cleared.add(RefusedIoMode.CLEARED_BY_VERSION_CHANGE);
            if (m.words.clearedBy().contains(IoModeText.Clearing.READ_BACK)) cleared.add(RefusedIoMode.CLEARED_BY_READ_BACK);
            refusedHere.add(new RefusedIoMode(h.uuid(), m.disk.disk.volume().primaryStorageUuid(), m.disk.mode.wire(), m.words.id(),
                    m.words.byName(), m.said, m.disk.disk.volumeUuid(), plan.request().vmUuid(), at, host.getQemu(),
                    host.getLibvirt(), cleared));
        }
        DiskPlan next = refusedHere.isEmpty() ? null : plan(plan.request(), new RememberingPorts(ports, h.uuid(), refusedHere));
        // remembered only where the disk steps down (onUnsatisfied = fallback); with fail its next decision is refused,
        // and nothing changes: the start fails with the sentence alone
        List<RefusedIoMode> remember = new ArrayList<RefusedIoMode>();
        for (RefusedIoMode r : refusedHere) {
            PlannedDisk again = next.disk(r.getVolumeUuid());
            if (again != null && !again.decision().refused()) remember.add(r);
        }
        List<StartRefusal.Disk> disks = new ArrayList<StartRefusal.Disk>();
        for (RefusalRecognizer.Match m : matches) {
            PlannedDisk again = next == null || m.words.scope() != IoModeText.Scope.HOST_STORAGE ? null
                    : next.disk(m.disk.disk.volumeUuid());
            IoMode nextMode = again == null || again.decision().refused() ? null : again.decision().effectiveMode();
            disks.add(new StartRefusal.Disk(m.disk.disk.volumeUuid(), m.disk.mode, m.words.byName(), m.said, m.words.id(),
                    nextMode));
        }
        return new StartRefusal(disks, remember, startRefusalSentence(matches.get(0), disks, remember, h));
    }

    /** The one sentence of a start libvirt or QEMU refused an io mode at: the first disk, and what comes next. */
    private static IoModeRefusal startRefusalSentence(RefusalRecognizer.Match first, List<StartRefusal.Disk> disks,
                                                      List<RefusedIoMode> remember, HostRef host) {
        StartRefusal.Disk d = disks.get(0);
        String head = "volume " + first.disk.disk.volume().label() + " could not start with " + d.refused().wire() + " on "
                      + host.label() + ": " + d.by() + " refused it (\"" + d.said() + "\")";
        StringBuilder others = new StringBuilder();
        for (StartRefusal.Disk o : disks.subList(1, disks.size())) {
            others.append(others.length() == 0 ? "; so did volume " : ", volume ").append(o.volumeUuid()).append(" (")
                    .append(o.refused().wire()).append(o.next() == null ? "" : ", next " + o.next().wire()).append(')');
        }
        if (first.words.scope() == IoModeText.Scope.VOLUME) {
            return new IoModeRefusal(d.volumeUuid(), head + ": the volume's cache mode does not open its image with O_DIRECT"
                    + others + ".", "Set kvm/vm.cacheMode to none or directsync for the volume, or choose another"
                    + " kvm/vm.ioMode for it.");
        }
        if (d.next() == null || remember.isEmpty()) {
            return new IoModeRefusal(d.volumeUuid(), head + ", and vm.ioMode.onUnsatisfied is fail, so no other mode is"
                    + " tried and nothing is remembered" + others + ".",
                    "Fix what " + d.by() + " names, choose another kvm/vm.ioMode for the volume or its primary storage, or"
                    + " set kvm/vm.ioMode.onUnsatisfied to fallback.");
        }
        String where = "this host and primary storage " + first.disk.disk.volume().primaryStorageUuid();
        String cleared = remember.get(0).howCleared();
        return new IoModeRefusal(d.volumeUuid(), head + ". The refusal is remembered for " + where + ", so the next start of"
                + " the VM runs the volume with " + d.next().wire() + others + ".", "Start the VM again. " + d.by()
                + "'s refusal stays remembered until " + cleared + ".");
    }

    /**
     * A read-back of one host ({@link ReadBackRequest}: what conf/aio/read-back.sh printed there) compared with the
     * stored decisions: each disk of each VM is found in its live domain XML by its {@code <serial>} (the volume's
     * uuid), else by its image path; what it runs is its driver's {@code io} (none: QEMU's thread pool), unless QEMU
     * wrote in the VM's log since its start that this mode fell back to its thread pool (the rules'
     * {@code silentFallbacks}; QEMU names no disk, so every disk of that mode in the VM ran it). Each record gains what
     * it runs, when, and one sentence where that is not its decision; a remembered refusal of a mode a disk on the same
     * host × storage runs is cleared where its words allow it. Records of VMs that could not be read stay as they were.
     */
    public ReadBackResult readBack(ReadBackRequest request, IoModePorts ports) {
        return readBacks.compare(request, ports);
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
