package org.zstack.sdk;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;

/**
 * A disk as it runs: the {@code io} and {@code cache} of the live domain's {@code <driver>} (io null when the domain
 * sets none, which QEMU runs as threads), the host it runs on, and since when. It may differ from the stored
 * decision, which is for the next start.
 */
@JsonIgnoreProperties(ignoreUnknown = true)
public class VolumeRunningInventory {
    public String io;

    public String cache;

    public String hostUuid;

    /** ISO-8601 with zone, as every date the API returns. */
    public String since;
}
