package org.zstack.aio.plugin;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

/**
 * What a read-back found on one host ({@link DiskIoModes#readBack}): each read disk's record with what it runs (to
 * store), each disagreement with its decision in the core's words (for the platform's log, API and event), the
 * remembered refusals a disk running the mode clears, and each VM that could not be read and why.
 */
public final class ReadBackResult {

    private final List<DecisionRecord> records;
    private final List<Disagreement> disagreements;
    private final List<RefusedIoMode> cleared;
    private final List<String> clearedSentences;
    private final List<String> unread;

    ReadBackResult(List<DecisionRecord> records, List<Disagreement> disagreements, List<RefusedIoMode> cleared,
                   List<String> clearedSentences, List<String> unread) {
        this.records = Collections.unmodifiableList(new ArrayList<DecisionRecord>(records));
        this.disagreements = Collections.unmodifiableList(new ArrayList<Disagreement>(disagreements));
        this.cleared = Collections.unmodifiableList(new ArrayList<RefusedIoMode>(cleared));
        this.clearedSentences = Collections.unmodifiableList(new ArrayList<String>(clearedSentences));
        this.unread = Collections.unmodifiableList(new ArrayList<String>(unread));
    }

    /** The stored records of the disks read, each with what it runs, when, and its disagreement (null: none). */
    public List<DecisionRecord> records() { return records; }

    /** The disks that do not run what their decision says, in the order read. */
    public List<Disagreement> disagreements() { return disagreements; }

    /** Remembered refusals a disk running the mode on the same host × storage clears (readBack in their clearedBy). */
    public List<RefusedIoMode> cleared() { return cleared; }

    /** One sentence per cleared refusal, in the same order. */
    public List<String> clearedSentences() { return clearedSentences; }

    /** One sentence per VM that could not be read, saying why (its records are left as they were). */
    public List<String> unread() { return unread; }

    /** A disk that does not run what its decision says. */
    public static final class Disagreement {
        private final String vmUuid;
        private final String volumeUuid;
        private final String hostUuid;
        private final String decided;
        private final String runs;
        private final String sentence;

        Disagreement(String vmUuid, String volumeUuid, String hostUuid, String decided, String runs, String sentence) {
            this.vmUuid = vmUuid;
            this.volumeUuid = volumeUuid;
            this.hostUuid = hostUuid;
            this.decided = decided;
            this.runs = runs;
            this.sentence = sentence;
        }

        public String vmUuid() { return vmUuid; }

        public String volumeUuid() { return volumeUuid; }

        public String hostUuid() { return hostUuid; }

        /** the decision's effective mode */
        public String decided() { return decided; }

        /** what the disk runs; null when its disk was not found in the running domain */
        public String runs() { return runs; }

        /** the one sentence, the core's */
        public String sentence() { return sentence; }

        @Override
        public String toString() { return sentence; }
    }
}
