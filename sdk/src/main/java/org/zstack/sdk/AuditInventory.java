package org.zstack.sdk;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;

/** One audited change or failed login: who, what, from which value to which, when, from where. */
@JsonIgnoreProperties(ignoreUnknown = true)
public class AuditInventory {
    public String uuid;
    public String accountUuid;
    public String accountName;
    /** The API operation, e.g. UpdateGlobalConfig, StartVmInstance, LogInByAccount. */
    public String action;
    public String resourceType;
    public String resourceUuid;
    /** What the resource is called: a config's category/name, a host's or VM's name. */
    public String resourceName;
    public String oldValue;
    public String newValue;
    public boolean success;
    public String error;
    public String clientIp;
    /** ISO-8601 instant. */
    public String createDate;
}
