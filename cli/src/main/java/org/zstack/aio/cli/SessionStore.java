package org.zstack.aio.cli;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;

/**
 * The session between commands, as zstack-cli keeps it: {@code ~/.aio-cli/session} (the directory is
 * {@code AIO_CLI_HOME} when set), readable by its owner only. It is a credential until it expires or is logged out.
 */
final class SessionStore {

    private final Path file;

    SessionStore(Path dir) {
        this.file = dir.resolve("session");
    }

    static SessionStore fromEnvironment() {
        String home = System.getenv("AIO_CLI_HOME");
        return new SessionStore(home != null && !home.isBlank() ? Path.of(home) : Path.of(System.getProperty("user.home"), ".aio-cli"));
    }

    String read() {
        try {
            return Files.exists(file) ? Files.readString(file).trim() : null;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    void write(String session) {
        try {
            Files.createDirectories(file.getParent());
            Files.deleteIfExists(file);
            Files.createFile(file, PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rw-------")));
            Files.writeString(file, session);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    void clear() {
        try {
            Files.deleteIfExists(file);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
