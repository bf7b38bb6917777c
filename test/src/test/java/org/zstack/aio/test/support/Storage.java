package org.zstack.aio.test.support;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.stream.Stream;

/**
 * Primary storage directories for tests, on a real filesystem that supports O_DIRECT (/var/tmp, not tmpfs).
 * Every directory handed out is removed when the test JVM exits, images included.
 */
public final class Storage {

    private static final List<Path> CREATED = new CopyOnWriteArrayList<>();

    static {
        Runtime.getRuntime().addShutdownHook(new Thread(() -> CREATED.forEach(Storage::deleteTree), "storage-cleanup"));
    }

    private Storage() {
    }

    public static String dir(String name) {
        try {
            Path base = Path.of(System.getProperty("aio.test.storage", "/var/tmp/aio-it"));
            Files.createDirectories(base);
            Path dir = Files.createTempDirectory(base, name + "-");
            CREATED.add(dir);
            return dir.toString();
        } catch (IOException e) {
            throw new IllegalStateException(e);
        }
    }

    private static void deleteTree(Path dir) {
        try (Stream<Path> walk = Files.walk(dir)) {
            walk.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
        } catch (IOException ignored) {
            // already gone
        }
    }
}
