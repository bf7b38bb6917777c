package org.zstack.aio.plugin;

import org.zstack.aio.decision.ModePerformance;
import org.zstack.aio.decision.WorkloadProfile;

/**
 * What was measured for the disks of one operation on one host: the host × storage benchmark for each volume's image
 * kind, and each volume's observed workload. {@code auto} weighs them; without them it keeps the preference order and
 * its reason says so.
 */
public interface Figures {

    /** Nothing measured. */
    Figures NONE = new Figures() {
        @Override
        public ModePerformance benchmark(VolumeIoFacts volume) { return null; }

        @Override
        public WorkloadProfile workload(String volumeUuid) { return null; }
    };

    /** The host's benchmark of this volume's storage for its image kind; null: never measured. */
    ModePerformance benchmark(VolumeIoFacts volume);

    /** The volume's observed workload; null: never observed. */
    WorkloadProfile workload(String volumeUuid);
}
