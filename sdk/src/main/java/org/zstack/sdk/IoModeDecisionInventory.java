package org.zstack.sdk;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import org.zstack.aio.decision.IoMode;

import java.util.List;

/** The io-mode decision for one volume on one host (docs/contract.md, "The decision"). */
@JsonIgnoreProperties(ignoreUnknown = true)
public class IoModeDecisionInventory {
    public String volumeUuid;

    public String hostUuid;

    /** The resolved kvm/vm.ioMode: threads, native, io_uring or auto. */
    public String requested;

    /** Where it came from: VolumeVO, PrimaryStorageVO, global or StorageKindDefault (the rules' default for its storage kind). */
    public String source;

    /** threads, native, io_uring or not-applicable; null when refused. */
    public String effective;

    /** True when the requested mode's checks failed and onUnsatisfied=fail: the VM must not start. */
    public Boolean refused;

    /** Every check evaluated, in order. */
    public List<IoModeCheckInventory> checks;

    /** One sentence. */
    public String reason;

    /** The observed workload auto weighed the host's benchmark by; null when it used none. */
    public VolumeWorkloadInventory optimizedFor;

    /** {@link #effective} as a mode; null when refused or not applicable (network storage). */
    public IoMode effectiveMode() {
        return effective == null ? null : IoMode.fromWireOrNull(effective);
    }
}
