package org.zstack.aio.agent.volume;

import org.zstack.aio.agent.http.AgentException;

import java.io.IOException;
import java.nio.file.FileStore;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;

/**
 * Checks a preallocated image's size against its file system's free space before qemu-img runs, counting the
 * images still being written on the same file system (their blocks are not all taken yet, so the file system's
 * own number overstates what is left). A sparse image reserves nothing: thin provisioning is the point of it.
 */
final class FreeSpace {

    /** Kept free for the file system itself, QEMU logs and image metadata. */
    static final long HEADROOM = 64L << 20;

    private final Map<FileStore, Long> reserved = new HashMap<>();

    interface Reservation extends AutoCloseable {
        @Override
        void close();
    }

    Reservation reserve(Path dir, long bytes) {
        if (bytes <= 0) {
            return () -> { };
        }
        FileStore store;
        long usable;
        try {
            store = Files.getFileStore(dir);
            usable = store.getUsableSpace();
        } catch (IOException e) {
            throw AgentException.failed("cannot read the free space of " + dir, e.toString(), e);
        }
        synchronized (reserved) {
            long pending = reserved.getOrDefault(store, 0L);
            long left = usable - pending - HEADROOM;
            if (bytes > left) {
                throw AgentException.badCommand("not enough free space in " + dir + " for a preallocated image of "
                        + bytes + " bytes: " + Math.max(left, 0) + " bytes free" + (pending > 0 ? " after "
                        + pending + " bytes of images being created" : ""),
                        "free space on that storage, use a smaller size, or create the volume sparse (preallocation none)");
            }
            reserved.merge(store, bytes, Long::sum);
        }
        FileStore s = store;
        return () -> {
            synchronized (reserved) {
                reserved.merge(s, -bytes, Long::sum);
                if (reserved.get(s) <= 0) {
                    reserved.remove(s);
                }
            }
        };
    }
}
