package org.zstack.aio.plugin;

import org.zstack.aio.decision.Check;
import org.zstack.aio.decision.CheckResult;
import org.zstack.aio.decision.IoMode;
import org.zstack.aio.decision.IoModeDecision;
import org.zstack.aio.decision.OnUnsatisfied;

import java.util.Collections;
import java.util.EnumMap;
import java.util.EnumSet;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * ZStack's kvmagent (zstack-utility 5.2.1). At start the module's hook sets every disk it reaches. It live-migrates
 * with the source's domain XML (migrateToURI2), so each disk keeps the mode it runs; a disk the migration command moves
 * to new storage ({@code MigrateVmCmd.disks}) is written anew by {@code VmPlugin._get_new_disk}: a file disk without an
 * io attribute, a block disk with io=native. At hot-plug the unmodified agent ({@link Stock}) has only the NativeAio
 * addon; the patched one ({@link Patched}) sets the decided mode.
 */
public abstract class ZStackAgent extends AgentProfile {

    /** What the agent writes for a disk whose XML it builds without being told a mode (vm_plugin.py). */
    private static final Map<DiskKind, IoMode> AGENT_DEFAULTS;

    static {
        Map<DiskKind, IoMode> m = new EnumMap<DiskKind, IoMode>(DiskKind.class);
        m.put(DiskKind.FILE, IoMode.THREADS);
        m.put(DiskKind.BLOCK, IoMode.NATIVE);
        AGENT_DEFAULTS = Collections.unmodifiableMap(m);
    }

    ZStackAgent(String name) {
        super(name);
    }

    /**
     * A disk keeps the mode it runs, so a host that cannot run that mode (its host-level checks) cannot take it; threads
     * and network disks go anywhere.
     */
    @Override
    String migrationBlocker(MigratingDisk disk) {
        IoMode runsNow = disk.runsNow();
        if (runsNow == null || runsNow == IoMode.THREADS) return null;
        CheckResult r = disk.destinationCanRun(runsNow);
        if (r.passed()) return null;
        Check failed = r.firstFailure();
        return "volume " + disk.volumeName() + " runs " + runsNow.wire() + " and " + name() + " migrates a disk as it runs, but "
               + disk.hostName() + " cannot run " + runsNow.wire() + ": check " + failed.check() + " failed: " + failed.message();
    }

    /**
     * The stored decision of a disk after a live migration to {@code destHostUuid} (operation {@code migrate}, not
     * stored yet). A disk the migration carried with the source's XML runs what it ran. A disk whose XML it rebuilt
     * ({@code rebuiltAs}: how the rebuilt disk is opened) runs what this agent writes for such a disk; when that
     * differs, the record gains a failed {@link #MIGRATED_CHECK} of the mode it ran, saying that the next start applies
     * the decision again. Refused and not-applicable records only move.
     *
     * @param host      the destination as the sentence names it, e.g. {@code host kvm2 (uuid)}
     * @param rebuiltAs null: the disk kept its XML
     */
    public DecisionRecord afterMigration(DecisionRecord before, String destHostUuid, String host, DiskKind rebuiltAs) {
        DecisionRecord moved = before.movedTo(destHostUuid, Operation.MIGRATE);
        IoMode ran = IoMode.fromWireOrNull(before.getEffective());
        IoMode gets = rebuiltAs == null ? null : AGENT_DEFAULTS.get(rebuiltAs);
        if (before.isRefused() || ran == null || gets == null || gets == ran) return moved;
        return moved.running(gets.wire(), MIGRATED_CHECK, "the live migration to " + host + " rebuilt the disk's domain XML,"
                + " where " + name() + " writes a " + rebuiltAs.name().toLowerCase(Locale.ROOT) + " disk "
                + (gets == IoMode.THREADS ? "without an io attribute" : "with io=" + gets.wire()) + ", so the disk runs "
                + gets.wire() + " until the VM's next start, which applies the decision again");
    }

    /** The unmodified agent: at hot-plug only the NativeAio addon (io=native); otherwise its own default. */
    static final class Stock extends ZStackAgent {
        private static final Set<IoMode> SETTABLE = Collections.unmodifiableSet(EnumSet.of(IoMode.NATIVE));
        private static final String LIMIT = "at hot-plug ZStack's agent can only add io=native (the NativeAio addon); the"
                                            + " plugin-aio kvmagent patch lets it set the decided mode";

        Stock() {
            super("ZStack's agent");
        }

        @Override
        public boolean canSetAtHotPlug(IoMode mode) {
            return SETTABLE.contains(mode);
        }

        /** A file disk gets no io attribute (QEMU's threads), a block disk the agent's hard-coded io=native. */
        @Override
        HotPlug cannotSetAtHotPlug(IoModeDecision d, IoMode decided, DiskKind kind, OnUnsatisfied onUnsatisfied) {
            IoMode gets = AGENT_DEFAULTS.get(kind);
            if (onUnsatisfied == OnUnsatisfied.FAIL) {
                return new HotPlug(d, null, new IoModeRefusal(d.volumeUuid(), "volume " + d.volumeUuid() + " was decided "
                        + decided.wire() + ", but " + LIMIT + ", so it would run " + gets.wire()
                        + " (vm.ioMode.onUnsatisfied is fail).", "Stop the VM and attach the volume then, apply the kvmagent"
                        + " patch, or choose " + gets.wire() + " for this volume."));
            }
            return new HotPlug(d.withApplied(gets, APPLIED_CHECK, LIMIT), null, null);
        }
    }

    /** With plugin-aio's hot-plug patch (kvmagent/aio-hotplug-io-mode.patch): the decided mode at hot-plug. */
    static final class Patched extends ZStackAgent {
        Patched() {
            super("ZStack's agent with the plugin-aio patch");
        }

        @Override
        public boolean canSetAtHotPlug(IoMode mode) {
            return true;
        }
    }
}
