package org.zstack.sdk;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;

import java.util.List;

/** A decision the server recorded when a volume was started or attached: the decision plus what libvirt/QEMU applied. */
@JsonIgnoreProperties(ignoreUnknown = true)
public class VolumeIoModeDecisionInventory extends IoModeDecisionInventory {

    public String vmInstanceUuid;

    /** The io attribute the running domain has; null when none was set. */
    public String appliedIo;

    public String appliedCache;

    /** The io modes tried before {@link #appliedIo} and refused. */
    public List<IoAttemptInventory> attempts;

    public String decidedAt;
}
