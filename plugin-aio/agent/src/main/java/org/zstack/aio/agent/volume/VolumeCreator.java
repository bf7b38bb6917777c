package org.zstack.aio.agent.volume;

import org.zstack.aio.agent.api.VolumeCreateCmd;
import org.zstack.aio.agent.api.VolumeCreateRsp;
import org.zstack.aio.agent.http.AgentException;
import org.zstack.aio.agent.process.ProcessResult;
import org.zstack.aio.agent.process.ProcessRunner;
import org.zstack.aio.agent.qemu.QemuImg;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * Creates a volume image on a primary storage and measures what it really allocates, because the io decision
 * for native depends on the image being non-sparse, and the preallocation flag alone can lie (a copied or
 * trimmed image).
 * <ul>
 * <li>File storage (LocalStorage, NFS, SharedMountPoint): {@code qemu-img create} into the directory,
 *     named {@code <volumeUuid>.<format>}.</li>
 * <li>SharedBlock: a url under /dev/ is an LVM volume group, the volume an LV (lvcreate, then qemu-img for
 *     qcow2). A directory url is the demo's stand-in: the image is created there fully preallocated, the way an
 *     LV is fully allocated, and handed to libvirt as a file (a real LV would be type='block').</li>
 * <li>Ceph: there is no Ceph cluster here; nothing is created, the answer is the rbd path
 *     {@code ceph://<pool>/<uuid>} with actualSize 0 (network storage takes no io attribute anyway).</li>
 * </ul>
 */
public final class VolumeCreator {

    private static final Pattern SAFE_UUID = Pattern.compile("[A-Za-z0-9][A-Za-z0-9_-]{0,63}");
    private static final Set<String> FORMATS = Set.of("qcow2", "raw");
    private static final Set<String> FILE_TYPES = Set.of("localstorage", "nfs", "sharedmountpoint");

    private final ProcessRunner runner;
    private final QemuImg qemuImg;
    private final FreeSpace space = new FreeSpace();

    public VolumeCreator(ProcessRunner runner) {
        this.runner = runner;
        this.qemuImg = new QemuImg(runner);
    }

    public VolumeCreateRsp create(VolumeCreateCmd cmd) {
        validate(cmd);
        String type = cmd.storageType().toLowerCase(Locale.ROOT);
        if (type.equals("ceph")) {
            return new VolumeCreateRsp(cephPath(cmd), cmd.size(), 0);
        }
        String prealloc = qemuPreallocation(cmd);
        if (type.equals("sharedblock")) {
            if (cmd.storagePath().startsWith("/dev/")) {
                return createLogicalVolume(cmd);
            }
            // Demo stand-in for an LV: thick like an LV, see the class comment.
            prealloc = "full";
        } else if (!FILE_TYPES.contains(type)) {
            throw AgentException.badCommand("unknown storage type '" + cmd.storageType() + "'",
                    "use LocalStorage, NFS, SharedMountPoint, SharedBlock or Ceph");
        }
        Path dir = Path.of(cmd.storagePath());
        try {
            Files.createDirectories(dir);
        } catch (IOException e) {
            // the storage's url names a place this host cannot write: a configuration to fix, not an agent failure
            throw AgentException.badCommand("the storage directory " + dir + " does not exist and cannot be created here",
                    "mount the primary storage at " + dir + " on this host, or correct the primary storage's url");
        }
        Path image = dir.resolve(cmd.volumeUuid() + "." + cmd.format());
        if (Files.exists(image)) {
            // qemu-img create would silently overwrite a disk with data in it.
            throw AgentException.badCommand("volume image " + image + " already exists",
                    "use a new volume uuid or delete the old image first");
        }
        long allocated = prealloc.equals("full") || prealloc.equals("falloc") ? cmd.size() : 0;
        try (FreeSpace.Reservation ignored = space.reserve(dir, allocated)) {
            ProcessResult r = qemuImg.create(image, cmd.format(), prealloc, cmd.size());
            if (!r.ok()) {
                PartialImage.deleteQuietly(image);
                if (r.errorText().contains("File too large") || r.errorText().contains("too large for file format")) {
                    throw AgentException.badCommand("a " + cmd.size() + "-byte " + cmd.format() + " image is larger than the file"
                            + " system at " + dir + " allows", "create a smaller volume, or use another primary storage");
                }
                throw AgentException.failed("qemu-img create failed for " + image, r.errorText());
            }
            return measured(image.toString(), image);
        }
    }


    private VolumeCreateRsp createLogicalVolume(VolumeCreateCmd cmd) {
        String vg = cmd.storagePath().substring("/dev/".length()).replaceAll("/+$", "");
        ProcessResult lv = runner.run(List.of("lvcreate", "-y", "-n", cmd.volumeUuid(), "-L", cmd.size() + "b", vg));
        if (!lv.ok()) {
            throw AgentException.failed("lvcreate failed in volume group " + vg, lv.errorText());
        }
        Path dev = Path.of("/dev", vg, cmd.volumeUuid());
        if (cmd.format().equals("qcow2")) {
            ProcessResult r = qemuImg.create(dev, "qcow2", "metadata", cmd.size());
            if (!r.ok()) {
                throw AgentException.failed("qemu-img create failed on " + dev, r.errorText());
            }
        }
        // A logical volume is allocated in full; qemu-img info reports 0 actual-size for block devices.
        return new VolumeCreateRsp(dev.toString(), cmd.size(), cmd.size());
    }

    private VolumeCreateRsp measured(String installPath, Path image) {
        try {
            QemuImg.Info info = qemuImg.info(image);
            return new VolumeCreateRsp(installPath, info.virtualSize(), info.actualSize());
        } catch (IOException e) {
            throw AgentException.failed("cannot measure the created image " + image, e.getMessage(), e);
        }
    }

    private static String cephPath(VolumeCreateCmd cmd) {
        String pool = cmd.storagePath().replaceFirst("^(ceph|rbd)://", "").replaceAll("^/+|/+$", "");
        if (pool.isEmpty()) {
            throw AgentException.badCommand("Ceph storage url names no pool: '" + cmd.storagePath() + "'",
                    "use ceph://POOL");
        }
        return "ceph://" + pool + "/" + cmd.volumeUuid();
    }

    private static void validate(VolumeCreateCmd cmd) {
        require(cmd.volumeUuid() != null && SAFE_UUID.matcher(cmd.volumeUuid()).matches(),
                "volumeUuid must be letters, digits, - or _ (it names a file), was '" + cmd.volumeUuid() + "'");
        require(cmd.storageType() != null, "storageType is required");
        require(cmd.storagePath() != null && !cmd.storagePath().isBlank(), "storagePath is required");
        require(cmd.format() != null && FORMATS.contains(cmd.format()),
                "format must be qcow2 or raw, was '" + cmd.format() + "'");
        require(cmd.size() > 0, "size must be a positive number of bytes, was " + cmd.size());
        qemuPreallocation(cmd);
    }

    /** ZStack's names to qemu-img's: none is "off"; raw has no metadata to preallocate. */
    static String qemuPreallocation(VolumeCreateCmd cmd) {
        String p = cmd.preallocation() == null ? "none" : cmd.preallocation();
        return switch (p) {
            case "none", "off" -> "off";
            case "falloc", "full" -> p;
            case "metadata" -> {
                require("qcow2".equals(cmd.format()), "preallocation metadata needs format qcow2 (raw has no metadata)");
                yield "metadata";
            }
            default -> throw AgentException.badCommand("unknown preallocation '" + p + "'",
                    "use none, metadata, falloc or full");
        };
    }

    private static void require(boolean ok, String message) {
        if (!ok) {
            throw AgentException.badCommand("bad volume create command: " + message, message);
        }
    }

    /** Removes a half-written image so a retry with the same uuid is not refused as "already exists". */
    private static final class PartialImage {
        static void deleteQuietly(Path p) {
            try {
                Files.deleteIfExists(p);
            } catch (IOException ignored) {
                // the create already failed and is reported; a left-over file shows up in the next error
            }
        }
    }
}
