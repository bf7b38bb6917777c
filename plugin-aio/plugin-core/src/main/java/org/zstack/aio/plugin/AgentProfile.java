package org.zstack.aio.plugin;

import org.zstack.aio.decision.Check;
import org.zstack.aio.decision.CheckResult;
import org.zstack.aio.decision.HostFacts;
import org.zstack.aio.decision.IoMode;
import org.zstack.aio.decision.IoModeDecider;
import org.zstack.aio.decision.IoModeDecision;
import org.zstack.aio.decision.OnUnsatisfied;

import java.util.Collections;
import java.util.EnumMap;
import java.util.EnumSet;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * What one platform's agent can apply to a disk, as data: the modes it can set when a volume is hot-plugged, what a
 * disk gets when it cannot, whether a live migration applies the destination's decision or keeps the source's
 * disks as they are, and what a disk whose XML a migration rebuilds gets. Every caller asks {@link #atHotPlug},
 * {@link #migrationBlocker} and {@link #afterMigration}, so the stored {@code effective} is always what the disk gets,
 * on both platforms.
 */
public final class AgentProfile {

    /** plugin-aio's own agent: every mode at start and at hot-plug; a migration re-decides each disk for the destination. */
    public static final AgentProfile STANDALONE = new AgentProfile("plugin-aio's agent", EnumSet.allOf(IoMode.class),
            Collections.<DiskKind, IoMode>emptyMap(), true, null, Collections.<DiskKind, IoMode>emptyMap());

    /**
     * ZStack's unmodified kvmagent: at hot-plug only the NativeAio addon (io=native); without it a file disk gets no io
     * attribute (QEMU's threads) and a block disk the agent's hard-coded io=native (vm_plugin.py). It live-migrates
     * with the source's domain XML (migrateToURI2), so each disk keeps its mode on the destination; a disk the migration
     * command moves to new storage ({@code MigrateVmCmd.disks}) is written anew by {@code VmPlugin._get_new_disk}: a file
     * disk without an io attribute, a block disk with io=native.
     */
    public static final AgentProfile ZSTACK_STOCK = new AgentProfile("ZStack's agent", EnumSet.of(IoMode.NATIVE),
            defaults(IoMode.THREADS, IoMode.NATIVE), false,
            "at hot-plug ZStack's agent can only add io=native (the NativeAio addon); the plugin-aio kvmagent patch lets it"
            + " set the decided mode", defaults(IoMode.THREADS, IoMode.NATIVE));

    /**
     * ZStack's kvmagent with plugin-aio's hot-plug patch: the decided mode at hot-plug; migration as {@link #ZSTACK_STOCK}
     * (the patch changes only the hot-plug code).
     */
    public static final AgentProfile ZSTACK_PATCHED = new AgentProfile("ZStack's agent with the plugin-aio patch",
            EnumSet.allOf(IoMode.class), Collections.<DiskKind, IoMode>emptyMap(), false, null,
            defaults(IoMode.THREADS, IoMode.NATIVE));

    /** The check a decision gains when the agent gives the disk another mode than the decided one. */
    public static final String APPLIED_CHECK = "applied-by-agent";
    /** The check a decision gains when the start-time hook cannot reach the disk to set its mode. */
    public static final String REACHED_CHECK = "reached-at-start";
    /** The check a decision gains when a migration rebuilt the disk without the mode it ran. */
    public static final String MIGRATED_CHECK = "kept-at-migration";

    private final String name;
    private final Set<IoMode> settableAtHotPlug;
    private final Map<DiskKind, IoMode> hotPlugDefaults;
    private final boolean migrationRedecides;
    private final String hotPlugLimit;
    /** what a disk gets when a migration rebuilds its XML; empty: the agent re-decides the disk for the destination */
    private final Map<DiskKind, IoMode> rebuiltAtMigration;

    private AgentProfile(String name, Set<IoMode> settableAtHotPlug, Map<DiskKind, IoMode> hotPlugDefaults,
                         boolean migrationRedecides, String hotPlugLimit, Map<DiskKind, IoMode> rebuiltAtMigration) {
        this.name = name;
        this.settableAtHotPlug = Collections.unmodifiableSet(EnumSet.copyOf(settableAtHotPlug));
        this.hotPlugDefaults = hotPlugDefaults;
        this.migrationRedecides = migrationRedecides;
        this.hotPlugLimit = hotPlugLimit;
        this.rebuiltAtMigration = rebuiltAtMigration;
    }

    /**
     * The profile of a ZStack host's agent from what the host probe says of it ({@code kvmagent_patch=}): the patched
     * one when the probe found the patch's marker, else ZStack's unmodified agent (also when unknown: the record then
     * says what the unmodified agent would give, never more than it can).
     */
    public static AgentProfile zstack(Boolean kvmagentPatch) {
        return Boolean.TRUE.equals(kvmagentPatch) ? ZSTACK_PATCHED : ZSTACK_STOCK;
    }

    public String name() { return name; }

    public boolean canSetAtHotPlug(IoMode mode) { return settableAtHotPlug.contains(mode); }

    /**
     * What a hot-plugged disk gets: the decision as applied, or a refusal when the decided mode cannot be applied and
     * {@code onUnsatisfied} is {@code fail}. Refused and not-applicable decisions are returned as they are (the caller refuses the
     * former; the latter take no io attribute).
     */
    public HotPlug atHotPlug(IoModeDecision d, DiskKind kind, OnUnsatisfied onUnsatisfied) {
        IoMode decided = d.effectiveMode();
        if (d.refused() || decided == null || kind == DiskKind.NETWORK || canSetAtHotPlug(decided)) {
            return new HotPlug(d, decided != null && canSetAtHotPlug(decided) ? decided : null, null);
        }
        IoMode gets = hotPlugDefaults.get(kind);
        if (onUnsatisfied == OnUnsatisfied.FAIL) {
            return new HotPlug(d, null, "volume " + d.volumeUuid() + " was decided " + decided.wire() + ", but " + hotPlugLimit
                    + ", so it would run " + gets.wire() + " (vm.ioMode.onUnsatisfied is fail). Stop the VM and attach the"
                    + " volume then, apply the kvmagent patch, or choose " + gets.wire() + " for this volume.");
        }
        return new HotPlug(d.withApplied(gets, APPLIED_CHECK, hotPlugLimit), null, null);
    }

    /**
     * A disk that what applies the decision at start cannot reach (on ZStack the xml hook finds a disk by its
     * {@code <serial>}, which the agent does not write for a vhost-user or a SCSI LUN disk): it keeps the driver the
     * agent writes, with no io attribute, which is QEMU's threads. The record says so and why. Refused and
     * not-applicable decisions are returned as they are.
     *
     * @param why what keeps the disk out of reach, e.g. {@code "ZStack's agent writes no <serial> for a vhost-user disk"}
     */
    public IoModeDecision unreachableAtStart(IoModeDecision d, String why) {
        if (d.refused() || d.effectiveMode() == null) return d;
        return d.withApplied(IoMode.THREADS, REACHED_CHECK, why + ", so the start hook that sets io= cannot find it and"
                + " the disk keeps the driver " + name + " writes, without an io attribute");
    }

    /**
     * Why a disk cannot go to {@code destination} in a live migration, or null when it can.
     *
     * @param decider       asked, with {@code runsNow} and {@code destination}, only by a profile that keeps the source's
     *                      disks; a re-deciding one needs the destination's decision alone (the others may be null)
     * @param onDestination the disk decided for the destination host (what a re-deciding agent applies there)
     * @param runsNow       the mode the disk runs now (what an agent that keeps the source's XML carries over); null:
     *                      none (network storage) or unknown
     * @param volume        the volume as the sentence names it, e.g. {@code data-1 (uuid)}
     * @param host          the destination as the sentence names it
     */
    public String migrationBlocker(IoModeDecider decider, IoModeDecision onDestination, IoMode runsNow, HostFacts destination,
                                   String volume, String host) {
        if (migrationRedecides) {
            if (!onDestination.refused()) return null;
            Check failed = onDestination.firstFailure();
            return "volume " + volume + " cannot run " + onDestination.requested().wire() + " on " + host + ": check "
                   + failed.check() + " failed: " + failed.message();
        }
        if (runsNow == null || runsNow == IoMode.THREADS) return null;
        CheckResult r = decider.checkHost(runsNow, destination);
        if (r.passed()) return null;
        Check failed = r.firstFailure();
        return "volume " + volume + " runs " + runsNow.wire() + " and " + name + " migrates a disk as it runs, but " + host
               + " cannot run " + runsNow.wire() + ": check " + failed.check() + " failed: " + failed.message();
    }

    /**
     * The stored decision of a disk after a live migration to {@code destHostUuid} (operation {@code migrate}, not
     * stored yet). A disk the migration carried with the source's XML runs what it ran. A disk whose XML it rebuilt
     * ({@code rebuiltAs}: how the rebuilt disk is opened) runs what this agent writes for such a disk; when that
     * differs, the record gains a failed {@link #MIGRATED_CHECK} of the mode it ran, saying that the next start applies
     * the decision again (the start hook decides every disk anew). Refused and not-applicable records only move.
     *
     * @param host      the destination as the sentence names it, e.g. {@code host kvm2 (uuid)}
     * @param rebuiltAs null: the disk kept its XML
     * @throws IllegalStateException for an agent that re-decides every disk for the destination (its platform records
     *                               the destination's decision instead)
     */
    public DecisionRecord afterMigration(DecisionRecord before, String destHostUuid, String host, DiskKind rebuiltAs) {
        if (migrationRedecides) {
            throw new IllegalStateException(name + " re-decides every disk for the destination of a migration");
        }
        DecisionRecord moved = before.movedTo(destHostUuid, Operation.MIGRATE);
        IoMode ran = IoMode.fromWireOrNull(before.getEffective());
        IoMode gets = rebuiltAs == null ? null : rebuiltAtMigration.get(rebuiltAs);
        if (before.isRefused() || ran == null || gets == null || gets == ran) return moved;
        return moved.running(gets.wire(), MIGRATED_CHECK, "the live migration to " + host + " rebuilt the disk's domain XML,"
                + " where " + name + " writes a " + rebuiltAs.name().toLowerCase(Locale.ROOT) + " disk "
                + (gets == IoMode.THREADS ? "without an io attribute" : "with io=" + gets.wire()) + ", so the disk runs "
                + gets.wire() + " until the VM's next start, which applies the decision again");
    }

    private static Map<DiskKind, IoMode> defaults(IoMode file, IoMode block) {
        Map<DiskKind, IoMode> m = new EnumMap<DiskKind, IoMode>(DiskKind.class);
        m.put(DiskKind.FILE, file);
        m.put(DiskKind.BLOCK, block);
        return Collections.unmodifiableMap(m);
    }

    /** A hot-plug as applied: the decision to record, the mode to set explicitly (null: none), or a refusal. */
    public static final class HotPlug {
        private final IoModeDecision recorded;
        private final IoMode set;
        private final String refusal;

        HotPlug(IoModeDecision recorded, IoMode set, String refusal) {
            this.recorded = recorded;
            this.set = set;
            this.refusal = refusal;
        }

        /** The decision as the disk gets it: what to store. */
        public IoModeDecision recorded() { return recorded; }

        /** The mode the agent is told to set; null: it is told nothing and the disk gets the agent's default. */
        public IoMode set() { return set; }

        /** Why the attach must be refused before anything reaches the host; null when it goes ahead. */
        public String refusal() { return refusal; }
    }
}
