package org.zstack.aio.agent.api;

/**
 * Whether a file on this path can be opened with O_DIRECT (cache none / directsync, so native AIO), the type of
 * the filesystem holding it (from /proc/mounts; null when unknown), which known-bad rows such as btrfs + O_DIRECT test,
 * and whether that filesystem is mounted from a loop device (null when unknown), which the loop-io_uring row tests.
 */
public record StoragePathFacts(String path, boolean oDirect, String error, String filesystem, Boolean loopBacked) {

    public StoragePathFacts(String path, boolean oDirect, String error) {
        this(path, oDirect, error, null, null);
    }

    public StoragePathFacts withMount(String fs, Boolean loop) {
        return new StoragePathFacts(path, oDirect, error, fs, loop);
    }
}
