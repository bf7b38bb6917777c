package org.zstack.aio.plugin;

import java.util.Collections;
import java.util.HashMap;
import java.util.Map;

/**
 * How ZStack's kvmagent (vm_plugin.py, zstack-utility 5.2.1) writes a disk of each {@code VolumeTO.deviceType}, as far
 * as its io mode depends on it: the kind of disk its writer makes, whether the start hook ({@link XmlHookScript}) can
 * find it, and what a live migration that moves the disk rebuilds it as. The names are ZStack's VolumeTO constants.
 */
public final class ZStackDeviceTypes {

    public static final String FILE = "file";
    public static final String BLOCK = "block";
    public static final String CEPH = "ceph";
    public static final String CBD = "cbd";
    public static final String VHOST = "vhost";
    public static final String ISCSI = "iscsi";

    /** The writers read: filebased_volume and vhost_volume write no io attribute, block_volume io=native, the network ones none. */
    private static final Map<String, DiskKind> KINDS;
    /** set_volume_serial_id writes no {@code <serial>} for type vhostuser nor for the LUN an iSCSI disk becomes. */
    private static final Map<String, String> NO_SERIAL;
    /** _get_new_disk writes these three and refuses every other type. */
    private static final Map<String, DiskKind> REBUILT;

    static {
        Map<String, DiskKind> k = new HashMap<String, DiskKind>();
        k.put(FILE, DiskKind.FILE);
        k.put(VHOST, DiskKind.FILE);
        k.put(BLOCK, DiskKind.BLOCK);
        k.put(CEPH, DiskKind.NETWORK);
        k.put(CBD, DiskKind.NETWORK);
        KINDS = Collections.unmodifiableMap(k);
        Map<String, String> s = new HashMap<String, String>();
        s.put(VHOST, "a vhost-user disk");
        s.put(ISCSI, "an iSCSI disk it attaches as a SCSI LUN");
        NO_SERIAL = Collections.unmodifiableMap(s);
        Map<String, DiskKind> r = new HashMap<String, DiskKind>();
        r.put(FILE, DiskKind.FILE);
        r.put(BLOCK, DiskKind.BLOCK);
        r.put(CEPH, DiskKind.NETWORK);
        REBUILT = Collections.unmodifiableMap(r);
    }

    private ZStackDeviceTypes() {
    }

    /** The kind of disk the agent writes for this device type; null: not known here (the storage kind decides). */
    public static DiskKind kind(String deviceType) {
        return deviceType == null ? null : KINDS.get(deviceType);
    }

    /**
     * Why the start hook cannot reach a disk of this device type (it finds disks by their {@code <serial>}), as the
     * record says it; null: it can.
     */
    public static String unreachableAtStart(String deviceType) {
        String what = deviceType == null ? null : NO_SERIAL.get(deviceType);
        return what == null ? null : AgentProfile.ZSTACK_STOCK.name() + " writes no <serial> for " + what;
    }

    /** How a live migration that moves a disk of this device type writes it anew; null: it cannot. */
    public static DiskKind rebuiltAs(String deviceType) {
        return deviceType == null ? null : REBUILT.get(deviceType);
    }
}
