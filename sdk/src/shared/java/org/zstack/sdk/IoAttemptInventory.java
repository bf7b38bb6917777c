package org.zstack.sdk;

/** An io mode libvirt/QEMU refused when the disk was set up, with its error. */
public class IoAttemptInventory {
    public String io;

    public String error;
}
