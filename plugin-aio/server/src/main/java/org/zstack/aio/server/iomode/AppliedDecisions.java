package org.zstack.aio.server.iomode;

import org.zstack.aio.agent.api.DiskResult;
import org.zstack.aio.decision.IoMode;
import org.zstack.aio.decision.Refusal;

import java.util.List;

/** Hands what libvirt/QEMU accepted for a disk to its decision, so a refusal at start is recorded with its error. */
final class AppliedDecisions {

    private AppliedDecisions() {
    }

    static Decided apply(Decided d, DiskResult r) {
        if (r == null || r.attempts().isEmpty()) return d;
        List<Refusal> refusals = r.attempts().stream().map(a -> new Refusal(IoMode.fromWire(a.io()), a.error())).toList();
        return d.withDecision(d.decision().withRefusals(refusals, r.io() == null ? null : IoMode.fromWire(r.io())));
    }
}
