package org.zstack.aio.db;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.attribute.PosixFileAttributeView;
import java.nio.file.attribute.PosixFilePermissions;
import java.nio.file.Path;
import java.util.Map;

/**
 * The database the server and the aio-db tool use: AIO_DB_URL / AIO_DB_USER / AIO_DB_PASSWORD, or, when
 * AIO_DB_URL is unset, the embedded H2 file database under AIO_DATA_DIR (default ./data) in MariaDB mode,
 * so the same MySQL-syntax migrations run on both.
 */
public record DatabaseSettings(String url, String user, String password) {

    /**
     * H2 settings that let MySQL-syntax DDL and Hibernate's unquoted names meet. No AUTO_SERVER: that would open a TCP
     * port on every interface, guarded only by a key in the lock file; the database stays inside one process.
     */
    public static final String H2_OPTIONS =
            ";MODE=MariaDB;DATABASE_TO_LOWER=TRUE;CASE_INSENSITIVE_IDENTIFIERS=TRUE;NON_KEYWORDS=VALUE";

    public static DatabaseSettings fromEnvironment() {
        return from(System.getenv());
    }

    public static DatabaseSettings from(Map<String, String> env) {
        String url = env.get("AIO_DB_URL");
        if (url == null || url.isBlank()) {
            String dataDir = env.getOrDefault("AIO_DATA_DIR", "./data");
            return new DatabaseSettings(embeddedUrl(Path.of(dataDir)), "sa", "");
        }
        return new DatabaseSettings(url, env.getOrDefault("AIO_DB_USER", "root"), env.getOrDefault("AIO_DB_PASSWORD", ""));
    }

    public static String embeddedUrl(Path dataDir) {
        return "jdbc:h2:file:" + dataDir.toAbsolutePath().normalize().resolve("aio") + H2_OPTIONS;
    }

    public boolean embedded() {
        return url.startsWith("jdbc:h2:");
    }

    /**
     * For the embedded file database: creates its directory readable by this user only (0700), and narrows an
     * existing one to 0700, so other local users cannot read the database files (accounts, sessions).
     */
    public void prepareEmbeddedDirectory() {
        if (!url.startsWith("jdbc:h2:file:")) return;
        int semi = url.indexOf(';');
        Path dir = Path.of(url.substring("jdbc:h2:file:".length(), semi < 0 ? url.length() : semi)).getParent();
        if (dir == null) return;
        try {
            Files.createDirectories(dir);
            if (Files.getFileAttributeView(dir, PosixFileAttributeView.class) != null) {
                Files.setPosixFilePermissions(dir, PosixFilePermissions.fromString("rwx------"));
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot prepare the database directory " + dir, e);
        }
    }
}
