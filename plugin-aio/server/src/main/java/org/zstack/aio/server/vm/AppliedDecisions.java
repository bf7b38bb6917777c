package org.zstack.aio.server.vm;

import org.zstack.aio.agent.api.DiskResult;
import org.zstack.aio.decision.Check;
import org.zstack.aio.decision.IoModeDecision;
import org.zstack.aio.server.iomode.IoModeService.Decided;

import java.util.ArrayList;
import java.util.List;

/** Folds what libvirt/QEMU accepted into the decision, so a refusal at start is recorded with its error. */
final class AppliedDecisions {

    private AppliedDecisions() {
    }

    static Decided apply(Decided d, DiskResult r) {
        IoModeDecision dec = d.decision();
        if (r == null || r.attempts().isEmpty()) return d;
        List<Check> checks = new ArrayList<>(dec.checks());
        StringBuilder refusedBy = new StringBuilder();
        for (DiskResult.Attempt a : r.attempts()) {
            checks.add(new Check(a.io(), "accepted-at-start", false,
                    "libvirt/QEMU refused io=" + a.io() + " at start: " + a.error()));
            if (refusedBy.length() > 0) refusedBy.append("; ");
            refusedBy.append(a.io()).append(" (").append(a.error()).append(')');
        }
        String applied = r.io() == null ? "threads" : r.io();
        IoModeDecision updated = new IoModeDecision(dec.volumeUuid(), dec.hostUuid(), dec.requested(), dec.source(), applied,
                false, checks, dec.reason() + " At start libvirt/QEMU refused " + refusedBy + ", so " + applied
                                  + " was applied.");
        return new Decided(d.volume(), d.cacheMode(), d.input(), updated);
    }
}
