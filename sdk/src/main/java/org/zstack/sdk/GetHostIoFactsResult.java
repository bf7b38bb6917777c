package org.zstack.sdk;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;

/** A host's io facts (sdk/src/shared: the same class as in ZStack's SDK of the module). */
@JsonIgnoreProperties(ignoreUnknown = true)
public class GetHostIoFactsResult {
    public HostIoFactsInventory inventory;
}
