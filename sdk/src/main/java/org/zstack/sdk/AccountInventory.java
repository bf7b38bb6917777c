package org.zstack.sdk;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;

/** An account: {@code type} is {@code SystemAdmin} or {@code Normal} (tenant). */
@JsonIgnoreProperties(ignoreUnknown = true)
public class AccountInventory {
    public String uuid;

    public String name;

    public String type;
}
