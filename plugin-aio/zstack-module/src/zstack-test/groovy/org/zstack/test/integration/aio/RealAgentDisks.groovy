package org.zstack.test.integration.aio

import org.zstack.core.db.SQL
import org.zstack.header.volume.VolumeVO
import org.zstack.header.volume.VolumeVO_
import org.zstack.utils.gson.JSONObjectUtil

/**
 * Real images for the real-agent tier, made with qemu-img at the installPath ZStack gave each volume, and ZStack's facts
 * about them made true: the volume's format, and its size and actualSize as the agent reports them (virtual size, bytes
 * allocated), which the module reads to tell a sparse image.
 */
class RealAgentDisks {
    static final String SIZE = "64M"

    /** qcow2 with preallocation full, metadata or off; or raw (off: sparse, full: allocated). */
    static void make(String volumeUuid, String format, String preallocation, String installPath = null) {
        String p = installPath ?: volume(volumeUuid).installPath
        File f = new File(p)
        f.parentFile.mkdirs()
        f.delete()
        RealKvmAgent.run("qemu-img", "create", "-q", "-f", format, "-o", "preallocation=" + preallocation, p, SIZE)
        Map info = JSONObjectUtil.toObject(RealKvmAgent.run("qemu-img", "info", "--output=json", p), LinkedHashMap.class)
        SQL.New(VolumeVO.class).eq(VolumeVO_.uuid, volumeUuid)
                .set(VolumeVO_.format, format)
                .set(VolumeVO_.size, ((Number) info["virtual-size"]).longValue())
                .set(VolumeVO_.actualSize, ((Number) info["actual-size"]).longValue()).update()
    }

    static String path(String volumeUuid) {
        return volume(volumeUuid).installPath
    }

    private static VolumeVO volume(String volumeUuid) {
        return org.zstack.core.db.Q.New(VolumeVO.class).eq(VolumeVO_.uuid, volumeUuid).find()
    }
}
