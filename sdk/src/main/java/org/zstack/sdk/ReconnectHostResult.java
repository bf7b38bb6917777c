package org.zstack.sdk;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;

/** The host with freshly probed facts. */
@JsonIgnoreProperties(ignoreUnknown = true)
public class ReconnectHostResult {
    public HostInventory inventory;
}
