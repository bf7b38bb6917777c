package org.zstack.sdk;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;

/** An io mode libvirt/QEMU refused when the disk was set up, with its error. */
@JsonIgnoreProperties(ignoreUnknown = true)
public class IoAttemptInventory {
    public String io;

    public String error;
}
