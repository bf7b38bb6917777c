package org.zstack.aio.agent.host;

import org.zstack.aio.agent.api.StoragePathFacts;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * One storage path's facts as this host has them: whether a file there opens with O_DIRECT ({@link ODirectProbe}),
 * the type of the filesystem mounted deepest above it and whether that filesystem comes from a loop device (an image
 * file mounted as a disk), which the filesystem and loop rows of conf/aio/io-mode-rules.yaml test. The mount table is
 * /proc/mounts; a loop device under device-mapper (LVM or LUKS on an image file: the mount's source is
 * /dev/mapper/NAME or /dev/dm-N) is found through the block devices' sysfs, each dm device's {@code dm/name} and
 * {@code slaves/}. Tests point both at recorded copies. A fact that cannot be read is null, never guessed.
 */
public final class StoragePathProbe {

    public static final Path PROC_MOUNTS = Path.of("/proc/mounts");
    public static final Path SYS_CLASS_BLOCK = Path.of("/sys/class/block");

    private static final Pattern LOOP = Pattern.compile("loop\\d+");
    private static final Pattern DM = Pattern.compile("dm-\\d+");

    private final Path mounts;
    private final Path sysBlock;
    private final ODirectProbe oDirect = new ODirectProbe();

    /** @param mounts normally {@link #PROC_MOUNTS}; @param sysBlock normally {@link #SYS_CLASS_BLOCK} */
    public StoragePathProbe(Path mounts, Path sysBlock) {
        this.mounts = mounts;
        this.sysBlock = sysBlock;
    }

    /** This host's own tables. */
    public static StoragePathProbe ofThisHost() {
        return new StoragePathProbe(PROC_MOUNTS, SYS_CLASS_BLOCK);
    }

    public StoragePathFacts probe(Path dir) {
        String[] m = mountOf(dir);
        return oDirect.probe(dir).withMount(m == null ? null : m[2], m == null ? null : loopBacked(m[0]));
    }

    /** The type of the filesystem mounted deepest above {@code path}; null when the mount table says nothing. */
    String filesystem(Path path) {
        String[] m = mountOf(path);
        return m == null ? null : m[2];
    }

    /** Whether the filesystem mounted deepest above {@code path} comes from a loop device; null when unknown. */
    Boolean loopBacked(Path path) {
        String[] m = mountOf(path);
        return m == null ? null : loopBacked(m[0]);
    }

    /**
     * Whether a mount's source is a loop device, directly or under device-mapper: true or false on evidence, null for
     * a device-mapper device sysfs does not show. A source that is no device (tmpfs, an NFS export, overlay) is false.
     */
    Boolean loopBacked(String source) {
        if (!source.startsWith("/dev/")) return false;
        String name = source.substring("/dev/".length());
        if (LOOP.matcher(name).matches()) return true;
        String dm = name.startsWith("mapper/") ? dmByName(name.substring("mapper/".length())) : DM.matcher(name).matches() ? name : null;
        if (dm == null) return name.startsWith("mapper/") ? null : false;
        return overLoop(dm);
    }

    /** The dm-N whose {@code dm/name} is {@code mapperName}; null when sysfs has none. */
    private String dmByName(String mapperName) {
        try (Stream<Path> devices = Files.list(sysBlock)) {
            for (Path d : (Iterable<Path>) devices::iterator) {
                String n = d.getFileName().toString();
                if (DM.matcher(n).matches() && mapperName.equals(firstLine(d.resolve("dm").resolve("name")))) return n;
            }
        } catch (IOException e) {
            return null;
        }
        return null;
    }

    /** Whether any device under {@code dm} (its slaves, and theirs: LUKS on LVM) is a loop device; null: sysfs has no such dm. */
    private Boolean overLoop(String dm) {
        if (!Files.isDirectory(sysBlock.resolve(dm))) return null;
        Deque<String> todo = new ArrayDeque<>(List.of(dm));
        Set<String> seen = new HashSet<>();
        while (!todo.isEmpty()) {
            String d = todo.pop();
            if (!seen.add(d)) continue;
            try (Stream<Path> slaves = Files.list(sysBlock.resolve(d).resolve("slaves"))) {
                for (Path s : (Iterable<Path>) slaves::iterator) {
                    String n = s.getFileName().toString();
                    if (LOOP.matcher(n).matches()) return true;
                    todo.push(n);
                }
            } catch (IOException noSlaves) {
                // a device without slaves/ (a disk, a partition) ends this branch
            }
        }
        return false;
    }

    /** The mount table's line (source, mount point, type, ...) mounted deepest above {@code path}; null when unknown. */
    private String[] mountOf(Path path) {
        List<String> lines = lines(mounts);
        Path p;
        try {
            p = path.toRealPath();
        } catch (IOException e) {
            p = path.toAbsolutePath().normalize();
        }
        String[] best = null;
        int bestLen = -1;
        for (String line : lines) {
            String[] f = line.split(" ");
            if (f.length < 3) continue;
            // /proc/mounts escapes spaces in mount points as \040
            Path mount = Path.of(f[1].replace("\\040", " "));
            // a later line for the same mount point is mounted over the earlier one: >= keeps the last
            if (p.startsWith(mount) && mount.toString().length() >= bestLen) {
                best = f;
                bestLen = mount.toString().length();
            }
        }
        return best;
    }

    private static String firstLine(Path file) {
        List<String> l = lines(file);
        return l.isEmpty() ? null : l.get(0).strip();
    }

    private static List<String> lines(Path file) {
        try {
            return Files.readAllLines(file);
        } catch (IOException e) {
            return List.of();
        }
    }
}
