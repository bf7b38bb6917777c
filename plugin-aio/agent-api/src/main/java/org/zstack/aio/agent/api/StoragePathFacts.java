package org.zstack.aio.agent.api;

/**
 * Whether a file on this path can be opened with O_DIRECT (cache none / directsync, so native AIO), and the type of
 * the filesystem holding it (from /proc/mounts; null when unknown), which known-bad rows such as btrfs + O_DIRECT test.
 */
public record StoragePathFacts(String path, boolean oDirect, String error, String filesystem) {

    public StoragePathFacts(String path, boolean oDirect, String error) {
        this(path, oDirect, error, null);
    }

    public StoragePathFacts withFilesystem(String fs) {
        return new StoragePathFacts(path, oDirect, error, fs);
    }
}
