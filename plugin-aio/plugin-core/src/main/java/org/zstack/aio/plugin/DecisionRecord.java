package org.zstack.aio.plugin;

import org.zstack.aio.decision.Check;
import org.zstack.aio.decision.IoModeDecision;
import org.zstack.aio.decision.WorkloadProfile;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;

/**
 * The decision applied to one volume, as both platforms store it and both APIs return it (the standalone server's
 * {@code ioModeDecision(s)}, ZStack's {@code GetVolumeIoModeDecision}/{@code QueryVolumeIoModeDecision}; SDK class
 * {@code org.zstack.sdk.VolumeIoModeDecisionInventory}, one source for both SDKs). JavaBean getters, so Jackson and
 * ZStack's Gson write the same names. {@code appliedIo}, {@code appliedCache} and {@code attempts} are what the host
 * reported it applied; a platform whose agent reports nothing leaves them null and the record says so.
 * {@code runningIo}, {@code readBackAt} and {@code disagreement} are the last read-back ({@link DiskIoModes#readBack}):
 * what the disk really runs, read from libvirt's live domain XML and QEMU's log, when, and the one sentence saying how
 * that differs from {@code effective} (null when it agrees); null on a platform that never reads back.
 * {@code workload} is the volume's observed workload as last sampled, shown with the decision but not one of its
 * columns (the platform's sampling keeps it: {@link #withWorkload}); null when never sampled or not shown.
 */
public final class DecisionRecord {

    /** The columns every platform stores (its table may add its own bookkeeping, e.g. a digest or lastOpDate). */
    public static final List<String> STORED_COLUMNS = Collections.unmodifiableList(Arrays.asList(
            "volumeUuid", "vmInstanceUuid", "hostUuid", "operation", "requested", "source", "effective", "refused",
            "checks", "reason", "appliedIo", "appliedCache", "attempts", "optimizedFor", "runningIo", "readBackAt",
            "disagreement", "createDate"));

    private final String volumeUuid;
    private final String vmInstanceUuid;
    private final String hostUuid;
    private final String operation;
    private final String requested;
    private final String source;
    private final String effective;
    private final boolean refused;
    private final List<CheckRecord> checks;
    private final String reason;
    private final String appliedIo;
    private final String appliedCache;
    private final List<AttemptRecord> attempts;
    private final WorkloadRecord optimizedFor;
    private final String runningIo;
    private final String readBackAt;
    private final String disagreement;
    /** ISO-8601 UTC ({@code 2026-11-26T04:31:11.123Z}): since when the stored decision has been this one */
    private final String decidedAt;
    /** shown, never stored with the decision: set only by {@link #withWorkload} on a copy */
    private WorkloadRecord workload;

    public DecisionRecord(String volumeUuid, String vmInstanceUuid, String hostUuid, String operation, String requested,
                          String source, String effective, boolean refused, List<CheckRecord> checks, String reason,
                          String appliedIo, String appliedCache, List<AttemptRecord> attempts, WorkloadRecord optimizedFor,
                          String decidedAt) {
        this(volumeUuid, vmInstanceUuid, hostUuid, operation, requested, source, effective, refused, checks, reason, appliedIo,
                appliedCache, attempts, optimizedFor, null, null, null, decidedAt);
    }

    /**
     * @param runningIo    what the disk runs as last read back (threads, native, io_uring, not-applicable); null: never
     *                     read back, or its disk was not found
     * @param readBackAt   when it was read, ISO-8601 UTC; null: never
     * @param disagreement the sentence saying how what it runs differs from the decision; null when it agrees
     */
    public DecisionRecord(String volumeUuid, String vmInstanceUuid, String hostUuid, String operation, String requested,
                          String source, String effective, boolean refused, List<CheckRecord> checks, String reason,
                          String appliedIo, String appliedCache, List<AttemptRecord> attempts, WorkloadRecord optimizedFor,
                          String runningIo, String readBackAt, String disagreement, String decidedAt) {
        this.runningIo = runningIo;
        this.readBackAt = readBackAt;
        this.disagreement = disagreement;
        this.volumeUuid = volumeUuid;
        this.vmInstanceUuid = vmInstanceUuid;
        this.hostUuid = hostUuid;
        this.operation = operation;
        this.requested = requested;
        this.source = source;
        this.effective = effective;
        this.refused = refused;
        this.checks = checks == null ? Collections.<CheckRecord>emptyList()
                : Collections.unmodifiableList(new ArrayList<CheckRecord>(checks));
        this.reason = reason;
        this.appliedIo = appliedIo;
        this.appliedCache = appliedCache;
        this.attempts = attempts == null ? null : Collections.unmodifiableList(new ArrayList<AttemptRecord>(attempts));
        this.optimizedFor = optimizedFor;
        this.decidedAt = decidedAt;
    }

