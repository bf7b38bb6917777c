package org.zstack.aio.plugin;

import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The records of operations the host has done that a platform could not store (its database failed): the operation
 * stands, and the record waits here, one per volume, until a later store of that volume succeeds, the next read-back's
 * included ({@link #over}: a read-back compares the disk with the decision it runs, stored or not, and its store writes
 * the whole record, {@link #split}). Kept in memory by the node that ran the operation. Thread-safe.
 */
public final class UnstoredRecords {

    private final Map<String, DecisionRecord> byVolume = new ConcurrentHashMap<String, DecisionRecord>();

    /** These records could not be stored: kept, each in place of any older one of its volume. */
    public void keep(Collection<DecisionRecord> records) {
        for (DecisionRecord r : records) byVolume.put(r.getVolumeUuid(), r);
    }

    /** These records were stored: their volumes wait no more (a later record stored replaces an unstored one). */
    public void stored(Collection<DecisionRecord> records) {
        for (DecisionRecord r : records) byVolume.remove(r.getVolumeUuid());
    }

    /** The record of {@code volumeUuid} waiting to be stored, or null. */
    public DecisionRecord of(String volumeUuid) {
        return byVolume.get(volumeUuid);
    }

    public int size() {
        return byVolume.size();
    }

    /**
     * {@code records} as a read-back stores them: {@code [0]} the records of volumes waiting here (written whole, and
     * created where the row is missing), {@code [1]} the others (only what the read-back found, on the stored row).
     */
    public List<List<DecisionRecord>> split(List<DecisionRecord> records) {
        List<DecisionRecord> whole = new ArrayList<DecisionRecord>();
        List<DecisionRecord> found = new ArrayList<DecisionRecord>();
        for (DecisionRecord r : records) (byVolume.containsKey(r.getVolumeUuid()) ? whole : found).add(r);
        List<List<DecisionRecord>> out = new ArrayList<List<DecisionRecord>>(2);
        out.add(whole);
        out.add(found);
        return out;
    }

    /** {@code ports} whose stored records are these where one waits here (it is newer than the stored row). */
    public IoModePorts over(final IoModePorts ports) {
        return new IoModePorts() {
            @Override
            public Map<String, VolumeIoFacts> volumes(List<String> volumeUuids) { return ports.volumes(volumeUuids); }

            @Override
            public ConfigValues configs(Collection<VolumeIoFacts> volumes) { return ports.configs(volumes); }

            @Override
            public HostIoFacts host(String hostUuid) { return ports.host(hostUuid); }

            @Override
            public AgentProfile agent(HostIoFacts host) { return ports.agent(host); }

            @Override
            public Figures figures(String hostUuid, Collection<VolumeIoFacts> volumes) { return ports.figures(hostUuid, volumes); }

            @Override
            public Map<String, DecisionRecord> stored(Collection<String> volumeUuids) {
                Map<String, DecisionRecord> out = new HashMap<String, DecisionRecord>(ports.stored(volumeUuids));
                for (String v : volumeUuids) {
                    DecisionRecord r = byVolume.get(v);
                    if (r != null) out.put(v, r);
                }
                return out;
            }
        };
    }
}
