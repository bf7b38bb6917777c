package org.zstack.sdk;

import java.util.List;

/**
 * The io-mode decision applied to a volume at its last VM start, hot-plug or migration, as both platforms return it:
 * the standalone server ({@code ioModeDecision(s)}) and ZStack's module ({@code GetVolumeIoModeDecision}). One source
 * for both SDKs (sdk/src/shared), the fields of plugin-aio-core's DecisionRecord; plain Java 8, read by Jackson and by
 * ZStack's Gson alike.
 */
public class VolumeIoModeDecisionInventory {
    public String volumeUuid;

    public String vmInstanceUuid;

    public String hostUuid;

    /** start, attach or migrate */
    public String operation;

    /** The resolved kvm/vm.ioMode: threads, native, io_uring or auto. */
    public String requested;

    /** Where it came from: VolumeVO, PrimaryStorageVO, global or StorageKindDefault (the rules' default for its storage kind). */
    public String source;

    /** What the disk got: threads, native, io_uring or not-applicable; null when refused. */
    public String effective;

    /** True when the requested mode's checks failed and onUnsatisfied=fail. */
    public boolean refused;

    /** Every check evaluated, in order. */
    public List<IoModeCheckInventory> checks;

    /** One sentence. */
    public String reason;

    /** The io attribute the running disk has, as the host reported it; null when none was set or nothing was reported. */
    public String appliedIo;

    public String appliedCache;

    /** The io modes tried before {@link #appliedIo} and refused; null when the host reports none. */
    public List<IoAttemptInventory> attempts;

    /** The observed workload auto weighed the host's benchmark by; null when it used none. */
    public VolumeWorkloadInventory optimizedFor;

    /** What the disk runs as last read back (libvirt's live domain XML and QEMU's log); null: never read back. */
    public String runningIo;

    /** ISO-8601 UTC: when the disk was last read back; null: never. */
    public String readBackAt;

    /** How what the disk runs differs from the decision, one sentence; null when it agrees or was never read back. */
    public String disagreement;

    /** ISO-8601 UTC: since when the stored decision has been this one. */
    public String decidedAt;

    /**
     * The volume's observed workload as last sampled (not necessarily what {@link #optimizedFor} weighed at the
     * decision); null when never sampled, or on a platform that shows it elsewhere.
     */
    public VolumeWorkloadInventory workload;
}
