package org.zstack.aio.plugin;

import java.util.Collection;
import java.util.List;
import java.util.Map;

/**
 * What the use case ({@link DiskIoModes}) asks a platform, for one operation. A platform implements it over its own
 * store, usually one object per operation so that it can read in batches (each method is asked at most once per host
 * and operation, with every volume at once).
 */
public interface IoModePorts {

    /** The facts of these volumes, by uuid; a volume that no longer exists is absent (and not decided). */
    Map<String, VolumeIoFacts> volumes(List<String> volumeUuids);

    /** Every io-mode config value that can apply to these volumes. */
    ConfigValues configs(Collection<VolumeIoFacts> volumes);

    /** The host's facts; a host never probed is answered with every fact unknown ({@link HostIoFacts#unknown}). */
    HostIoFacts host(String hostUuid);

    /** What applies the decisions on the host, given its facts (ZStack: whether its kvmagent carries the patch). */
    AgentProfile agent(HostIoFacts host);

    /** The host's benchmarks and the volumes' workloads; {@link Figures#NONE} when the platform measures none. */
    Figures figures(String hostUuid, Collection<VolumeIoFacts> volumes);

    /**
     * The stored records of these volumes, by uuid. Asked only where what a disk runs now matters (a migration by an
     * agent that carries the source's disks).
     */
    Map<String, DecisionRecord> stored(Collection<String> volumeUuids);
}
