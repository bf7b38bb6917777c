package org.zstack.sdk;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;

/** One host. */
@JsonIgnoreProperties(ignoreUnknown = true)
public class GetHostResult {
    public HostInventory inventory;
}