    /**
     * The record of {@code d} applied by {@code operation}; {@code applied} is what the host reported (null: it
     * reports nothing), {@code decidedAt} when it was stored (null: not yet).
     */
    public static DecisionRecord of(IoModeDecision d, String vmInstanceUuid, Operation operation, Applied applied,
                                    String decidedAt) {
        return new DecisionRecord(d.volumeUuid(), vmInstanceUuid, d.hostUuid(), operation.wire(), d.requested().wire(),
                d.source().wire(), d.effectiveWire(), d.refused(), CheckRecord.of(d.checks()), d.reason(),
                applied == null ? null : applied.io, applied == null ? null : applied.cache,
                applied == null ? null : applied.attempts,
                d.optimizedFor() == null ? null : WorkloadRecord.of(d.optimizedFor()), decidedAt);
    }

    public String getVolumeUuid() { return volumeUuid; }
    public String getVmInstanceUuid() { return vmInstanceUuid; }
    public String getHostUuid() { return hostUuid; }
    /** start, attach or migrate */
    public String getOperation() { return operation; }
    /** threads, native, io_uring or auto */
    public String getRequested() { return requested; }
    /** VolumeVO, PrimaryStorageVO, global or StorageKindDefault (the rules' default for the storage kind) */
    public String getSource() { return source; }
    /** threads, native, io_uring or not-applicable: what the disk got; null when refused */
    public String getEffective() { return effective; }
    public boolean isRefused() { return refused; }
    public List<CheckRecord> getChecks() { return checks; }
    public String getReason() { return reason; }
    public String getAppliedIo() { return appliedIo; }
    public String getAppliedCache() { return appliedCache; }
    public List<AttemptRecord> getAttempts() { return attempts; }
    public WorkloadRecord getOptimizedFor() { return optimizedFor; }
    /** what the disk runs as last read back; null: never read back (or its disk was not found) */
    public String getRunningIo() { return runningIo; }
    /** when the disk was last read back, ISO-8601 UTC; null: never */
    public String getReadBackAt() { return readBackAt; }
    /** how what the disk runs differs from the decision, one sentence; null when it agrees or was never read back */
    public String getDisagreement() { return disagreement; }
    public String getDecidedAt() { return decidedAt; }
    /** the volume's observed workload as last sampled (not what the decision weighed: {@link #getOptimizedFor}); null: none shown */
    public WorkloadRecord getWorkload() { return workload; }

    /** The same record showing the volume's observed workload as last sampled (null: never sampled). */
    public DecisionRecord withWorkload(WorkloadProfile sampled) {
        DecisionRecord r = new DecisionRecord(volumeUuid, vmInstanceUuid, hostUuid, operation, requested, source, effective,
                refused, checks, reason, appliedIo, appliedCache, attempts, optimizedFor, runningIo, readBackAt, disagreement,
                decidedAt);
        r.workload = sampled == null ? null : WorkloadRecord.of(sampled);
        return r;
    }

    /**
     * The same decision as last read back: the live domain's {@code io}/{@code cache} ({@code appliedIo},
     * {@code appliedCache}), what the disk runs, when it was read and the disagreement (null: none). The decision and
     * its date stay: a read-back decides nothing.
     */
    public DecisionRecord readBack(String liveIo, String liveCache, String runs, String at, String disagreementSentence) {
        return new DecisionRecord(volumeUuid, vmInstanceUuid, hostUuid, operation, requested, source, effective, refused, checks,
                reason, liveIo, liveCache, attempts, optimizedFor, runs, at, disagreementSentence, decidedAt);
    }

    /** The same record stored at {@code at}. */
    public DecisionRecord decidedAt(String at) {
        return new DecisionRecord(volumeUuid, vmInstanceUuid, hostUuid, operation, requested, source, effective, refused,
                checks, reason, appliedIo, appliedCache, attempts, optimizedFor, runningIo, readBackAt, disagreement, at);
    }

