package org.zstack.aio.plugin;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Objects;

/** One operation on a VM's disks, as a platform hands it to the use case ({@link DiskIoModes#plan}). */
public final class DiskRequest {

    private final Operation operation;
    private final String vmUuid;
    private final HostRef host;
    private final List<String> volumeUuids;

    private DiskRequest(Operation operation, String vmUuid, HostRef host, List<String> volumeUuids) {
        this.operation = Objects.requireNonNull(operation, "operation");
        this.vmUuid = vmUuid;
        this.host = Objects.requireNonNull(host, "host");
        this.volumeUuids = Collections.unmodifiableList(new ArrayList<String>(volumeUuids));
    }

    /** A VM start on {@code host}: every disk of the VM, in the order the platform gives them to the host. */
    public static DiskRequest start(String vmUuid, HostRef host, List<String> volumeUuids) {
        return new DiskRequest(Operation.START, vmUuid, host, volumeUuids);
    }

    /** A hot-plug of one volume into a VM running on {@code host}. */
    public static DiskRequest attach(String vmUuid, HostRef host, String volumeUuid) {
        return new DiskRequest(Operation.ATTACH, vmUuid, host, Collections.singletonList(volumeUuid));
    }

    /** A live migration of a VM's disks to {@code destination}. */
    public static DiskRequest migrate(String vmUuid, HostRef destination, List<String> volumeUuids) {
        return new DiskRequest(Operation.MIGRATE, vmUuid, destination, volumeUuids);
    }

    /** The same operation on another host (a migration's other candidates). */
    public DiskRequest on(HostRef other) {
        return new DiskRequest(operation, vmUuid, other, volumeUuids);
    }

    public Operation operation() { return operation; }

    public String vmUuid() { return vmUuid; }

    /** The host that runs the disks: the VM's host, or a migration's destination. */
    public HostRef host() { return host; }

    public List<String> volumeUuids() { return volumeUuids; }

    @Override
    public String toString() { return operation.wire() + " of vm " + vmUuid + " on " + host + ": " + volumeUuids; }
}
