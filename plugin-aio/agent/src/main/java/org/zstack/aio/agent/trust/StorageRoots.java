package org.zstack.aio.agent.trust;

import org.zstack.aio.agent.http.AgentException;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The storage directories the server registered with this agent at connect (its primary storage urls): the
 * only places the agent creates images, benchmarks, or lets a VM's disk point at. Kept in
 * {@code <dataDir>/storage-roots} so an agent restart keeps them.
 * <p>A path is inside when it is absolute, has no {@code ..} or {@code .} segment, lies under a root by name,
 * and still does once every symlink in its existing part and in the root is resolved (a link inside a root
 * pointing at /etc does not count as inside).
 */
public final class StorageRoots {

    public static final String FILE = "storage-roots";
    /** Never a storage root: the system's own trees (a root here would hand the whole tree to a caller). */
    private static final List<Path> SYSTEM = List.of("/etc", "/proc", "/sys", "/boot", "/usr", "/bin", "/sbin", "/lib",
            "/lib64", "/root", "/run", "/var/lib/libvirt", "/var/run").stream().map(Path::of).toList();

    private final Path file;
    private volatile Set<Path> roots;

    public StorageRoots(Path dataDir) {
        this.file = dataDir.toAbsolutePath().normalize().resolve(FILE);
        this.roots = Set.copyOf(load(file));
    }

    /**
     * Adds the given storage urls to the roots (the server sends all of its file and block storages at
     * connect). Urls that are not local absolute paths (ceph://...) are not roots.
     *
     * @return the refused urls (a system directory, a path with {@code ..}) with the reason; the others are roots
     */
    public synchronized Map<String, String> register(Collection<String> urls) {
        Set<Path> next = new LinkedHashSet<>();
        Map<String, String> refused = new LinkedHashMap<>();
        for (String u : urls == null ? List.<String>of() : urls) {
            if (u == null || u.isBlank() || !u.startsWith("/")) {
                continue;
            }
            try {
                Path p = clean(u, "storage path");
                if (p.getNameCount() == 0 || SYSTEM.stream().anyMatch(s -> p.startsWith(s) || s.startsWith(p))
                        || (p.startsWith("/dev") && p.getNameCount() != 2)) {
                    refused.put(u, "refusing to use " + p + " as storage: a primary storage url must be a storage "
                            + "directory (or /dev/<volume group>), not a system path");
                    continue;
                }
                next.add(p);
            } catch (AgentException e) {
                refused.put(u, e.getMessage());
            }
        }
        Set<Path> merged = new LinkedHashSet<>(roots);
        merged.addAll(next);
        if (!merged.equals(roots)) {
            save(merged);
            roots = Set.copyOf(merged);
        }
        return refused;
    }

    public Set<Path> roots() {
        return roots;
    }

    /** A path a command may create in (the storage directory itself or below a root). */
    public Path requireStorageDir(String path, String what) {
        return require(path, what, true);
    }

    /** A path a command may read or hand to QEMU: strictly below a root. */
    public Path requireInside(String path, String what) {
        return require(path, what, false);
    }

    private Path require(String path, String what, boolean rootItselfOk) {
        Path p = clean(path, what);
        for (Path root : roots) {
            boolean byName = rootItselfOk ? p.startsWith(root) : p.startsWith(root) && !p.equals(root);
            if (byName && resolved(p).startsWith(resolved(root))) {
                return p;
            }
        }
        throw AgentException.forbidden(what + " " + p + " is outside the storage registered with this agent",
                "the agent only touches paths under its primary storages " + roots
                        + "; add the storage to the platform (and reconnect the host), and do not use links that leave it");
    }

    private static Path clean(String path, String what) {
        if (path == null || path.isBlank() || !path.startsWith("/")) {
            throw AgentException.badCommand(what + " '" + path + "' is not an absolute path", "send an absolute path");
        }
        for (String segment : path.split("/")) {
            if (segment.equals("..") || segment.equals(".")) {
                throw AgentException.forbidden(what + " " + path + " has a '" + segment + "' segment",
                        "send the path without . or .. segments");
            }
        }
        return Path.of(path).normalize();
    }

    /** The path with its longest existing prefix resolved through symlinks, the rest appended by name. */
    private static Path resolved(Path p) {
        Path existing = p;
        List<Path> rest = new ArrayList<>();
        while (existing != null && !Files.exists(existing)) {
            rest.add(0, existing.getFileName());
            existing = existing.getParent();
        }
        if (existing == null) {
            return p;
        }
        try {
            Path r = existing.toRealPath();
            for (Path n : rest) {
                r = r.resolve(n);
            }
            return r;
        } catch (IOException e) {
            return p;
        }
    }

    private static List<Path> load(Path file) {
        try {
            if (!Files.exists(file)) {
                return List.of();
            }
            return Files.readAllLines(file).stream().map(String::strip).filter(s -> s.startsWith("/")).map(Path::of).toList();
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read " + file + ": " + e.getMessage(), e);
        }
    }

    private void save(Set<Path> set) {
        try {
            Files.createDirectories(file.getParent());
            Path tmp = file.resolveSibling("." + FILE + ".tmp");
            Files.write(tmp, set.stream().map(Path::toString).toList());
            Files.move(tmp, file, java.nio.file.StandardCopyOption.REPLACE_EXISTING,
                    java.nio.file.StandardCopyOption.ATOMIC_MOVE);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write " + file + ": " + e.getMessage(), e);
        }
    }
}
