package org.zstack.aio.agent.domain;

/** What a domain XML says about one disk's driver: read back, never assumed. Null = attribute absent. */
public record DiskDriver(String target, String source, String io, String cache) {
}
