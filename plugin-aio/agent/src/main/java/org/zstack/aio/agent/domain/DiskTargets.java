package org.zstack.aio.agent.domain;

/** virtio disk target names as libvirt spells them: vda..vdz, vdaa..vdaz, ... */
public final class DiskTargets {

    private DiskTargets() {
    }

    /** 0 -> vda, 25 -> vdz, 26 -> vdaa (bijective base 26, like libvirt's virDiskNameParse). */
    public static String virtio(int deviceId) {
        if (deviceId < 0) {
            throw new IllegalArgumentException("deviceId must be >= 0, was " + deviceId);
        }
        StringBuilder suffix = new StringBuilder();
        int n = deviceId;
        do {
            suffix.insert(0, (char) ('a' + n % 26));
            n = n / 26 - 1;
        } while (n >= 0);
        return "vd" + suffix;
    }
}
