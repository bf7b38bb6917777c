package org.zstack.aio.agent.bench;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.UUID;
import java.util.stream.Stream;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The benchmark's temporary directories: {@code DIR/.aio-bench-<random>/} holding a {@code pid} file. Removed in
 * finally, by a shutdown hook if the agent is stopped, and swept at agent start and before every benchmark when
 * the owning process is gone (killed with -9, host crash).
 */
public final class BenchDirs {

    public static final String PREFIX = ".aio-bench-";

    private BenchDirs() {
    }

    public static Path create(Path parent) throws IOException {
        Path dir = parent.resolve(PREFIX + UUID.randomUUID().toString().replace("-", "").substring(0, 12));
        Files.createDirectory(dir);
        Files.writeString(dir.resolve("pid"), Long.toString(ProcessHandle.current().pid()));
        return dir;
    }

    /** Removes {@code .aio-bench-*} dirs under {@code parent} whose owner process no longer runs; returns them. */
    public static List<Path> sweep(Path parent) {
        List<Path> removed = new ArrayList<>();
        if (parent == null || !Files.isDirectory(parent)) return removed;
        try (DirectoryStream<Path> ds = Files.newDirectoryStream(parent, PREFIX + "*")) {
            for (Path d : ds) {
                if (Files.isDirectory(d) && !ownerAlive(d)) {
                    delete(d);
                    removed.add(d);
                }
            }
        } catch (IOException e) {
            // a sweep is best effort; the next one retries
        }
        return removed;
    }

    private static boolean ownerAlive(Path dir) {
        try {
            long pid = Long.parseLong(Files.readString(dir.resolve("pid")).trim());
            if (pid == ProcessHandle.current().pid()) return BenchDirs.inUse(dir);
            return ProcessHandle.of(pid).map(ProcessHandle::isAlive).orElse(false);
        } catch (IOException | NumberFormatException e) {
            return false;
        }
    }

    private static final Set<Path> IN_USE = ConcurrentHashMap.newKeySet();

    static void markInUse(Path dir, boolean inUse) {
        if (inUse) IN_USE.add(dir); else IN_USE.remove(dir);
    }

    private static boolean inUse(Path dir) {
        return IN_USE.contains(dir);
    }

    /** Where the agent remembers the paths it benchmarked, to sweep them at its next start. */
    static Path rememberedFile() {
        return Path.of(System.getProperty("java.io.tmpdir"), "aio-agent-bench-paths");
    }

    /** Records a benchmarked path (best effort). */
    public static synchronized void remember(Path parent) {
        try {
            Path f = rememberedFile();
            List<String> known = Files.exists(f) ? Files.readAllLines(f) : new ArrayList<>();
            if (!known.contains(parent.toString())) {
                known = new ArrayList<>(known);
                known.add(parent.toString());
                Files.write(f, known);
            }
        } catch (IOException e) {
            // the sweep before each benchmark of that path still catches leftovers
        }
    }

    /** At agent start: sweeps every path benchmarked before and those named (colon-separated) in AIO_BENCH_PATHS. */
    public static List<Path> sweepAtStart(String extraPaths) {
        List<Path> removed = new ArrayList<>();
        List<String> paths = new ArrayList<>();
        try {
            if (Files.exists(rememberedFile())) paths.addAll(Files.readAllLines(rememberedFile()));
        } catch (IOException e) {
            // nothing remembered
        }
        if (extraPaths != null) paths.addAll(List.of(extraPaths.split(":")));
        for (String p : paths) {
            if (!p.isBlank()) removed.addAll(sweep(Path.of(p.trim())));
        }
        return removed;
    }

    /** Deletes a directory tree; quietly best effort. */
    public static void delete(Path dir) {
        if (dir == null || !Files.exists(dir)) return;
        try (Stream<Path> s = Files.walk(dir)) {
            s.sorted(Comparator.reverseOrder()).forEach(p -> {
                try {
                    Files.deleteIfExists(p);
                } catch (IOException e) {
                    throw new UncheckedIOException(e);
                }
            });
        } catch (IOException | UncheckedIOException e) {
            // left for the next sweep
        }
    }
}
