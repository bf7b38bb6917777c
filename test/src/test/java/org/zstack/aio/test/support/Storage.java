package org.zstack.aio.test.support;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/** Primary storage directories for tests, on a real filesystem that supports O_DIRECT (/var/tmp, not tmpfs). */
public final class Storage {

    private Storage() {
    }

    public static String dir(String name) {
        try {
            Path base = Path.of(System.getProperty("aio.test.storage", "/var/tmp/aio-it"));
            Files.createDirectories(base);
            return Files.createTempDirectory(base, name + "-").toString();
        } catch (IOException e) {
            throw new IllegalStateException(e);
        }
    }
}
