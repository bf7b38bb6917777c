package org.zstack.aio.server.agent;

import java.util.regex.Pattern;

/** vda → 0, vdz → 25, vdaa → 26: the device id a virtio target name stands for (libvirt's bijective base 26). */
public final class DiskTargetNames {

    private static final Pattern VIRTIO = Pattern.compile("vd[a-z]{1,3}");

    private DiskTargetNames() {
    }

    /** -1 when the name is not a virtio disk target. */
    public static int deviceId(String target) {
        if (target == null || !VIRTIO.matcher(target).matches()) return -1;
        int n = 0;
        for (char c : target.substring(2).toCharArray()) n = n * 26 + (c - 'a' + 1);
        return n - 1;
    }
}