    /**
     * The same decision after {@code operation} moved the disk to {@code hostUuid}, not stored yet (no date): the disk
     * still runs what the record says.
     */
    public DecisionRecord movedTo(String hostUuid, Operation operation) {
        return new DecisionRecord(volumeUuid, vmInstanceUuid, hostUuid, operation.wire(), requested, source, effective,
                refused, checks, reason, appliedIo, appliedCache, attempts, optimizedFor, null);
    }

    /**
     * The same decision with the disk running {@code runs} instead of its {@code effective}: a failed check {@code check}
     * of the mode it ran, whose sentence {@code why} also ends the reason (as the decision core's withApplied does).
     */
    public DecisionRecord running(String runs, String check, String why) {
        List<CheckRecord> out = new ArrayList<CheckRecord>(checks);
        out.add(new CheckRecord(effective, check, false, why));
        String head = reason == null ? "" : reason.endsWith(".") ? reason.substring(0, reason.length() - 1) + "; " : reason + "; ";
        return new DecisionRecord(volumeUuid, vmInstanceUuid, hostUuid, operation, requested, source, runs, refused, out,
                head + why + ".", appliedIo, appliedCache, attempts, optimizedFor, null);
    }

    /** What the host reported it applied to the disk. */
    public static final class Applied {
        final String io;
        final String cache;
        final List<AttemptRecord> attempts;

        /** @param io the io attribute the running disk has, null when none; @param attempts modes refused before it */
        public Applied(String io, String cache, List<AttemptRecord> attempts) {
            this.io = io;
            this.cache = cache;
            this.attempts = attempts;
        }
    }

    /** One evaluated check: the mode it belongs to, its name, whether it passed, its sentence. */
    public static final class CheckRecord {
        private final String mode;
        private final String check;
        private final boolean passed;
        private final String message;

        public CheckRecord(String mode, String check, boolean passed, String message) {
            this.mode = mode;
            this.check = check;
            this.passed = passed;
            this.message = message;
        }

        public static List<CheckRecord> of(List<Check> checks) {
            List<CheckRecord> out = new ArrayList<CheckRecord>(checks.size());
            for (Check c : checks) out.add(new CheckRecord(c.mode(), c.check(), c.passed(), c.message()));
            return out;
        }

        public String getMode() { return mode; }
        public String getCheck() { return check; }
        public boolean isPassed() { return passed; }
        public String getMessage() { return message; }
    }

    /** An io mode libvirt/QEMU refused for the disk before the one it runs, with its error. */
    public static final class AttemptRecord {
        private final String io;
        private final String error;

        public AttemptRecord(String io, String error) {
            this.io = io;
            this.error = error;
        }

        public String getIo() { return io; }
        public String getError() { return error; }
    }

    /** The observed workload an auto decision weighed the host's benchmark by. */
    public static final class WorkloadRecord {
        private final double readFraction;
        private final double avgReadBytes;
        private final double avgWriteBytes;
        private final double readIops;
        private final double writeIops;
        private final double avgQueueDepth;
        private final double sampledSeconds;
        private final String sampledAt;

        public WorkloadRecord(double readFraction, double avgReadBytes, double avgWriteBytes, double readIops,
                              double writeIops, double avgQueueDepth, double sampledSeconds, String sampledAt) {
            this.readFraction = readFraction;
            this.avgReadBytes = avgReadBytes;
            this.avgWriteBytes = avgWriteBytes;
            this.readIops = readIops;
            this.writeIops = writeIops;
            this.avgQueueDepth = avgQueueDepth;
            this.sampledSeconds = sampledSeconds;
            this.sampledAt = sampledAt;
        }

        public static WorkloadRecord of(WorkloadProfile p) {
            return new WorkloadRecord(p.readFraction(), p.avgReadBytes(), p.avgWriteBytes(), p.readIops(), p.writeIops(),
                    p.avgQueueDepth(), p.sampledSeconds(), p.sampledAt());
        }

        public double getReadFraction() { return readFraction; }
        public double getAvgReadBytes() { return avgReadBytes; }
        public double getAvgWriteBytes() { return avgWriteBytes; }
        public double getReadIops() { return readIops; }
        public double getWriteIops() { return writeIops; }
        public double getAvgQueueDepth() { return avgQueueDepth; }
        public double getSampledSeconds() { return sampledSeconds; }
        public String getSampledAt() { return sampledAt; }
    }
}
