package org.zstack.aio.plugin;

import org.zstack.aio.decision.IoMode;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

/**
 * What the use case makes of a VM start the host failed ({@link DiskIoModes#startFailed}): whether libvirt or QEMU
 * refused a disk's io mode, which disks and modes, what to remember as refused on the host × storage, the mode each
 * disk's next start will use, and the one sentence the start fails with. {@link #NONE} when the failure holds none of
 * their words: it is not an io mode's, and nothing changes.
 */
public final class StartRefusal {

    /** The start failed for another reason than an io mode. */
    public static final StartRefusal NONE = new StartRefusal(Collections.<Disk>emptyList(),
            Collections.<RefusedIoMode>emptyList(), null);

    private final List<Disk> disks;
    private final List<RefusedIoMode> remember;
    private final IoModeRefusal refusal;

    StartRefusal(List<Disk> disks, List<RefusedIoMode> remember, IoModeRefusal refusal) {
        this.disks = Collections.unmodifiableList(new ArrayList<Disk>(disks));
        this.remember = Collections.unmodifiableList(new ArrayList<RefusedIoMode>(remember));
        this.refusal = refusal;
    }

    /** Whether libvirt or QEMU refused an io mode of this start. */
    public boolean recognised() { return !disks.isEmpty(); }

    /** Each disk whose mode was refused, in the start's order. */
    public List<Disk> disks() { return disks; }

    /**
     * The refusals to store as host × storage facts: none for a refusal of the volume's own settings, and none with
     * onUnsatisfied = fail (the start fails with the sentence, and nothing else changes).
     */
    public List<RefusedIoMode> remember() { return remember; }

    /** The one sentence the start fails with, naming the disk, the refused mode and what comes next; null for NONE. */
    public IoModeRefusal refusal() { return refusal; }

    /** One disk whose mode was refused. */
    public static final class Disk {
        private final String volumeUuid;
        private final IoMode refused;
        private final String by;
        private final String said;
        private final String refusalId;
        private final IoMode next;

        Disk(String volumeUuid, IoMode refused, String by, String said, String refusalId, IoMode next) {
            this.volumeUuid = volumeUuid;
            this.refused = refused;
            this.by = by;
            this.said = said;
            this.refusalId = refusalId;
            this.next = next;
        }

        public String volumeUuid() { return volumeUuid; }

        /** The mode libvirt or QEMU refused. */
        public IoMode refused() { return refused; }

        /** QEMU or libvirt. */
        public String by() { return by; }

        /** What they said (their words and the rest of the line). */
        public String said() { return said; }

        /** The id of their words in the rules' startRefusals. */
        public String refusalId() { return refusalId; }

        /**
         * The mode the disk's next start will use on this host; null when none is tried instead
         * (onUnsatisfied = fail, or a refusal of the volume's own settings, which its next decision judges again).
         */
        public IoMode next() { return next; }

        /** The record's attempt: the refused mode and what refused it. */
        public DecisionRecord.AttemptRecord attempt() {
            return new DecisionRecord.AttemptRecord(refused.wire(), by + ": " + said);
        }
    }
}
