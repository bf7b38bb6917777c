package org.zstack.sdk;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;

/** Whether files on a storage path of a host can be opened with O_DIRECT. */
@JsonIgnoreProperties(ignoreUnknown = true)
public class StoragePathFactsInventory {
    public String path;

    public Boolean oDirect;

    /** Why O_DIRECT failed, null when it worked. */
    public String error;
}
