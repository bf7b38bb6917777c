package org.zstack.sdk;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;

import java.util.List;

/**
 * A VM; {@code state} is Stopped, Starting, Running, Stopping, Migrating or Unknown (the server stopped waiting for its
 * agent; the tracker settles it from what libvirt says).
 */
@JsonIgnoreProperties(ignoreUnknown = true)
public class VmInstanceInventory {
    public String uuid;

    public String name;

    public String state;

    public String hostUuid;

    public List<String> volumeUuids;

    /** Bytes. */
    public Long memorySize;

    public Integer cpuNum;

    public String accountUuid;

    /** Why the state last changed outside a user's action (e.g. a domain stopped outside the platform); null if none. */
    public String stateReason;
}
