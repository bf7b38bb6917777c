package org.zstack.aio.agent.domain;

import java.util.List;

/** The patch names a disk (target or source path) that the domain XML does not have. */
public final class UnknownDiskException extends IllegalArgumentException {

    public UnknownDiskException(String key, List<String> knownTargets) {
        super("the domain has no disk with target or source '" + key + "' (its disks: " + knownTargets + ")");
    }
}
