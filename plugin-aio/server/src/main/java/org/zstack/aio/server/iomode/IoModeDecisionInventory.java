package org.zstack.aio.server.iomode;

import org.zstack.aio.decision.Check;
import org.zstack.aio.decision.IoModeDecision;

import org.zstack.aio.server.workload.WorkloadInventory;

import java.util.List;

/**
 * A decision as the API shows it (GET /v1/volumes/{uuid}/io-mode, previews): the decision's names as text.
 *
 * @param effective    threads, native, io_uring or not-applicable; null when refused
 * @param optimizedFor the disk's observed workload auto weighed the benchmark by; null when it did not
 */
public record IoModeDecisionInventory(String volumeUuid, String hostUuid, String requested, String source, String effective,
                                      boolean refused, List<IoModeCheckInventory> checks, String reason,
                                      WorkloadInventory optimizedFor) {

    public static IoModeDecisionInventory of(IoModeDecision d) {
        return new IoModeDecisionInventory(d.volumeUuid(), d.hostUuid(), d.requested().wire(), d.source().wire(),
                d.effectiveWire(), d.refused(), IoModeCheckInventory.of(d.checks()), d.reason(),
                d.optimizedFor() == null ? null : WorkloadInventory.of(d.optimizedFor()));
    }

    /** One evaluated check as the API shows and stores it. */
    public record IoModeCheckInventory(String mode, String check, boolean passed, String message) {

        static List<IoModeCheckInventory> of(List<Check> checks) {
            return checks.stream().map(c -> new IoModeCheckInventory(c.mode(), c.check(), c.passed(), c.message())).toList();
        }
    }
}
