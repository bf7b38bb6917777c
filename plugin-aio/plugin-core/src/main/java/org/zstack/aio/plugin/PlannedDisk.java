package org.zstack.aio.plugin;

import org.zstack.aio.decision.IoMode;
import org.zstack.aio.decision.IoModeDecision;

import java.util.List;

/**
 * One disk of a {@link DiskPlan}: its facts, its decision as the host's agent applies it, what the agent is told, and
 * the record to store once the host has done the operation.
 */
public final class PlannedDisk {

    private final VolumeIoFacts volume;
    private final IoModeDecision decision;
    private final DiskKind kind;
    private final IoMode set;
    private final DecisionRecord record;

    PlannedDisk(VolumeIoFacts volume, IoModeDecision decision, DiskKind kind, IoMode set, DecisionRecord record) {
        this.volume = volume;
        this.decision = decision;
        this.kind = kind;
        this.set = set;
        this.record = record;
    }

    public VolumeIoFacts volume() { return volume; }

    public String volumeUuid() { return volume.volumeUuid(); }

    /** The decision as the disk gets it (what the agent cannot apply, or the hook cannot reach, already folded in). */
    public IoModeDecision decision() { return decision; }

    /** How the host opens the disk. */
    public DiskKind kind() { return kind; }

    /**
     * The mode the agent is told to set: the decided mode where the agent can set it; null where it is told nothing
     * (not applicable, refused, out of the start hook's reach, or left to the agent's default at a hot-plug).
     */
    public IoMode set() { return set; }

    /**
     * The modes an agent that steps down on a refusal at start tries, best first (the effective mode, then the later
     * modes of the preference order whose checks pass, threads always; only the effective mode with onUnsatisfied =
     * fail). Empty when no io attribute applies or refused.
     */
    public List<IoMode> candidates() { return decision.candidates(); }

    /** The decision as stored once the host has done the operation (no date yet; nothing the host reported). */
    public DecisionRecord record() { return record; }
}
