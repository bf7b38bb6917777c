package org.zstack.aio.plugin;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

/**
 * The use case's answer for one operation: each disk's decision as the host's agent applies it, the one refusal that
 * stops the operation (null: it goes ahead), and the records to store once the host has done it.
 */
public final class DiskPlan {

    private final DiskRequest request;
    private final List<PlannedDisk> disks;
    private final IoModeRefusal refusal;

    DiskPlan(DiskRequest request, List<PlannedDisk> disks, IoModeRefusal refusal) {
        this.request = request;
        this.disks = Collections.unmodifiableList(new ArrayList<PlannedDisk>(disks));
        this.refusal = refusal;
    }

    public DiskRequest request() { return request; }

    /** The disks in the order asked; a volume that no longer exists is left out. */
    public List<PlannedDisk> disks() { return disks; }

    /** The disk of {@code volumeUuid}, or null. */
    public PlannedDisk disk(String volumeUuid) {
        for (PlannedDisk d : disks) if (d.volumeUuid().equals(volumeUuid)) return d;
        return null;
    }

    /** Why the operation must not reach the host (the first disk that stops it); null when it goes ahead. */
    public IoModeRefusal refusal() { return refusal; }

    public boolean refused() { return refusal != null; }

    /** Every disk's record, in order (a refused decision's too: a platform that stores refusals stores these). */
    public List<DecisionRecord> records() {
        List<DecisionRecord> out = new ArrayList<DecisionRecord>(disks.size());
        for (PlannedDisk d : disks) out.add(d.record());
        return out;
    }

    /** The records of the disks whose decision was refused by policy (onUnsatisfied = fail). */
    public List<DecisionRecord> refusedRecords() {
        List<DecisionRecord> out = new ArrayList<DecisionRecord>();
        for (PlannedDisk d : disks) if (d.decision().refused()) out.add(d.record());
        return out;
    }
}
