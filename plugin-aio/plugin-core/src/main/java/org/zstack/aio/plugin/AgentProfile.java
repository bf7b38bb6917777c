package org.zstack.aio.plugin;

import org.zstack.aio.decision.IoMode;
import org.zstack.aio.decision.IoModeDecision;
import org.zstack.aio.decision.OnUnsatisfied;

/**
 * What one kind of agent can apply to a disk: the modes it sets when a volume is hot-plugged and what a disk gets when
 * it cannot, whether a live migration can take a disk to a host, and (for an agent that carries the source's disks)
 * what a disk runs after a migration. One type per kind of agent: {@link StandaloneAgent} (plugin-aio's own, which
 * re-decides every disk for a migration's destination), and ZStack's kvmagent ({@link ZStackAgent}), unmodified or
 * with plugin-aio's hot-plug patch. The use case ({@link DiskIoModes}) asks the host's agent, so the stored
 * {@code effective} is always what the disk gets, on both platforms.
 */
public abstract class AgentProfile {

    /** plugin-aio's own agent. */
    public static final AgentProfile STANDALONE = new StandaloneAgent();
    /** ZStack's unmodified kvmagent. */
    public static final ZStackAgent ZSTACK_STOCK = new ZStackAgent.Stock();
    /** ZStack's kvmagent with plugin-aio's hot-plug patch. */
    public static final ZStackAgent ZSTACK_PATCHED = new ZStackAgent.Patched();

    /** The check a decision gains when the agent gives the disk another mode than the decided one. */
    public static final String APPLIED_CHECK = "applied-by-agent";
    /** The check a decision gains when the start-time hook cannot reach the disk to set its mode. */
    public static final String REACHED_CHECK = "reached-at-start";
    /** The check a decision gains when a migration rebuilt the disk without the mode it ran. */
    public static final String MIGRATED_CHECK = "kept-at-migration";

    private final String name;

    AgentProfile(String name) {
        this.name = name;
    }

    /**
     * The agent of a ZStack host from what its host probe says ({@code kvmagent_patch=}): the patched one when the probe
     * found the patch's marker, else the unmodified one (also when unknown: the record then says what the unmodified
     * agent would give, never more than it can).
     */
    public static ZStackAgent zstack(Boolean kvmagentPatch) {
        return Boolean.TRUE.equals(kvmagentPatch) ? ZSTACK_PATCHED : ZSTACK_STOCK;
    }

    /** How records and sentences name this agent, e.g. "ZStack's agent". */
    public String name() { return name; }

    /** Whether the agent can set {@code mode} on a disk it hot-plugs. */
    public abstract boolean canSetAtHotPlug(IoMode mode);

    /**
     * What a hot-plugged disk gets: the decision as applied, or a refusal when the decided mode cannot be applied and
     * {@code onUnsatisfied} is {@code fail}. Refused and not-applicable decisions are returned as they are (the caller
     * refuses the former; the latter take no io attribute).
     */
    public HotPlug atHotPlug(IoModeDecision d, DiskKind kind, OnUnsatisfied onUnsatisfied) {
        IoMode decided = d.effectiveMode();
        if (d.refused() || decided == null || kind == DiskKind.NETWORK || canSetAtHotPlug(decided)) {
            return new HotPlug(d, decided != null && canSetAtHotPlug(decided) ? decided : null, null);
        }
        return cannotSetAtHotPlug(d, decided, kind, onUnsatisfied);
    }

    /** A decided mode this agent cannot set at hot-plug: what the disk gets instead, or the refusal. */
    HotPlug cannotSetAtHotPlug(IoModeDecision d, IoMode decided, DiskKind kind, OnUnsatisfied onUnsatisfied) {
        throw new IllegalStateException(name + " sets every mode at hot-plug");
    }

    /**
     * A disk that what applies the decision at start cannot reach: it keeps the driver the agent writes, with no io
     * attribute, which is QEMU's threads. The record says so and why. Refused and not-applicable decisions are
     * returned as they are.
     *
     * @param why what keeps the disk out of reach, e.g. {@code "ZStack's agent writes no <serial> for a vhost-user disk"}
     */
    public IoModeDecision unreachableAtStart(IoModeDecision d, String why) {
        if (d.refused() || d.effectiveMode() == null) return d;
        return d.withApplied(IoMode.THREADS, REACHED_CHECK, why + ", so the start hook that sets io= cannot find it and"
                + " the disk keeps the driver " + name + " writes, without an io attribute");
    }

    /** Why {@code disk} cannot go to the destination of a live migration, or null when it can. */
    abstract String migrationBlocker(MigratingDisk disk);

    @Override
    public String toString() { return name; }

    /** A hot-plug as applied: the decision to record, the mode to set explicitly (null: none), or a refusal. */
    public static final class HotPlug {
        private final IoModeDecision recorded;
        private final IoMode set;
        private final IoModeRefusal refusal;

        HotPlug(IoModeDecision recorded, IoMode set, IoModeRefusal refusal) {
            this.recorded = recorded;
            this.set = set;
            this.refusal = refusal;
        }

        /** The decision as the disk gets it: what to store. */
        public IoModeDecision recorded() { return recorded; }

        /** The mode the agent is told to set; null: it is told nothing and the disk gets the agent's default. */
        public IoMode set() { return set; }

        /** Why the attach must be refused before anything reaches the host; null when it goes ahead. */
        public IoModeRefusal refusal() { return refusal; }
    }
}
