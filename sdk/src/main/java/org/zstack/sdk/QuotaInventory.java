package org.zstack.sdk;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;

/** One limit of an account: {@code vm.num} or {@code volume.capacity} (bytes), and how much is used. */
@JsonIgnoreProperties(ignoreUnknown = true)
public class QuotaInventory {
    public String identityUuid;
    public String name;
    public long value;
    public long used;
}
