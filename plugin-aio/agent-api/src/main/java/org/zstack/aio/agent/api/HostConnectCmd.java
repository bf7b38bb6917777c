package org.zstack.aio.agent.api;

import java.util.List;

/** /host/connect and /host/fact: probe the host; storagePaths are the primary storage paths to probe. */
public record HostConnectCmd(String hostUuid, List<String> storagePaths) {
}
