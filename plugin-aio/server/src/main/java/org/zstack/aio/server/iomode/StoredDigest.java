package org.zstack.aio.server.iomode;

import java.time.LocalDateTime;

/** What a start reads of a stored decision (with its volumes) to tell whether it changed: its digest, and since when it holds. */
public record StoredDigest(String volumeUuid, String contentDigest, LocalDateTime createDate) {
}
