package org.zstack.aio.agent.api;

/** Whether a file on this path can be opened with O_DIRECT (cache none / directsync, so native AIO). */
public record StoragePathFacts(String path, boolean oDirect, String error) {
}
