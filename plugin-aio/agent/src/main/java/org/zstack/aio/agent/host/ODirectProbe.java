package org.zstack.aio.agent.host;

import org.zstack.aio.agent.api.StoragePathFacts;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import com.sun.nio.file.ExtendedOpenOption;

/**
 * Whether a storage path supports O_DIRECT, found by doing it: open a temp file there with O_DIRECT and write
 * and read one aligned block (tmpfs, some FUSE and some NFS setups refuse). The temp file is always deleted.
 */
final class ODirectProbe {

    StoragePathFacts probe(Path dir) {
        if (!Files.isDirectory(dir)) {
            return new StoragePathFacts(dir.toString(), false, "not a directory on this host: " + dir);
        }
        Path file = null;
        try {
            file = Files.createTempFile(dir, ".aio-odirect-", ".probe");
            int block = (int) Math.max(4096, Files.getFileStore(file).getBlockSize());
            ByteBuffer buf = ByteBuffer.allocateDirect(block * 2).alignedSlice(block);
            buf.limit(block);
            try (FileChannel ch = FileChannel.open(file, StandardOpenOption.READ, StandardOpenOption.WRITE,
                    ExtendedOpenOption.DIRECT)) {
                ch.write(buf, 0);
                buf.clear().limit(block);
                ch.read(buf, 0);
            }
            return new StoragePathFacts(dir.toString(), true, null);
        } catch (IOException | UnsupportedOperationException e) {
            return new StoragePathFacts(dir.toString(), false, "O_DIRECT refused on " + dir + ": " + reason(e));
        } finally {
            deleteQuietly(file);
        }
    }

    /** What went wrong in words, for the API: no exception class name. */
    private static String reason(Exception e) {
        if (e instanceof java.nio.file.FileSystemException f && f.getReason() != null) return f.getReason();
        if (e instanceof java.nio.file.AccessDeniedException) return "permission denied";
        if (e instanceof UnsupportedOperationException) return "the file system does not support it";
        return e.getMessage() == null ? "refused" : e.getMessage();
    }

    static void deleteQuietly(Path file) {
        if (file != null) {
            try {
                Files.deleteIfExists(file);
            } catch (IOException ignored) {
                // a left-over probe file is harmless (hidden name); the probe result is what matters
            }
        }
    }
}
